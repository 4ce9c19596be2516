// A restore refuses what it cannot use with a reason the app translates: a file that is not there,
// a file that is no Chapar backup, the live database itself, a backup whose money JavaScript
// cannot count exactly (a balance past 2^53 − 1 made every account screen fail), and a backup
// whose tables are not those of its schema version (one without `messages` was restored, and the
// next send took the workspace down for good), while a backup of a workspace in use, or of an
// older Chapar, is restored. Backups a killed process left half-written (`.part`) are removed at
// the next start and after each backup, never one that this process is still writing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { ServiceError } from '../errors';
import { migrate, schemaVersion } from '../db/database';
import { migrations } from '../db/migrations';
import { nativeBinding } from '../db/native';
import { createDispatcher, type IpcDispatcher } from '../ipc/dispatcher';
import { eventually, tempDir, testSeed } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { ipcCalls } from '../../../test/helpers/ipc';
import { refusal, refusalOf } from '../../../test/helpers/refusal';
import { backupInFolder, backupsDir, createBackup, listBackups, restoreBackup, uploadedBackupPath } from './backup';

const MINUTE = 60_000;

// Registered first, so its afterEach runs last: the dispatchers close before their cores.
const cores = testCores();
const dispatchers: IpcDispatcher[] = [];
afterEach(() => {
  for (const dispatcher of dispatchers.splice(0)) dispatcher.close();
});

function open(options: { dataDir?: string; clock?: ManualClock; startScheduler?: boolean } = {}): Core {
  return cores.open({ ...options, dataDir: options.dataDir ?? tempDir('chapar-backup-'), seed: false });
}

/** A copy of `file` beside the workspace (not in its backups folder), with `sql` run on it as any SQLite tool would. */
function doctored(core: Core, file: string, name: string, sql: string): string {
  const copy = path.join(core.dataDir, name);
  fs.copyFileSync(file, copy);
  const db = new Database(copy, { nativeBinding: nativeBinding() });
  db.pragma('foreign_keys = OFF');
  db.exec(sql);
  db.close();
  return copy;
}

/** The refusal `run` ends with (fails the test when it is accepted). */
async function refusedWith(run: () => Promise<unknown>): Promise<ServiceError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('it was not refused');
}

const messageCount = (core: Core) => core.db.prepare('SELECT COUNT(*) FROM messages').pluck().get() as number;

/** A panel send of `n` receivers on acme's first line. */
function send(core: Core, n: number) {
  return core.messaging.accept.accept({
    accountId: core.accounts.findByName('acme')!.id,
    origin: 'panel',
    sender: '30001111',
    text: 'Hello',
    receivers: Array.from({ length: n }, (_, i) => `0912${String(1_000_000 + i)}`),
    rule: 'lenient',
  });
}

