// API keys are kept as HMAC(workspace secret, SHA-256(key)), the secret in secret.key beside the
// database: the stored value is no plain digest one could test guesses against, the same key is
// stored differently in two workspaces, a database copied without its secret authenticates no
// one, a database from before the secret keeps its keys, and backups keep working where they
// were taken. A seed file's short key is warned about by account, never shown.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import { Core } from '../core';
import { applySeed } from '../seed';
import { migrations } from '../db/migrations';
import { nativeBinding } from '../db/native';
import { createBackup, restoreBackup } from '../workspace/backup';
import { spawnServe, tempDir } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { SECRET_FILE, sha256Hex } from './keys';

const KEY = 'chp_' + 'x'.repeat(32);
const cores = testCores();

function open(dataDir = tempDir('chapar-keys-')): Core {
  return cores.open({ dataDir, seed: false });
}

function withKey(core: Core, key = KEY): number {
  const account = core.accounts.create({ name: 'acme' });
  core.accounts.createApiKey(account.id, 'test', key);
  return account.id;
}

function storedHashes(core: Core): string[] {
  return core.db.prepare<[], string>('SELECT key_hash FROM api_keys ORDER BY id').pluck().all();
}

/** Closes the core and copies its database (WAL checkpointed on close) into a fresh folder. */
async function copyDatabase(core: Core, options: { withSecret: boolean }): Promise<string> {
  await core.close();
  const target = tempDir('chapar-keys-copy-');
  fs.copyFileSync(path.join(core.dataDir, 'chapar.db'), path.join(target, 'chapar.db'));
  if (options.withSecret) fs.copyFileSync(path.join(core.dataDir, SECRET_FILE), path.join(target, SECRET_FILE));
  return target;
}

describe('API key storage', () => {
  it('stores a keyed hash, not SHA-256(key), different in two workspaces for the same key', () => {
    const first = open();
    const second = open();
    withKey(first);
    withKey(second);
    const [a] = storedHashes(first);
    const [b] = storedHashes(second);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toBe(sha256Hex(KEY));
    expect(b).not.toBe(sha256Hex(KEY));
    expect(a).not.toBe(b);
    expect(first.accounts.authenticate(KEY)).toMatchObject({ ok: true });
    expect(second.accounts.authenticate(KEY)).toMatchObject({ ok: true });
    expect(first.accounts.authenticate(KEY + 'y')).toEqual({ ok: false, code: 403 });
  });

  it('keeps the secret in secret.key beside the database, readable by the user only, the same on every open', async () => {
    const core = open();
    withKey(core);
    const file = path.join(core.dataDir, SECRET_FILE);
    const secret = fs.readFileSync(file, 'utf8');
    expect(secret.trim()).toMatch(/^[0-9a-f]{64}$/);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Nothing of the secret is in the database file.
    await core.close();
    const bytes = fs.readFileSync(path.join(core.dataDir, 'chapar.db'));
    expect(bytes.includes(Buffer.from(secret.trim()))).toBe(false);
    expect(bytes.includes(Buffer.from(secret.trim(), 'hex'))).toBe(false);

    const again = open(core.dataDir);
    expect(fs.readFileSync(file, 'utf8')).toBe(secret);
    expect(again.accounts.authenticate(KEY)).toMatchObject({ ok: true });
  });

  it('authenticates no one from a database copied without its secret file', async () => {
    const core = open();
    withKey(core);
    const stolen = open(await copyDatabase(core, { withSecret: false }));
    expect(stolen.accounts.authenticate(KEY)).toEqual({ ok: false, code: 403 });
    // Opening it changed nothing: with the secret put back, the keys work again.
    await stolen.close();
    fs.copyFileSync(path.join(core.dataDir, SECRET_FILE), path.join(stolen.dataDir, SECRET_FILE));
    expect(open(stolen.dataDir).accounts.authenticate(KEY)).toMatchObject({ ok: true });
    // The whole folder moved together keeps working.
    const moved = open(await copyDatabase(open(core.dataDir), { withSecret: true }));
    expect(moved.accounts.authenticate(KEY)).toMatchObject({ ok: true });
  });

  it('refuses a damaged secret file instead of replacing it', () => {
    const dataDir = tempDir('chapar-keys-');
    fs.writeFileSync(path.join(dataDir, SECRET_FILE), 'not a secret');
    expect(() => new Core({ dataDir, startScheduler: false })).toThrow(/secret\.key is damaged/);
  });
});

/** A workspace as Chapar left it before 0012: plain SHA-256 digests of its keys, no secret file. */
function oldWorkspace(keys: Record<string, string>): string {
  const dataDir = tempDir('chapar-keys-old-');
  const db = new Database(path.join(dataDir, 'chapar.db'), { nativeBinding: nativeBinding() });
  const before = migrations.findIndex((m) => m.name === '0012-keyed-api-key-hashes');
  for (let v = 1; v <= before; v++) {
    db.exec(migrations[v - 1]!.sql);
    db.pragma(`user_version = ${v}`);
  }
  let id = 0;
  for (const [name, key] of Object.entries(keys)) {
    id++;
    db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, 0)').run(id, name);
    db.prepare('INSERT INTO api_keys (account_id, key_hash, hint, created_at) VALUES (?, ?, ?, 0)').run(
      id,
      sha256Hex(key),
      key.slice(-4),
    );
  }
  db.close();
  return dataDir;
}

