// The headless command's contract: the URL line, the demo account of a fresh workspace, the seed
// applied idempotently, and a clean stop on SIGTERM / SIGINT with nothing lost.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { post, spawnServe, tempDir, testSeed, KEY, type ServeProcess } from '../helpers/server';

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
