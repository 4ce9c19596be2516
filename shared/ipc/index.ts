// The IPC contracts and the typed client: what the renderer imports.
export * from './contract';
export * from './contracts';
export * from './client';
export * from './web-transport';
export * as schemas from './schemas';
