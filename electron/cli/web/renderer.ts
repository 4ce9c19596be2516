// Where the built renderer is, and building it when it is missing (electron/cli/build-renderer.mjs in
// a child process, so vite never stays in the service's memory).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository: the nearest folder above this code with a package.json. Found, not counted in
 * folders, since this code runs from its source (electron/cli/web) or from serve's build (out/serve).
 */
export const ROOT = projectRoot(path.dirname(fileURLToPath(import.meta.url)));
export const RENDERER_DIR = path.join(ROOT, 'out', 'renderer');

export function rendererBuilt(dir = RENDERER_DIR): boolean {
  return fs.existsSync(path.join(dir, 'index.html'));
}

/** Builds out/renderer when it is missing; true when a build is there afterwards. */
export async function ensureRendererBuilt(log: (line: string) => void): Promise<boolean> {
  if (rendererBuilt()) return true;
  log('chapar: web UI not built yet (out/renderer is missing); building it now');
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'electron', 'cli', 'build-renderer.mjs'), '--if-missing', '--quiet'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let errors = '';
    child.stderr.on('data', (chunk) => (errors += chunk));
    child.on('error', () => resolve(-1));
    child.on('exit', (exitCode) => {
      if (exitCode !== 0 && errors) log(errors.trim().split('\n').slice(-3).join('\n'));
      resolve(exitCode);
    });
  });
  const built = code === 0 && rendererBuilt();
  log(built ? 'chapar: web UI built' : 'chapar: web UI build failed; serving the API and the bridge without the page');
  return built;
}

function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '../../..');
  }
}
