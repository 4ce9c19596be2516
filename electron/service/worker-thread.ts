// Starting one of the service's worker threads (node:worker_threads) by its entry name. From
// sources (tsx in tests) the thread registers tsx's loader first and then imports the entry's .ts;
// from a bundle (electron-vite's for the app, serve.mjs's for `npm run serve`) it loads `<name>.js`,
// emitted next to the bundle as an entry of its own (the names in worker-entries.json).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Each entry's source, relative to this folder (electron/service): one list, which the bundles
 * read too (electron.vite.config.ts, electron/cli/serve.mjs).
 */
import SOURCES from './worker-entries.json';

export type WorkerEntry = keyof typeof SOURCES;

const here = import.meta.url;

/** Where the bundle keeps an entry: beside this code, or one folder up when this code landed in a chunk. */
function bundledEntry(name: WorkerEntry): URL {
  const candidates = [new URL(`./${name}.js`, here), new URL(`../${name}.js`, here)];
  return candidates.find((url) => fs.existsSync(fileURLToPath(url))) ?? candidates[0]!;
}

/** tsx's ESM register() entry, found through its package.json (require.resolve would give the CJS build). */
function tsxEsmApi(): string {
  const manifest = createRequire(here).resolve('tsx/package.json');
  const exports = (
    JSON.parse(fs.readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }
  ).exports;
  return pathToFileURL(path.join(path.dirname(manifest), exports['./esm/api']!.import.default)).href;
}

export function startWorkerThread(name: WorkerEntry, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  if (here.endsWith('.ts')) {
    const entry = new URL(`./${SOURCES[name]}`, here).href;
    const code = `import(${JSON.stringify(tsxEsmApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
    return new Worker(code, { ...options, eval: true });
  }
  return new Worker(bundledEntry(name), options);
}
