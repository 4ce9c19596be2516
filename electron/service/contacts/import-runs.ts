// An import's run: each import_jobs record is a `contacts.import` job of the job layer
// (jobs/jobs.ts: queue, attempts, concurrency, abort, recovery), run in an import worker thread
// that reads the file while this thread writes its batches (writer.ts). A run a crash or a close
// interrupted runs again and continues from its last committed batch. Imports (imports.ts) records
// the jobs and answers for them; it hears a run's progress and end through the hooks it gives.
import type { Worker as Thread } from 'node:worker_threads';
import { z } from 'zod';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import { PermanentJobError, type Job, type Jobs } from '../jobs/jobs';
import type { JobStatus } from '../../../shared/contacts';
import { runTask } from './threads';
import type { Batch, Counters, JobRow } from './pipeline';
import { finishJob, JobWriter } from './writer';

/** The job layer's type of import jobs; its payload names the import_jobs row. */
export const IMPORT_JOB = 'contacts.import';
const ImportJobPayload = z.object({ importId: z.number().int().positive() });

/** Imports running at once: the machine's cores are shared with the UI and the HTTP API. */
const MAX_RUNNING = 2;
/** A job that keeps killing its process (or is closed mid-way that often) is not retried forever. */
const MAX_ATTEMPTS = 5;
/**
 * Required by the job layer; unused today: whatever an import meets (a bad file, a failed write)
 * fails it at once, as it would again on a retry. Attempts are spent by crashes and closes.
 */
const IMPORT_BACKOFF = { baseMs: 1_000, maxMs: 60_000 };

interface Running {
  thread: Thread;
  /** Set when the job's signal aborts (cancel, close, restore) or a write failed: batches still arriving are ignored. */
  ended: boolean;
}

/**
 * Batches (of 5,000 rows, pipeline.ts) applied in one commit at most: bounds how long one commit
 * holds the main thread. Commits of 20,000 rows took 60-80 ms at 700,000 members and put the UI's
 * round trips at p99 ~100 ms during a million-row import; commits of 5,000 hold it at most ~40 ms
 * (p99 25-45 ms) and the import's total time did not change (1.77 s for import1m, was 1.80 s).
 */
const MAX_BATCHES_PER_COMMIT = 1;
const PROGRESS_EVERY_MS = 100;
/** Page cache of the main connection while imports run (negative: KiB, SQLite's convention). */
const IMPORT_CACHE_KIB = -65536;
/**
 * WAL pages between automatic checkpoints while imports run (SQLite's default is 1,000). A commit
 * of 20,000 members rewrites thousands of pages, and the import worker checkpoints them from its
 * own thread (db/database.ts openCheckpointer); with the default, a checkpoint ran inside nearly
 * every commit on the main thread. This one is only the backstop. The WAL file is cut back to
 * journal_size_limit afterwards.
 */
const IMPORT_WAL_AUTOCHECKPOINT = 16_384;

/** What a run tells the imports: its progress while it writes, its end once final. */
export interface RunHooks {
  progress(job: JobRow, status: JobStatus, counters: Counters): void;
  /** The job is final (done, failed or cancelled): its segment may need purging. */
  ended(importId: number): void;
  /** Records were ended without a run (recover): their segments may need purging. */
  purge(): void;
}

