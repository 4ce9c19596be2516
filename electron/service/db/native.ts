// Where better-sqlite3's native addon comes from. Plain Node (tests, `npm run serve`) uses the
// addon npm built for Node. Electron has another ABI, so `npm start` rebuilds a second copy into
// native/electron/ (electron/cli/electron-native.mjs) and the app loads that one through the
// `nativeBinding` option: neither build overwrites the other and nobody flips anything by hand.
import fs from 'node:fs';
import path from 'node:path';

export function nativeBinding(): string | undefined {
  if (!process.versions['electron']) return undefined;
  const candidates = [
    process.env['CHAPAR_SQLITE_BINDING'],
    path.join(process.cwd(), 'native', 'electron', 'better_sqlite3.node'),
    path.join((process as { resourcesPath?: string }).resourcesPath ?? '', 'native', 'better_sqlite3.node'),
  ];
  return candidates.find((file): file is string => !!file && fs.existsSync(file));
}
