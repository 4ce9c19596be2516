import type { V1Methods } from './routes';

export const readMethods: V1Methods = {};
