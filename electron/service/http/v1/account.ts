import type { V1Methods } from './routes';

export const accountMethods: V1Methods = {};
