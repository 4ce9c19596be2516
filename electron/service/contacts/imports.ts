// Import jobs, main-process side: records them (spreadsheet imports, upload processing, opt-out
// files, segment union / difference) in import_jobs with their counters and checkpoint, runs each
// as a `contacts.import` job of the job layer (jobs/jobs.ts: queue, attempts, concurrency, abort,
// recovery) in an import worker thread, and relays progress. A job a crash or a close interrupted
// runs again and continues from its last committed batch.
//
// Public API (core.imports):
//   preview(file, options?)                          -> Promise<Preview>   first rows, header, columns, phone column
//   start(accountId, request, onProgress?)           -> Promise<{jobId, segmentId}> queued at once; the promise
//                                                       settles after the file was previewed (bad files reject here);
//                                                       request.segmentId adds the rows to that segment
//   wait(jobId)                                      -> Promise<ImportJob> resolves when the job is final
//   get(accountId, jobId) / list(accountId)          -> ImportJob | null / ImportJob[]
//   cancel(accountId, jobId)                         -> boolean (the half-made segment is removed)
//   previewFor(accountId, file, options?)            -> Promise<WizardPreview> preview + the mapping remembered for its layout
//   rejections(accountId, jobId, {offset, limit, reason?}) -> {total, rows: Rejection[]}
//   exportRejections(accountId, jobId, file, onProgress?, {format, language}) -> Promise<{rows}>
//                                                       CSV or XLSX: row, phone_number, reason, reason_text
//   events: 'progress' (ImportProgress) for every job, also passed to each start()'s onProgress
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Worker as Thread } from 'node:worker_threads';
import { z } from 'zod';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import { PermanentJobError, type Job, type Jobs } from '../jobs/jobs';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import {
  ImportRequestSchema,
  MappingSchema,
  cleanColumnName,
  type Mapping,
  type SegmentSourceKind,
  type ImportProgress,
  type ImportRequest,
  IMPORT_FILE_ERRORS,
  type JobKind,
  type JobStatus,
  type Preview,
  type ReadOptions,
  type Rejection,
  type RejectionReason,
} from '../../../shared/contacts';
import { runTask, WorkerTaskError } from './threads';
import { countersOf, type Batch, type CombineSpec, type Counters, type ImportSpec, type JobRow } from './pipeline';
import { finishJob, JobWriter } from './writer';
import { ImportFileError, preview, sniffFormat } from './sources';
import { segmentNotFound, segmentNotReady } from './segment-errors';
import type { ExportRequest } from './exports';

