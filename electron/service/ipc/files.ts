// IPC handlers of the desktop's file dialogs and file manager: the host's, so web mode (no host
// dialogs) answers 501.
import fs from 'node:fs';
import path from 'node:path';
import { ServiceError } from '../errors';
import type { filesContracts } from '../../../shared/ipc/contracts/files';
import type { AppServices, HandlersFor } from './handler';

export function filesHandlers({ host }: AppServices): HandlersFor<typeof filesContracts> {
  return {
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
