// Where a workspace lives when the user names none: the platform's per-user data folder, the same
// one the desktop app uses, so `serve` and the window see the same data.
import os from 'node:os';
import path from 'node:path';

export function defaultDataDir(): string {
  if (process.env['CHAPAR_DATA']) return process.env['CHAPAR_DATA'];
  const home = os.homedir();
  switch (process.platform) {
    case 'win32':
      return path.join(process.env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'), 'Chapar');
    case 'darwin':
      return path.join(home, 'Library', 'Application Support', 'Chapar');
    default:
      return path.join(process.env['XDG_DATA_HOME'] ?? path.join(home, '.local', 'share'), 'chapar');
  }
}
