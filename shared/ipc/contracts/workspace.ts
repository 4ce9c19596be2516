// IPC contracts of the workspace domain: Backup and restore, and the desktop's file dialogs.
import { z } from 'zod';
import { defineContract } from '../contract';
import * as s from '../schemas';

export const workspaceContracts = {
  // ---- backup
  /** An online copy of the whole workspace database; default folder: <data>/backups. */
  'backup:create': defineContract({
    channel: 'backup:create',
    input: z.object({ path: z.string().min(1).optional() }).optional(),
    output: s.BackupSchema,
  }),
  /**
   * Replaces the workspace's data with a backup's. The current data is first backed up itself
   * (`safety_backup`), never deleted.
   */
  /** Backups in the workspace's backups folder, newest first (what Restore offers). */
  'backup:list': defineContract({ channel: 'backup:list', input: s.NoInput, output: z.array(s.BackupSchema) }),
  'backup:restore': defineContract({
    channel: 'backup:restore',
    input: z.object({ path: z.string().min(1) }),
    output: z.object({ restored_from: z.string(), safety_backup: s.BackupSchema }),
  }),
  // ---- the desktop's file dialogs (web mode answers 501: the browser has no access to the server's disk)
  /** A native dialog: a backup to restore, where to save a backup, a workspace folder. Null when cancelled. */
  'files:choose': defineContract({
    channel: 'files:choose',
    input: z.object({
      purpose: z.enum(['backup-restore', 'backup-save', 'data-folder']),
      default_path: z.string().optional(),
    }),
    output: z.object({ path: z.string().nullable() }),
  }),
  /** Shows a file (an export, a backup) in the system's file manager. */
  'files:reveal': defineContract({
    channel: 'files:reveal',
    input: z.object({ path: z.string().min(1) }),
    output: s.Empty,
  }),
} as const;
