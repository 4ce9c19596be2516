// Builds the renderer alone into out/renderer (vite, renderer/vite.config.ts): what `serve` hands
// to browsers in web mode. Used by `postinstall` (so `npm ci && npm run serve` serves the UI at
// once) and by `serve` when out/renderer is missing. The output is built into a scratch folder
// and moved into place whole, so a browser (or a second serve) never sees a half-written build.
//   node electron/cli/build-renderer.mjs [--if-missing] [--quiet] [--no-fail]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = path.join(root, 'out', 'renderer');
const args = new Set(process.argv.slice(2));

export function rendererBuilt() {
  return fs.existsSync(path.join(outDir, 'index.html'));
}

async function main() {
  if (args.has('--if-missing') && rendererBuilt()) return;
  if (!fs.existsSync(path.join(root, 'renderer', 'index.html'))) {
    console.log('chapar: no renderer/ sources; web UI not built');
    return;
  }
  const { build } = await import('vite');
  const scratch = path.join(root, 'out', `.renderer-${process.pid}-${Date.now()}`);
  try {
    await build({
      root: path.join(root, 'renderer'),
      configFile: path.join(root, 'renderer', 'vite.config.ts'),
      logLevel: args.has('--quiet') ? 'warn' : 'info',
      build: { outDir: scratch, emptyOutDir: true },
    });
    const previous = `${outDir}.old-${process.pid}`;
    if (fs.existsSync(outDir)) fs.renameSync(outDir, previous);
    fs.renameSync(scratch, outDir);
    fs.rmSync(previous, { recursive: true, force: true });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`chapar: renderer build failed: ${error instanceof Error ? error.message : String(error)}`);
  // An install must not fail because the UI does not build yet; serve then answers without it.
  process.exit(args.has('--no-fail') ? 0 : 1);
});
