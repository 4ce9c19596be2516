// The work of one import job, run inside the import worker thread on its own SQLite connection:
// rows in, normalized numbers out, in batched transactions that also write the job's checkpoint.
// The segment becomes 'ready' (and the upload COMPLETED) in the very transaction of the last
// batch, so a crash at any point leaves either the finished result or a resumable checkpoint.
import fs from 'node:fs';
import type { Db } from '../db/database';
import { normalizePhone } from '../../../shared/phone';
import type { FileEncoding, JobKind, JobStatus, RejectionReason } from '../../../shared/contacts';
import { ImportFileError, readCsv, readXlsx, type RowSink } from './sources';
import { FIELD_SEPARATOR } from './fields';

/** What an 'import' / 'optouts' job reads (import_jobs.spec), fully resolved when it is queued. */
export interface ImportSpec {
  file: string;
  format: 'csv' | 'xlsx';
  sheet?: string | number;
  encoding: FileEncoding;
  delimiter: string;
  /** Rows up to this number (title lines, the header) are not data. 0 when there is no header. */
  headerRow: number;
  phone: number;
  /** Source column index of each segment column, in segments.columns order. */
  columns: number[];
  /** Reported row = source row - rowOffset (uploads: 1, so the first contact is row 1). */
  rowOffset: number;
  /** Uploads: a blank line is a contact with an empty number, not a gap in the sheet. */
  blankRowsAreContacts: boolean;
  /** Uploads: the source row of the last contact (what follows is the file's final newline). */
  lastRow?: number;
  /** Seen when queued: a resumed job refuses a file that changed since. */
  fileSize: number;
  fileMtimeMs: number;
}

/** A 'combine' job: union of `include`, minus members of `exclude`, minus opt-outs. */
export interface CombineSpec {
  include: number[];
  exclude: number[];
  excludeOptOuts: boolean;
}

export interface JobRow {
  id: number;
  account_id: number;
  kind: JobKind;
  segment_id: number | null;
  upload_id: number | null;
  spec: string;
  status: JobStatus;
  rows_done: number;
  bytes_done: number;
  total_bytes: number;
  total: number;
  valid: number;
  invalid: number;
  duplicates: number;
  opted_out: number;
}

export interface Counters {
  rows: number;
  bytes: number;
  totalBytes: number;
  total: number;
  valid: number;
  invalid: number;
  duplicates: number;
  opted_out: number;
}

export interface JobHooks {
  progress(counters: Counters): void;
  cancelled(): boolean;
  now(): number;
}

export class JobCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/** Commit when a batch holds this many rows or has been open this long (keeps the main thread's writes waiting briefly). */
const BATCH_ROWS = 50_000;
const BATCH_MS = 250;

/** The fast path covers the canonical form; everything else goes through the lenient rules. */
function normalize(raw: string): string | null {
  if (raw.length === 11 && raw.charCodeAt(0) === 48 && raw.charCodeAt(1) === 57) {
    let ok = true;
    for (let i = 2; i < 11; i++) {
      const c = raw.charCodeAt(i);
      if (c < 48 || c > 57) {
        ok = false;
        break;
      }
    }
    if (ok) return raw;
  }
  return normalizePhone(raw);
}

function clean(value: string | undefined): string {
  if (value === undefined) return '';
  const trimmed = value.trim();
  return trimmed.indexOf(FIELD_SEPARATOR) < 0 ? trimmed : trimmed.replaceAll(FIELD_SEPARATOR, ' ');
}

function loadOptOuts(db: Db, accountId: number): Set<string> {
  const set = new Set<string>();
  for (const phone of db.prepare<[number], string>('SELECT phone FROM optouts WHERE account_id = ?').pluck().iterate(accountId))
    set.add(phone);
  return set;
}

