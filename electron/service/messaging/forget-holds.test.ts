// messaging.forgetting.forget as the core composes it (forget.test.ts has the range itself): the
// send a campaign's batch names stays (campaigns' hold, registered by the core), the carrier's
// queue inside the range goes through Carrier.forget, a send with messages left stays, and a
// failing part rolls every row back.
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { expectAggregatesEqualScan } from '../../../test/helpers/counts';
import type { Db } from '../db/database';

const MINUTE = 60_000;

const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

type Row = Record<string, unknown>;
const all = (db: Db, sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as Row[];

function open() {
  const clock = new ManualClock(Date.UTC(2025, 0, 6, 9, 0, 0));
  const core = new Core({ dataDir: tempDir('chapar-forget-'), clock, startScheduler: false });
  cores.push(core);
  applySeed(core, testSeed());
  const account = core.accounts.findByName('acme')!.id;
  core.credit.adjust(account, 10_000_000, 'test');
  let phone = 0;
  /** A send of `n` receivers, each in its own 15-minute slot (20 minutes after the one before). */
  const send = async (n: number, localIds = false) => {
    const receivers = Array.from({ length: n }, () => '0913' + String(phone++).padStart(7, '0'));
    const sent = core.messaging.accept.accept({
      accountId: account,
      origin: 'panel',
      sender: '30001111',
      text: 'Hello',
      receivers,
      rule: 'lenient',
      localIds: localIds ? receivers.map((r) => `local-${r}`) : undefined,
    });
    clock.advance(20 * MINUTE);
    await core.scheduler.drain();
    return { sendId: sent.sendId, first: sent.firstMessageId, last: sent.firstMessageId + n - 1 };
  };
  /** Lets every message move on to final. */
  const settle = async () => {
    for (let i = 0; i < 30; i++) {
      clock.advance(MINUTE);
      await core.scheduler.drain();
    }
  };
  return { core, send, settle };
}

describe('forgetting as the core composes it', () => {
  it("keeps the send a campaign's batch names, and drops the carrier's queue inside the range", async () => {
    const { core, send, settle } = open();
    const a = await send(2, true);
    const b = await send(3);
    const c = await send(2);
    const d = await send(2, true);
    await settle();
    const db = core.db;
    expect(all(db, 'SELECT DISTINCT status FROM messages WHERE status IN (1, 2, 4)')).toEqual([]);
    // A campaign's batch names send b (its report keeps cost and refunds).
    db.prepare(
      `INSERT INTO campaign_batches (execution_id, first_seq, count, send_id, first_message_id, due_at)
       VALUES (999, 0, 3, ?, ?, 0)`,
    ).run(b.sendId, b.first);
    // Due ranges (as a crash could leave them): inside the range, reaching out of it, outside.
    const far = Date.UTC(2030, 0, 1);
    for (const table of ['message_due', 'simulator_due']) {
      const add = db.prepare(`INSERT INTO ${table} (due_at, first_id, last_id) VALUES (?, ?, ?)`);
      add.run(far, a.first, a.last);
      add.run(far + 1, b.first, b.last);
      add.run(far + 2, b.last, c.first);
      add.run(far + 3, d.first, d.last);
    }
    const messages = all(db, 'SELECT * FROM messages ORDER BY id');
    const sends = all(db, 'SELECT * FROM sends ORDER BY id');
    const localIds = all(db, 'SELECT * FROM local_ids ORDER BY message_id');
    const ledger = all(db, 'SELECT * FROM credit_ledger ORDER BY id');
    const batches = all(db, 'SELECT * FROM campaign_batches');
    const total = core.messaging.forgetting.total();

    expect(core.messaging.forgetting.forget({ firstId: a.first, lastId: b.last })).toBe(5);

    const outside = (row: Row) => (row.id as number) < a.first || (row.id as number) > b.last;
    expect(all(db, 'SELECT * FROM messages ORDER BY id')).toEqual(messages.filter(outside));
    expect(all(db, 'SELECT * FROM local_ids ORDER BY message_id')).toEqual(
      localIds.filter((l) => (l.message_id as number) > b.last),
    );
    // a's send went; b's stays, held by the campaign's batch, which stays too.
    expect(all(db, 'SELECT * FROM sends ORDER BY id')).toEqual(sends.filter((s) => s.id !== a.sendId));
    expect(all(db, 'SELECT * FROM campaign_batches')).toEqual(batches);
    for (const table of ['message_due', 'simulator_due'])
      expect(all(db, `SELECT due_at, first_id, last_id FROM ${table} ORDER BY due_at`)).toEqual([
        { due_at: far + 2, first_id: b.last, last_id: c.first },
        { due_at: far + 3, first_id: d.first, last_id: d.last },
      ]);
    expect(core.messaging.lifecycle.carrier.worker!.nextDueAt()).toBe(far + 2);
    expect(all(db, 'SELECT * FROM credit_ledger ORDER BY id')).toEqual(ledger);
    expect(core.messaging.forgetting.total()).toBe(total - 5);
    expectAggregatesEqualScan(db);
  });

  it('keeps a send with messages left until its last one goes', async () => {
    const { core, send, settle } = open();
    const a = await send(3);
    const b = await send(1);
    await settle();
    const db = core.db;
    const sendIds = () => all(db, 'SELECT id FROM sends ORDER BY id').map((s) => s.id);
    // A piece of a's slot (a slot holding more than a transaction goes in pieces).
    expect(core.messaging.forgetting.forget({ firstId: a.first, lastId: a.first + 1 })).toBe(2);
    expect(sendIds()).toEqual([a.sendId, b.sendId]);
    expectAggregatesEqualScan(db);
    expect(core.messaging.forgetting.forget({ firstId: a.last, lastId: a.last })).toBe(1);
    expect(sendIds()).toEqual([b.sendId]);
    expect(all(db, 'SELECT id FROM messages').map((m) => m.id)).toEqual([b.first]);
    expectAggregatesEqualScan(db);
  });

  it('rolls back as a whole: a failing part leaves every row as it was', async () => {
    const { core, send, settle } = open();
    const a = await send(2, true);
    await send(1);
    await settle();
    const db = core.db;
    const snapshot = () => ({
      messages: all(db, 'SELECT * FROM messages ORDER BY id'),
      sends: all(db, 'SELECT * FROM sends ORDER BY id'),
      localIds: all(db, 'SELECT * FROM local_ids ORDER BY message_id'),
      counts: all(db, 'SELECT * FROM message_counts ORDER BY 1, 2, 3, 4, 5'),
    });
    const before = snapshot();
    // A hold naming no table fails the send's delete, after the messages went in the transaction.
    core.messaging.forgetting.registerSendHold(() => 'EXISTS (SELECT 1 FROM no_such_table)');
    expect(() => core.messaging.forgetting.forget({ firstId: a.first, lastId: a.last })).toThrow(/no_such_table/);
    expect(snapshot()).toEqual(before);
    expectAggregatesEqualScan(db);
  });
});