export class ImportRuns {
  /** Worker threads of the imports running in this process, by import id. */
  private readonly running = new Map<number, Running>();
  private readonly byId;
  private readonly normalCacheKib: number;
  private readonly normalAutocheckpoint: number;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly dbFile: string,
    private readonly jobs: Jobs,
    private readonly hooks: RunHooks,
  ) {
    this.byId = db.prepare<[number], JobRow>('SELECT * FROM import_jobs WHERE id = ?');
    this.normalCacheKib = db.pragma('cache_size', { simple: true }) as number;
    this.normalAutocheckpoint = db.pragma('wal_autocheckpoint', { simple: true }) as number;
    jobs.register({
      type: IMPORT_JOB,
      payload: ImportJobPayload,
      concurrency: MAX_RUNNING,
      maxAttempts: MAX_ATTEMPTS,
      backoff: IMPORT_BACKOFF,
      run: (job, ctx) => this.run(job.payload.importId, ctx.signal),
      failed: (job, error) => this.endRecord(job.payload.importId, 'failed', error),
      cancelled: (job) => this.endRecord(job.payload.importId, 'cancelled', 'cancelled'),
    });
    jobs.events.on('finished', (job) => {
      const payload = job.type === IMPORT_JOB ? ImportJobPayload.safeParse(job.payload) : null;
      if (payload?.success) this.hooks.ended(payload.data.importId);
    });
  }

  /** The record's job, inside the caller's transaction (the one that writes the record). */
  enqueue(importId: number): void {
    this.jobs.enqueue(IMPORT_JOB, { importId });
  }

  /**
   * Cancels the record's open job: its signal ends the thread between two commits, the record
   * ends with the job (its `cancelled` hook). False when no open job could be cancelled.
   */
  cancel(importId: number): boolean {
    const job = this.jobs.open(IMPORT_JOB).find((open) => importIdOf(open) === importId);
    return job !== undefined && this.jobs.cancel(job.id);
  }

  /**
   * On start (and after a restore), before core.jobs.recover(): records a crash or a close left
   * 'running' show 'queued' until their job runs again. Records of a build before the job layer
   * (queued or running, no job) get their job, so an upgrade in the middle of an import resumes it.
   */
  recover(): void {
    const now = this.clock.now();
    let failed = false;
    this.db.transaction(() => {
      const withJob = new Set(this.jobs.open(IMPORT_JOB).map((job) => importIdOf(job)));
      const open = this.db
        .prepare<[], JobRow & { attempts: number }>(
          "SELECT * FROM import_jobs WHERE status IN ('queued', 'running') ORDER BY id",
        )
        .all();
      for (const record of open) {
        if (this.running.has(record.id)) continue;
        if (!withJob.has(record.id) && record.status === 'running' && record.attempts >= MAX_ATTEMPTS) {
          finishJob(this.db, record, 'failed', 'interrupted too many times', 0, now);
          failed = true;
          continue;
        }
        if (record.status === 'running')
          this.db.prepare("UPDATE import_jobs SET status = 'queued' WHERE id = ?").run(record.id);
        if (!withJob.has(record.id)) this.enqueue(record.id);
      }
    })();
    if (failed) this.hooks.purge();
  }

  /**
   * The job's run: the import's worker thread reads, this thread writes its batches, and the
   * last commit ends the import. Settles when the thread is over. An abort (cancel, close,
   * restore) ends the thread between two commits and rethrows: the job layer keeps the job for
   * the next start (or it was cancelled). A failure is final: the same file fails the same way.
   */
  private async run(importId: number, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const job = this.db
      .prepare<[number, number], JobRow & { attempts: number }>(
        `UPDATE import_jobs SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, ?)
         WHERE id = ? AND status IN ('queued', 'running') RETURNING *`,
      )
      .get(this.clock.now(), importId);
    // Final already: the import ended before a crash could record its job's end (or was cancelled).
    if (!job) return;
    // Members land all over the primary key; while imports run, a larger page cache keeps the
    // pages of the last commits in memory instead of rereading them, and checkpoints come less
    // often (both back to normal after).
    this.db.pragma(`cache_size = ${IMPORT_CACHE_KIB}`);
    this.db.pragma(`wal_autocheckpoint = ${IMPORT_WAL_AUTOCHECKPOINT}`);
    const writer = new JobWriter(this.db, job, () => this.clock.now());
    if (job.kind === 'combine' && job.attempts > 1) writer.restartCombine();
    const ctl = new Int32Array(new SharedArrayBuffer(4));
    let queue: Batch[] = [];
    let lastProgress = 0;
    // Batches that arrived together are committed together (fewer commits, each one bounded).
    const drain = () => {
      const batches = queue.splice(0, MAX_BATCHES_PER_COMMIT);
      if (batches.length === 0 || running.ended) return;
      writer.apply(batches);
      Atomics.add(ctl, 0, batches.length);
      Atomics.notify(ctl, 0);
      if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = Date.now();
        this.hooks.progress(job, 'running', writer.counters);
      }
      if (queue.length > 0) setImmediate(drainSafely);
    };
    let failure: unknown = null;
    const drainSafely = () => {
      try {
        drain();
      } catch (error) {
        failure ??= error;
        running.ended = true;
        void running.thread.terminate();
      }
    };
    const { result, worker } = runTask<{ end: true }>(
      { op: 'job', dbFile: this.dbFile, jobId: job.id, ctl: ctl.buffer as SharedArrayBuffer },
      undefined,
      (batch) => {
        queue.push(batch);
        if (queue.length === 1) setImmediate(drainSafely);
      },
    );
    const running: Running = { thread: worker, ended: false };
    this.running.set(job.id, running);
    const abort = () => {
      running.ended = true;
      void running.thread.terminate();
    };
    signal.addEventListener('abort', abort, { once: true });
    try {
      await result;
      // Whatever is still queued goes before the end.
      while (queue.length > 0 && !running.ended) drain();
      if (failure) throw failure;
      signal.throwIfAborted();
      writer.finish();
    } catch (error) {
      if (running.ended && !failure) throw signal.aborted ? signal.reason : error;
      const cause = failure ?? error;
      // The job layer ends the record 'failed' with this message (the type's `failed` hook).
      throw new PermanentJobError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      signal.removeEventListener('abort', abort);
      queue = [];
      this.running.delete(job.id);
      if (this.running.size === 0) {
        this.db.pragma(`cache_size = ${this.normalCacheKib}`);
        this.db.pragma(`wal_autocheckpoint = ${this.normalAutocheckpoint}`);
      }
    }
  }

  /** The job's `failed` / `cancelled` hook, in its transaction: the segment is marked (purged after). */
  private endRecord(importId: number, status: 'failed' | 'cancelled', error: string): void {
    const row = this.byId.get(importId);
    if (row && !isFinal(row.status)) finishJob(this.db, row, status, error, 0, this.clock.now());
  }
}

function importIdOf(job: Job): number | null {
  const payload = ImportJobPayload.safeParse(job.payload);
  return payload.success ? payload.data.importId : null;
}

export function isFinal(status: JobStatus): boolean {
  return status === 'done' || status === 'failed' || status === 'cancelled';
}
