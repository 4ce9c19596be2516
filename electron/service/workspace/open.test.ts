// The start on a workspace whose database cannot be used (a table dropped behind the service's
// back, a file that is no database, damaged pages) fails with words a user can act on: what is
// wrong, and the newest safety backup with how to go back to it; the damaged file stays exactly as
// it was. A sound workspace, and one from an older Chapar, start as before.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { Core } from '../core';
import { applySeed } from '../seed';
import { migrate, NewerDatabaseError } from '../db/database';
import { migrations } from '../db/migrations';
import { nativeBinding } from '../db/native';
import { checkSchema } from '../db/schema';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { backupsDir, createBackup, restoreBackup } from './backup';
import { databaseFile, WorkspaceDatabaseError } from './open';

const cores = testCores();

function start(dataDir: string): Core {
  return cores.open({ dataDir, seed: false });
}

async function stop(core: Core): Promise<void> {
  cores.release(core);
  await core.close();
}

/** What the start on `dataDir` fails with (fails the test when it starts). */
function startFailure(dataDir: string): WorkspaceDatabaseError {
  try {
    start(dataDir);
  } catch (error) {
    if (error instanceof WorkspaceDatabaseError) return error;
    throw error;
  }
  throw new Error('the core started');
}

/** A seeded workspace with a few sends, closed; its backups folder as `backups` made it. */
async function workspace(backups: (core: Core) => Promise<void> = async () => undefined): Promise<string> {
  const dataDir = tempDir('chapar-open-');
  const core = start(dataDir);
  applySeed(core, testSeed());
  core.messaging.accept.accept({
    accountId: core.accounts.findByName('acme')!.id,
    origin: 'panel',
    sender: '30001111',
    text: 'Hello',
    receivers: ['09120000001', '09120000002'],
    rule: 'lenient',
  });
  await backups(core);
  await stop(core);
  return dataDir;
}

/** Runs `sql` on the closed workspace's database, as another program would. */
function behindTheServicesBack(dataDir: string, sql: string): void {
  const db = new Database(databaseFile(dataDir), { nativeBinding: nativeBinding() });
  db.pragma('foreign_keys = OFF');
  db.exec(sql);
  db.close();
}

const digest = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('the start on a database that cannot be used', () => {
  it('says a table is missing and names the safety backup of the last restore, leaving the file as it was', async () => {
    let safety = '';
    const dataDir = await workspace(async (core) => {
      const backup = await createBackup(core);
      safety = (await restoreBackup(core, backup.path)).safety_backup.path;
      await createBackup(core);
    });
    behindTheServicesBack(dataDir, 'DROP TABLE messages');
    const before = digest(databaseFile(dataDir));

    const error = startFailure(dataDir);
    expect(error.message).toContain(`Chapar cannot use the workspace's database ${databaseFile(dataDir)}`);
    expect(error.message).toContain('table messages is missing');
    expect(error.message).toContain(`The newest safety backup is ${safety}.`);
    expect(error.message).toContain('Settings → Backup');
    expect(error.message).not.toMatch(/^no such table/);
    expect(error.safetyBackup).toBe(safety);
    expect(digest(databaseFile(dataDir))).toBe(before);
  });

  it('names the newest backup when no restore left one, and says when there is none', async () => {
    const made: string[] = [];
    const dataDir = await workspace(async (core) => {
      for (let i = 0; i < 2; i++) made.push((await createBackup(core)).path);
    });
    // The second backup is the newer one, whatever the clock.
    fs.utimesSync(made[0]!, new Date(2026, 0, 1), new Date(2026, 0, 1));
    behindTheServicesBack(dataDir, 'CREATE TRIGGER wipe AFTER INSERT ON sends BEGIN DELETE FROM credit_ledger; END');
    expect(startFailure(dataDir)).toMatchObject({
      safetyBackup: made[1],
      message: expect.stringContaining("trigger wipe is not Chapar's"),
    });

    // A newest backup as damaged as the workspace is passed over for the one before it.
    const doctored = new Database(made[1]!, { nativeBinding: nativeBinding() });
    doctored.exec('DROP TABLE messages');
    doctored.close();
    expect(startFailure(dataDir).safetyBackup).toBe(made[0]);

    fs.rmSync(backupsDir({ dataDir }), { recursive: true });
    const alone = startFailure(dataDir);
    expect(alone.safetyBackup).toBeNull();
    expect(alone.message).toContain(`There is no usable backup in ${backupsDir({ dataDir })}`);
  });

  it('says a file that is no database is not one', async () => {
    const dataDir = await workspace((core) => createBackup(core).then(() => undefined));
    fs.writeFileSync(databaseFile(dataDir), 'a text file where the database was, long enough to be read. '.repeat(100));
    const error = startFailure(dataDir);
    expect(error.message).toContain('the file is not a database');
    expect(error.safetyBackup).toMatch(/chapar-.*\.db$/);
  });

  it('says the file is damaged when its pages are, whether the schema or the data reads them first', async () => {
    const dataDir = await workspace();
    const file = databaseFile(dataDir);
    const pageSize = 4096;
    const original = fs.readFileSync(file);
    const db = new Database(file, { readonly: true, nativeBinding: nativeBinding() });
    expect(db.pragma('page_size', { simple: true })).toBe(pageSize);
    const dataPage = db
      .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'api_key_hashing'")
      .pluck()
      .get() as number;
    db.close();
    const garbage = Buffer.alloc(pageSize, 0x5a);

    // A data page the start reads (the API keys' hashing state): the schema is still intact.
    const damagedData = Buffer.from(original);
    garbage.copy(damagedData, (dataPage - 1) * pageSize);
    fs.writeFileSync(file, damagedData);
    expect(startFailure(dataDir).message).toMatch(/the file is damaged \(SQLite: database disk image is malformed\)/);
    expect(digest(file)).toBe(crypto.createHash('sha256').update(damagedData).digest('hex'));

    // Every page after the first one: the schema itself cannot be read.
    const damagedSchema = Buffer.from(original);
    for (let at = pageSize; at < damagedSchema.length; at += pageSize) garbage.copy(damagedSchema, at);
    fs.writeFileSync(file, damagedSchema);
    expect(startFailure(dataDir).message).toContain('the file is damaged');
  });

  it('still refuses a database of a newer Chapar in its own words', async () => {
    const dataDir = await workspace();
    behindTheServicesBack(dataDir, `PRAGMA user_version = ${migrations.length + 1}`);
    expect(() => start(dataDir)).toThrow(NewerDatabaseError);
  });
});

describe('the start on a sound database', () => {
  it('opens a workspace of an older Chapar, migrated, and one just used', async () => {
    const dataDir = tempDir('chapar-open-');
    const old = new Database(databaseFile(dataDir), { nativeBinding: nativeBinding() });
    migrate(old, 12);
    old.close();
    const core = start(dataDir);
    applySeed(core, testSeed());
    expect(() => checkSchema(core.db)).not.toThrow();
    await stop(core);
    expect(start(dataDir).accounts.findByName('acme')).toBeDefined();
  });
});
