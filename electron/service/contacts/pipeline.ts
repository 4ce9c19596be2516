// The reading half of an import job, run inside the import worker thread: rows in, classified
// rows out (normalized number, invalid, opted out), in batches posted to the main process, which
// is the database's only writer (STYLE.md). The worker reads the database (job, opt-outs, the
// segments a combine reads) on its own read-only connection and never writes, so no transaction
// of the main process ever meets a second writer. (It also checkpoints the WAL the writer's commits
// leave, which copies committed pages and changes no data: db/database.ts openCheckpointer.) Flow control: at most a few batches in flight;
// the worker blocks on a shared counter the writer bumps after each commit.
import fs from 'node:fs';
import type { Db } from '../db/database';
import { normalizePhone } from '../../../shared/phone';
import type { FileEncoding, JobKind, JobStatus } from '../../../shared/contacts';
import { ImportFileError, readCsv, readXlsx, type RowSink } from './sources';
import { FIELD_SEPARATOR, remapFields } from './fields';
import { audienceView, pendingImports, withoutPendingRows } from './audience';
import { compileFilter } from './filter-match';
import type { Segment } from '../../../shared/contacts';
import type { AudienceFilter } from '../../../shared/audience-filter';

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
  /** Source column index of each segment column, in segments.columns order (-1: none, left empty). */
  columns: number[];
  /** Adding to an existing segment: its columns before (restored if the import fails or is cancelled). */
  columnsBefore?: string[];
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
  /** "Save as segment" of a filtered audience: only the members meeting it (filter-match.ts). */
  filter?: AudienceFilter;
}

export interface JobRow {
  id: number;
  account_id: number;
  kind: JobKind;
  segment_id: number | null;
  upload_id: number | null;
  /** Set when the job adds rows to an existing segment (then also segment_id). */
  target_segment_id: number | null;
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

/** The counters a job had reached at its last commit (where a resumed job goes on from). */
export function countersOf(job: JobRow): Counters {
  return {
    rows: job.rows_done,
    bytes: job.bytes_done,
    totalBytes: job.total_bytes,
    total: job.total,
    valid: job.valid,
    invalid: job.invalid,
    duplicates: job.duplicates,
    opted_out: job.opted_out,
  };
}

/** A source segment's columns as an audience reads them (those from before an import still adding rows). */
function sourceColumns(db: Db, segmentId: number): string[] {
  const row = db
    .prepare<[number], { status: string; columns: string }>('SELECT status, columns FROM segments WHERE id = ?')
    .get(segmentId);
  if (!row) return [];
  const segment = { id: segmentId, status: row.status, columns: JSON.parse(row.columns) as string[] } as Segment;
  return audienceView(db, segment)?.columns ?? segment.columns;
}

/** Row kinds in a batch. */
export const KIND_INVALID = 0;
export const KIND_OPTED_OUT = 1;
export const KIND_CANDIDATE = 2;
/** Combine only: a member of an excluded segment (counted, not reported). */
export const KIND_EXCLUDED = 3;

/** One batch of classified rows, in source order. */
export interface Batch {
  /** Source row number of the last row this batch accounts for (the checkpoint after it commits). */
  lastRow: number;
  bytes: number;
  totalBytes: number;
  /** Reported row numbers (source row - rowOffset). */
  rows: number[];
  kinds: number[];
  /** Normalized number for candidates and opt-outs, '' for invalid rows. */
  phones: string[];
  /** The value as the file had it, for the rejection report; null when equal to the number. */
  raws: Array<string | null>;
  fields: string[];
}

export interface BatchOutput {
  /** Posts a batch, blocking while too many are waiting for the writer. */
  emit(batch: Batch): void;
}

/** Rows per batch, and so per commit of the writer (import-runs.ts MAX_BATCHES_PER_COMMIT). */
const BATCH_ROWS = 5_000;

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

export function loadOptOuts(db: Db, accountId: number): Set<string> {
  const set = new Set<string>();
  for (const phone of db
    .prepare<[number], string>('SELECT phone FROM optouts WHERE account_id = ?')
    .pluck()
    .iterate(accountId))
    set.add(phone);
  return set;
}

function emptyBatch(): Batch {
  return { lastRow: 0, bytes: 0, totalBytes: 0, rows: [], kinds: [], phones: [], raws: [], fields: [] };
}

/** Reads an 'import' or 'optouts' job's file from its checkpoint to the end, as batches. */
export async function produceImport(db: Db, job: JobRow, spec: ImportSpec, out: BatchOutput): Promise<void> {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(spec.file);
  } catch {
    throw new ImportFileError('file_missing', 'فایل پیدا نشد یا خواندنی نیست');
  }
  if (stat.size !== spec.fileSize || Math.trunc(stat.mtimeMs) !== Math.trunc(spec.fileMtimeMs))
    throw new ImportFileError('file_changed', 'فایل پس از شروع ورود اطلاعات تغییر کرده است');

  const optOuts = job.kind === 'import' ? loadOptOuts(db, job.account_id) : new Set<string>();
  const skipThrough = Math.max(spec.headerRow, job.rows_done);
  const lastRow = spec.lastRow ?? Number.MAX_SAFE_INTEGER;
  const { phone: phoneIndex, columns, rowOffset, blankRowsAreContacts } = spec;
  const width = columns.length;
  const totalBytes = stat.size;
  let batch = emptyBatch();
  let bytes = 0;

  const flush = () => {
    batch.bytes = bytes;
    batch.totalBytes = totalBytes;
    out.emit(batch);
    batch = emptyBatch();
  };

