// Contacts, segments, uploads and spreadsheet imports: the shapes both sides share (IPC contracts,
// the HTTP API's upload bodies, the UI's import wizard); rejection reasons from ./rejections.
import { z } from 'zod';

/** Spec 4.4 / 8: contacts per upload request; above it the answer is 414. */
export const MAX_UPLOAD_CONTACTS = 100_000;

export type SegmentStatus = 'importing' | 'ready' | 'failed' | 'deleting';
export type UploadStatus = 'PROCESSING' | 'COMPLETED' | 'FAILED';
export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
export type JobKind = 'import' | 'optouts' | 'combine';

import type { RejectionReason } from './rejections';
import type { PhoneProblem } from './phone';
export { rejectionReasonText, type RejectionReason } from './rejections';

/** Where a segment's members came from, as the Contacts page says it. */
export const SEGMENT_SOURCES = ['import', 'upload', 'combine', 'results'] as const;
export type SegmentSourceKind = (typeof SEGMENT_SOURCES)[number];

export interface Segment {
  id: number;
  name: string;
  /** Names of the columns besides the phone number, in order ({{NAME}} placeholders use them). */
  columns: string[];
  member_count: number;
  status: SegmentStatus;
  /** import: the file's name; combine: "A ∪ B"; results: the campaign's name; upload: null. */
  source: { kind: SegmentSourceKind; label: string | null };
  created_at: number;
}

export interface SegmentMember {
  phone: string;
  fields: Record<string, string>;
}

export interface Rejection {
  row: number;
  phone_number: string;
  reason: RejectionReason;
  /** An 'invalid' row's problem with its value (shared/phone.ts phoneProblem). */
  problem?: PhoneProblem;
}

export interface UploadStatusRecord {
  upload_data_id: number;
  segment_id: number;
  status: UploadStatus;
  total: number;
  valid: number;
  invalid: number;
  duplicates: number;
  /** Numbers left out because they are on the account's opt-out list (not counted in valid). */
  opted_out: number;
  errors: Array<{ row: number; phone_number: string; reason: string }>;
}

/**
 * Why a spreadsheet cannot be imported: the IPC error's `detail` ends with the code in
 * parentheses, e.g. "فایل خالی است (empty)", so the window can say it in its own language.
 */
export const IMPORT_FILE_ERRORS = [
  'binary',
  'xls',
  'encrypted',
  'corrupt_xlsx',
  'too_large',
  'empty',
  'no_phone_column',
  'sheet_not_found',
  'file_missing',
  'file_changed',
  'bad_mapping',
] as const;
export type ImportFileErrorCode = (typeof IMPORT_FILE_ERRORS)[number];

/** The code at the end of an import error's detail, if it is one of IMPORT_FILE_ERRORS. */
export function importErrorCode(detail: string | undefined): ImportFileErrorCode | null {
  const code = /\(([a-z_]+)\)\s*$/.exec(detail ?? '')?.[1];
  return code && (IMPORT_FILE_ERRORS as readonly string[]).includes(code) ? (code as ImportFileErrorCode) : null;
}

export const ENCODINGS = ['auto', 'utf-8', 'windows-1256', 'utf-16le'] as const;
export type FileEncoding = (typeof ENCODINGS)[number];

/** How to read a spreadsheet: everything optional, detected when absent. */
export const ReadOptionsSchema = z.object({
  /** 'csv' (any delimited text) or 'xlsx'; detected from the file's first bytes when absent. */
  format: z.enum(['csv', 'xlsx']).optional(),
  /** XLSX: sheet name, or its 1-based position. Default: the first sheet. */
  sheet: z.union([z.string().min(1), z.number().int().positive()]).optional(),
  /** Row number (1-based, as the sheet shows it) of the header; null = no header row; absent = detect. */
  headerRow: z.number().int().positive().nullable().optional(),
  /** CSV: one character; detected when absent. */
  delimiter: z.string().length(1).optional(),
  encoding: z.enum(ENCODINGS).optional(),
});
export type ReadOptions = z.infer<typeof ReadOptionsSchema>;

/** Which source columns become what: 0-based column indexes as the preview lists them. */
export const MappingSchema = z.object({
  phone: z.number().int().nonnegative(),
  columns: z
    .array(z.object({ index: z.number().int().nonnegative(), name: z.string().trim().min(1).max(100) }))
    .max(200)
    .optional(),
});
export type Mapping = z.infer<typeof MappingSchema>;

export const ImportRequestSchema = ReadOptionsSchema.extend({
  file: z.string().min(1),
  /** Segment name; default: the file's name. */
  name: z.string().trim().min(1).max(200).optional(),
  /** Default: the detected phone column and every other column under its header's name. */
  mapping: MappingSchema.optional(),
  /**
   * Add the rows to this existing segment instead of a new one; a failed or cancelled import
   * leaves it exactly as it was. Its columns gain the mapping's new names.
   */
  segmentId: z.number().int().positive().optional(),
  /** The name the user knows the file by (default: the file's own name). */
  fileName: z.string().min(1).max(300).optional(),
  /** Where the segment says its members came from (default: the import of fileName). */
  source: z.object({ kind: z.enum(SEGMENT_SOURCES), label: z.string().max(300).nullable() }).optional(),
});
export type ImportRequest = z.infer<typeof ImportRequestSchema>;

export interface Preview {
  format: 'csv' | 'xlsx';
  /** XLSX: names of the sheets in order. */
  sheets: string[];
  sheet: string | null;
  encoding: Exclude<FileEncoding, 'auto'> | null;
  delimiter: string | null;
  /** Row number of the header (1-based), or null when the file has none. */
  headerRow: number | null;
  /** One name per source column (header text, or COLUMN_n). */
  columns: string[];
  /** 0-based index of the column that looks like mobile numbers, or null. */
  phoneColumn: number | null;
  /** The first rows as they are in the file, with their row numbers. */
  rows: Array<{ row: number; cells: string[] }>;
  fileBytes: number;
}

export interface ImportProgress {
  jobId: number;
  kind: JobKind;
  segmentId: number | null;
  uploadId: number | null;
  status: JobStatus;
  /** Row number of the last row processed. */
  rows: number;
  /** 0..1, from the bytes read. */
  fraction: number;
  valid: number;
  invalid: number;
  duplicates: number;
  opted_out: number;
  error: string | null;
}

/** A column name of a segment: not empty after trimming, no U+001F (the members' field separator). */
export function cleanColumnName(name: string): string {
  return name.replaceAll('\u001f', '').trim();
}
