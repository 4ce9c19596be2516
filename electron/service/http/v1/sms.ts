import type { V1Methods } from './routes';

export const smsMethods: V1Methods = {};