export interface ImportJob {
  id: number;
  kind: JobKind;
  segment_id: number | null;
  /** The existing segment the rows are added to, else null. */
  target_segment_id: number | null;
  file_name: string | null;
  upload_id: number | null;
  status: JobStatus;
  rows: number;
  fraction: number;
  total: number;
  valid: number;
  invalid: number;
  duplicates: number;
  opted_out: number;
  error: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

/** A preview, with the mapping last used for a file of the same layout (format and header). */
export interface WizardPreview extends Preview {
  remembered: Mapping | null;
}

type StoredJobRow = JobRow & {
  error: string | null;
  file_name: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
};

type ProgressListener = (progress: ImportProgress) => void;

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

export class Imports {
  readonly events = new EventEmitter<{ progress: [ImportProgress] }>();
  /** Worker threads of the imports running in this process, by import id. */
  private readonly running = new Map<number, Running>();
  private readonly listeners = new Map<number, ProgressListener>();
  private readonly waiters = new Map<number, Array<(job: ImportJob) => void>>();
  private readonly byId;
  private readonly normalCacheKib: number;
  private readonly normalAutocheckpoint: number;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly dbFile: string,
    private readonly jobs: Jobs,
    private readonly onPurge: () => void,
  ) {
    this.byId = db.prepare<[number], StoredJobRow>('SELECT * FROM import_jobs WHERE id = ?');
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
      if (!payload?.success) return;
      // A failed or cancelled import's segment is purged in the background, and so is what an
      // import into an existing segment remembered of the rows it added (taken out again when it
      // failed or was cancelled).
      this.onPurge();
      this.settle(payload.data.importId);
    });
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
        if (!withJob.has(record.id)) this.jobs.enqueue(IMPORT_JOB, { importId: record.id });
      }
    })();
    if (failed) this.onPurge();
  }

  async preview(file: string, options: ReadOptions = {}): Promise<Preview> {
    try {
      // A CSV preview reads 256 KB: done here. An XLSX one may unzip a lot: done in a thread.
      if ((options.format ?? sniffFormat(file)) === 'csv') return await preview(file, { ...options, format: 'csv' });
      return await runTask<Preview>({ op: 'preview', file, options }).result;
    } catch (error) {
      throw asServiceError(error);
    }
  }

  /** The import wizard's preview: `preview` and the mapping remembered for the file's layout. */
  async previewFor(accountId: number, file: string, options: ReadOptions = {}): Promise<WizardPreview> {
    const found = await this.preview(file, options);
    const row = this.db
      .prepare<[number, string], string>('SELECT mapping FROM import_layouts WHERE account_id = ? AND signature = ?')
      .pluck()
      .get(accountId, layoutSignature(found));
    const remembered = row === undefined ? null : MappingSchema.safeParse(JSON.parse(row));
    const width = found.columns.length;
    const fits = (mapping: Mapping) =>
      mapping.phone < width && (mapping.columns ?? []).every((column) => column.index < width);
    return { ...found, remembered: remembered?.success && fits(remembered.data) ? remembered.data : null };
  }

  /**
   * Queues a spreadsheet import: into a new segment (status 'importing' until its last batch
   * commits), or, with `segmentId`, adding rows to that ready segment ('importing' meanwhile; a
   * failed or cancelled import leaves it as it was). The mapping is remembered for the layout.
   */
  async start(
    accountId: number,
    input: ImportRequest,
    onProgress?: ProgressListener,
  ): Promise<{ jobId: number; segmentId: number }> {
    const request = parseRequest(input);
    const { spec, columns, preview: found } = await this.resolve(request);
    const now = this.clock.now();
    const fileName = request.fileName ?? path.basename(request.file);
    const name = request.name ?? fileName;
    const source = request.source ?? { kind: 'import' as const, label: fileName };
    const ids = this.db.transaction(() => {
      let segmentId: number;
      if (request.segmentId === undefined)
        segmentId = this.insertSegment(accountId, name, columns, 'import', now, source);
      else {
        segmentId = request.segmentId;
        this.openForAdding(accountId, segmentId, columns, spec, now);
      }
      const jobId = this.queue(accountId, 'import', segmentId, spec, spec.fileSize, now, {
        fileName,
        targetSegmentId: request.segmentId ?? null,
      });
      // A user's own file (not a generated one, such as a campaign's results).
      if (request.mapping && request.source === undefined)
        this.db
          .prepare(
            `INSERT INTO import_layouts (account_id, signature, mapping, used_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (account_id, signature) DO UPDATE SET mapping = excluded.mapping, used_at = excluded.used_at`,
          )
          .run(accountId, layoutSignature(found), JSON.stringify(request.mapping), now);
      return { jobId, segmentId };
    })();
    if (onProgress) this.listeners.set(ids.jobId, onProgress);
    return ids;
  }

  /**
   * Inside start's transaction: the segment rows are added to becomes 'importing', its columns
   * gain the mapping's new names (after its own), and the spec reads each of its columns from the
   * file (-1: a column the file does not have, left empty for the new rows).
   */
  private openForAdding(accountId: number, segmentId: number, columns: string[], spec: ImportSpec, now: number): void {
    const target = this.db
      .prepare<[number], { account_id: number; status: string; columns: string }>(
        'SELECT account_id, status, columns FROM segments WHERE id = ?',
      )
      .get(segmentId);
    if (!target || target.account_id !== accountId || target.status === 'deleting') throw segmentNotFound(segmentId);
    if (target.status !== 'ready') throw segmentNotReady(segmentId, target.status);
    const before = JSON.parse(target.columns) as string[];
    const merged = [...before, ...columns.filter((name) => !before.includes(name))];
    const sourceOf = new Map(columns.map((name, i) => [name, spec.columns[i]!]));
    spec.columns = merged.map((name) => sourceOf.get(name) ?? -1);
    spec.columnsBefore = before;
    this.db
      .prepare("UPDATE segments SET status = 'importing', columns = ?, updated_at = ? WHERE id = ?")
      .run(JSON.stringify(merged), now, segmentId);
  }

  /** Queues a file of numbers into the account's opt-out list. */
  async startOptOuts(
    accountId: number,
    input: ImportRequest,
    onProgress?: ProgressListener,
  ): Promise<{ jobId: number }> {
    const request = parseRequest(input);
    const { spec } = await this.resolve({
      ...request,
      mapping: request.mapping ? { phone: request.mapping.phone } : undefined,
    });
    const jobId = this.db.transaction(() =>
      this.queue(accountId, 'optouts', null, { ...spec, columns: [] }, spec.fileSize, this.clock.now(), {
        fileName: request.fileName ?? path.basename(request.file),
      }),
    )();
    if (onProgress) this.listeners.set(jobId, onProgress);
    return { jobId };
  }

  /** Used by Segments: a union / difference job into a new segment. */
  queueCombine(
    accountId: number,
    name: string,
    label: string,
    columns: string[],
    spec: CombineSpec,
    onProgress?: ProgressListener,
  ): { jobId: number; segmentId: number } {
    const now = this.clock.now();
    const ids = this.db.transaction(() => {
      const segmentId = this.insertSegment(accountId, name, columns, 'combine', now, { kind: 'combine', label });
      const jobId = this.queue(accountId, 'combine', segmentId, spec, 0, now);
      return { jobId, segmentId };
    })();
    if (onProgress) this.listeners.set(ids.jobId, onProgress);
    return ids;
  }

  /** Used by Uploads inside its transaction: the upload's CSV into its segment. */
  queueUpload(accountId: number, segmentId: number, spec: ImportSpec): number {
    return this.queue(accountId, 'import', segmentId, spec, spec.fileSize, this.clock.now());
  }

  get(accountId: number, jobId: number): ImportJob | null {
    const row = this.byId.get(jobId);
    return row && row.account_id === accountId ? toJob(row) : null;
  }

  list(accountId: number): ImportJob[] {
    return this.db
      .prepare<[number], StoredJobRow>('SELECT * FROM import_jobs WHERE account_id = ? ORDER BY id DESC LIMIT 200')
      .all(accountId)
      .map(toJob);
  }

  /** The spreadsheet imports not ended yet (queued or running), each with the file it reads. */
  openFileImports(): Array<{ jobId: number; file: string }> {
    return this.db
      .prepare<[], { id: number; spec: string }>(
        "SELECT id, spec FROM import_jobs WHERE status IN ('queued', 'running') AND kind = 'import'",
      )
      .all()
      .map((row) => ({ jobId: row.id, file: (JSON.parse(row.spec) as ImportSpec).file }));
  }

  /** Resolves once the job is final (done, failed or cancelled). */
  wait(jobId: number): Promise<ImportJob> {
    const row = this.byId.get(jobId);
    if (!row) return Promise.reject(importNotFound(jobId));
    if (isFinal(row.status)) return Promise.resolve(toJob(row));
    return new Promise((resolve) => {
      const list = this.waiters.get(jobId) ?? [];
      list.push(resolve);
      this.waiters.set(jobId, list);
    });
  }

  cancel(accountId: number, jobId: number): boolean {
    const row = this.byId.get(jobId);
    if (!row || row.account_id !== accountId || isFinal(row.status)) return false;
    // Between two commits: the job's signal ends the thread, the record ends with the job (its
    // `cancelled` hook), the batches written so far go with the segment, purged in the background.
    const job = this.jobs.open(IMPORT_JOB).find((open) => importIdOf(open) === jobId);
    if (job && this.jobs.cancel(job.id)) return true;
    this.db.transaction(() => finishJob(this.db, row, 'cancelled', 'cancelled', 0, this.clock.now()))();
    this.settle(jobId);
    this.onPurge();
    return true;
  }

  /** Rows the import left out in row order; `reason` keeps those of one reason. */
  rejections(
    accountId: number,
    jobId: number,
    { offset = 0, limit = 100, reason }: { offset?: number; limit?: number; reason?: RejectionReason } = {},
  ): { total: number; rows: Rejection[] } {
    if (!this.get(accountId, jobId)) throw importNotFound(jobId);
    const where = reason === undefined ? 'job_id = ?' : 'job_id = ? AND reason = ?';
    const params: unknown[] = reason === undefined ? [jobId] : [jobId, reason];
    const total = this.db
      .prepare(`SELECT count(*) FROM import_rejections WHERE ${where}`)
      .pluck()
      .get(...params) as number;
    const rows = this.db
      .prepare(`SELECT row, phone_number, reason FROM import_rejections WHERE ${where} ORDER BY row LIMIT ? OFFSET ?`)
      .all(...params, Math.min(Math.max(limit, 0), 10_000), Math.max(offset, 0)) as Rejection[];
    return { total, rows };
  }

  /** All rejections of a job in row order (upload status records). */
  allRejections(jobId: number): Array<{ row: number; phone_number: string; reason: RejectionReason }> {
    return this.db
      .prepare<[number], { row: number; phone_number: string; reason: RejectionReason }>(
        'SELECT row, phone_number, reason FROM import_rejections WHERE job_id = ? ORDER BY row',
      )
      .all(jobId);
  }

  /** The rejection report: row, number as the file had it, reason and its text in `language`. */
  async exportRejections(
    accountId: number,
    jobId: number,
    file: string,
    onProgress?: (rows: number, total: number) => void,
    { format = 'csv', language = 'fa' }: { format?: 'csv' | 'xlsx'; language?: 'fa' | 'en' } = {},
  ): Promise<{ rows: number }> {
    const job = this.get(accountId, jobId);
    if (!job) throw importNotFound(jobId);
    const total = job.invalid + job.duplicates + job.opted_out;
    return this.export({ kind: 'rejections', jobId, file, format, language }, (rows) => onProgress?.(rows, total));
  }

  /** Runs an export in a worker thread (used by Segments and OptOuts too). */
  async export(request: ExportRequest, onProgress?: (rows: number, total: number) => void): Promise<{ rows: number }> {
    const task = runTask<{ rows: number }>({ op: 'export', dbFile: this.dbFile, request }, (counters) =>
      onProgress?.(counters.rows, counters.totalBytes),
    );
    return task.result;
  }

  // -------------------------------------------------------------------------------------------

  private async resolve(request: ImportRequest): Promise<{ spec: ImportSpec; columns: string[]; preview: Preview }> {
    const file = path.resolve(request.file);
    const found = await this.preview(file, request);
    const width = found.columns.length;
    const phone = request.mapping?.phone ?? found.phoneColumn;
    if (phone === null || phone === undefined)
      throw new ServiceError(
        ApiCode.BadRequest,
        'no column of mobile numbers was found; choose the phone column (no_phone_column)',
        'import_no_phone_column',
      );
    if (phone >= width && found.rows.length > 0)
      throw new ServiceError(
        ApiCode.BadRequest,
        'the phone column is outside the sheet (bad_mapping)',
        'import_bad_mapping',
      );
    const mapped =
      request.mapping?.columns ??
      found.columns.map((name, index) => ({ index, name })).filter((column) => column.index !== phone);
    const names = mapped.map((column) => cleanColumnName(column.name));
    if (names.some((name) => name === ''))
      throw new ServiceError(
        ApiCode.BadRequest,
        'column names must not be empty (bad_mapping)',
        'import_column_unnamed',
      );
    if (new Set(names).size !== names.length)
      throw new ServiceError(ApiCode.BadRequest, 'column names must be unique (bad_mapping)', 'import_column_twice');
    const stat = fs.statSync(file);
    const spec: ImportSpec = {
      file,
      format: found.format,
      sheet: found.sheet ?? undefined,
      encoding: request.encoding && request.encoding !== 'auto' ? request.encoding : (found.encoding ?? 'auto'),
      delimiter: found.delimiter ?? ',',
      headerRow: found.headerRow ?? 0,
      phone,
      columns: mapped.map((column) => column.index),
      rowOffset: 0,
      blankRowsAreContacts: false,
      fileSize: stat.size,
      fileMtimeMs: stat.mtimeMs,
    };
    return { spec, columns: names, preview: found };
  }

  private insertSegment(
    accountId: number,
    name: string,
    columns: string[],
    origin: 'upload' | 'import' | 'combine',
    now: number,
    source: { kind: SegmentSourceKind; label: string | null } = { kind: origin, label: null },
  ): number {
    return Number(
      this.db
        .prepare(
          `INSERT INTO segments (account_id, name, columns, status, origin, source_kind, source_label, created_at, updated_at)
           VALUES (?, ?, ?, 'importing', ?, ?, ?, ?, ?)`,
        )
        .run(accountId, name, JSON.stringify(columns), origin, source.kind, source.label, now, now).lastInsertRowid,
    );
  }

  /** Used by Uploads too (inside its transaction). */
  insertSegmentFor(accountId: number, name: string, columns: string[], now: number): number {
    return this.insertSegment(accountId, name, columns, 'upload', now);
  }

  /** The import's record and its job, inside the caller's transaction. */
  private queue(
    accountId: number,
    kind: JobKind,
    segmentId: number | null,
    spec: object,
    totalBytes: number,
    now: number,
    { fileName = null, targetSegmentId = null }: { fileName?: string | null; targetSegmentId?: number | null } = {},
  ): number {
    const importId = Number(
      this.db
        .prepare(
          `INSERT INTO import_jobs (account_id, kind, segment_id, upload_id, spec, status, total_bytes, created_at,
             file_name, target_segment_id)
           VALUES (?, ?, ?, NULL, ?, 'queued', ?, ?, ?, ?)`,
        )
        .run(accountId, kind, segmentId, JSON.stringify(spec), totalBytes, now, fileName, targetSegmentId)
        .lastInsertRowid,
    );
    this.jobs.enqueue(IMPORT_JOB, { importId });
    return importId;
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
        this.emitProgress(job, 'running', writer.counters, null);
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

  private settle(jobId: number): void {
    const row = this.byId.get(jobId);
    if (!row) return;
    const job = toJob(row);
    this.emitProgress(row, row.status, null, row.error);
    this.listeners.delete(jobId);
    const waiters = this.waiters.get(jobId) ?? [];
    this.waiters.delete(jobId);
    for (const resolve of waiters) resolve(job);
  }

  private emitProgress(job: JobRow, status: JobStatus, counters: Counters | null, error: string | null): void {
    const row = counters ?? countersOf(job);
    const progress: ImportProgress = {
      jobId: job.id,
      kind: job.kind,
      segmentId: job.segment_id,
      uploadId: job.upload_id,
      status,
      rows: row.rows,
      fraction: status === 'done' ? 1 : row.totalBytes > 0 ? Math.min(1, row.bytes / row.totalBytes) : 0,
      valid: row.valid,
      invalid: row.invalid,
      duplicates: row.duplicates,
      opted_out: row.opted_out,
      error,
    };
    this.listeners.get(job.id)?.(progress);
    this.events.emit('progress', progress);
  }
}

