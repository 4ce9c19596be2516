// IPC handlers of backups (workspace/backup.ts); in web mode a backup of the backups folder also
// gets the URL a browser downloads it from, and the browser never names a place on the server's
// disk: backups go to the backups folder under the server's names, and a restore takes a backup of
// that folder (one made there, or uploaded with POST /bridge/backups). The desktop's native dialogs
// give real paths.
import path from 'node:path';
import {
  backupInFolder,
  backupsDir,
  createBackup,
  listBackups,
  refuseBackupPath,
  restoreBackup,
  type BackupInfo,
} from '../workspace/backup';
import type { backupContracts } from '../../../shared/ipc/contracts/backup';
import type { AppServices, HandlersFor } from './handler';

export function backupHandlers({ core, host }: AppServices): HandlersFor<typeof backupContracts> {
  const web = host.mode === 'web';
  // Only backups in the workspace's backups folder can be downloaded.
  const withBackupUrl = (backup: BackupInfo): BackupInfo & { url: string | null } => ({
    ...backup,
    url:
      host.backupUrl && path.dirname(backup.path) === backupsDir(core)
        ? host.backupUrl(path.basename(backup.path))
        : null,
  });
  return {
    'backup:create': async (input) => {
      if (web && input?.path !== undefined) refuseBackupPath();
      return withBackupUrl(await createBackup(core, input?.path));
    },
    'backup:list': () => listBackups(core).map(withBackupUrl),
    'backup:restore': async ({ path: file }) => {
      const restored = await restoreBackup(core, web ? backupInFolder(core, file) : file);
      return { ...restored, safety_backup: withBackupUrl(restored.safety_backup) };
    },
  };
}
