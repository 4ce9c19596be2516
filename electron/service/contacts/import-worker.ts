// Entry of the import worker thread: previews, import / opt-out / combine jobs and exports, each
// on the thread's own SQLite connection, so parsing a million rows never blocks the main process.
import { parentPort, workerData } from 'node:worker_threads';
import path from 'node:path';
import { openDatabase, type Db } from '../db/database';
import { preview, ImportFileError } from './sources';
import { finishJob, JobCancelled, runCombine, runImport, type Counters, type JobRow } from './pipeline';
import { runExport } from './exports';
import { remapFields } from './fields';
import type { FromWorker, JobOutcome, ToWorker, WorkerTask } from './threads';

class JobStopped extends Error {}

const task = workerData as WorkerTask;
let cancel = false;
let stop = false;
parentPort!.on('message', (message: ToWorker) => {
  if (message.type === 'cancel') cancel = true;
  if (message.type === 'stop') stop = true;
});
// Listening must not keep the thread alive: it ends when its task is done.
parentPort!.unref();
const send = (message: FromWorker) => parentPort!.postMessage(message);

function openJobDb(dbFile: string): Db {
  const db = openDatabase({ file: dbFile });
  // Members of a big import land all over the primary key; a larger cache keeps the pages of a
  // batch in memory until its commit instead of spilling and rereading them.
  db.pragma('cache_size = -131072');
  return db;
}

async function runJob(dbFile: string, jobId: number, clockOffset: number): Promise<JobOutcome> {
  const db = openJobDb(dbFile);
  const now = () => Date.now() + clockOffset;
  try {
    const job = db.prepare<[number], JobRow>('SELECT * FROM import_jobs WHERE id = ?').get(jobId);
    if (!job || job.status !== 'running') return { status: 'stopped', counters: null, error: null };
    let lastPost = 0;
    const hooks = {
      progress(counters: Counters) {
        const t = Date.now();
        if (t - lastPost < 100) return;
        lastPost = t;
        send({ type: 'progress', counters: { ...counters } });
      },
      cancelled() {
        return cancel || stop;
      },
      now,
    };
    try {
      const counters =
        job.kind === 'combine'
          ? runCombine(db, job, hooks, remapFields)
          : await runImport(db, { ...job, spec: resolveFile(job.spec, dbFile) }, hooks);
      send({ type: 'progress', counters });
      return { status: 'done', counters, error: null };
    } catch (error) {
      if (stop && !cancel) throw new JobStopped();
      const status = error instanceof JobCancelled || cancel ? 'cancelled' : 'failed';
      const message = error instanceof ImportFileError ? error.message : error instanceof Error ? error.message : String(error);
      if (db.inTransaction) db.exec('ROLLBACK');
      db.transaction(() => finishJob(db, job, status, status === 'cancelled' ? 'cancelled' : message, 0, now()))();
      return { status, counters: null, error: message };
    }
  } catch (error) {
    if (error instanceof JobStopped) return { status: 'stopped', counters: null, error: null };
    throw error;
  } finally {
    db.close();
  }
}

/** Upload CSVs are stored relative to the data folder, so a moved workspace still resumes. */
function resolveFile(spec: string, dbFile: string): string {
  const parsed = JSON.parse(spec) as { file: string };
  parsed.file = path.resolve(path.dirname(dbFile), parsed.file);
  return JSON.stringify(parsed);
}

async function main(): Promise<void> {
  try {
    switch (task.op) {
      case 'preview':
        send({ type: 'result', value: await preview(task.file, task.options) });
        break;
      case 'job':
        send({ type: 'result', value: await runJob(task.dbFile, task.jobId, task.clockOffset) });
        break;
      case 'export': {
        const db = openDatabase({ file: task.dbFile });
        try {
          let lastPost = 0;
          const rows = await runExport(db, task.request, (done, total) => {
            if (Date.now() - lastPost < 100) return;
            lastPost = Date.now();
            send({ type: 'progress', counters: { rows: done, bytes: done, totalBytes: total, total: done, valid: done, invalid: 0, duplicates: 0, opted_out: 0 } });
          });
          send({ type: 'result', value: { rows } });
        } finally {
          db.close();
        }
        break;
      }
    }
  } catch (error) {
    send({
      type: 'error',
      code: error instanceof ImportFileError ? error.code : 'internal',
      message: error instanceof Error ? error.message : String(error),
    });
  }
}

void main();
