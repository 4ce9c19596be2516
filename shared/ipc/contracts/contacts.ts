// IPC contracts of the contacts domain: segments (listed, opened, renamed, deleted, searched,
// exported, combined), the spreadsheet import wizard (preview, start, cancel, review, rejection
// report) and the opt-out list, with the progress of their jobs (imports, opt-out files, combines).
//
// Files: `file` is what the window got for the user's spreadsheet: in the desktop app the path a
// native dialog (files:choose, purpose 'spreadsheet') or a dropped file gave; in web mode the name
// POST /bridge/uploads answered (uploadSpreadsheet() in web-transport.ts), never a server path.
import { z } from 'zod';
import { defineContract, defineEvent } from '../contract';
import { byAccount, EpochMs, Id, typedName } from '../primitives';
import { MessageExportSchema } from './messaging';
import { ENCODINGS, SEGMENT_SOURCES } from '../../contacts';
import { PHONE_PROBLEMS } from '../../phone';
import { AudienceFilter } from '../../audience-filter';

const Count = z.number().int().nonnegative();
const bySegment = z.object({ account_id: Id, segment_id: Id });
const byImport = z.object({ account_id: Id, job_id: Id });
const ExportFormat = z.enum(['csv', 'xlsx']);
/** A search box's text: a number in any digit form, or any column's value. */
const Search = z.string().max(200).optional();

/** Where a segment's members came from. */
export const SegmentSourceSchema = z.object({
  kind: z.enum(SEGMENT_SOURCES),
  /** import: the file's name; combine: "A ∪ B" / "A − B"; results: the campaign's name; upload: null. */
  label: z.string().nullable(),
});

export const SegmentSummarySchema = z.object({
  id: Id,
  name: z.string(),
  columns: z.array(z.string()),
  member_count: Count,
  /** 'importing' while an import writes into it (a new one, or rows added to it). */
  status: z.string(),
  source: SegmentSourceSchema,
  created_at: EpochMs,
});
export type SegmentSummary = z.infer<typeof SegmentSummarySchema>;

/** One segment with what its page and the delete confirmation show. */
export const SegmentDetailSchema = SegmentSummarySchema.extend({
  /** Members that are on the account's opt-out list (left out of every send and campaign). */
  opted_out: Count,
  /** Campaigns whose audience names this segment (included or excluded). */
  campaigns: z.array(z.object({ campaign_id: Id, name: z.string() })),
});
export type SegmentDetail = z.infer<typeof SegmentDetailSchema>;

export const SegmentMemberSchema = z.object({
  phone: z.string(),
  fields: z.record(z.string(), z.string()),
  opted_out: z.boolean(),
});

/** A segment's new name: what is wrong with one (empty, too long) is the core's to say, with its reason. */
const SegmentNameInput = typedName(z.string().max(10_000));

export const CombineInputSchema = z.object({
  account_id: Id,
  /** Members of any of these segments... */
  include: z.array(Id).min(1).max(100),
  /** ...that are in none of these (a difference; empty: a union). */
  exclude: z.array(Id).max(100).default([]),
  /**
   * ...whose columns meet this filter (targeting by column, shared/audience-filter.ts), judged by
   * the fields of the first of `include` that has the number; null: all.
   */
  filter: AudienceFilter.nullable().default(null),
});

/** A column of some segments with its commonest values (folded, shared/column-values.ts) in a sample. */
export const ColumnValuesSchema = z.object({
  column: z.string(),
  /** Members read (the first 100,000 of each segment at most). */
  sampled: Count,
  /** Distinct non-empty values among them. */
  distinct: Count,
  /** The commonest, most first (at most 20). */
  values: z.array(z.object({ value: z.string(), count: Count })),
});

/** How to read a spreadsheet; absent: detected. */
export const ReadChoicesSchema = z.object({
  /** XLSX: the sheet's name. */
  sheet: z.string().min(1).optional(),
  /** 1-based row of the header as the sheet numbers it; null: the file has no header row. */
  header_row: z.number().int().positive().nullable().optional(),
  /** CSV: one character. */
  delimiter: z.string().length(1).optional(),
  encoding: z.enum(ENCODINGS).optional(),
});

export const ColumnMappingSchema = z.object({
  /** 0-based index of the phone column. */
  phone: z.number().int().nonnegative(),
  /** Columns kept for personalization, by index, under their ({{NAME}}) names; others are skipped. */
  columns: z
    .array(z.object({ index: z.number().int().nonnegative(), name: z.string().trim().min(1).max(100) }))
    .max(200),
});
export type ColumnMapping = z.infer<typeof ColumnMappingSchema>;

