// A group commit's acceptances (accept.ts inGroup) write what each send keeps beside its rows once
// for the group: the message states and sources rows (message-states.ts), the due ranges of its
// one-message sends (accepted-due.ts). What a refused request of the group recorded is taken back,
// and every message moves on as if each send had been written alone.
import { expectAggregatesEqualScan } from '../../../test/helpers/counts';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { MessageStatus } from '../../../shared/lifecycle';
import type { Core } from '../core';
import type { Origin } from '../../../shared/lines';

const cores = testCores();

function makeCore() {
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 8, 7, 0));
  const core = cores.open({ dataDir: tempDir(), clock, seed: false });
  applySeed(core, { ...testSeed(), simulator: { ...testSeed().simulator!, handoff_ms: 60_000 } });
  const account = core.accounts.findByName('acme')!;
  core.credit.adjust(account.id, 1_000_000_000, 'test');
  return { core, clock, account };
}

let receiver = 0;
const nextReceiver = () => '0912' + String(++receiver).padStart(7, '0');

/** A send of `n` receivers for one of a group's requests. */
function send(core: Core, accountId: number, n = 1, sender = '30001111', origin: Origin = 'api-v2') {
  return core.messaging.accept.acceptInGroup({
    accountId,
    origin,
    sender,
    text: 'Your code is 1234',
    receivers: Array.from({ length: n }, nextReceiver),
    rule: 'strict',
  });
}

/** An items call whose first message is recorded before its second sender is refused (412): it all rolls back. */
function refused(core: Core, accountId: number, sender = '30001111', origin: Origin = 'api-v1') {
  return core.messaging.accept.acceptItemsInGroup({
    accountId,
    origin,
    items: [
      { sender, receptor: nextReceiver(), text: 'a' },
      { sender: '99999999', receptor: nextReceiver(), text: 'b' },
    ],
    repeats: 'send',
  });
}

const dueRanges = (core: Core) =>
  core.db.prepare('SELECT first_id, last_id FROM message_due ORDER BY first_id').raw().all() as number[][];

/** Counts the writes of the message states and sources rows from now on (temporary triggers). */
function countRowWrites(core: Core): () => number {
  core.db.exec(`CREATE TEMP TABLE row_writes (n INTEGER);
    CREATE TEMP TRIGGER states_in AFTER INSERT ON message_states BEGIN INSERT INTO row_writes VALUES (1); END;
    CREATE TEMP TRIGGER states_up AFTER UPDATE ON message_states BEGIN INSERT INTO row_writes VALUES (1); END;
    CREATE TEMP TRIGGER sources_in AFTER INSERT ON message_sources BEGIN INSERT INTO row_writes VALUES (1); END;
    CREATE TEMP TRIGGER sources_up AFTER UPDATE ON message_sources BEGIN INSERT INTO row_writes VALUES (1); END;`);
  return () => core.db.prepare('SELECT count(*) FROM row_writes').pluck().get() as number;
}

describe('a group commit of acceptances', () => {
  it('writes the states and sources rows once, taking back what a refused request placed', async () => {
    const { core, account } = makeCore();
    const writes = countRowWrites(core);
    // The refused call is the first to use the panel's source of 30002222: its code is added and
    // rolled back, and the send after it in the group must add it again.
    const results = await Promise.allSettled([
      send(core, account.id),
      refused(core, account.id, '30002222', 'panel'),
      send(core, account.id, 1, '30002222', 'panel'),
      send(core, account.id, 3),
      send(core, account.id),
      // Last of the group: no later send is given its id.
      refused(core, account.id),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 412 });
    // One row of states and one of sources, for the four sends (ids in one chunk).
    expect(writes()).toBe(2);
    expect(
      core.db
        .prepare("SELECT count(*) FROM send_sources WHERE account_id = ? AND sender = '30002222' AND origin = 'panel'")
        .pluck()
        .get(account.id),
    ).toBe(1);
    expect(core.messaging.states.lookup(account.id, [1, 2, 3, 4, 5, 6, 7])).toEqual(
      new Map([1, 2, 3, 4, 5, 6].map((id) => [id, MessageStatus.Queued])),
    );
    expectAggregatesEqualScan(core.db);
  });

  it('makes consecutive one-message sends due together one range, and every message moves on', async () => {
    const { core, clock, account } = makeCore();
    await Promise.all([send(core, account.id), send(core, account.id)]);
    // A send of two keeps its range to itself; the refused call's id is given again to the next send.
    const group = await Promise.allSettled([
      send(core, account.id),
      send(core, account.id),
      send(core, account.id, 2),
      send(core, account.id),
      send(core, account.id),
      refused(core, account.id),
      send(core, account.id),
    ]);
    expect(group.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    // The first group's range stays its own: ranges join only within a group.
    expect(dueRanges(core)).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
      [7, 9],
    ]);
    clock.advance(60_000);
    await core.scheduler.drain();
    expect(dueRanges(core)).toEqual([]);
    expect(core.db.prepare('SELECT status, count(*) FROM messages GROUP BY status').raw().all()).toEqual([
      [MessageStatus.HandedToCarrier, 9],
    ]);
    expectAggregatesEqualScan(core.db);
  });

  it('takes back a multichannel call whose second channel is refused after its first was recorded', async () => {
    const { core, account } = makeCore();
    // First in the group: its SMS channel is recorded, then the Bale channel's line is an SMS line
    // (412) and the call rolls back; the next send is given its id. Before, the counts kept the
    // SMS channel's message.
    const multichannel = core.messaging.multichannel.sendInGroup({
      accountId: account.id,
      origin: 'api-v3',
      text: 'Your code is 1234',
      receivers: [nextReceiver()],
      rule: 'strict',
      senders: { sms: '30001111', bale: '30001111' },
    });
    const results = await Promise.allSettled([send(core, account.id), send(core, account.id), multichannel]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: 412 });
    expect(dueRanges(core)).toEqual([[1, 2]]);
    expectAggregatesEqualScan(core.db);
  });

  it('checks each credit against what the earlier sends of the group debited', async () => {
    const { core, account } = makeCore();
    const price = core.messaging.accept.quote({
      accountId: account.id,
      origin: 'api-v2',
      sender: '30001111',
      text: 'Your code is 1234',
      receivers: ['09120000001'],
      rule: 'strict',
    }).totalRials;
    core.credit.adjust(account.id, 2 * price - core.credit.available(account.id), 'two sends left', 'adjust');
    const results = await Promise.allSettled([send(core, account.id), send(core, account.id), send(core, account.id)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: 418 });
    expect(core.credit.balance(account.id)).toBe(0);
    expect(core.credit.ledgerSum(account.id)).toBe(0);
    expectAggregatesEqualScan(core.db);
  });
});
