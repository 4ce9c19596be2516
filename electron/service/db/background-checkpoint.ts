// Copies committed WAL pages into the database file from a small worker thread while a long
// stream of commits runs on the main thread (a campaign execution writing a million messages).
// Without it SQLite's auto-checkpoint runs inside those commits, on the main thread: measured, a
// tenth of an 800,000-message campaign's time, and the longest holds of the event loop. A PASSIVE
// checkpoint never waits for, nor blocks, the writer; it writes no data of its own. The thread is
// plain JavaScript (no TypeScript loader needed, bundled or not) and holds the process open not.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { nativeBinding } from './native';

const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true, nativeBinding: workerData.nativeBinding });
db.pragma('synchronous = NORMAL');
const tick = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
const timer = setInterval(tick, workerData.everyMs);
parentPort.on('message', () => { clearInterval(timer); tick(); db.close(); parentPort.close(); });
`;

export interface BackgroundCheckpoint {
  stop(): void;
}

/** Starts checkpointing `file` every `everyMs` until stop(); a no-op for in-memory databases. */
export function startBackgroundCheckpoint(file: string, everyMs = 100): BackgroundCheckpoint {
  if (file === ':memory:' || file === '') return { stop() {} };
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: { module, file, nativeBinding: nativeBinding(), everyMs },
  });
  worker.unref();
  worker.on('error', () => {});
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage('stop');
    },
  };
}