export const ImportPreviewSchema = z.object({
  file_name: z.string(),
  file_bytes: Count,
  format: z.enum(['csv', 'xlsx']),
  sheets: z.array(z.string()),
  sheet: z.string().nullable(),
  encoding: z.enum(ENCODINGS).nullable(),
  delimiter: z.string().nullable(),
  header_row: z.number().int().positive().nullable(),
  /** One proposed name per source column (upper case, unique). */
  columns: z.array(z.string()),
  phone_column: z.number().int().nonnegative().nullable(),
  /** The first rows as they are in the file, with the sheet's row numbers. */
  rows: z.array(z.object({ row: z.number().int().positive(), cells: z.array(z.string()) })),
  /** The mapping used the last time a file of this layout (same format and header) was imported. */
  remembered: ColumnMappingSchema.nullable(),
});
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

export const ImportJobSchema = z.object({
  job_id: Id,
  kind: z.enum(['import', 'optouts', 'combine']),
  segment_id: Id.nullable(),
  /** The segment rows were added to (an import into an existing segment), else null. */
  target_segment_id: Id.nullable(),
  file_name: z.string().nullable(),
  status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  rows: Count,
  fraction: z.number().min(0).max(1),
  total: Count,
  valid: Count,
  invalid: Count,
  duplicates: Count,
  opted_out: Count,
  error: z.string().nullable(),
  created_at: EpochMs,
  started_at: EpochMs.nullable(),
  finished_at: EpochMs.nullable(),
});
export type ImportJobView = z.infer<typeof ImportJobSchema>;

export const RejectionReasonSchema = z.enum(['invalid', 'duplicate', 'opted_out']);
/** What is wrong with an invalid row's value (shared/phone.ts phoneProblem). */
export const PhoneProblemSchema = z.enum(PHONE_PROBLEMS);

