// IPC handlers of backups (workspace/backup.ts); in web mode a backup of the backups folder also
// gets the URL a browser downloads it from.
import path from 'node:path';
import { backupsDir, createBackup, listBackups, restoreBackup, type BackupInfo } from '../workspace/backup';
import type { backupContracts } from '../../../shared/ipc/contracts/backup';
import type { AppServices, HandlersFor } from './dispatcher';

export function backupHandlers({ core, host }: AppServices): HandlersFor<typeof backupContracts> {
  // Only backups in the workspace's backups folder can be downloaded.
  const withBackupUrl = (backup: BackupInfo): BackupInfo & { url: string | null } => ({
    ...backup,
    url:
      host.backupUrl && path.dirname(backup.path) === backupsDir(core)
        ? host.backupUrl(path.basename(backup.path))
        : null,
  });
  return {
    'backup:create': async (input) => withBackupUrl(await createBackup(core, input?.path)),
    'backup:list': () => listBackups(core).map(withBackupUrl),
    'backup:restore': async ({ path: file }) => {
      const restored = await restoreBackup(core, file);
      return { ...restored, safety_backup: withBackupUrl(restored.safety_backup) };
    },
  };
}
