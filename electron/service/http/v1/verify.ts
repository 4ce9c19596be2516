import type { V1Methods } from './routes';

export const verifyMethods: V1Methods = {};
