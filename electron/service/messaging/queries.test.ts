// The message views at a million messages: the indexes of migration 0003 serve every filter of
// the list and the counts (checked on SQLite's query plans, not on timings, which are reported).
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../core';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { MessageQueries } from './queries';
import { REBUILD_MESSAGE_COUNTS } from '../db/migrations/0017-message-counts';
import type { MessageFilter } from '../../../shared/ipc/schemas';

const ROWS = 1_000_000;
let core: Core;
let queries: MessageQueries;
let account: number;
const START = Math.floor(Date.UTC(2026, 0, 1) / 1000);

beforeAll(() => {
  core = new Core({ dataDir: tempDir('chapar-1m-'), startScheduler: false });
  applySeed(core, testSeed());
  account = core.accounts.findByName('acme')!.id;
  const other = core.accounts.findByName('other')!.id;
  const line = core.accounts.findLine(account, '30001111')!.id;
  core.db.transaction(() => {
    // 100 sends of 10,000 messages, one account in ten messages belonging to the other account;
    // statuses spread like a day of deliveries, created one second apart (created_at in ms).
    const insertSend = core.db.prepare(
      `INSERT INTO sends (account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
       VALUES (?, ?, ?, 'sms', ?, 1, 'panel', 10000, 15000000, ?)`,
    );
    for (let s = 0; s < 100; s++)
      insertSend.run(account, line, s % 2 ? '30001111' : '30002222', `text ${s}`, (START + s * 10_000) * 1000);
    core.db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
         INSERT INTO messages (send_id, account_id, receptor, status, cost_rials, created_at, handed_at, final_at)
         SELECT 1 + i / 10000, CASE WHEN i % 10 = 0 THEN ? ELSE ? END, printf('0912%07d', i % 300000),
                CASE WHEN i % 100 < 85 THEN 10 WHEN i % 100 < 93 THEN 11 WHEN i % 100 < 96 THEN 13 WHEN i % 100 < 99 THEN 14 ELSE 4 END,
                1500, (? + i) * 1000, (? + i) * 1000 + 300, (? + i) * 1000 + 1800
         FROM n`,
      )
      .run(ROWS, other, account, START, START, START);
  })();
  // Written by SQL, the messages are counted as migration 0017 counts an older workspace's.
  core.db.exec(REBUILD_MESSAGE_COUNTS);
  core.db.exec('ANALYZE');
  queries = new MessageQueries(core.db, core.readers);
}, 300_000);
afterAll(() => core.close());

const timed = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  const value = await run();
  console.log(`1M messages: ${label} ${(performance.now() - started).toFixed(1)} ms`);
  return value;
};

describe('message views at 1,000,000 messages', () => {
  // [what, filter, how the plan must read the messages table]; only a selective number prefix
  // (at most 10,000 numbers) may sort its matches.
  const filters: Array<[string, MessageFilter, RegExp]> = [
    ['status, one account', { account_id: 1, status: [11] }, /SEARCH m USING INDEX messages_account_status/],
    ['several statuses', { account_id: 1, status: [11, 13, 14] }, /SEARCH m USING INDEX messages_account_status/],
    // No receiver index (migration 0004): newest first along the primary key, stopping at a page.
    ['receiver', { receptor: '09120001234' }, /SCAN m/],
    ['receiver prefix', { receptor: '0912000' }, /SCAN m/],
    // A prefix matching most numbers: newest first along the primary key, stopping at a page.
    ['short number prefix', { receptor: '0912' }, /SCAN m/],
    [
      'date range',
      { from: (START + 500_000) * 1000, to: (START + 500_100) * 1000 },
      /SEARCH m USING INTEGER PRIMARY KEY/,
    ],
    [
      'wide date range',
      { from: (START + 1000) * 1000, to: (START + 900_000) * 1000 },
      /SEARCH m USING INTEGER PRIMARY KEY/,
    ],
    ['send', { send_id: 42 }, /SEARCH m USING INDEX messages_send/],
  ];

  it.each(filters)('lists by %s without sorting all matches', (_label, filter, reads) => {
    const plan = queries.listPlan({ ...filter, account_id: filter.account_id === 1 ? account : filter.account_id });
    expect(plan.join(' | ')).toMatch(reads);
    expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE/);
  });

  it('pages newest first with a cursor, and counts', async () => {
    const first = await timed('first page (100)', () => queries.list({ account_id: account, limit: 100 }));
    expect(first.rows).toHaveLength(100);
    const deep = await timed('page after a cursor in the middle', () =>
      queries.list({ account_id: account, limit: 100, cursor: 500_000 }),
    );
    expect(deep.rows[0]!.id).toBeLessThan(500_000);
    const rare = await timed('first page of a rare status', () =>
      queries.list({ account_id: account, status: [4], limit: 100 }),
    );
    expect(rare.rows.every((row) => row.status === 4)).toBe(true);
    const several = await timed('first page of three statuses', () =>
      queries.list({ account_id: account, status: [11, 13, 14], limit: 100 }),
    );
    expect(several.rows.map((r) => r.id)).toEqual([...several.rows.map((r) => r.id)].sort((a, b) => b - a));
    const next = await queries.list({
      account_id: account,
      status: [11, 13, 14],
      limit: 100,
      cursor: several.next_cursor,
    });
    expect(next.rows[0]!.id).toBeLessThan(several.rows.at(-1)!.id);
    expect(
      (await queries.list({ account_id: account, status: [11, 13, 14], limit: 100, offset: 100 })).rows.map(
        (r) => r.id,
      ),
    ).toEqual(next.rows.map((r) => r.id));
    const wide = await timed('first page of a wide date range', () =>
      queries.list({ from: (START + 1000) * 1000, to: (START + 900_000) * 1000, limit: 100 }),
    );
    expect(wide.rows[0]!.created_at).toBe((START + 900_000 - 1) * 1000);
    const old = await timed('first page of an old narrow date range', () =>
      queries.list({ from: (START + 10) * 1000, to: (START + 20) * 1000, limit: 100 }),
    );
    expect(old.rows.map((r) => r.created_at / 1000 - START)).toEqual([19, 18, 17, 16, 15, 14, 13, 12, 11, 10]);
    expect((await queries.list({ from: (START + ROWS + 10) * 1000, limit: 100 })).rows).toEqual([]);
    await timed('first page of a short number prefix', () => queries.list({ receptor: '0912', limit: 100 }));
    const count = await timed('count of one status', () => queries.count({ account_id: account, status: [13] }));
    expect(count).toBe(30_000);
    expect(await timed('count of one receiver', () => queries.count({ receptor: '09120001234' }))).toBeGreaterThan(0);
    expect(
      await timed('count of a date range', () => queries.count({ from: (START + 10) * 1000, to: (START + 20) * 1000 })),
    ).toBe(10);
    await timed('count of everything of an account', () => queries.count({ account_id: account }));
  });
});
