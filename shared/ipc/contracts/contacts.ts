// IPC contracts of the contacts domain: Segments (the contacts domain).
import { z } from 'zod';
import { defineContract, defineEvent } from '../contract';
import * as s from '../schemas';
import { byAccount } from './accounts';

export const contactsContracts = {
  // ---- segments (contacts)
  'segments:list': defineContract({
    channel: 'segments:list',
    input: byAccount,
    output: z.array(s.SegmentSummarySchema),
  }),
} as const;

export const contactsEvents = {
  /** A contacts job (spreadsheet or upload import, opt-out file, segment combine) moving on. */
  'import:progress': defineEvent({
    event: 'import:progress',
    payload: z.object({
      job_id: s.Id,
      kind: z.enum(['import', 'optouts', 'combine']),
      segment_id: s.Id.nullable(),
      /** The upload_data_id of a JSON upload (spec 4.4), when the job came from one. */
      upload_id: s.Id.nullable(),
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
  /** A running messages:export. */
} as const;
