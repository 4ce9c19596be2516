// The maintained aggregates (counts.ts, migration 0017) always equal a full scan of the messages:
// after random sends (shared and own texts, now and scheduled, several lines and origins), the
// simulator's moves and refunds, cancels, opt-out blocks, a restore, and the migration that counts
// an older workspace's messages.
import { KEPT_SLOTS, expectAggregatesEqualScan } from '../../../test/helpers/counts';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import path from 'node:path';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { migrations } from '../db/migrations';
import { REBUILD_MESSAGE_COUNTS } from '../db/migrations/0017-message-counts';
import { createBackup, restoreBackup } from '../workspace/backup';
import { nativeBinding } from '../db/native';
import type { Db } from '../db/database';
import { MessageStatus } from '../../../shared/lifecycle';

const cores = testCores();

/** The dashboard's figures for [from, to), counted over the messages themselves. */
function scannedFigures(db: Db, accountId: number, from: number, to: number) {
  const rows = db
    .prepare(
      `SELECT m.status, COUNT(*) AS n, SUM(m.cost_rials) - SUM(COALESCE((SELECT l.amount_rials FROM credit_ledger l
         WHERE l.kind = 'refund' AND l.message_id = m.id), 0)) AS cost
       FROM messages m WHERE m.account_id = ? AND m.created_at >= ? AND m.created_at < ? GROUP BY m.status`,
    )
    .all(accountId, from, to) as Array<{ status: number; n: number; cost: number }>;
  const of = (status: number) => rows.find((r) => r.status === status)?.n ?? 0;
  const total = rows.reduce((sum, r) => sum + r.n, 0);
  return {
    total,
    delivered: of(MessageStatus.Delivered),
    undelivered: of(MessageStatus.Undelivered),
    cancelled: of(MessageStatus.Cancelled),
    blocked: of(MessageStatus.Blocked),
    pending: total - [10, 11, 13, 14].reduce((sum, s) => sum + of(s), 0),
    cost_rials: rows.reduce((sum, r) => sum + r.cost, 0),
  };
}

function makeCore(seedValue = 7) {
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 8, 7, 0));
  const dataDir = tempDir();
  const core = cores.open({ dataDir, clock, seed: false });
  applySeed(core, {
    ...testSeed(),
    simulator: {
      seed: seedValue,
      handoff_ms: 60_000,
      delivery_ms: 600_000,
      outcomes: { '6': 0.05, '10': 0.7, '11': 0.1, '13': 0.05, '14': 0.1 },
    },
  });
  core.credit.adjust(core.accounts.findByName('acme')!.id, 10_000_000_000, 'test');
  return { core, clock, dataDir, account: core.accounts.findByName('acme')! };
}

const op = fc.oneof(
  fc.record({
    kind: fc.constant('send' as const),
    receivers: fc.integer({ min: 1, max: 120 }),
    line: fc.constantFrom(
      { sender: '30001111', origin: 'api-v2' as const },
      { sender: '30001111', origin: 'panel' as const },
      { sender: '30002222', origin: 'panel' as const },
      { sender: 'bale_acme_bot', origin: 'api-v2' as const },
    ),
    own: fc.boolean(),
    laterMin: fc.constantFrom(0, 0, 10, 90),
  }),
  fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.integer({ min: 0, max: 1000 }) }),
  fc.record({ kind: fc.constant('optout' as const), n: fc.integer({ min: 0, max: 500 }) }),
);

