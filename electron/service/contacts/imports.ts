// Import jobs, main-process side: records them (spreadsheet imports, upload processing, opt-out
// files, segment union / difference) in import_jobs with their counters and checkpoint, has each
// run (import-runs.ts: a job of the job layer, in an import worker thread) and relays progress.
// A job a crash or a close interrupted runs again and continues from its last committed batch.
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
import type { Db } from '../db/database';
import { discardPartial } from '../files/partial-file';
import type { Clock } from '../clock';
import type { Jobs } from '../jobs/jobs';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import {
  ImportRequestSchema,
  MappingSchema,
  cleanColumnName,
  type Mapping,
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
import { rejectionProblem } from '../../../shared/rejections';
import { runTask, WorkerTaskError } from './threads';
import { countersOf, type CombineSpec, type Counters, type ImportSpec, type JobRow } from './pipeline';
import { finishJob } from './writer';
import { ImportFileError, preview, sniffFormat } from './sources';
import { insertImportingSegment, openForAdding } from './segments';
import { ImportRuns, isFinal } from './import-runs';
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

/** The job layer's type of import jobs (import-runs.ts). */
export { IMPORT_JOB } from './import-runs';

export class Imports {
  readonly events = new EventEmitter<{ progress: [ImportProgress] }>();
  private readonly runs: ImportRuns;
  private readonly listeners = new Map<number, ProgressListener>();
  private readonly waiters = new Map<number, Array<(job: ImportJob) => void>>();
  private readonly byId;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly dbFile: string,
    jobs: Jobs,
    private readonly onPurge: () => void,
    /** Aborted when the workspace closes: an export's thread ends and its partial file goes. */
    private readonly closing?: AbortSignal,
  ) {
    this.byId = db.prepare<[number], StoredJobRow>('SELECT * FROM import_jobs WHERE id = ?');
    this.runs = new ImportRuns(db, clock, dbFile, jobs, {
      progress: (job, status, counters) => this.emitProgress(job, status, counters, null),
      // A failed or cancelled import's segment is purged in the background, and so is what an
      // import into an existing segment remembered of the rows it added (taken out again when it
      // failed or was cancelled).
      ended: (importId) => {
        this.onPurge();
        this.settle(importId);
      },
      purge: () => this.onPurge(),
    });
  }

  /**
   * On start (and after a restore), before core.jobs.recover(): the open records' runs are queued
   * again (import-runs.ts).
   */
  recover(): void {
    this.runs.recover();
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
        segmentId = insertImportingSegment(this.db, accountId, name, columns, 'import', now, source);
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
    const { before, merged } = openForAdding(this.db, accountId, segmentId, columns, now);
    const sourceOf = new Map(columns.map((name, i) => [name, spec.columns[i]!]));
    spec.columns = merged.map((name) => sourceOf.get(name) ?? -1);
    spec.columnsBefore = before;
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
      const segmentId = insertImportingSegment(this.db, accountId, name, columns, 'combine', now, {
        kind: 'combine',
        label,
      });
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
    if (this.runs.cancel(jobId)) return true;
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
    for (const row of rows) {
      const problem = rejectionProblem(row.reason, row.phone_number);
      if (problem !== undefined) row.problem = problem;
    }
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

  /**
   * Runs an export in a worker thread (used by Segments and OptOuts too), into `file + '.part'`
   * renamed once whole. A close of the workspace ends the thread (its exit awaited) and removes the part.
   */
  async export(request: ExportRequest, onProgress?: (rows: number, total: number) => void): Promise<{ rows: number }> {
    this.closing?.throwIfAborted();
    const partial = `${request.file}.part`;
    const task = runTask<{ rows: number }>(
      { op: 'export', dbFile: this.dbFile, request: { ...request, file: partial } },
      (counters) => onProgress?.(counters.rows, counters.totalBytes),
    );
    const stop = () => void task.worker.terminate();
    this.closing?.addEventListener('abort', stop, { once: true });
    try {
      const result = await task.result;
      await fs.promises.rename(partial, request.file);
      return result;
    } catch (error) {
      // The thread has exited (runTask settles on its exit or its last message): nothing writes any more.
      await task.worker.terminate();
      await discardPartial(undefined, partial);
      throw error;
    } finally {
      this.closing?.removeEventListener('abort', stop);
    }
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

  /** Used by Uploads too (inside its transaction). */
  insertSegmentFor(accountId: number, name: string, columns: string[], now: number): number {
    return insertImportingSegment(this.db, accountId, name, columns, 'upload', now);
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
    this.runs.enqueue(importId);
    return importId;
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
