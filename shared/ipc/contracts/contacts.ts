// IPC contracts of the contacts domain: its segments (listed for the composer) and the progress of
// its jobs (imports, opt-out files, segment combines).
import { z } from 'zod';
import { defineContract, defineEvent } from '../contract';
import { byAccount, EpochMs, Id } from '../primitives';

export const SegmentSummarySchema = z.object({
  id: Id,
  name: z.string(),
  columns: z.array(z.string()),
  member_count: z.number().int().nonnegative(),
  status: z.string(),
  created_at: EpochMs,
});
export type SegmentSummary = z.infer<typeof SegmentSummarySchema>;

export const contactsContracts = {
  'segments:list': defineContract({
    channel: 'segments:list',
    input: byAccount,
    output: z.array(SegmentSummarySchema),
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
