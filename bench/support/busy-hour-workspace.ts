// A workspace whose last hour is very busy (issue 30's counts): by default 3,000,000 messages sent
// in the hour before now, so a date range's partial 15-minute slots hold up to ~750,000 messages.
// The accounts and lines are made by the real core (the tests' seed); sends and messages are
// written with SQL in creation order as Accept writes them (a send's messages take the next
// consecutive ids at its time, one account, line and origin each): bulk panel and API sends of
// 500-20,000 receivers, campaign batches of 2,500 and single API sends (a tenth of the messages).
// Statuses by a hash of the id: the final ones in a delivery's shares, the last minutes' handed to
// the carrier, some still queued or scheduled. The aggregates and the message states are then
// built by their migrations' own statements.
//
// bench/cases/count3m.ts builds one; `npx tsx bench/support/busy-hour-workspace.ts --out DIR
// [--messages N]` builds one to look at.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { REBUILD_MESSAGE_COUNTS } from '../../electron/service/db/migrations/0017-message-counts';
import { STATES_FILL } from '../../electron/service/messaging/message-states';
import { mulberry32 } from '../../electron/service/seeded-random';
import { testSeed } from '../../test/helpers/server';

const HOUR = 3_600_000;

export interface BusyHourWorkspace {
  dataDir: string;
  now: number;
  messages: number;
  sends: number;
  accounts: number[];
  lines: string[];
}

interface PlannedSend {
  at: number;
  account: number;
  line: { id: number; number: string; provider: string };
  origin: 'api' | 'panel' | 'campaign';
  n: number;
}

export async function buildBusyHourWorkspace(
  dataDir: string,
  options: { messages?: number; now?: number; seed?: number } = {},
): Promise<BusyHourWorkspace> {
  const total = options.messages ?? 3_000_000;
  const now = options.now ?? Date.now();
  const rand = mulberry32(options.seed ?? 30);
  fs.mkdirSync(dataDir, { recursive: true });
  const core = new Core({ dataDir, startScheduler: false });
  applySeed(core, testSeed(), { warn: () => undefined });
  await core.close();

  const db = new Database(path.join(dataDir, 'chapar.db'));
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  const lines = db
    .prepare<[], { id: number; account_id: number; number: string; provider: string }>(
      "SELECT id, account_id, number, provider FROM lines WHERE number <> 'rubika_acme' ORDER BY id",
    )
    .all();
  const accounts = [...new Set(lines.map((l) => l.account_id))];

  // The plan: sends at random times of the hour, sorted (ids follow creation).
  const planned: PlannedSend[] = [];
  let left = total;
  const singles = Math.round(total * 0.1);
  for (let i = 0; i < singles; i++) {
    const line = lines[Math.floor(rand() * lines.length)]!;
    planned.push({ at: now - HOUR + Math.floor(rand() * HOUR), account: line.account_id, line, origin: 'api', n: 1 });
  }
  left -= singles;
  while (left > 0) {
    const line = lines[Math.floor(rand() * lines.length)]!;
    const kind = rand();
    const origin = kind < 0.3 ? 'campaign' : kind < 0.65 ? 'panel' : 'api';
    const n = Math.min(left, origin === 'campaign' ? 2_500 : Math.round(500 * Math.exp(rand() * Math.log(40))));
    left -= n;
    planned.push({ at: now - HOUR + Math.floor(rand() * HOUR), account: line.account_id, line, origin, n });
  }
  planned.sort((a, b) => a.at - b.at);

  db.exec('BEGIN');
  db.exec('CREATE TEMP TABLE seq (i INTEGER PRIMARY KEY)');
  db.prepare(
    'INSERT INTO seq (i) WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < 20000) SELECT i FROM k',
  ).run();
  db.exec('CREATE TEMP TABLE plan (send_id INTEGER PRIMARY KEY, first_id INTEGER, n INTEGER)');
  const insertSend = db.prepare(
    `INSERT INTO sends (id, account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
     VALUES (?, ?, ?, ?, ?, 'Spring sale: 20% off everything this week', 1, ?, ?, ?, ?)`,
  );
  const insertPlan = db.prepare('INSERT INTO plan VALUES (?, ?, ?)');
  let messageId = 1;
  planned.forEach((s, i) => {
    insertSend.run(i + 1, s.account, s.line.id, s.line.number, s.line.provider, s.origin, s.n, s.n * 1500, s.at);
    insertPlan.run(i + 1, messageId, s.n);
    messageId += s.n;
  });
  // Statuses by a hash of the id: 4 (handed over) for the last two minutes, else mostly final.
  const hash = '(((p.first_id + k.i) * 2654435761 + 40503) % 4294967296 / 1024 % 1000)';
  db.prepare(
    `INSERT INTO messages (id, send_id, account_id, receptor, status, cost_rials, created_at)
     SELECT p.first_id + k.i, p.send_id, s.account_id, printf('0912%07d', (p.first_id + k.i) * 7919 % 10000000),
       CASE WHEN s.created_at > ? THEN 4
            WHEN ${hash} < 800 THEN 10 WHEN ${hash} < 880 THEN 11 WHEN ${hash} < 920 THEN 13
            WHEN ${hash} < 960 THEN 14 WHEN ${hash} < 980 THEN 6 WHEN ${hash} < 990 THEN 1 ELSE 2 END,
       1500, s.created_at
     FROM plan p JOIN sends s ON s.id = p.send_id CROSS JOIN seq k WHERE k.i < p.n ORDER BY 1`,
  ).run(now - 120_000);
  db.exec(REBUILD_MESSAGE_COUNTS);
  db.exec(STATES_FILL);
  db.exec('COMMIT');
  db.pragma('journal_mode = WAL');
  db.exec('ANALYZE');
  db.close();
  return { dataDir, now, messages: messageId - 1, sends: planned.length, accounts, lines: lines.map((l) => l.number) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, messages: { type: 'string' } } });
  if (!values.out) throw new Error('usage: npx tsx bench/support/busy-hour-workspace.ts --out DIR [--messages N]');
  const started = performance.now();
  const built = await buildBusyHourWorkspace(path.resolve(values.out), {
    messages: values.messages === undefined ? undefined : Number(values.messages),
  });
  fs.writeFileSync(path.join(built.dataDir, 'busy-hour.json'), JSON.stringify(built, null, 2) + '\n');
  console.log(JSON.stringify(built), `${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
