// Restart in the middle of the lifecycle (PRODUCT.md: "a crash or power cut in the middle of a
// campaign resumes on restart with no message lost or sent twice"). The real `serve` command runs
// as a child process on a real SQLite file; it is stopped (SIGTERM, then SIGKILL in a second test)
// while messages wait in 1 and 4, restarted on the same data folder, and the file itself is
// checked with better-sqlite3 after each stop.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { outcomeFor } from '../../electron/service/messaging/carriers/simulator';
import type { SimulatorSettings } from '../../electron/service/settings/settings';
import { eventually, post, spawnServe, tempDir, testSeed, type ServeProcess } from '../helpers/server';
import { phones, type HttpResult } from './support';

// Slow enough that a stop right after the first handoff catches messages in 4 (for 3 s) and the
// sends made just before the stop in 1 (for 1 s).
const SIMULATOR: SimulatorSettings = {
  seed: 11,
  handoff_ms: 1000,
  delivery_ms: 3000,
  outcomes: { '10': 0.6, '11': 0.1, '13': 0.2, '14': 0.1 },
};
const FINAL = [10, 11, 13, 14];

const running: ServeProcess[] = [];
const folders: string[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.stop('SIGKILL');
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function workspace() {
  const dataDir = tempDir('chapar-restart-');
  folders.push(dataDir);
  const seed = testSeed({ simulator: SIMULATOR });
  const seedFile = path.join(dataDir, 'seed.json');
  fs.writeFileSync(seedFile, JSON.stringify(seed));
  const credits = new Map(seed.accounts!.map((a) => [a.name, a.credit_rials ?? 0]));
  return { dataDir, seedFile, credits };
}

async function serve(dataDir: string, seedFile: string) {
  const process = await spawnServe({ dataDir, seedFile });
  running.push(process);
  return process;
}

async function stop(process: ServeProcess, signal: NodeJS.Signals) {
  running.splice(running.indexOf(process), 1);
  return process.stop(signal);
}

const ids = (result: HttpResult): number[] =>
  result.body.entries.map((e: { messageid: number }) => e.messageid).filter((id: number) => id > 0);

async function send(url: string, sender: string, receivers: string[]): Promise<number[]> {
  const result = await post(`${url}/v2/sms/send`, { message: 'پیام آزمایشی', sender, receivers });
  expect(result.status, result.text).toBe(200);
  return ids(result);
}

/** Status of every id, asked 1,000 at a time (the lookup's limit). */
async function statuses(url: string, messageids: number[]): Promise<number[]> {
  const all: number[] = [];
  for (let start = 0; start < messageids.length; start += 1000) {
    const result = await post(`${url}/v2/sms/status`, { messageids: messageids.slice(start, start + 1000) });
    expect(result.status, result.text).toBe(200);
    all.push(...result.body.entries.map((e: { status: number }) => e.status));
  }
  return all;
}

interface MessageRow {
  id: number;
  send_id: number;
  account_id: number;
  status: number;
  cost_rials: number;
  handed_at: number | null;
}

/** Reads the workspace's database file directly, as it is on disk after the process stopped. */
function inspect(dataDir: string) {
  const db = new Database(path.join(dataDir, 'chapar.db'));
  try {
    const messages = db
      .prepare('SELECT id, send_id, account_id, status, cost_rials, handed_at FROM messages ORDER BY id')
      .all() as MessageRow[];
    const accounts = db.prepare('SELECT id, name, credit_rials FROM accounts').all() as Array<{
      id: number;
      name: string;
      credit_rials: number;
    }>;
    const ledger = db
      .prepare('SELECT account_id, COALESCE(SUM(amount_rials), 0) AS total FROM credit_ledger GROUP BY account_id')
      .all() as Array<{ account_id: number; total: number }>;
    const refunds = db
      .prepare("SELECT message_id, amount_rials FROM credit_ledger WHERE kind = 'refund' ORDER BY message_id")
      .all() as Array<{ message_id: number; amount_rials: number }>;
    const doubleRefunds = db
      .prepare("SELECT message_id FROM credit_ledger WHERE kind = 'refund' GROUP BY message_id HAVING COUNT(*) > 1")
      .all();
    // Every send is whole: its message rows, its debit row and its totals agree.
    const brokenSends = db
      .prepare(
        `SELECT s.id FROM sends s
         WHERE s.message_count != (SELECT COUNT(*) FROM messages m WHERE m.send_id = s.id)
            OR s.total_rials != (SELECT COALESCE(SUM(cost_rials), 0) FROM messages m WHERE m.send_id = s.id)
            OR (SELECT COUNT(*) FROM credit_ledger l WHERE l.kind = 'send' AND l.send_id = s.id AND l.amount_rials = -s.total_rials) != 1`,
      )
      .all();
    const integrity = db.pragma('integrity_check', { simple: true });
    const dueRanges = (db.prepare('SELECT COUNT(*) AS n FROM message_due').get() as { n: number }).n;
    return { dueRanges, messages, accounts, ledger, refunds, doubleRefunds, brokenSends, integrity };
  } finally {
    db.close();
  }
}

function expectConsistent(state: ReturnType<typeof inspect>, credits: Map<string, number>) {
  expect(state.integrity).toBe('ok');
  expect(state.doubleRefunds).toEqual([]);
  expect(state.brokenSends).toEqual([]);
  for (const account of state.accounts) {
    const ledger = state.ledger.find((l) => l.account_id === account.id)?.total ?? 0;
    expect(account.credit_rials, account.name).toBe(ledger);
    expect(account.credit_rials).toBeGreaterThanOrEqual(0);
    // Balance = seeded credit - cost of every message + what was refunded.
    const own = state.messages.filter((m) => m.account_id === account.id);
    const refunded = state.refunds
      .filter((r) => own.some((m) => m.id === r.message_id))
      .reduce((sum, r) => sum + r.amount_rials, 0);
    const spent = own.reduce((sum, m) => sum + m.cost_rials, 0);
    expect(account.credit_rials, account.name).toBe(credits.get(account.name)! - spent + refunded);
  }
}

/** Everything final, each outcome the seed's draw (so nothing moved twice), 13s refunded once. */
function expectSettled(state: ReturnType<typeof inspect>, accepted: number[]) {
  expect(state.messages.map((m) => m.id)).toEqual(expect.arrayContaining(accepted));
  // Nothing is left waiting for the gateway.
  expect(state.dueRanges).toBe(0);
  for (const message of state.messages) {
    expect(FINAL).toContain(message.status);
    expect(message.handed_at).not.toBeNull();
    expect(message.status).toBe(outcomeFor(SIMULATOR, message.id));
  }
  const thirteens = state.messages.filter((m) => m.status === 13);
  expect(state.refunds).toEqual(thirteens.map((m) => ({ message_id: m.id, amount_rials: m.cost_rials })));
}

describe('restart mid-lifecycle', () => {
  it('SIGTERM: stops cleanly, and after restart every message reaches its final status exactly once', async () => {
    const { dataDir, seedFile, credits } = workspace();
    const first = await serve(dataDir, seedFile);
    const early = [
      ...(await send(first.url, '30001111', phones(60))),
      ...(await send(first.url, 'bale_acme_bot', phones(20, 100))),
    ];
    await eventually(async () => ((await statuses(first.url, early)).every((s) => s === 4) ? true : undefined));
    const late = await send(first.url, '30001111', phones(40, 200));
    const accepted = [...early, ...late];
    expect(accepted).toHaveLength(120);

    expect(await stop(first, 'SIGTERM')).toBe(0);
    const stopped = inspect(dataDir);
    expect(stopped.messages.map((m) => m.id)).toEqual(accepted.slice().sort((a, b) => a - b));
    // The stop really was mid-lifecycle: messages wait in 4 (and, unless the machine stalled for
    // a second, the late ones in 1).
    expect(stopped.messages.some((m) => m.status === 4)).toBe(true);
    expect(stopped.messages.every((m) => m.status === 1 || m.status === 4)).toBe(true);
    expectConsistent(stopped, credits);

    const second = await serve(dataDir, seedFile);
    const final = await eventually(async () => {
      const now = await statuses(second.url, accepted);
      return now.every((s) => FINAL.includes(s)) ? now : undefined;
    }, 30_000);
    // Polled again later, nothing changed.
    expect(await statuses(second.url, accepted)).toEqual(final);
    expect(await stop(second, 'SIGTERM')).toBe(0);

    const settled = inspect(dataDir);
    expectSettled(settled, accepted);
    expectConsistent(settled, credits);
    expect(settled.messages.filter((m) => accepted.includes(m.id)).map((m) => m.status)).toEqual(final);
  });

  it('SIGKILL while sends are in flight: every answered send survives, no send is half-written, nothing moves twice', async () => {
    const { dataDir, seedFile, credits } = workspace();
    const first = await serve(dataDir, seedFile);
    const early = await send(first.url, '30001111', phones(50));
    await eventually(async () => ((await statuses(first.url, early)).every((s) => s === 4) ? true : undefined));

    // Sends keep arriving while the process is killed: some are answered, some are cut off. Every
    // fourth of the first twelve is a 2,000-receiver send on the bale line, a longer transaction.
    const answered: number[] = [];
    let inFlight = 0;
    const flood = Array.from({ length: 40 }, async (_, i) => {
      inFlight++;
      try {
        const big = i % 4 === 3 && i < 12;
        const result = await post(`${first.url}/v2/sms/send`, {
          message: 'x',
          sender: big ? 'bale_acme_bot' : '30001111',
          receivers: big ? phones(2000, 100_000 * (i + 1)) : phones(5, 1000 + 10 * i),
        });
        if (result.status === 200) answered.push(...ids(result));
      } catch {
        // Connection cut by the kill: this send may or may not have been recorded.
      } finally {
        inFlight--;
      }
    });
    await eventually(() => (answered.length >= 25 ? true : undefined));
    expect(await stop(first, 'SIGKILL')).toBeNull();
    await Promise.all(flood);
    expect(inFlight).toBe(0);
    const accepted = [...early, ...answered];

    const killed = inspect(dataDir);
    expect(killed.messages.map((m) => m.id)).toEqual(expect.arrayContaining(accepted));
    expect(killed.messages.some((m) => m.status === 4)).toBe(true);
    expectConsistent(killed, credits);

    const second = await serve(dataDir, seedFile);
    const all = killed.messages.map((m) => m.id);
    await eventually(
      async () => ((await statuses(second.url, all)).every((s) => FINAL.includes(s)) ? true : undefined),
      30_000,
    );
    expect(await stop(second, 'SIGTERM')).toBe(0);

    const settled = inspect(dataDir);
    expect(settled.messages.map((m) => m.id)).toEqual(all);
    expectSettled(settled, accepted);
    expectConsistent(settled, credits);
  });
});
