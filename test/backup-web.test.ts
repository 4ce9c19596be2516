// Backups over the web bridge of the real `serve`: the browser never names a place on the server's
// disk (a backup goes to the backups folder under the server's name; a restore takes a backup of
// that folder, made there or uploaded), and backups made at the same moment each get their own file
// (18 concurrent calls once collided on one millisecond's name: 11 answered 500).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadBackup } from '../shared/ipc';
import { spawnServe, tempDir, testSeed, type ServeProcess } from './helpers/server';

const TOKEN = 'backup-web-token-0123456789abcdef';
let serve: ServeProcess;
let dataDir: string;
let outside: string;

beforeAll(async () => {
  dataDir = tempDir('chapar-backup-web-');
  outside = tempDir('chapar-backup-outside-');
  const seedFile = path.join(dataDir, 'seed.json');
  fs.writeFileSync(seedFile, JSON.stringify(testSeed()));
  serve = await spawnServe({ dataDir, seedFile, webUi: true, env: { CHAPAR_WEB_TOKEN: TOKEN } });
});
afterAll(async () => {
  await serve?.stop();
});

async function invoke(channel: string, body: unknown) {
  const response = await fetch(`${serve.url}/bridge/invoke/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      ok: boolean;
      value?: any;
      error?: { code: number; reason?: string };
    },
  };
}

const backupsDir = () => path.join(dataDir, 'backups');

describe('backup paths in web mode', () => {
  it('refuses to write a backup anywhere the caller names, and writes nothing there', async () => {
    const planted = path.join(outside, '.ssh', 'authorized_keys');
    const targets = [
      planted,
      path.join(outside, 'backup.db'),
      'planted/authorized_keys',
      '../outside.db',
      'mine.db',
      path.join(dataDir, 'backups', 'named-by-me.db'),
    ];
    for (const target of targets) {
      const answer = await invoke('backup:create', { path: target });
      expect(answer.status, target).toBe(400);
      expect(answer.body.error?.reason, target).toBe('backup_path_not_allowed');
    }
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'backups', 'named-by-me.db'))).toBe(false);
    const made = await invoke('backup:create', {});
    expect(made.status).toBe(200);
    expect(path.dirname(made.body.value.path)).toBe(backupsDir());
  });

  it('restores only a backup of the backups folder, by name or by the path the server answered', async () => {
    const elsewhere = path.join(outside, 'elsewhere.db');
    fs.copyFileSync(path.join(dataDir, 'chapar.db'), elsewhere);
    for (const given of [
      elsewhere,
      path.join(dataDir, 'chapar.db'),
      '../chapar.db',
      'backups/../chapar.db',
      '/etc/passwd',
      path.join(backupsDir(), 'sub', 'x.db'),
      'seed.json',
    ]) {
      const answer = await invoke('backup:restore', { path: given });
      expect(answer.status, given).toBe(400);
      expect(answer.body.error?.reason, given).toBe('backup_path_not_allowed');
    }
    const missing = await invoke('backup:restore', { path: 'no-such-backup.db' });
    expect(missing.status).toBe(404);
    expect(missing.body.error?.reason).toBe('backup_file_missing');

    const made = (await invoke('backup:create', null)).body.value as { path: string; url: string };
    const byName = await invoke('backup:restore', { path: path.basename(made.path) });
    expect(byName.body).toMatchObject({ ok: true, value: { restored_from: made.path } });
    const byPath = await invoke('backup:restore', { path: made.path });
    expect(byPath.body).toMatchObject({ ok: true, value: { restored_from: made.path } });

    // An upload lands in the backups folder and restores from there.
    const bytes = new Uint8Array(await (await fetch(`${serve.url}${made.url}`, { headers: bearer() })).arrayBuffer());
    const uploaded = await uploadBackup(bytes, { baseUrl: serve.url, token: TOKEN });
    if (!uploaded.ok) throw new Error(uploaded.error.message);
    expect(path.dirname(uploaded.value.path)).toBe(backupsDir());
    const restored = await invoke('backup:restore', { path: path.basename(uploaded.value.path) });
    expect(restored.body).toMatchObject({ ok: true, value: { restored_from: uploaded.value.path } });
  });
});

const bearer = () => ({ authorization: `Bearer ${TOKEN}` });

describe('concurrent backups', () => {
  it('20 backups at once all succeed, each in its own file', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => invoke('backup:create', {})));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const files = answers.map((answer) => answer.body.value.path as string);
    expect(new Set(files).size).toBe(20);
    for (const file of files) {
      expect(path.dirname(file)).toBe(backupsDir());
      expect(fs.readFileSync(file).subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
    }
    const listed = (await invoke('backup:list', null)).body.value as Array<{ path: string }>;
    expect(listed.map((backup) => backup.path)).toEqual(expect.arrayContaining(files));
    expect(fs.readdirSync(backupsDir()).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('uploads at once each get their own file', async () => {
    const made = (await invoke('backup:create', {})).body.value as { url: string };
    const bytes = new Uint8Array(await (await fetch(`${serve.url}${made.url}`, { headers: bearer() })).arrayBuffer());
    const uploads = await Promise.all(
      Array.from({ length: 8 }, () => uploadBackup(bytes, { baseUrl: serve.url, token: TOKEN })),
    );
    const files = uploads.map((upload) => {
      if (!upload.ok) throw new Error(upload.error.message);
      return upload.value.path;
    });
    expect(new Set(files).size).toBe(8);
    for (const file of files) expect(fs.statSync(file).size).toBe(bytes.length);
  });
});
