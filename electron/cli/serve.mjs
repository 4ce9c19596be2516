// `npm run serve`: runs the headless service (serve.ts) from a build of it, made here when the
// sources changed since the last one. Run from its TypeScript sources, the service also carries a
// TypeScript loader: tsx's hooks run in a thread of their own with a compiler and a cache, about a
// third of the resting memory (measured: 171 MB from the sources, 116 MB from the build, before any
// work). Building takes under a second (esbuild; packages stay outside the build, as installed).
// Tests run the sources directly (test/helpers/server.ts); this file only chooses what to run.
//   node electron/cli/serve.mjs [serve's own arguments]
// CHAPAR_SERVE_BUILD=DIR puts the build in another folder of the repository (tests: the build finds
// the installed packages from where it is); CHAPAR_SERVE_BUILD=off runs the sources.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const entry = path.join(root, 'electron', 'cli', 'serve.ts');
/** What the build is made of: the service, its command, and the code it shares with the window. */
const SOURCE_DIRS = ['electron/cli', 'electron/service', 'shared'];
const STAMP = 'build.json';

/** Every source file with its size and time: a build made from other ones is stale. */
function fingerprint() {
  const hash = crypto.createHash('sha256');
  const walk = (dir) => {
    for (const item of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const file = path.join(dir, item.name);
      if (item.isDirectory()) walk(file);
      else if (/\.(ts|json|mjs)$/.test(item.name) && !/\.test\.ts$/.test(item.name)) {
        const stat = fs.statSync(file);
        hash.update(`${path.relative(root, file)}\0${stat.size}\0${stat.mtimeMs}\n`);
      }
    }
  };
  for (const dir of SOURCE_DIRS) walk(path.join(root, dir));
  return hash.digest('hex');
}

function builtFrom(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, STAMP), 'utf8')).sources;
  } catch {
    return null;
  }
}

/** Builds into a scratch folder moved into place whole: a second serve never sees half a build. */
async function build(dir, sources) {
  const esbuild = await import('esbuild');
  const workers = JSON.parse(fs.readFileSync(path.join(root, 'electron/service/worker-entries.json'), 'utf8'));
  const scratch = `${dir}.build-${process.pid}-${Date.now()}`;
  try {
    await esbuild.build({
      entryPoints: {
        serve: entry,
        // Worker threads are started by these names, beside the bundle (electron/service/worker-thread.ts).
        ...Object.fromEntries(
          Object.entries(workers).map(([name, source]) => [name, path.join(root, 'electron/service', source)]),
        ),
      },
      outdir: scratch,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'linked',
      logLevel: 'error',
    });
    fs.writeFileSync(path.join(scratch, STAMP), JSON.stringify({ sources }));
    // Another serve started at the same time may have put the same build in place: it stays.
    if (builtFrom(dir) === sources) return;
    const previous = `${dir}.old-${process.pid}-${Date.now()}`;
    if (fs.existsSync(dir)) fs.renameSync(dir, previous);
    fs.renameSync(scratch, dir);
    fs.rmSync(previous, { recursive: true, force: true });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
    // esbuild's service process would otherwise live as long as serve does.
    await esbuild.stop();
  }
}

/** The build to run, made first when missing or stale; null when it cannot be made (the sources run). */
async function ensureBuilt() {
  const setting = process.env['CHAPAR_SERVE_BUILD'];
  if (setting === 'off') return null;
  const dir = path.resolve(setting || path.join(root, 'out', 'serve'));
  const sources = fingerprint();
  try {
    if (builtFrom(dir) !== sources) await build(dir, sources);
    return path.join(dir, 'serve.js');
  } catch (error) {
    console.error(
      `chapar: could not build serve (${error instanceof Error ? error.message : String(error)}); running its sources`,
    );
    return null;
  }
}

const built = await ensureBuilt();
if (built) await import(pathToFileURL(built).href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(entry).href);
}
