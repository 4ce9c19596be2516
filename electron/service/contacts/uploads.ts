// JSON contact uploads (spec 4.4 / 4.5, PRODUCT.md "Upload processing status"): the request is
// checked and answered at once with {segment_id, upload_data_id}; the contacts are written as the
// upload's CSV (phone_number first, then the other keys) in the data folder, and an import job
// turns that CSV into the segment in the background: normalized, deduplicated, opt-outs removed.
//
// Public API (core.uploads):
//   create(accountId, body)      -> {segment_id, upload_data_id}; ServiceError 400 (shape rules of 4.4),
//                                   414 (more than 100,000 contacts)
//   createFromJson(accountId, json) -> the same for the body as JSON bytes or text, parsed and checked in the
//                                   import worker (large bodies never hold the event loop)
//   status(accountId, uploadId)  -> UploadStatusRecord | null (null: unknown id or another account's)
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { MAX_UPLOAD_CONTACTS, type UploadStatus, type UploadStatusRecord } from '../../../shared/contacts';
import { rejectionText } from '../../../shared/rejections';
import { writeCsvSync } from './csv';
import type { Imports } from './imports';
import type { ImportSpec, JobRow } from './pipeline';
import { runTask, WorkerTaskError, type WrittenUpload } from './threads';

const PHONE_KEY = 'phone_number';

