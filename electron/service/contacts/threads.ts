// Starting the import worker thread (node:worker_threads) from the main process, through
// ../worker-thread.ts (tsx from sources, import-worker.js from the bundle). One thread per
// operation: they are rare and long.
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../worker-thread';
import type { Preview, ReadOptions } from '../../../shared/contacts';
import type { Batch, Counters } from './pipeline';
import type { ExportRequest } from './exports';

export type WorkerTask =
  | { op: 'preview'; file: string; options: ReadOptions }
  /** ctl[0] counts the batches the writer committed; the worker waits on it (flow control). */
  | { op: 'job'; dbFile: string; jobId: number; ctl: SharedArrayBuffer }
  | { op: 'export'; dbFile: string; request: ExportRequest }
  /** A JSON contact upload: parsed, checked (spec 4.4) and written to `file` as CSV. */
  | { op: 'upload-json'; json: string | Uint8Array; file: string };

/** An upload's contacts as written to its CSV: its columns and how many contacts. */
export interface WrittenUpload {
  columns: string[];
  count: number;
}

/** A started, idle thread gets its task as its first message. */
export type ToWorker = { type: 'task'; task: WorkerTask };

export type FromWorker =
  | { type: 'progress'; counters: Counters }
  | { type: 'batch'; batch: Batch }
  | { type: 'result'; value: Preview | { rows: number } | { end: true } | WrittenUpload }
  | { type: 'error'; code: string; message: string };

function startThread(task: WorkerTask | null): Worker {
  return startWorkerThread('import-worker', { workerData: task });
}

// After a first task, one thread is kept started and idle (unreferenced: it never holds the
// process open), so the next upload or import does not wait for a thread to boot.
let spare: Worker | null = null;

function keepSpare(): void {
  if (spare) return;
  const thread = startThread(null);
  thread.unref();
  thread.once('exit', () => {
    if (spare === thread) spare = null;
  });
  spare = thread;
}

export function spawnWorker(task: WorkerTask): Worker {
  let thread = spare;
  spare = null;
  if (thread) {
    thread.ref();
    thread.postMessage({ type: 'task', task } satisfies ToWorker);
  } else thread = startThread(task);
  // The next spare boots once this task is over: booting one (about half a second of CPU under
  // tsx) beside a running import slowed the import by as much.
  thread.once('exit', () => setImmediate(keepSpare));
  return thread;
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
export function runTask<T>(
  task: WorkerTask,
  onProgress?: (counters: Counters) => void,
  onBatch?: (batch: Batch) => void,
): { result: Promise<T>; worker: Worker } {
  const worker = spawnWorker(task);
  const result = new Promise<T>((resolve, reject) => {
    let settled = false;
    worker.on('message', (message: FromWorker) => {
      if (settled) return;
      if (message.type === 'progress') onProgress?.(message.counters);
      else if (message.type === 'batch') {
        try {
          onBatch?.(message.batch);
        } catch (error) {
          // The writer failed (disk full, ...): the job ends here, the thread is not needed.
          settled = true;
          reject(error);
          void worker.terminate();
        }
      } else if (message.type === 'result') {
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