  const sink: RowSink = {
    rows(rows, numbers) {
      for (let i = 0; i < rows.length; i++) {
        const row = numbers[i]!;
        if (row <= skipThrough || row > lastRow) continue;
        const cells = rows[i]!;
        batch.lastRow = row;
        if (!blankRowsAreContacts && (cells.length === 0 || (cells.length === 1 && cells[0]!.trim() === ''))) continue;
        const raw = cells[phoneIndex] ?? '';
        const phone = normalize(raw);
        batch.rows.push(row - rowOffset);
        if (phone === null) {
          batch.kinds.push(KIND_INVALID);
          batch.phones.push('');
          batch.raws.push(raw);
          batch.fields.push('');
        } else {
          batch.kinds.push(optOuts.has(phone) ? KIND_OPTED_OUT : KIND_CANDIDATE);
          batch.phones.push(phone);
          batch.raws.push(raw === phone ? null : raw);
          let fields = '';
          if (width > 0) {
            fields = clean(cells[columns[0]!]);
            for (let k = 1; k < width; k++) fields += FIELD_SEPARATOR + clean(cells[columns[k]!]);
          }
          batch.fields.push(fields);
        }
        if (batch.rows.length >= BATCH_ROWS) flush();
      }
      return true;
    },
    bytes(read) {
      bytes = read;
    },
  };

  if (spec.format === 'xlsx') await readXlsx(spec.file, { sheet: spec.sheet }, sink);
  else await readCsv(spec.file, { encoding: spec.encoding, delimiter: spec.delimiter }, sink);
  bytes = totalBytes;
  if (batch.rows.length > 0 || batch.lastRow > 0) flush();
}

/**
 * Reads a 'combine' job's sources as batches: members of `include` in order (values remapped to
 * the new segment's columns), classified as excluded / opted out / candidate. Always from the start:
 * the writer empties the target segment before a resumed combine.
 */
export function produceCombine(db: Db, job: JobRow, out: BatchOutput): void {
  const spec = JSON.parse(job.spec) as CombineSpec;
  const columnsOf = db.prepare<[number], string>('SELECT columns FROM segments WHERE id = ?').pluck();
  const targetColumns = JSON.parse(columnsOf.get(job.segment_id!) ?? '[]') as string[];
  const optOuts = spec.excludeOptOuts ? loadOptOuts(db, job.account_id) : new Set<string>();
  // Like a campaign's audience, a combine reads its segments as they were before any import still
  // adding rows to them (audience.ts): a cancel could take those rows out again, and a copy in
  // the new segment would outlive them. Each page and its exclusions are read in one transaction
  // with the pending imports it filters, so a batch committed in between cannot slip in.
  const read = db.transaction((source: number, after: string) => {
    const pending = pendingImports(db, [source, ...spec.exclude]);
    const hidden = withoutPendingRows('m', pending);
    const members = db
      .prepare<unknown[], { phone: string; fields: string }>(
        `SELECT phone, fields FROM segment_members m WHERE segment_id = ? AND phone > ? ${hidden.sql}
         ORDER BY phone LIMIT ${BATCH_ROWS}`,
      )
      .all(source, after, ...hidden.params);
    const excluded =
      spec.exclude.length > 0
        ? db
            .prepare<unknown[], number>(
              `SELECT 1 FROM segment_members m WHERE segment_id IN (${spec.exclude.map(() => '?').join(',')})
                 AND phone = ? ${hidden.sql} LIMIT 1`,
            )
            .pluck()
        : null;
    return members.map((member) => ({
      ...member,
      excluded: excluded !== null && excluded.get(...spec.exclude, member.phone, ...hidden.params) !== undefined,
    }));
  });
  const sizes = db.prepare<[number], number>('SELECT member_count FROM segments WHERE id = ?').pluck();
  const totalBytes = spec.include.reduce((sum, id) => sum + (sizes.get(id) ?? 0), 0);
  // With a filter, a number is judged by the fields of the first source that has it (as a
  // campaign's audience judges it): one a source before already had was decided there.
  const meets = spec.filter
    ? compileFilter({
        filter: spec.filter,
        columns: Object.fromEntries(spec.include.map((id) => [String(id), sourceColumns(db, id)])),
      })
    : null;
  const inEarlier = (index: number) =>
    index === 0
      ? null
      : db
          .prepare<unknown[], number>(
            `SELECT 1 FROM segment_members m WHERE segment_id IN (${spec.include
              .slice(0, index)
              .map(() => '?')
              .join(',')}) AND phone = ? LIMIT 1`,
          )
          .pluck();
  let seen = 0;
  for (const [index, source] of spec.include.entries()) {
    const from = JSON.parse(columnsOf.get(source) ?? '[]') as string[];
    const earlier = meets === null ? null : inEarlier(index);
    const earlierIds = spec.include.slice(0, index);
    let after = '';
    for (;;) {
      const members = read(source, after);
      if (members.length === 0) break;
      after = members[members.length - 1]!.phone;
      const batch = emptyBatch();
      for (const member of members) {
        seen++;
        batch.rows.push(seen);
        batch.phones.push(member.phone);
        batch.raws.push(null);
        if (optOuts.has(member.phone)) {
          batch.kinds.push(KIND_OPTED_OUT);
          batch.fields.push('');
        } else if (
          member.excluded ||
          (meets !== null &&
            (!meets(source, member.fields) ||
              (earlier !== null && earlier.get(...earlierIds, member.phone) !== undefined)))
        ) {
          // Left out by the filter: counted with the excluded, not reported.
          batch.kinds.push(KIND_EXCLUDED);
          batch.fields.push('');
        } else {
          batch.kinds.push(KIND_CANDIDATE);
          batch.fields.push(remapFields(member.fields, from, targetColumns));
        }
      }
      batch.lastRow = seen;
      batch.bytes = seen;
      batch.totalBytes = totalBytes;
      out.emit(batch);
    }
  }
}
