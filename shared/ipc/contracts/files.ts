// IPC contracts of the desktop's file dialogs and file manager. Web mode answers 501: the browser
// has no access to the server's disk.
import { z } from 'zod';
import { defineContract } from '../contract';
import { Empty } from '../primitives';

export const filesContracts = {
  /** A native dialog: a backup to restore, where to save a backup, a workspace folder. Null when cancelled. */
  'files:choose': defineContract({
    channel: 'files:choose',
    input: z.object({
      /** spreadsheet: a CSV or XLSX file to import (contacts, opt-outs). */
      purpose: z.enum(['backup-restore', 'backup-save', 'data-folder', 'spreadsheet']),
      default_path: z.string().optional(),
    }),
    output: z.object({ path: z.string().nullable() }),
  }),
  /** Shows a file (an export, a backup) in the system's file manager. */
  'files:reveal': defineContract({
    channel: 'files:reveal',
    input: z.object({ path: z.string().min(1) }),
    output: Empty,
  }),
} as const;
