// A restore refuses what it cannot use with a reason the app translates: a file that is not there,
// a file that is no Chapar backup, the live database itself, and a backup whose money JavaScript
// cannot count exactly (a balance past 2^53 − 1 made every account screen fail).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { nativeBinding } from '../db/native';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { refusal, refusalOf } from '../../../test/helpers/refusal';
import { backupInFolder, backupsDir, createBackup, listBackups, restoreBackup } from './backup';

const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

describe('restore', () => {
  it('says why it refuses a file: missing, not a backup, the live database, amounts past exact counting', async () => {
    const core = new Core({ dataDir: tempDir(), clock: new ManualClock(), startScheduler: false });
    cores.push(core);
    applySeed(core, testSeed());
    expect(await refusalOf(() => restoreBackup(core, path.join(core.dataDir, 'missing.db')))).toBe(
      'backup_file_missing',
    );
    const junk = path.join(core.dataDir, 'junk.db');
    fs.writeFileSync(junk, 'not a database at all, just text');
    expect(await refusalOf(() => restoreBackup(core, junk))).toBe('backup_not_chapar');
    expect(await refusalOf(() => restoreBackup(core, path.join(core.dataDir, 'chapar.db')))).toBe(
      'backup_is_live_database',
    );

    const backup = await createBackup(core);
    expect(await refusalOf(() => createBackup(core, backup.path))).toBe('backup_target_exists');
    const edited = new Database(backup.path, { nativeBinding: nativeBinding() });
    edited.prepare("UPDATE accounts SET credit_rials = 18014398509481982 WHERE name = 'acme'").run();
    edited.close();
    expect(await refusalOf(() => restoreBackup(core, backup.path))).toBe('backup_damaged');
    expect(core.credit.balance(core.accounts.findByName('acme')!.id)).toBe(10_000_000);
  });
});

describe('backup names', () => {
  it('gives backups made in the same millisecond each their own file', async () => {
    // The manual clock stands still: every name is stamped with the same millisecond.
    const core = new Core({ dataDir: tempDir(), clock: new ManualClock(), startScheduler: false });
    cores.push(core);
    applySeed(core, testSeed());
    const made = await Promise.all(Array.from({ length: 12 }, () => createBackup(core)));
    expect(new Set(made.map((backup) => backup.path)).size).toBe(12);
    expect(listBackups(core)).toHaveLength(12);
    expect(fs.readdirSync(backupsDir(core)).filter((name) => name.endsWith('.part'))).toEqual([]);
    const restored = await Promise.all(made.slice(0, 3).map((backup) => restoreBackup(core, backup.path)));
    expect(new Set(restored.map((r) => r.safety_backup.path)).size).toBe(3);
  });

  it('names a file of the backups folder only by its name or the path the server answered', () => {
    const core = { dataDir: tempDir() } as Core;
    const dir = backupsDir(core);
    expect(backupInFolder(core, 'chapar-1.db')).toBe(path.join(dir, 'chapar-1.db'));
    expect(backupInFolder(core, path.join(dir, 'chapar-1.db'))).toBe(path.join(dir, 'chapar-1.db'));
    for (const given of [
      '../chapar.db',
      path.join(core.dataDir, 'chapar.db'),
      path.join(dir, '..', 'chapar.db'),
      path.join(dir, 'sub', 'x.db'),
      'backups/x.db',
      'x.db.part',
      'notes.txt',
      '/etc/passwd',
      '..\\chapar.db',
    ])
      expect(
        refusal(() => backupInFolder(core, given)),
        given,
      ).toBe('backup_path_not_allowed');
  });
});
