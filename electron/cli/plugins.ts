// Extra HTTP plugins of the headless command beyond the API itself: the web UI and its bridge
// (electron/cli/web). Kept apart so serve.ts stays the small contract it is. The web UI's address
// with its token is printed once the server listens (the workspace's token: the same address at
// every start on the same data); CHAPAR_WEB_UI=off leaves it out entirely and CHAPAR_WEB_TOKEN
// fixes the token (scripted runs, end-to-end tests).
import type { FastifyInstance } from 'fastify';
import type { Core } from '../service/core';
import { webUiPlugin } from './web/bridge';
import { RENDERER_DIR, ensureRendererBuilt } from './web/renderer';
import { workspaceToken } from './web/token';

export async function extraHttpPlugins(
  core: Core,
  options: { host: string; log?: (line: string) => void },
): Promise<Array<(app: FastifyInstance) => Promise<void> | void>> {
  if (process.env['CHAPAR_WEB_UI'] === 'off') return [];
  const log = options.log ?? ((line: string) => console.log(line));
  const built = await ensureRendererBuilt(log);
  const token = workspaceToken(core.secrets);
  let baseUrl: string | null = null;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return [
    (app) => {
      app.server.once('listening', () => {
        const address = app.server.address();
        if (!address || typeof address === 'string') return;
        baseUrl = `http://${host}:${address.port}`;
        // After serve's own lines (printed once listen() resolves, in this same turn of the loop),
        // so the `listening on` line and the demo key come first, as tools reading them expect.
        const url = `${baseUrl}/?token=${token}`;
        setImmediate(() => log(`chapar: web UI: ${url}`));
      });
    },
    webUiPlugin({
      core,
      token,
      host: options.host,
      rendererDir: built ? RENDERER_DIR : null,
      url: () => baseUrl,
    }),
  ];
}
