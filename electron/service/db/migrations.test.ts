import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { migrate, NewerDatabaseError, openDatabase, schemaVersion } from './database';
import { migrations } from './migrations';
import { tempDir } from '../../../test/helpers/server';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const dbFile = () => {
  const dir = tempDir('chapar-migrations-');
  dirs.push(dir);
  return path.join(dir, 'chapar.db');
};

/** A database as an older Chapar left it: the first `version` migrations applied. */
function databaseAt(file: string, version: number): Database.Database {
  const db = new Database(file);
  for (let v = 1; v <= version; v++) {
    db.exec(migrations[v - 1]!.sql);
    db.pragma(`user_version = ${v}`);
  }
  return db;
}

describe('migrations', () => {
  it('bring a new database to the latest version', () => {
    const db = openDatabase({ file: dbFile() });
    expect(schemaVersion(db)).toBe(migrations.length);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('refuse a database from a newer Chapar and leave it as it was', () => {
    const file = dbFile();
    const newer = new Database(file);
    newer.exec('CREATE TABLE from_the_future (x INTEGER)');
    newer.pragma(`user_version = ${migrations.length + 1}`);
    newer.close();
    expect(() => openDatabase({ file })).toThrow(NewerDatabaseError);
    const after = new Database(file);
    expect(after.pragma('user_version', { simple: true })).toBe(migrations.length + 1);
    expect(after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([
      { name: 'from_the_future' },
    ]);
    after.close();
  });

  it('0007 stores created_at in ms, marks API sends as version 2, and keeps pending reports for the simulator', () => {
    const before = migrations.findIndex((m) => m.name === '0007-core-seams');
    const db = databaseAt(dbFile(), before);
    db.exec(`INSERT INTO accounts (id, name, created_at) VALUES (1, 'acme', 0);
      INSERT INTO lines (id, account_id, number, provider, created_at) VALUES (1, 1, '3000', 'sms', 0);
      INSERT INTO sends (id, account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
        VALUES (1, 1, 1, '3000', 'sms', 'hi', 1, 'api', 2, 0, 1767225600123),
               (2, 1, 1, '3000', 'sms', 'hi', 1, 'panel', 1, 0, 1767225600123);
      INSERT INTO messages (id, send_id, account_id, receptor, status, cost_rials, created_at) VALUES
        (1, 1, 1, '09120000001', 4, 0, 1767225600), (2, 1, 1, '09120000002', 1, 0, 1767225600),
        (3, 2, 1, '09120000003', 10, 0, 1767225601);
      INSERT INTO message_due (due_at, first_id, last_id) VALUES (1767225605000, 1, 2);`);
    migrate(db);
    expect(schemaVersion(db)).toBe(migrations.length);
    expect(db.prepare('SELECT id, created_at FROM messages ORDER BY id').all()).toEqual([
      { id: 1, created_at: 1767225600000 },
      { id: 2, created_at: 1767225600000 },
      { id: 3, created_at: 1767225601000 },
    ]);
    expect(db.prepare('SELECT id, api_version, idempotency_key FROM sends ORDER BY id').all()).toEqual([
      { id: 1, api_version: 2, idempotency_key: null },
      { id: 2, api_version: null, idempotency_key: null },
    ]);
    // Both sides keep the range; each passes over the messages that are not its own.
    expect(db.prepare('SELECT due_at, first_id, last_id FROM simulator_due').all()).toEqual([
      { due_at: 1767225605000, first_id: 1, last_id: 2 },
    ]);
    expect(db.prepare('SELECT due_at, first_id, last_id FROM message_due').all()).toEqual([
      { due_at: 1767225605000, first_id: 1, last_id: 2 },
    ]);
    db.close();
  });

  it('0031 keeps the highest local id of the hand-overs and of the calls in flight, and drops the index that found it', () => {
    const before = migrations.findIndex((m) => m.name === '0031-upstream-local-ids');
    const db = databaseAt(dbFile(), before);
    db.exec(`INSERT INTO upstream_handovers (message_id, local_id, line_id, account_id, state, handed_at, updated_at)
        VALUES (1, 7000, 1, 1, 'accepted', 0, 0), (2, 7001, 1, 1, 'unknown', 0, 0);
      INSERT INTO upstream_calls (line_id, started_at, messages) VALUES (1, 0, '[[3,7005,1,0],[4,7004,1,0]]');`);
    migrate(db);
    expect(db.prepare('SELECT last_local_id FROM upstream_local_ids').pluck().get()).toBe(7005);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'upstream_handovers_local'").all()).toEqual([]);
    db.close();
    // A database with no hand-over starts from 0.
    const empty = databaseAt(dbFile(), before);
    migrate(empty);
    expect(empty.prepare('SELECT last_local_id FROM upstream_local_ids').pluck().get()).toBe(0);
    empty.close();
  });

  it('0032 rebuilds the lines without a list of gateway kinds, every row, reference and index kept', () => {
    const before = migrations.findIndex((m) => m.name === '0032-gateway-kinds');
    const db = databaseAt(dbFile(), before);
    db.pragma('foreign_keys = ON');
    db.exec(`INSERT INTO accounts (id, name, created_at) VALUES (1, 'acme', 0);
      INSERT INTO lines (id, account_id, number, provider, created_at) VALUES (1, 1, '3000', 'sms', 5);
      INSERT INTO lines (id, account_id, number, provider, active, created_at, gateway, gateway_base_url, gateway_sender, gateway_rate)
        VALUES (2, 1, '3001', 'sms', 0, 6, 'kavenegar-v1', 'https://api.example', '1000', 12.5);
      INSERT INTO sends (id, account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
        VALUES (1, 1, 2, '3001', 'sms', 'hi', 1, 'api', 1, 0, 0);`);
    const lines = db.prepare('SELECT * FROM lines ORDER BY id').all();
    expect(() => db.exec("UPDATE lines SET gateway = 'smsir' WHERE id = 1")).toThrow(/CHECK/);
    migrate(db);
    // Migrated to the newest (0032 and every one after it).
    expect(schemaVersion(db)).toBe(migrations.length);
    // Every row as it was, with the new column of a gateway's own options empty.
    expect(db.prepare('SELECT * FROM lines ORDER BY id').all()).toEqual(
      lines.map((line) => ({ ...(line as object), gateway_options: null })),
    );
    // A new provider's kind is stored without another rebuild; the references still hold.
    db.exec("UPDATE lines SET gateway = 'smsir' WHERE id = 1");
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(() =>
      db.exec(`INSERT INTO sends (id, account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
        VALUES (2, 1, 99, '3001', 'sms', 'hi', 1, 'api', 1, 0, 0)`),
    ).toThrow(/FOREIGN KEY/);
    expect(() => db.exec('DELETE FROM lines WHERE id = 2')).toThrow(/FOREIGN KEY/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'lines_account'").pluck().get()).toBe(
      'lines_account',
    );
    db.close();

    // A send whose line is gone (foreign keys were off when it was written): the step is undone.
    const orphan = databaseAt(dbFile(), before);
    orphan.pragma('foreign_keys = OFF');
    orphan.exec(`INSERT INTO accounts (id, name, created_at) VALUES (1, 'acme', 0);
      INSERT INTO sends (id, account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
        VALUES (1, 1, 7, '3001', 'sms', 'hi', 1, 'api', 1, 0, 0);`);
    orphan.pragma('foreign_keys = ON');
    expect(() => migrate(orphan)).toThrow(/0032-gateway-kinds left rows without their parent/);
    expect(schemaVersion(orphan)).toBe(before);
    expect(orphan.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(orphan.prepare("SELECT sql FROM sqlite_master WHERE name = 'lines'").pluck().get()).toMatch(/kavenegar-v1/);
    orphan.close();
  });

  it('0005 turns per-message due times into ranges of consecutive ids, finals left out', () => {
    const db = databaseAt(dbFile(), 4);
    db.exec(`INSERT INTO accounts (id, name, created_at) VALUES (1, 'acme', 0);
      INSERT INTO lines (id, account_id, number, provider, created_at) VALUES (1, 1, '3000', 'sms', 0);
      INSERT INTO sends (id, account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
        VALUES (1, 1, 1, '3000', 'sms', 'hi', 1, 'api', 9, 0, 0);`);
    // ids 1-3 due at 100, 4 final, 5-6 due at 100 (one range over the final one), 7 due at 200,
    // 8 due at 100 again (a new range: 7 breaks the run), 9 final.
    const due = [100, 100, 100, null, 100, 100, 200, 100, null];
    const insert = db.prepare(
      'INSERT INTO messages (id, send_id, account_id, receptor, status, cost_rials, created_at, due_at) VALUES (?, 1, 1, ?, ?, 0, 0, ?)',
    );
    due.forEach((at, i) => insert.run(i + 1, '0912000000' + i, at === null ? 10 : 1, at));
    migrate(db);
    expect(schemaVersion(db)).toBe(migrations.length);
    expect(db.prepare('SELECT due_at, first_id, last_id FROM message_due ORDER BY first_id').all()).toEqual([
      { due_at: 100, first_id: 1, last_id: 6 },
      { due_at: 200, first_id: 7, last_id: 7 },
      { due_at: 100, first_id: 8, last_id: 8 },
    ]);
    const columns = (db.prepare('PRAGMA table_info(messages)').all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns).not.toContain('due_at');
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE name IN ('messages_due', 'messages_created')").all(),
    ).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 9 });
    db.close();
  });

  it('0015 moves the email accounts a seed kept in the settings into the relay, keys as stored', () => {
    const before = migrations.findIndex((m) => m.name === '0015-email-relay');
    const db = databaseAt(dbFile(), before);
    db.prepare("INSERT INTO settings (key, value) VALUES ('email_accounts', ?)").run(
      JSON.stringify([
        { account_id: 1001, api_keys: ['hash-a', 'hash-b'], sandbox: true },
        { account_id: 1002, api_keys: [], sandbox: false },
      ]),
    );
    migrate(db);
    expect(db.prepare('SELECT id, sandbox FROM email_relay_accounts ORDER BY id').all()).toEqual([
      { id: '1001', sandbox: 1 },
      { id: '1002', sandbox: 0 },
    ]);
    expect(db.prepare('SELECT key_hash, account_id, operations FROM email_relay_keys ORDER BY key_hash').all()).toEqual(
      [
        { key_hash: 'hash-a', account_id: '1001', operations: 'send,read,cancel' },
        { key_hash: 'hash-b', account_id: '1001', operations: 'send,read,cancel' },
      ],
    );
    expect(db.prepare("SELECT count(*) AS n FROM settings WHERE key = 'email_accounts'").get()).toEqual({ n: 0 });
    db.close();
  });
});