describe('a workspace from before keyed hashes', () => {
  it('keeps its keys working: the stored digests are sealed with the new secret on the first open', async () => {
    const dataDir = oldWorkspace({ acme: KEY, other: 'chp_other_key_of_the_old_kind' });
    const core = open(dataDir);
    expect(fs.existsSync(path.join(dataDir, SECRET_FILE))).toBe(true);
    expect(core.accounts.authenticate(KEY)).toMatchObject({ ok: true, account: { name: 'acme' } });
    expect(core.accounts.authenticate('chp_other_key_of_the_old_kind')).toMatchObject({
      ok: true,
      account: { name: 'other' },
    });
    expect(storedHashes(core)).not.toContain(sha256Hex(KEY));
    // Sealed once: a second open does not seal again.
    const sealed = storedHashes(core);
    await core.close();
    const again = open(dataDir);
    expect(storedHashes(again)).toEqual(sealed);
    expect(again.accounts.authenticate(KEY)).toMatchObject({ ok: true });
  });
});

describe('backups and API keys', () => {
  it('restored in the same workspace, keep their keys working', async () => {
    const core = open();
    withKey(core);
    const backup = await createBackup(core);
    const result = await restoreBackup(core, backup.path);
    expect(result.api_keys_revoked).toBe(0);
    expect(core.accounts.authenticate(KEY)).toMatchObject({ ok: true });
  });

  it("restored in another workspace, have their keys revoked and counted: that workspace's secret is not here", async () => {
    const elsewhere = open();
    withKey(elsewhere);
    const backup = await createBackup(elsewhere);
    const core = open();
    withKey(core, 'chp_the_local_key_xxxxxxxxxxxxxxxx');
    const result = await restoreBackup(core, backup.path);
    expect(result.api_keys_revoked).toBe(1);
    expect(core.accounts.authenticate(KEY)).toEqual({ ok: false, code: 403 });
    const account = core.accounts.findByName('acme')!;
    expect(core.accounts.listApiKeys(account.id).every((key) => key.revoked_at !== null)).toBe(true);
    // A key created after the restore works; a second restore of the same kind revokes nothing new.
    const fresh = core.accounts.createApiKey(account.id, 'after restore');
    expect(core.accounts.authenticate(fresh.key)).toMatchObject({ ok: true });
  });

  it('from before keyed hashes keep their keys in any workspace', async () => {
    const old = path.join(oldWorkspace({ acme: KEY }), 'chapar.db');
    const core = open();
    const result = await restoreBackup(core, old);
    expect(result.api_keys_revoked).toBe(0);
    expect(core.accounts.authenticate(KEY)).toMatchObject({ ok: true });
  });
});

describe('a seed file', () => {
  it('with a key shorter than 20 characters is applied with a warning naming the account, never the key', () => {
    const core = open();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      applySeed(core, {
        accounts: [
          { name: 'acme', api_keys: ['short-key-1', KEY] },
          { name: 'fine', api_keys: [KEY + '2'] },
        ],
      });
      const lines = warn.mock.calls.map((call) => String(call[0]));
      expect(lines).toEqual([
        'chapar: seed: account "acme" has 1 API key(s) shorter than 20 characters; anyone who reaches the API could guess them',
      ]);
      expect(lines.join('\n')).not.toContain('short-key-1');
    } finally {
      warn.mockRestore();
    }
    expect(core.accounts.authenticate('short-key-1')).toMatchObject({ ok: true });

    const lines: string[] = [];
    applySeed(core, { accounts: [{ name: 'fine', api_keys: [KEY + '2'] }] }, { warn: (line) => lines.push(line) });
    expect(lines).toEqual([]);
  });

  it('given to `npm run serve -- --seed FILE` warns in its log, and the key still authenticates', async () => {
    const dir = tempDir('chapar-keys-serve-');
    const seedFile = path.join(dir, 'seed.json');
    fs.writeFileSync(seedFile, JSON.stringify({ accounts: [{ name: 'shop "north"', api_keys: ['tiny-key-9'] }] }));
    const server = await spawnServe({ dataDir: path.join(dir, 'data'), seedFile });
    let stopped: number | null;
    try {
      expect(server.output()).toContain(
        'chapar: seed: account "shop \\"north\\"" has 1 API key(s) shorter than 20 characters',
      );
      expect(server.output()).not.toContain('tiny-key-9');
      const answer = await fetch(`${server.url}/v2/sms/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer tiny-key-9' },
        body: JSON.stringify({ message: 'hi', sender: '30001111', receivers: ['09121234567'] }),
      });
      // Known key: past authentication (the account has no such line: 412), not 403.
      expect(answer.status).not.toBe(403);
    } finally {
      // Stopped whatever happened above; its exit code checked after, so that a failure above is
      // the one reported, not this.
      stopped = await server.stop();
    }
    expect(stopped).toBe(0);
  });
});
