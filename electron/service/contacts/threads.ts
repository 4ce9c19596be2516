// Starting the import worker thread (node:worker_threads) from the main process. From sources
// (tsx in tests and `npm run serve`) the worker registers tsx's loader first and then imports
// import-worker.ts; from the electron-vite bundle it loads import-worker.js, emitted next to the
// main bundle by its own rollup input. One thread per operation: they are rare and long.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Preview, ReadOptions } from '../../../shared/contacts';
import type { Counters } from './pipeline';
import type { ExportRequest } from './exports';

export type WorkerTask =
  | { op: 'preview'; file: string; options: ReadOptions }
  | { op: 'job'; dbFile: string; jobId: number; clockOffset: number }
  | { op: 'export'; dbFile: string; request: ExportRequest };

/** Messages the main process sends: cancel ends the job as cancelled; stop leaves it to be resumed. */
export type ToWorker = { type: 'cancel' } | { type: 'stop' };

export type FromWorker =
  | { type: 'progress'; counters: Counters }
  | { type: 'result'; value: Preview | JobOutcome | { rows: number } }
  | { type: 'error'; code: string; message: string };

export interface JobOutcome {
  status: 'done' | 'failed' | 'cancelled' | 'stopped';
  counters: Counters | null;
  error: string | null;
}

const here = import.meta.url;

function bundledEntry(): URL {
  const candidates = [new URL('./import-worker.js', here), new URL('../import-worker.js', here)];
  return candidates.find((url) => fs.existsSync(fileURLToPath(url))) ?? candidates[0]!;
}

/** tsx's ESM register() entry, found through its package.json (require.resolve would give the CJS build). */
function tsxEsmApi(): string {
  const manifest = createRequire(here).resolve('tsx/package.json');
  const exports = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports;
  return pathToFileURL(path.join(path.dirname(manifest), exports['./esm/api']!.import.default)).href;
}

export function spawnWorker(task: WorkerTask): Worker {
  if (here.endsWith('.ts')) {
    const entry = new URL('./import-worker.ts', here).href;
    const tsx = tsxEsmApi();
    const code = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
    return new Worker(code, { eval: true, workerData: task });
  }
  return new Worker(bundledEntry(), { workerData: task });
}

export class WorkerTaskError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Runs a task to its result; progress messages go to `onProgress`. */
export function runTask<T>(task: WorkerTask, onProgress?: (counters: Counters) => void): { result: Promise<T>; worker: Worker } {
  const worker = spawnWorker(task);
  const result = new Promise<T>((resolve, reject) => {
    let settled = false;
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'progress') onProgress?.(message.counters);
      else if (message.type === 'result') {
        settled = true;
        resolve(message.value as T);
      } else {
        settled = true;
        reject(new WorkerTaskError(message.code, message.message));
      }
    });
    worker.on('error', (error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
    worker.on('exit', (code) => {
      if (settled) return;
      settled = true;
      reject(new WorkerTaskError('worker_exit', `import worker exited with code ${code}`));
    });
  });
  return { result, worker };
}
