// The headless command's contract: the URL line, the demo account of a fresh workspace, the seed
// applied idempotently, a clean stop on SIGTERM / SIGINT with nothing lost, and no listening beyond
// this computer without --allow-remote.
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { post, spawnServe, tempDir, testSeed, KEY, ROOT, type ServeProcess } from '../helpers/server';

const running: ServeProcess[] = [];
afterAll(async () => {
  for (const server of running) await server.stop('SIGKILL');
});

async function serve(args: Parameters<typeof spawnServe>[0]): Promise<ServeProcess> {
  const server = await spawnServe(args);
  running.push(server);
  return server;
}

function writeSeed(dir: string): string {
  const file = path.join(dir, 'seed.json');
  fs.writeFileSync(file, JSON.stringify(testSeed()));
  return file;
}

describe('npm run serve', () => {
  it('gives a fresh workspace a demo account whose printed key works at once', async () => {
    const dir = tempDir();
    const server = await serve({ dataDir: path.join(dir, 'data') });
    const key = /API key: (\S+)/.exec(server.output())?.[1];
    expect(key).toBeDefined();
    const sent = await post(
      `${server.url}/v2/sms/send`,
      { message: 'hello', sender: '30001234', receivers: ['09121234567'] },
      key!,
    );
    expect(sent.status).toBe(200);
    expect(sent.body.entries[0].status).toBe(1);
    expect(await server.stop('SIGTERM')).toBe(0);

    // A second start on the same workspace creates no second demo account and prints no key.
    const again = await serve({ dataDir: path.join(dir, 'data') });
    expect(again.output()).not.toMatch(/API key/);
    expect(await again.stop('SIGINT')).toBe(0);
  });

  it('applies the same seed twice without changing anything', async () => {
    const dir = tempDir();
    const seedFile = writeSeed(dir);
    const dataDir = path.join(dir, 'data');
    const snapshot = () => {
      const db = new Database(path.join(dataDir, 'chapar.db'), { readonly: true });
      const state = {
        accounts: db.prepare('SELECT name, active, credit_rials FROM accounts ORDER BY name').all(),
        keys: db.prepare('SELECT key_hash FROM api_keys ORDER BY key_hash').all(),
        lines: db
          .prepare('SELECT number, provider, can_send_api_campaign, can_send_panel_campaign FROM lines ORDER BY number')
          .all(),
        ledger: db.prepare('SELECT COUNT(*) AS n FROM credit_ledger').get(),
      };
      db.close();
      return state;
    };
    const first = await serve({ dataDir, seedFile });
    expect(await first.stop()).toBe(0);
    const before = snapshot();
    expect(before.accounts).toHaveLength(3);
    const second = await serve({ dataDir, seedFile });
    expect(await second.stop()).toBe(0);
    expect(snapshot()).toEqual(before);
  });

  it('stops cleanly on SIGTERM right after a send, with every accepted message on disk', async () => {
    const dir = tempDir();
    const seedFile = writeSeed(dir);
    const dataDir = path.join(dir, 'data');
    const server = await serve({ dataDir, seedFile });
    const receivers = Array.from({ length: 5000 }, (_, i) => '0935' + String(i).padStart(7, '0'));
    const sent = await post(`${server.url}/v2/sms/send`, { message: 'hi', sender: '30001111', receivers }, KEY);
    expect(sent.status).toBe(200);
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).toMatch(/SIGTERM, stopping/);
    const db = new Database(path.join(dataDir, 'chapar.db'), { readonly: true });
    const count = db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number };
    const balance = db.prepare("SELECT credit_rials FROM accounts WHERE name = 'acme'").get() as {
      credit_rials: number;
    };
    const ledger = db
      .prepare(
        "SELECT SUM(amount_rials) AS total FROM credit_ledger WHERE account_id = (SELECT id FROM accounts WHERE name = 'acme')",
      )
      .get() as { total: number };
    db.close();
    expect(count.n).toBe(5000);
    expect(ledger.total).toBe(balance.credit_rials);
  });

  it('refuses a bad port with a clear message', async () => {
    await expect(spawnServe({ dataDir: tempDir(), port: 70000 })).rejects.toThrow(/--port must be 0-65535/);
  });
});

/** Runs serve with `args` until it exits (it must, before listening); its exit code and output. */
function serveUntilExit(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron/cli/serve.ts'), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CHAPAR_WEB_UI: 'off' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('npm run serve on a non-loopback address', () => {
  it('refuses --host 0.0.0.0 without --allow-remote, saying what to do, and opens no workspace', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20']) {
      const dataDir = path.join(tempDir(), 'data');
      const { code, output } = await serveUntilExit(['--host', host, '--port', '0', '--data', dataDir]);
      expect(code, output).not.toBe(0);
      expect(output).toMatch(/plain HTTP/);
      expect(output).toMatch(/--allow-remote/);
      expect(output).toMatch(/--host 127\.0\.0\.1/);
      expect(output).not.toMatch(/listening on/);
      expect(fs.existsSync(dataDir)).toBe(false);
    }
  });

  it('with --allow-remote goes on, after a warning that the token travels over plain HTTP', async () => {
    // A seed file that does not exist stops it right after the checks, before it binds any address.
    const dir = tempDir();
    const { code, output } = await serveUntilExit([
      '--host',
      '0.0.0.0',
      '--allow-remote',
      '--port',
      '0',
      '--data',
      path.join(dir, 'data'),
      '--seed',
      path.join(dir, 'missing.json'),
    ]);
    expect(output).toMatch(/WARNING: listening on 0\.0\.0\.0/);
    expect(output).toMatch(/token and the API keys travel over plain HTTP/);
    expect(output).toMatch(/missing\.json/);
    expect(output).not.toMatch(/listening on http/);
    expect(code).toBe(1);
  });

  it('takes loopback addresses without the flag', async () => {
    const server = await serve({ dataDir: path.join(tempDir(), 'data'), env: { CHAPAR_WEB_UI: 'off' } });
    expect(server.output()).not.toMatch(/WARNING/);
    expect(await server.stop()).toBe(0);
  });
});