/** Spec 4.4: every key but phone_number is entirely upper case (at least one capital, no small letter). */
export function isUpperCaseKey(key: string): boolean {
  return /\p{Lu}/u.test(key) && key === key.toUpperCase();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The rules of spec 4.4, in the order a client would fix them; returns the extra columns in order. */
export function checkContacts(body: unknown): { contacts: Array<Record<string, string>>; columns: string[] } {
  if (!Array.isArray(body)) throw new ServiceError(ApiCode.BadRequest, 'the body must be a JSON array of contacts');
  if (body.length === 0) throw new ServiceError(ApiCode.BadRequest, 'the array of contacts is empty');
  // Checked before walking the array: a request ten times too large is refused without reading it.
  if (body.length > MAX_UPLOAD_CONTACTS)
    throw new ServiceError(ApiCode.TooLarge, `at most ${MAX_UPLOAD_CONTACTS} contacts per request`);
  const first: unknown = body[0];
  if (!isPlainObject(first) || !Object.hasOwn(first, PHONE_KEY))
    throw new ServiceError(ApiCode.BadRequest, 'phone_number is missing in the first contact');
  const keys = Object.keys(first);
  const columns = keys.filter((key) => key !== PHONE_KEY);
  const bad = columns.find((key) => !isUpperCaseKey(key));
  if (bad !== undefined)
    throw new ServiceError(ApiCode.BadRequest, `column ${JSON.stringify(bad)} is not entirely upper case`);
  const keySet = new Set(keys);
  for (let i = 0; i < body.length; i++) {
    const contact: unknown = body[i];
    if (!isPlainObject(contact)) throw new ServiceError(ApiCode.BadRequest, `contact ${i + 1} is not an object`);
    const own = Object.keys(contact);
    if (own.length !== keys.length || !own.every((key) => keySet.has(key)))
      throw new ServiceError(ApiCode.BadRequest, `contact ${i + 1} does not have the same keys as the first`);
    for (const key of keys)
      if (typeof contact[key] !== 'string')
        throw new ServiceError(ApiCode.BadRequest, `contact ${i + 1}: ${key} is not a string`);
  }
  return { contacts: body as Array<Record<string, string>>, columns };
}

/** Where a new upload's CSV goes, relative to the data folder (a moved workspace still resumes). */
function newUploadCsv(): string {
  return path.join('uploads', `${randomUUID()}.csv`);
}

/**
 * Checks an upload's contacts (spec 4.4) and writes them as the CSV the import reads. The CSV is
 * on disk before the records that name it commit: no upload ever lacks its file. Runs in the main
 * process (create) and in the import worker (createFromJson).
 */
export function writeUploadCsv(file: string, body: unknown): WrittenUpload {
  const { contacts, columns } = checkContacts(body);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeCsvSync(file, [PHONE_KEY, ...columns], rowsOf(contacts, columns));
  return { columns, count: contacts.length };
}

interface UploadRow {
  id: number;
  account_id: number;
  segment_id: number;
  job_id: number;
  status: UploadStatus;
  total: number;
}

export class Uploads {
  private readonly byId;
  private readonly jobById;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly dataDir: string,
    private readonly imports: Imports,
    private readonly poke: () => void,
  ) {
    this.byId = db.prepare<[number], UploadRow>('SELECT * FROM uploads WHERE id = ?');
    this.jobById = db.prepare<[number], JobRow>('SELECT * FROM import_jobs WHERE id = ?');
  }

  /** An upload already parsed (small bodies, in-process callers): checked and written here. */
  create(accountId: number, body: unknown): { segment_id: number; upload_data_id: number } {
    const relative = newUploadCsv();
    const { count, columns } = writeUploadCsv(path.join(this.dataDir, relative), body);
    return this.record(accountId, relative, columns, count);
  }

  /**
   * An upload as the JSON it arrived in (bytes or text): decoded, parsed, checked and written as CSV
   * by a worker thread,
   * so a 100,000-contact body (about 360 ms of JSON.parse with ten columns) never holds the event
   * loop. The rules are the same function, checkContacts, as in create().
   */
  async createFromJson(
    accountId: number,
    json: string | Uint8Array,
  ): Promise<{ segment_id: number; upload_data_id: number }> {
    const relative = newUploadCsv();
    let written: WrittenUpload;
    try {
      written = await runTask<WrittenUpload>({ op: 'upload-json', json, file: path.join(this.dataDir, relative) })
        .result;
    } catch (error) {
      // The worker answers a refusal of checkContacts (or of JSON.parse) as `api_<code>`.
      const code = error instanceof WorkerTaskError ? /^api_(\d{3})$/.exec(error.code)?.[1] : undefined;
      if (code) throw new ServiceError(Number(code) as ApiCode, error instanceof Error ? error.message : '');
      throw error;
    }
    return this.record(accountId, relative, written.columns, written.count);
  }

  /** The records of an upload whose CSV is on disk; the CSV is removed when they cannot be written. */
  private record(
    accountId: number,
    relative: string,
    columns: string[],
    count: number,
  ): { segment_id: number; upload_data_id: number } {
    const file = path.join(this.dataDir, relative);
    try {
      const stat = fs.statSync(file);
      const spec: ImportSpec = {
        file: relative,
        format: 'csv',
        encoding: 'utf-8',
        delimiter: ',',
        headerRow: 1,
        phone: 0,
        columns: columns.map((_, i) => i + 1),
        rowOffset: 1,
        blankRowsAreContacts: true,
        lastRow: count + 1,
        fileSize: stat.size,
        fileMtimeMs: stat.mtimeMs,
      };
      const now = this.clock.now();
      const ids = this.db.transaction(() => {
        const uploadId = (this.db.prepare<[], number>('SELECT coalesce(max(id), 0) + 1 FROM uploads').pluck().get() ??
          1) as number;
        const segmentId = this.imports.insertSegmentFor(accountId, `upload-${uploadId}`, columns, now);
        const jobId = this.imports.queueUpload(accountId, segmentId, spec);
        this.db
          .prepare(
            "INSERT INTO uploads (id, account_id, segment_id, job_id, status, csv_file, total, created_at) VALUES (?, ?, ?, ?, 'PROCESSING', ?, ?, ?)",
          )
          .run(uploadId, accountId, segmentId, jobId, relative, count, now);
        this.db.prepare('UPDATE import_jobs SET upload_id = ? WHERE id = ?').run(uploadId, jobId);
        return { segment_id: segmentId, upload_data_id: uploadId };
      })();
      this.poke();
      return ids;
    } catch (error) {
      fs.rmSync(file, { force: true });
      throw error;
    }
  }

  status(accountId: number, uploadId: number): UploadStatusRecord | null {
    const upload = Number.isSafeInteger(uploadId) ? this.byId.get(uploadId) : undefined;
    if (!upload || upload.account_id !== accountId) return null;
    const job = this.jobById.get(upload.job_id);
    return {
      upload_data_id: upload.id,
      segment_id: upload.segment_id,
      status: upload.status,
      total: upload.total,
      valid: job?.valid ?? 0,
      invalid: job?.invalid ?? 0,
      duplicates: job?.duplicates ?? 0,
      opted_out: job?.opted_out ?? 0,
      errors: this.imports.allRejections(upload.job_id).map((rejection) => ({
        row: rejection.row,
        phone_number: rejection.phone_number,
        reason: rejectionText(rejection.reason, rejection.phone_number, 'fa'),
      })),
    };
  }
}

function* rowsOf(contacts: Array<Record<string, string>>, columns: string[]): Generator<string[]> {
  for (const contact of contacts) {
    const row = [contact[PHONE_KEY]!];
    for (const column of columns) row.push(contact[column]!);
    yield row;
  }
}
