// Entry of the import worker thread: previews, the reading half of import / opt-out / combine jobs
// (batches posted to the main process, which writes them), exports, and large JSON contact uploads
// (parsed, checked and written as CSV here, so the main thread never parses them). The thread opens the
// database read-only: the main process stays its only writer. During a job it also checkpoints
// the WAL, so that copying runs here instead of inside the writer's commits.
import { parentPort, workerData } from 'node:worker_threads';
import path from 'node:path';
import { openCheckpointer, openDatabase } from '../db/database';
import { preview, ImportFileError } from './sources';
import { produceCombine, produceImport, type Batch, type ImportSpec, type JobRow } from './pipeline';
import { runExport } from './exports';
import { writeUploadCsv } from './uploads';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import type { FromWorker, ToWorker, WorkerTask } from './threads';

/** Batches posted and not yet committed by the writer: enough to keep both threads busy, little memory. */
const MAX_IN_FLIGHT = 4;

const send = (message: FromWorker) => parentPort!.postMessage(message);

async function runJob(dbFile: string, jobId: number, ctl: Int32Array): Promise<void> {
  const db = openDatabase({ file: dbFile, readonly: true });
  const checkpointer = openCheckpointer(dbFile);
  try {
    const job = db.prepare<[number], JobRow>('SELECT * FROM import_jobs WHERE id = ?').get(jobId);
    if (!job) throw new Error(`import job ${jobId} not found`);
    let sent = 0;
    const out = {
      emit(batch: Batch) {
        send({ type: 'batch', batch });
        sent++;
        // Blocks this thread (never the main one) until the writer caught up.
        let acked: number;
        while (sent - (acked = Atomics.load(ctl, 0)) >= MAX_IN_FLIGHT) Atomics.wait(ctl, 0, acked, 1000);
        // What the writer committed so far goes into the database file from here, not from its commits.
        checkpointer.checkpoint();
      },
    };
    if (job.kind === 'combine') produceCombine(db, job, out);
    else {
      // Upload CSVs are stored relative to the data folder, so a moved workspace still resumes.
      const spec = JSON.parse(job.spec) as ImportSpec;
      await produceImport(db, job, { ...spec, file: path.resolve(path.dirname(dbFile), spec.file) }, out);
    }
  } finally {
    checkpointer.close();
    db.close();
  }
}

async function main(task: WorkerTask): Promise<void> {
  try {
    switch (task.op) {
      case 'preview':
        send({ type: 'result', value: await preview(task.file, task.options) });
        break;
      case 'job':
        await runJob(task.dbFile, task.jobId, new Int32Array(task.ctl));
        send({ type: 'result', value: { end: true } });
        break;
      case 'upload-json': {
        let body: unknown;
        try {
          const { json } = task;
          body = JSON.parse(
            typeof json === 'string'
              ? json
              : Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('utf8'),
          );
        } catch {
          throw new ServiceError(ApiCode.BadRequest, 'body is not valid JSON');
        }
        send({ type: 'result', value: writeUploadCsv(task.file, body) });
        break;
      }
      case 'export': {
        const db = openDatabase({ file: task.dbFile, readonly: true });
        try {
          let lastPost = 0;
          const rows = await runExport(db, task.request, (done, total) => {
            if (Date.now() - lastPost < 100) return;
            lastPost = Date.now();
            send({
              type: 'progress',
              counters: {
                rows: done,
                bytes: done,
                totalBytes: total,
                total: done,
                valid: done,
                invalid: 0,
                duplicates: 0,
                opted_out: 0,
              },
            });
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
      code:
        error instanceof ImportFileError
          ? error.code
          : error instanceof ServiceError
            ? `api_${error.code}` // a refusal of the upload's rules, answered by its code
            : 'internal',
      message: error instanceof Error ? error.message : String(error),
    });
  }
}

// Started with its task, or started ahead of time and given the task as its first message.
const initial = workerData as WorkerTask | null;
if (initial) void main(initial);
else parentPort!.once('message', (message: ToWorker) => void main(message.task));
