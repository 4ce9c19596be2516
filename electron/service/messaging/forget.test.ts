// messaging.forgetting.forget on a real core: a range of whole slots of final messages goes with
// all that is kept of it (local ids, counts, sends nobody holds, the lifecycle's and the carrier's
// due ranges inside it), a send a registered hold names stays, and nothing outside the range moves.
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { expectAggregatesEqualScan } from '../../../test/helpers/counts';
import { SLOT_MS, slotOf } from './counts';

const MINUTE = 60_000;

const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

let phone = 0;

describe('forget', () => {
  it('removes a range with its ids, counts, sends and queued ranges, keeps held sends, and nothing else', async () => {
    // At a slot's start, so each group of sends below has a 15-minute slot of its own.
    const clock = new ManualClock(Date.UTC(2025, 0, 6, 9, 0, 0));
    const core = new Core({ dataDir: tempDir(), clock, startScheduler: false });
    cores.push(core);
    applySeed(core, testSeed());
    const account = core.accounts.findByName('acme')!.id;
    core.credit.adjust(account, 10_000_000_000, 'test');
    const send = (n: number) => {
      const receivers = Array.from({ length: n }, () => '0912' + String(phone++).padStart(7, '0'));
      return core.messaging.accept.accept({
        accountId: account,
        origin: 'panel',
        sender: '30001111',
        text: 'Hello',
        receivers,
        rule: 'lenient',
        localIds: receivers.map((r) => `local-${r}`),
      });
    };
    // Three slots: before, the one forgotten (two sends), after; every message final.
    const before = send(3);
    clock.advance(SLOT_MS);
    const held = send(2);
    const gone = send(2);
    clock.advance(SLOT_MS);
    const after = send(3);
    for (let i = 0; i < 4; i++) {
      clock.advance(MINUTE);
      await core.scheduler.drain();
    }
    const db = core.db;
    const firstId = held.firstMessageId;
    const lastId = gone.firstMessageId + 1;
    const slot = slotOf(
      db.prepare<[number], number>('SELECT created_at FROM messages WHERE id = ?').pluck().get(firstId)!,
    );
    const rows = (sql: string) => db.prepare(sql).all();
    const messagesOutside = () =>
      rows(`SELECT * FROM messages WHERE id NOT BETWEEN ${firstId} AND ${lastId} ORDER BY id`);
    const localIdsOutside = () =>
      rows(`SELECT * FROM local_ids WHERE message_id NOT BETWEEN ${firstId} AND ${lastId} ORDER BY message_id`);
    const countsOutside = () => rows(`SELECT * FROM message_counts WHERE slot <> ${slot} ORDER BY 1, 2, 3, 4, 5`);
    const outside = { messages: messagesOutside(), localIds: localIdsOutside(), counts: countsOutside() };
    expect(outside.messages).toHaveLength(6);
    expect(core.messaging.forgetting.slotMessages(slot, slot + 1)).toBe(4);
    // Queued ranges as a crash could leave them: inside the range (dropped) and reaching past it (kept).
    for (const table of ['message_due', 'simulator_due'])
      db.exec(`INSERT INTO ${table} (due_at, first_id, last_id) VALUES
        (1, ${firstId}, ${firstId + 1}), (2, ${lastId}, ${lastId}), (3, ${lastId}, ${after.firstMessageId}),
        (4, ${before.firstMessageId}, ${before.firstMessageId + 2})`);
    // Another domain keeps one of the two sends (as campaigns keep a batch's).
    core.messaging.forgetting.registerSendHold((sendId) => `${sendId} = ${held.sendId}`);

    expect(core.messaging.forgetting.forget({ firstId, lastId })).toBe(4);

    expect(rows(`SELECT id FROM messages WHERE id BETWEEN ${firstId} AND ${lastId}`)).toEqual([]);
    expect(rows(`SELECT * FROM local_ids WHERE message_id BETWEEN ${firstId} AND ${lastId}`)).toEqual([]);
    expect(core.messaging.forgetting.slotMessages(slot, slot + 1)).toBe(0);
    expect(rows(`SELECT * FROM message_counts WHERE slot = ${slot}`)).toEqual([]);
    expect(rows('SELECT id FROM sends ORDER BY id')).toEqual(
      [before.sendId, held.sendId, after.sendId].map((id) => ({ id })),
    );
    for (const table of ['message_due', 'simulator_due'])
      expect(rows(`SELECT due_at FROM ${table} ORDER BY due_at`)).toEqual([{ due_at: 3 }, { due_at: 4 }]);
    // Nothing outside the range moved; the counts still equal a full scan.
    expect({ messages: messagesOutside(), localIds: localIdsOutside(), counts: countsOutside() }).toEqual(outside);
    expectAggregatesEqualScan(db);
  });
});