describe('restore', () => {
  it('says why it refuses a file: missing, not a backup, the live database, amounts past exact counting', async () => {
    const core = cores.open();
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
    const core = cores.open();
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

describe('restore of a backup whose schema is not its version’s', () => {
  it('refuses a table, column, index or trigger missing or altered, and one added, and leaves the workspace as it was', async () => {
    const core = open();
    applySeed(core, testSeed());
    send(core, 5);
    const backup = await createBackup(core);
    const rebuildSettings = `ALTER TABLE settings RENAME TO settings_before;
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT) STRICT;
      INSERT INTO settings SELECT * FROM settings_before;
      DROP TABLE settings_before;`;
    const cases: Array<[sql: string, difference: string]> = [
      ['DROP TABLE messages', 'table messages is missing'],
      ['ALTER TABLE messages DROP COLUMN final_at', 'column messages.final_at is missing'],
      ['ALTER TABLE messages ADD COLUMN note TEXT', 'column messages.note is not Chapar’s'],
      [rebuildSettings, 'column settings.value is altered'],
      ['DROP INDEX sends_sender', 'index sends_sender is missing'],
      [
        'DROP INDEX messages_send; CREATE INDEX messages_send ON messages(send_id, id)',
        'index messages_send is altered',
      ],
      ['CREATE INDEX messages_receptor ON messages(receptor)', 'index messages_receptor is not Chapar’s'],
      ['DROP TRIGGER send_tallies_delete', 'trigger send_tallies_delete is missing'],
      [
        'DROP TRIGGER send_tallies_insert; CREATE TRIGGER send_tallies_insert AFTER INSERT ON sends BEGIN SELECT 1; END',
        'trigger send_tallies_insert is altered',
      ],
      [
        'CREATE TRIGGER wipe AFTER INSERT ON sends BEGIN DELETE FROM credit_ledger; END',
        'trigger wipe is not Chapar’s',
      ],
      ['CREATE VIEW everything AS SELECT * FROM accounts', 'view everything is not Chapar’s'],
    ];
    const before = messageCount(core);
    for (const [i, [sql, difference]] of cases.entries()) {
      const refused = await refusedWith(() =>
        restoreBackup(core, doctored(core, backup.path, `doctored-${i}.db`, sql)),
      );
      expect(refused.reason, sql).toBe('backup_schema_mismatch');
      expect(refused.detail, sql).toContain(`schema differs from version ${migrations.length}’s`.replace('’', "'"));
      expect(refused.detail, sql).toContain(difference.replace('’', "'"));
    }
    // Nothing was restored, and no safety backup was made for a restore that could not happen.
    expect(listBackups(core).map((made) => made.path)).toEqual([backup.path]);
    expect(messageCount(core)).toBe(before);
    send(core, 2);
    expect(messageCount(core)).toBe(before + 2);
  });

  it('restores a backup of a workspace in use: sends, a campaign, an import, email, replies, the upkeep’s statistics', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 9, 0, 0));
    const core = open({ clock, startScheduler: true });
    applySeed(core, testSeed());
    const account = core.accounts.findByName('acme')!.id;
    const dispatcher = createDispatcher(core, { mode: 'desktop' });
    dispatchers.push(dispatcher);
    const { ok } = ipcCalls(() => dispatcher);
    const settle = async () => {
      clock.advance(10 * MINUTE);
      await core.jobs.waitForIdle();
      await core.scheduler.waitForIdle();
    };

    await ok('messages:send', {
      account_id: account,
      sender: '30001111',
      message: 'hello',
      receivers: ['09120000009'],
    });
    const csv = path.join(core.dataDir, 'customers.csv');
    fs.writeFileSync(csv, 'mobile,name,email\n09120000001,Sara,sara@example.com\n09120000002,Ali,ali@example.com\n');
    const imported = await ok('imports:start', {
      account_id: account,
      file: csv,
      mapping: {
        phone: 0,
        columns: [
          { index: 1, name: 'NAME' },
          { index: 2, name: 'EMAIL' },
        ],
      },
    });
    expect(await core.imports.wait(imported.job_id)).toMatchObject({ status: 'done', valid: 2 });
    await core.jobs.waitForIdle();
    const campaign = await ok('campaigns:create', {
      account_id: account,
      sender: '30001111',
      name: 'Spring',
      template_body: 'Hi {{NAME}}',
      send_datetime: new Date(clock.now() + 10 * MINUTE).toISOString(),
      inclusion_segments: [imported.segment_id],
    });
    const email = await ok('email:send', {
      account_id: account,
      segment_id: imported.segment_id,
      from: { email: 'shop@example.com', name: 'Shop' },
      subject: 'Hello {{ NAME }}',
      text: 'Hi {{ NAME }}',
      expected_count: 2,
      request_id: 'request-backup-1',
    });
    core.inbox.record({ accountId: account, lineNumber: '30001111', sender: '09120000001', text: 'ممنون' });
    await eventually(async () => {
      await settle();
      const done =
        core.campaigns.report(account, campaign.execution_id).execution_status === 'COMPLETED' &&
        (await ok('email:get', { account_id: account, send_id: email.id })).state === 'done';
      return done || undefined;
    });
    // What the upkeep adds to a used workspace: the planner's statistics (sqlite_stat1, sqlite_stat4).
    core.db.exec('ANALYZE');
    core.db.pragma('optimize');
    expect(core.db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'sqlite_stat%'").pluck().all()).toContain(
      'sqlite_stat1',
    );

    const backup = await createBackup(core);
    expect((await restoreBackup(core, backup.path)).restored_from).toBe(backup.path);
    expect(core.campaigns.report(account, campaign.execution_id).execution_status).toBe('COMPLETED');
    // And the workspace starts again on what was restored.
    await core.close();
    cores.release(core);
    expect(open({ dataDir: core.dataDir }).accounts.findByName('acme')).toBeDefined();
  });

  it('restores a backup of an older Chapar and brings it to this version', async () => {
    const core = open();
    applySeed(core, testSeed());
    for (const version of [6, 16, migrations.length - 1]) {
      const file = path.join(core.dataDir, `chapar-schema-${version}.db`);
      const old = new Database(file, { nativeBinding: nativeBinding() });
      migrate(old, version);
      old.prepare('INSERT INTO accounts (id, name, created_at) VALUES (40, ?, 0)').run(`from-${version}`);
      old.close();
      await restoreBackup(core, file);
      expect(schemaVersion(core.db)).toBe(migrations.length);
      expect(core.accounts.findByName(`from-${version}`)).toBeDefined();
    }
  });
});

describe('backups a killed process left half-written', () => {
  it('are removed at the next start, and the finished ones kept', async () => {
    const core = open();
    applySeed(core, testSeed());
    const kept = await createBackup(core);
    await core.close();
    cores.release(core);
    // As a kill leaves them: a backup's copy with SQLite's journal beside it, and an upload's.
    const dir = backupsDir(core);
    const left = ['chapar-2026-01-05T09-00-00-000.db.part', 'before-restore-2026-01-05T09-00-00-000.db.part'];
    for (const name of left) fs.copyFileSync(kept.path, path.join(dir, name));
    fs.writeFileSync(path.join(dir, `${left[0]}-journal`), 'journal');
    fs.writeFileSync(path.join(dir, 'uploaded-2026-01-05T09-00-00-000.db.part'), 'SQLite format 3');

    const again = open({ dataDir: core.dataDir });
    expect(fs.readdirSync(dir)).toEqual([path.basename(kept.path)]);
    expect(listBackups(again).map((backup) => backup.path)).toEqual([kept.path]);
  });

  it('are removed after a backup, but not the upload this process is receiving, nor a backup under way', async () => {
    const core = open();
    applySeed(core, testSeed());
    const dir = backupsDir(core);
    fs.mkdirSync(dir, { recursive: true });
    const stale = path.join(dir, 'chapar-2026-01-05T09-00-00-000.db.part');
    fs.writeFileSync(stale, 'left by a kill');
    // An upload half received, as the web bridge writes it.
    const upload = uploadedBackupPath(core);
    const receiving = fs.createWriteStream(`${upload}.part`);
    await new Promise((resolve) => receiving.write(fs.readFileSync(path.join(core.dataDir, 'chapar.db')), resolve));

    // Backups at once: each one's cleanup runs while the others are still being written.
    const made = await Promise.all(Array.from({ length: 4 }, () => createBackup(core)));
    expect(made.every((backup) => fs.existsSync(backup.path))).toBe(true);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(`${upload}.part`)).toBe(true);

    await new Promise((resolve) => receiving.end(resolve));
    fs.renameSync(`${upload}.part`, upload);
    await createBackup(core);
    expect(fs.readdirSync(dir).filter((name) => name.includes('.part'))).toEqual([]);
    expect(listBackups(core).map((backup) => backup.path)).toContain(upload);
  });
});
