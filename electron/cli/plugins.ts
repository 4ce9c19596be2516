// Extra HTTP plugins of the headless command beyond the API itself (the web UI and its bridge
// join here). Kept apart so serve.ts stays the small contract it is.
import type { FastifyInstance } from 'fastify';
import type { Core } from '../service/core';

export async function extraHttpPlugins(
  _core: Core,
  _options: { host: string },
): Promise<Array<(app: FastifyInstance) => Promise<void> | void>> {
  return [];
}