describe('message counts', () => {
  it('equal a full scan after random sends, moves, refunds, cancels and blocks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 5, maxLength: 25 }),
        fc.integer({ min: 1, max: 99 }),
        async (ops, s) => {
          const { core, clock, account } = makeCore(s);
          let phone = 0;
          const sent: number[] = [];
          for (const step of ops) {
            if (step.kind === 'send') {
              const receivers = Array.from(
                { length: step.receivers },
                () => '0912' + String(phone++ % 700).padStart(7, '0'),
              );
              const recorded = core.messaging.accept.accept({
                accountId: account.id,
                origin: step.line.origin,
                sender: step.line.sender,
                text: 'Hello {name}',
                texts: step.own
                  ? receivers.map((_, i) => `Hello ${'x'.repeat(i % 3 === 0 ? 200 : 1)} ${i}`)
                  : undefined,
                receivers,
                rule: 'strict',
                dueAt: step.laterMin > 0 ? clock.now() + step.laterMin * 60_000 : undefined,
              });
              sent.push(recorded.firstMessageId);
            } else if (step.kind === 'advance') {
              clock.advance(step.minutes * 60_000);
              await core.scheduler.drain();
            } else if (step.kind === 'cancel' && sent.length > 0) {
              const first = sent[step.pick % sent.length]!;
              core.messaging.lifecycle.cancel(account.id, [first, first + 1, first + 2]);
            } else if (step.kind === 'optout') core.optouts.add(account.id, ['0912' + String(step.n).padStart(7, '0')]);
            expectAggregatesEqualScan(core.db);
          }
          clock.advance(3_600_000);
          await core.scheduler.drain();
          expectAggregatesEqualScan(core.db);
          // The dashboard reads the aggregates: its week and each of today's hours (Tehran's) equal a scan.
          const stats = core.messaging.dashboard.stats({ account_id: account.id, utc_offset_minutes: 210 });
          expect(stats.week.total).toBe(
            (
              core.db.prepare('SELECT COUNT(*) AS n FROM messages WHERE account_id = ?').get(account.id) as {
                n: number;
              }
            ).n,
          );
          expect(stats.week).toEqual(scannedFigures(core.db, account.id, stats.daily[0]!.start, stats.daily[6]!.end));
          for (const hour of stats.hourly)
            expect({ ...hour, start: 0, end: 0 }).toEqual({
              ...scannedFigures(core.db, account.id, hour.start, hour.end),
              start: 0,
              end: 0,
            });
          cores.release(core);
          await core.close();
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);

  it('equal a full scan after group commits in which a request is refused half-way', async () => {
    const { core, account } = makeCore();
    const one = (receiver: string) =>
      core.messaging.accept.acceptInGroup({
        accountId: account.id,
        origin: 'api-v2',
        sender: '30001111',
        text: 'hi',
        receivers: [receiver],
        rule: 'strict',
      });
    // An items call whose first message is recorded (and counted) before its second sender is
    // refused (412): the whole call rolls back, in the middle of a group of sends that commit.
    const refused = core.messaging.accept.acceptItemsInGroup({
      accountId: account.id,
      origin: 'api-v1',
      items: [
        { sender: '30001111', receptor: '09120000003', text: 'a' },
        { sender: '99999999', receptor: '09120000004', text: 'b' },
      ],
      repeats: 'send',
    });
    const results = await Promise.allSettled([one('09120000001'), refused, one('09120000002')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 412 });
    expect(core.db.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 2 });
    expectAggregatesEqualScan(core.db);
    expect(core.db.prepare('SELECT SUM(n) AS n FROM message_totals WHERE account_id = ?').get(account.id)).toEqual({
      n: 2,
    });
  });

  it('are rebuilt by the migration for an older workspace, and by a restore', async () => {
    const { core, clock, dataDir, account } = makeCore();
    for (let i = 0; i < 5; i++) {
      core.messaging.accept.accept({
        accountId: account.id,
        origin: i % 2 ? 'panel' : 'api-v2',
        sender: '30001111',
        text: 'sale ' + i,
        receivers: Array.from({ length: 50 }, (_, n) => '0935' + String(i * 100 + n).padStart(7, '0')),
        rule: 'strict',
      });
      clock.advance(20 * 60_000);
      await core.scheduler.drain();
    }
    const backup = await createBackup(core);
    const before = core.db.prepare(KEPT_SLOTS).all();
    // More moves after the backup, then the restore brings the backup's messages and their counts back.
    core.messaging.accept.accept({
      accountId: account.id,
      origin: 'panel',
      sender: '30002222',
      text: 'after the backup',
      receivers: ['09350000999'],
      rule: 'strict',
    });
    await restoreBackup(core, backup.path);
    expect(core.db.prepare(KEPT_SLOTS).all()).toEqual(before);
    expectAggregatesEqualScan(core.db);
    await core.close();
    cores.release(core);

    // The workspace as an older build left it (version 16, before the aggregates): the same
    // accounts, sends, messages and refunds in a file made by the first 16 migrations.
    const olderDir = tempDir();
    const older = new Database(path.join(olderDir, 'chapar.db'), { nativeBinding: nativeBinding() });
    const version16 = migrations.findIndex((m) => m.name === '0017-message-counts');
    for (const step of migrations.slice(0, version16)) older.exec(step.sql);
    older.pragma(`user_version = ${version16}`);
    older.exec(`ATTACH DATABASE '${path.join(dataDir, 'chapar.db')}' AS live`);
    for (const table of ['accounts', 'lines', 'sends', 'messages', 'credit_ledger']) {
      const columns = (older.prepare(`PRAGMA main.table_info(${table})`).all() as Array<{ name: string }>)
        .map((c) => c.name)
        .join(', ');
      older.exec(`INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM live.${table}`);
    }
    older.exec('DETACH DATABASE live');
    older.close();
    const reopened = cores.open({ dataDir: olderDir, clock, seed: false });
    expect(reopened.db.prepare('SELECT COUNT(*) AS n FROM message_counts').get()).toEqual({ n: expect.any(Number) });
    expect((reopened.db.prepare('SELECT SUM(n) AS n FROM message_totals').get() as { n: number }).n).toBe(250);
    // The message states of the messages before the upgrade are filled in the background.
    expect(reopened.db.prepare('SELECT * FROM message_states_fill').all()).toEqual([
      { id: 1, next_chunk: 0, end_chunk: 1 },
    ]);
    await reopened.scheduler.drain();
    expect(reopened.db.prepare('SELECT * FROM message_states_fill').all()).toEqual([]);
    expectAggregatesEqualScan(reopened.db);
    // And the rebuild statements give the same rows again.
    const kept = reopened.db.prepare(KEPT_SLOTS).all();
    reopened.db.exec(REBUILD_MESSAGE_COUNTS);
    expect(reopened.db.prepare(KEPT_SLOTS).all()).toEqual(kept);
  });

  it('forget the messages retention removes, a slot split or whole (the states too)', () => {
    const { core, clock, account } = makeCore();
    for (let i = 0; i < 3; i++) {
      core.messaging.accept.accept({
        accountId: account.id,
        origin: 'panel',
        sender: '30001111',
        text: 'old ' + i,
        receivers: ['09350000001', '09350000002'],
        rule: 'strict',
      });
      clock.advance(3_600_000);
    }
    const cut = Math.floor(clock.now() / 900_000) - 6;
    const last = (
      core.db.prepare('SELECT MAX(id) AS id FROM messages WHERE created_at < ?').get(cut * 900_000) as { id: number }
    ).id;
    core.db.transaction(() => {
      core.messaging.counts.forgetMessages(1, last - 1);
      core.messaging.states.forget(1, last - 1);
      core.db.prepare('DELETE FROM messages WHERE id < ?').run(last);
    })();
    expect((core.db.prepare('SELECT SUM(n) AS n FROM message_totals').get() as { n: number }).n).toBe(3);
    expectAggregatesEqualScan(core.db);
  });
});