export const contactsContracts = {
  'segments:list': defineContract({
    channel: 'segments:list',
    input: byAccount.extend({ search: Search }),
    output: z.array(SegmentSummarySchema),
  }),
  'segments:get': defineContract({
    channel: 'segments:get',
    input: bySegment,
    output: SegmentDetailSchema,
  }),
  'segments:rename': defineContract({
    channel: 'segments:rename',
    input: bySegment.extend({ name: SegmentNameInput }),
    output: SegmentSummarySchema,
  }),
  /** Removed at once from every list; its members are purged in the background. */
  'segments:delete': defineContract({
    channel: 'segments:delete',
    input: bySegment,
    output: z.null(),
  }),
  /**
   * A page of members in number order. `offset` is the row's position (the table is virtualized:
   * any position is as quick as the first); `search` matches the number in any digit form
   * (0912, ۰۹۱۲, +98912...) or any column's value.
   */
  'segments:members': defineContract({
    channel: 'segments:members',
    input: bySegment.extend({
      search: Search,
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().positive().max(1_000).default(100),
    }),
    output: z.object({ total: Count, members: z.array(SegmentMemberSchema) }),
  }),
  /** The members as CSV or XLSX (progress: export:progress with export_id). */
  'segments:export': defineContract({
    channel: 'segments:export',
    input: bySegment.extend({ format: ExportFormat, export_id: z.string().min(1).max(100).optional() }),
    output: MessageExportSchema,
  }),
  /**
   * How many contacts a union / difference would have (opted-out numbers left out, the filter
   * applied), before creating it. Counted by a reader thread: a filter over a million members
   * never holds the main thread.
   */
  'segments:combineCount': defineContract({
    channel: 'segments:combineCount',
    input: CombineInputSchema,
    output: z.object({ count: Count }),
  }),
  /** The union / difference as a new segment (progress: import:progress, kind 'combine'). */
  'segments:combine': defineContract({
    channel: 'segments:combine',
    input: CombineInputSchema.extend({ name: SegmentNameInput }),
    output: z.object({ job_id: Id, segment_id: Id }),
  }),
  /**
   * "Save as segment" of a campaign's audience: the inclusion segments minus the exclusion
   * segments minus opt-outs, the column filter applied, as a new segment with the inclusion
   * segments' columns (a persisted job like a combine: it resumes after a crash; progress:
   * import:progress, kind 'combine').
   */
  'segments:fromAudience': defineContract({
    channel: 'segments:fromAudience',
    input: CombineInputSchema.extend({ name: SegmentNameInput }),
    output: z.object({ job_id: Id, segment_id: Id }),
  }),
  /**
   * The columns of these segments (all, or the one named, matched folded), each with its
   * commonest values: what the campaign editor's filter offers. Read by a reader thread.
   */
  'segments:columnValues': defineContract({
    channel: 'segments:columnValues',
    input: byAccount.extend({
      segment_ids: z.array(Id).min(1).max(100),
      column: z.string().trim().min(1).max(200).optional(),
    }),
    output: z.array(ColumnValuesSchema),
  }),

  /** The wizard's first look at a file (and again after each change of sheet, header, delimiter, encoding). */
  'imports:preview': defineContract({
    channel: 'imports:preview',
    input: byAccount.extend({ file: z.string().min(1).max(4096) }).extend(ReadChoicesSchema.shape),
    output: ImportPreviewSchema,
  }),
  /**
   * Queues the import (progress: import:progress). Into a new segment named `name` (default: the
   * file's name), or added to `segment_id`'s members: a failed or cancelled import then leaves
   * that segment exactly as it was.
   */
  'imports:start': defineContract({
    channel: 'imports:start',
    input: byAccount
      .extend({
        file: z.string().min(1).max(4096),
        mapping: ColumnMappingSchema,
        name: typedName(z.string().trim().min(1).max(200)).optional(),
        segment_id: Id.optional(),
      })
      .extend(ReadChoicesSchema.shape),
    output: z.object({ job_id: Id, segment_id: Id }),
  }),
  'imports:get': defineContract({
    channel: 'imports:get',
    input: byImport,
    output: ImportJobSchema,
  }),
  'imports:list': defineContract({
    channel: 'imports:list',
    input: byAccount,
    output: z.array(ImportJobSchema),
  }),
  /** Nothing half-made stays: a new segment is removed, an existing one restored. */
  'imports:cancel': defineContract({
    channel: 'imports:cancel',
    input: byImport,
    output: z.object({ cancelled: z.boolean() }),
  }),
  /** Rows the import left out, in row order, optionally of one reason. */
  'imports:rejections': defineContract({
    channel: 'imports:rejections',
    input: byImport.extend({
      reason: RejectionReasonSchema.optional(),
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().positive().max(1_000).default(100),
    }),
    output: z.object({
      total: Count,
      rows: z.array(
        z.object({
          row: z.number().int(),
          phone_number: z.string(),
          reason: RejectionReasonSchema,
          problem: PhoneProblemSchema.optional(),
        }),
      ),
    }),
  }),
  /** The rejection report (row, number, reason in the window's language) as CSV or XLSX. */
  'imports:exportRejections': defineContract({
    channel: 'imports:exportRejections',
    input: byImport.extend({
      format: ExportFormat,
      language: z.enum(['fa', 'en']),
      export_id: z.string().min(1).max(100).optional(),
    }),
    output: MessageExportSchema,
  }),

  'optouts:list': defineContract({
    channel: 'optouts:list',
    input: byAccount.extend({
      search: Search,
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().positive().max(1_000).default(100),
    }),
    output: z.object({
      total: Count,
      items: z.array(z.object({ phone: z.string(), created_at: EpochMs })),
    }),
  }),
  /** Numbers in any digit form (+98, 0098, spaces, dashes, Persian or Arabic digits). */
  'optouts:add': defineContract({
    channel: 'optouts:add',
    input: byAccount.extend({ phones: z.array(z.string().max(100)).min(1).max(10_000) }),
    output: z.object({ added: Count, invalid: z.array(z.string()) }),
  }),
  'optouts:remove': defineContract({
    channel: 'optouts:remove',
    input: byAccount.extend({ phones: z.array(z.string().max(100)).min(1).max(10_000) }),
    output: z.object({ removed: Count }),
  }),
  /** A file of numbers into the list (progress: import:progress, kind 'optouts'). */
  'optouts:import': defineContract({
    channel: 'optouts:import',
    input: byAccount
      .extend({ file: z.string().min(1).max(4096), phone_column: z.number().int().nonnegative().optional() })
      .extend(ReadChoicesSchema.shape),
    output: z.object({ job_id: Id }),
  }),
  'optouts:export': defineContract({
    channel: 'optouts:export',
    input: byAccount.extend({ format: ExportFormat, export_id: z.string().min(1).max(100).optional() }),
    output: MessageExportSchema,
  }),
} as const;

export const contactsEvents = {
  /** A contacts job (spreadsheet or upload import, opt-out file, segment combine) moving on. */
  'import:progress': defineEvent({
    event: 'import:progress',
    payload: z.object({
      job_id: Id,
      kind: z.enum(['import', 'optouts', 'combine']),
      segment_id: Id.nullable(),
      /** The upload_data_id of a JSON upload (spec 4.4), when the job came from one. */
      upload_id: Id.nullable(),
      status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
      /** Row number of the last row processed. */
      rows: z.number().int().nonnegative(),
      /** 0..1, from the bytes read. */
      fraction: z.number().min(0).max(1),
      valid: z.number().int().nonnegative(),
      invalid: z.number().int().nonnegative(),
      duplicates: z.number().int().nonnegative(),
      opted_out: z.number().int().nonnegative(),
      error: z.string().nullable(),
    }),
  }),
} as const;
