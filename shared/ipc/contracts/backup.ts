// IPC contracts of backups (the workspace domain): an online copy of the workspace database, the
// backups folder, and a restore that first backs up the data it replaces.
import { z } from 'zod';
import { defineContract } from '../contract';
import { EpochMs, NoInput } from '../primitives';

export const BackupSchema = z.object({
  path: z.string(),
  bytes: z.number().int().nonnegative(),
  created_at: EpochMs,
  /**
   * Web mode: where the browser downloads this backup (same origin, token cookie); a backup from
   * another computer is uploaded with uploadBackup() (web-transport.ts) and then restored by path.
   */
  url: z.string().nullable().optional(),
});
export type Backup = z.infer<typeof BackupSchema>;

export const backupContracts = {
  /** An online copy of the whole workspace database; default folder: <data>/backups. */
  'backup:create': defineContract({
    channel: 'backup:create',
    input: z.object({ path: z.string().min(1).optional() }).optional(),
    output: BackupSchema,
  }),
  /** Backups in the workspace's backups folder, newest first (what Restore offers). */
  'backup:list': defineContract({ channel: 'backup:list', input: NoInput, output: z.array(BackupSchema) }),
  /**
   * Replaces the workspace's data with a backup's. The current data is first backed up itself
   * (`safety_backup`), never deleted.
   */
  'backup:restore': defineContract({
    channel: 'backup:restore',
    input: z.object({ path: z.string().min(1) }),
    output: z.object({
      restored_from: z.string(),
      safety_backup: BackupSchema,
      /** Keys of a backup from another workspace cannot be verified here (their hashes are keyed
       * with that workspace's secret), so the restore revokes them: the user makes new ones. */
      api_keys_revoked: z.number().int().nonnegative(),
    }),
  }),
} as const;
