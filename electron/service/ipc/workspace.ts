// IPC handlers of the workspace: backup and restore, and the desktop's file dialogs (web mode
// answers 501: the browser has no access to the server's disk).
import fs from 'node:fs';
import path from 'node:path';
import { ServiceError } from '../errors';
import { backupsDir, createBackup, listBackups, restoreBackup, type BackupInfo } from '../workspace/backup';
import type { AppServices, HandlersOf } from './dispatcher';

export function workspaceHandlers({ core, host }: AppServices): HandlersOf<'backup' | 'files'> {
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
    'files:choose': async ({ purpose, default_path }) => {
      if (!host.chooseFile) throw new ServiceError(501, 'file dialogs exist in the desktop app only');
      return { path: await host.chooseFile(purpose, default_path) };
    },
    'files:reveal': ({ path: file }) => {
      if (!host.reveal) throw new ServiceError(501, 'the file manager is reachable from the desktop app only');
      if (!fs.existsSync(file)) throw new ServiceError(404, file);
      host.reveal(path.resolve(file));
      return null;
    },
  };
}