/** Runs an 'import' or 'optouts' job from its checkpoint to the end. */
export async function runImport(db: Db, job: JobRow, hooks: JobHooks): Promise<Counters> {
  const spec = JSON.parse(job.spec) as ImportSpec;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(spec.file);
  } catch {
    throw new ImportFileError('file_missing', 'فایل پیدا نشد یا خواندنی نیست');
  }
  if (stat.size !== spec.fileSize || Math.trunc(stat.mtimeMs) !== Math.trunc(spec.fileMtimeMs))
    throw new ImportFileError('file_changed', 'فایل پس از شروع ورود اطلاعات تغییر کرده است');

  const toSegment = job.kind === 'import';
  const optOuts = toSegment ? loadOptOuts(db, job.account_id) : new Set<string>();
  const insertMember = db.prepare('INSERT OR IGNORE INTO segment_members (segment_id, phone, fields) VALUES (?, ?, ?)');
  const insertOptOut = db.prepare('INSERT OR IGNORE INTO optouts (account_id, phone, created_at) VALUES (?, ?, ?)');
  const reject = db.prepare('INSERT OR REPLACE INTO import_rejections (job_id, row, phone_number, reason) VALUES (?, ?, ?, ?)');
  const checkpoint = db.prepare(
    `UPDATE import_jobs SET rows_done = ?, bytes_done = ?, total = ?, valid = ?, invalid = ?, duplicates = ?,
       opted_out = ? WHERE id = ?`,
  );
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');

  const counters: Counters = {
    rows: job.rows_done,
    bytes: job.bytes_done,
    totalBytes: stat.size,
    total: job.total,
    valid: job.valid,
    invalid: job.invalid,
    duplicates: job.duplicates,
    opted_out: job.opted_out,
  };
  const skipThrough = Math.max(spec.headerRow, job.rows_done);
  const segmentId = job.segment_id ?? 0;
  const accountId = job.account_id;
  const createdAt = hooks.now();
  const { phone: phoneIndex, columns, rowOffset, blankRowsAreContacts } = spec;
  const lastRow = spec.lastRow ?? Number.MAX_SAFE_INTEGER;
  const width = columns.length;
  let open = false;
  let pending = 0;
  let openedAt = 0;

  const rejectRow = (row: number, raw: string, reason: RejectionReason) => reject.run(job.id, row - rowOffset, raw, reason);
  const flush = () => {
    if (!open) return;
    checkpoint.run(counters.rows, counters.bytes, counters.total, counters.valid, counters.invalid, counters.duplicates, counters.opted_out, job.id);
    commit.run();
    open = false;
    pending = 0;
    hooks.progress(counters);
  };

  const sink: RowSink = {
    rows(rows, numbers) {
      if (hooks.cancelled()) return false;
      for (let i = 0; i < rows.length; i++) {
        const row = numbers[i]!;
        if (row <= skipThrough || row > lastRow) continue;
        const cells = rows[i]!;
        if (!open) {
          begin.run();
          open = true;
          openedAt = Date.now();
        }
        counters.rows = row;
        if (!blankRowsAreContacts && (cells.length === 0 || (cells.length === 1 && cells[0]!.trim() === ''))) continue;
        counters.total++;
        const raw = cells[phoneIndex] ?? '';
        const phone = normalize(raw);
        if (phone === null) {
          counters.invalid++;
          rejectRow(row, raw, 'invalid');
        } else if (!toSegment) {
          if (insertOptOut.run(accountId, phone, createdAt).changes === 0) counters.duplicates++;
          else counters.valid++;
        } else if (optOuts.has(phone)) {
          counters.opted_out++;
          rejectRow(row, raw, 'opted_out');
        } else {
          let fields = '';
          if (width > 0) {
            fields = clean(cells[columns[0]!]);
            for (let k = 1; k < width; k++) fields += FIELD_SEPARATOR + clean(cells[columns[k]!]);
          }
          if (insertMember.run(segmentId, phone, fields).changes === 0) {
            counters.duplicates++;
            rejectRow(row, raw, 'duplicate');
          } else counters.valid++;
        }
        if (++pending >= BATCH_ROWS || (pending % 1024 === 0 && Date.now() - openedAt > BATCH_MS)) flush();
      }
      return true;
    },
    bytes(read) {
      counters.bytes = read;
    },
  };

  try {
    if (spec.format === 'xlsx') await readXlsx(spec.file, { sheet: spec.sheet }, sink);
    else await readCsv(spec.file, { encoding: spec.encoding, delimiter: spec.delimiter }, sink);
    if (hooks.cancelled()) throw new JobCancelled();
    if (!open) {
      begin.run();
      open = true;
    }
    counters.bytes = counters.totalBytes;
    checkpoint.run(counters.rows, counters.bytes, counters.total, counters.valid, counters.invalid, counters.duplicates, counters.opted_out, job.id);
    finishJob(db, job, 'done', null, counters.valid, hooks.now());
    commit.run();
    open = false;
  } catch (error) {
    if (open && db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
  hooks.progress(counters);
  return counters;
}

/** Marks the job final with its segment and upload, inside the caller's transaction. */
export function finishJob(db: Db, job: JobRow, status: 'done' | 'failed' | 'cancelled', error: string | null, members: number, now: number): void {
  db.prepare('UPDATE import_jobs SET status = ?, error = ?, finished_at = ? WHERE id = ?').run(status, error, now, job.id);
  if (job.segment_id !== null) {
    if (status === 'done')
      db.prepare("UPDATE segments SET status = 'ready', member_count = ?, error = NULL, updated_at = ? WHERE id = ?").run(members, now, job.segment_id);
    else
      // An upload's segment stays, 'failed' (its status record names it); an import's is removed.
      db.prepare("UPDATE segments SET status = ?, member_count = 0, error = ?, updated_at = ? WHERE id = ? AND status <> 'deleting'").run(
        job.upload_id !== null ? 'failed' : 'deleting',
        error,
        now,
        job.segment_id,
      );
  }
  if (job.upload_id !== null)
    db.prepare('UPDATE uploads SET status = ?, finished_at = ? WHERE id = ?').run(status === 'done' ? 'COMPLETED' : 'FAILED', now, job.upload_id);
}

/** Union / difference into the job's segment. Restarts from scratch when resumed (it is fast and reads only the database). */
export function runCombine(db: Db, job: JobRow, hooks: JobHooks, decode: (fields: string, from: string[], to: string[]) => string): Counters {
  const spec = JSON.parse(job.spec) as CombineSpec;
  const target = job.segment_id!;
  const columnsOf = db.prepare<[number], string>('SELECT columns FROM segments WHERE id = ?').pluck();
  const targetColumns = JSON.parse(columnsOf.get(target) ?? '[]') as string[];
  const optOuts = spec.excludeOptOuts ? loadOptOuts(db, job.account_id) : new Set<string>();
  const page = db.prepare<[number, string], { phone: string; fields: string }>(
    'SELECT phone, fields FROM segment_members WHERE segment_id = ? AND phone > ? ORDER BY phone LIMIT 20000',
  );
  const excluded =
    spec.exclude.length > 0
      ? db.prepare(`SELECT 1 FROM segment_members WHERE segment_id IN (${spec.exclude.map(() => '?').join(',')}) AND phone = ? LIMIT 1`).pluck()
      : null;
  const insert = db.prepare('INSERT OR IGNORE INTO segment_members (segment_id, phone, fields) VALUES (?, ?, ?)');
  const counters: Counters = { rows: 0, bytes: 0, totalBytes: 0, total: 0, valid: 0, invalid: 0, duplicates: 0, opted_out: 0 };
  const sizes = db.prepare<[number], number>('SELECT member_count FROM segments WHERE id = ?').pluck();
  counters.totalBytes = spec.include.reduce((sum, id) => sum + (sizes.get(id) ?? 0), 0);
  // A resumed combine starts over: whatever an earlier attempt wrote goes first.
  while (db.prepare('DELETE FROM segment_members WHERE segment_id = ? AND phone IN (SELECT phone FROM segment_members WHERE segment_id = ? LIMIT 20000)').run(target, target).changes > 0);
  for (const source of spec.include) {
    const from = JSON.parse(columnsOf.get(source) ?? '[]') as string[];
    let after = '';
    for (;;) {
      if (hooks.cancelled()) throw new JobCancelled();
      const members = page.all(source, after);
      if (members.length === 0) break;
      after = members[members.length - 1]!.phone;
      db.transaction(() => {
        for (const member of members) {
          counters.total++;
          counters.bytes++;
          if (optOuts.has(member.phone)) counters.opted_out++;
          else if (excluded && excluded.get(...spec.exclude, member.phone)) counters.invalid++;
          else if (insert.run(target, member.phone, decode(member.fields, from, targetColumns)).changes === 0) counters.duplicates++;
          else counters.valid++;
        }
      })();
      hooks.progress(counters);
    }
  }
  db.transaction(() => finishJob(db, job, 'done', null, counters.valid, hooks.now()))();
  return counters;
}
