// Copies committed WAL pages into the database file from a small worker thread while a long
// stream of commits runs on the main thread (a campaign execution writing a million messages).
// Without it SQLite's auto-checkpoint runs inside those commits, on the main thread: measured, a
// tenth of an 800,000-message campaign's time, and the longest holds of the event loop. A PASSIVE
// checkpoint never waits for, nor blocks, the writer; it writes no data of its own. The thread is
// plain JavaScript (no TypeScript loader needed, bundled or not) and holds the process open not.
//
// The log only starts over when a write begins with every page of it copied, and a checkpoint on
// another connection never lands between two commits that close together: the log grew by all a
// campaign wrote (230 MB for 800,000 messages; gigabytes for a retention run over millions). So
// between its commits the writer calls between(): once the log passed LOG_LIMIT it copies what is
// left on its own connection (little: the thread copied the rest), and its next commit starts the
// log over, which journal_size_limit (db/database.ts) then cuts back.
import fs from 'node:fs';
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

/** The log's size past which the writer copies the rest itself between two commits. */
export const LOG_LIMIT = 64 * 1024 * 1024;

export interface BackgroundCheckpoint {
  /** Between two of the writer's commits (see the header). */
  between(): void;
  /** Resolves once the thread closed its connection and exited: a close or a restore waits for it. */
  stop(): Promise<void>;
}

/** Starts checkpointing the writer's database every `everyMs` until stop(); a no-op for in-memory databases. */
export function startBackgroundCheckpoint(
  writer: { name: string; pragma(source: string): unknown },
  everyMs = 100,
  logLimit = LOG_LIMIT,
): BackgroundCheckpoint {
  const file = writer.name;
  if (file === ':memory:' || file === '') return { between() {}, stop: () => Promise.resolve() };
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: { module, file, nativeBinding: nativeBinding(), everyMs },
  });
  worker.unref();
  worker.on('error', () => {});
  // The thread's connection closes after the writer's may have: the last one to close checkpoints
  // and removes the log, so a thread still running after the core closed would change the folder.
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const log = `${file}-wal`;
  const logSize = () => {
    try {
      return fs.statSync(log).size;
    } catch {
      return 0;
    }
  };
  return {
    between() {
      if (logSize() > logLimit) writer.pragma('wal_checkpoint(PASSIVE)');
    },
    stop() {
      worker.postMessage('stop');
      return exited;
    },
  };
}