function parseRequest(input: ImportRequest): ImportRequest {
  const parsed = ImportRequestSchema.safeParse(input);
  if (!parsed.success)
    throw new ServiceError(ApiCode.BadRequest, parsed.error.issues.map((issue) => issue.message).join('; '));
  return parsed.data;
}

function importIdOf(job: Job): number | null {
  const payload = ImportJobPayload.safeParse(job.payload);
  return payload.success ? payload.data.importId : null;
}

function isFinal(status: JobStatus): boolean {
  return status === 'done' || status === 'failed' || status === 'cancelled';
}

function toJob(row: StoredJobRow): ImportJob {
  return {
    id: row.id,
    kind: row.kind,
    segment_id: row.segment_id,
    target_segment_id: row.target_segment_id,
    file_name: row.file_name,
    upload_id: row.upload_id,
    status: row.status,
    rows: row.rows_done,
    fraction: row.status === 'done' ? 1 : row.total_bytes > 0 ? Math.min(1, row.bytes_done / row.total_bytes) : 0,
    total: row.total,
    valid: row.valid,
    invalid: row.invalid,
    duplicates: row.duplicates,
    opted_out: row.opted_out,
    error: row.error,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

/**
 * A file the worker could not read, as a refusal: its code (binary, xls, encrypted, ...) is the
 * reason `import_<code>` the UI says what to do about; the detail keeps the Persian text and code.
 */
function asServiceError(error: unknown): unknown {
  if (error instanceof ImportFileError || (error instanceof WorkerTaskError && isFileErrorCode(error.code)))
    return new ServiceError(ApiCode.BadRequest, error.message, `import_${error.code}`);
  if (error instanceof WorkerTaskError) return new ServiceError(ApiCode.BadRequest, error.message);
  return error;
}

const FILE_ERROR_CODES: ReadonlySet<string> = new Set<ImportFileError['code']>(IMPORT_FILE_ERRORS);
function isFileErrorCode(code: string): boolean {
  return FILE_ERROR_CODES.has(code);
}

function importNotFound(jobId: number): ServiceError {
  return new ServiceError(ApiCode.NotFound, `import ${jobId} not found`, 'import_not_found');
}

/**
 * What identifies a file's layout for the remembered mapping: its format and its header's names
 * (or, without a header, its width). The header's row number is left out: the same export with
 * a title line more is still the same layout.
 */
export function layoutSignature(preview: Preview): string {
  const header = preview.headerRow === null ? `width:${preview.columns.length}` : preview.columns.join('\u001f');
  return `${preview.format}\u001e${header}`;
}
