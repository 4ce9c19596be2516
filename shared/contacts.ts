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
export { rejectionReasonText, type RejectionReason } from './rejections';

export interface Segment {
  id: number;
  name: string;
  /** Names of the columns besides the phone number, in order ({{NAME}} placeholders use them). */
  columns: string[];
  member_count: number;
  status: SegmentStatus;
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
