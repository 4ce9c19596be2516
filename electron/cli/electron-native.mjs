// better-sqlite3 for Electron. npm builds the addon for Node (tests, `serve`); Electron has
// another ABI. This rebuilds a scratch copy of the package for the installed Electron with
// @electron/rebuild and copies the addon to native/electron/better_sqlite3.node, which
// electron/service/db/native.ts loads under Electron. node_modules' Node build is never touched.
// Skips when the Electron binary is missing, and when the addon was already built for this
// Electron, better-sqlite3, platform and arch (native/electron/stamp.json).
//   node electron/cli/electron-native.mjs [--force]
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, electronBinary, electronVersion } from './electron-env.mjs';

const OUT_DIR = path.join(ROOT, 'native', 'electron');
const ADDON = path.join(OUT_DIR, 'better_sqlite3.node');
const STAMP = path.join(OUT_DIR, 'stamp.json');
const SOURCE = path.join(ROOT, 'node_modules', 'better-sqlite3');

function packageVersion(dir) {
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
}

export async function buildElectronSqlite({ force = false, log = console.log } = {}) {
  const electron = electronVersion();
  if (!electron || !electronBinary()) {
    log('chapar: no Electron binary; better-sqlite3 for Electron not built');
    return false;
  }
  const wanted = { electron, better_sqlite3: packageVersion(SOURCE), platform: process.platform, arch: process.arch };
  if (!force && fs.existsSync(ADDON) && fs.existsSync(STAMP)) {
    const stamp = JSON.parse(fs.readFileSync(STAMP, 'utf8'));
    if (JSON.stringify(stamp) === JSON.stringify(wanted)) return true;
  }

  log(`chapar: building better-sqlite3 ${wanted.better_sqlite3} for Electron ${electron} (once)`);
  const scratch = path.join(ROOT, '.tmp', `electron-native-${process.pid}`);
  fs.rmSync(scratch, { recursive: true, force: true });
  try {
    const modules = path.join(scratch, 'node_modules');
    // The package without its Node build, and what it needs at build time.
    fs.cpSync(SOURCE, path.join(modules, 'better-sqlite3'), {
      recursive: true,
      filter: (file) => !file.startsWith(path.join(SOURCE, 'build')),
    });
    for (const dependency of ['bindings', 'file-uri-to-path']) {
      const dir = path.join(ROOT, 'node_modules', dependency);
      if (fs.existsSync(dir)) fs.cpSync(dir, path.join(modules, dependency), { recursive: true });
    }
    fs.writeFileSync(
      path.join(scratch, 'package.json'),
      JSON.stringify({
        name: 'chapar-electron-native',
        private: true,
        dependencies: { 'better-sqlite3': wanted.better_sqlite3 },
      }),
    );
    const { rebuild } = await import('@electron/rebuild');
    await rebuild({
      buildPath: scratch,
      electronVersion: electron,
      onlyModules: ['better-sqlite3'],
      force: true,
      mode: 'sequential',
    });
    const built = path.join(modules, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    if (!fs.existsSync(built)) throw new Error('the rebuild produced no better_sqlite3.node');
    fs.mkdirSync(OUT_DIR, { recursive: true });
    fs.copyFileSync(built, `${ADDON}.part`);
    fs.renameSync(`${ADDON}.part`, ADDON);
    fs.writeFileSync(STAMP, JSON.stringify(wanted));
    log(`chapar: better-sqlite3 for Electron is in ${path.relative(ROOT, ADDON)}`);
    return true;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  buildElectronSqlite({ force: process.argv.includes('--force') }).catch((error) => {
    console.error(
      `chapar: better-sqlite3 for Electron failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}
