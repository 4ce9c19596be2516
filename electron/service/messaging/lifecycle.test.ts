import { describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { testSeed } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { draw, outcomeFor } from './carriers/simulator';
import { isFinalStatus } from '../../../shared/status';

const cores = testCores();

function makeCore(simulator = testSeed().simulator!) {
  const clock = new ManualClock();
  const core = cores.open({
    clock,
    seed: { ...testSeed(), simulator: { ...simulator, handoff_ms: 1000, delivery_ms: 5000 } },
  });
  const account = core.accounts.findByName('acme')!;
  return { core, clock, account };
}

/** A v2-style send of 'hi' from 30001111 through the acceptance path. */
function send(core: Core, accountId: number, list: string[]) {
  const acceptance = core.messaging.accept.accept({
    accountId,
    origin: 'api-v2',
    sender: '30001111',
    text: 'hi',
    receivers: list,
    rule: 'strict',
  });
  const ids = acceptance.classified.valid.map((_, n) => acceptance.firstMessageId + n);
  return { totalRials: acceptance.totalRials, ids, statuses: ids.map(() => acceptance.status) };
}
/** The next due time of the lifecycle or of the carrier's reports. */
function nextDue(core: Core): number | null {
  const due = [core.messaging.lifecycle.nextDueAt(), core.messaging.lifecycle.carrier.worker!.nextDueAt()];
  const found = due.filter((d): d is number => d !== null);
  return found.length === 0 ? null : Math.min(...found);
}

const receivers = (n: number) => Array.from({ length: n }, (_, i) => '0912' + String(i).padStart(7, '0'));
const statuses = (core: Core) =>
  core.db.prepare('SELECT id, status FROM messages ORDER BY id').all() as Array<{ id: number; status: number }>;

describe('simulator gateway', () => {
  it('moves 1 -> 4 -> final only when the clock reaches each due time', async () => {
    const { core, clock, account } = makeCore();
    send(core, account.id, receivers(50));
    await core.scheduler.drain();
    expect(new Set(statuses(core).map((m) => m.status))).toEqual(new Set([1]));
    clock.advance(999);
    await core.scheduler.drain();
    expect(new Set(statuses(core).map((m) => m.status))).toEqual(new Set([1]));
    clock.advance(1);
    await core.scheduler.drain();
    expect(new Set(statuses(core).map((m) => m.status))).toEqual(new Set([4]));
    clock.advance(5000);
    await core.scheduler.drain();
    expect(statuses(core).every((m) => isFinalStatus(m.status))).toBe(true);
    expect(nextDue(core)).toBeNull();
  });

  it('draws the same outcomes for the same seed, and different ones for another seed', async () => {
    const simulator = testSeed().simulator!;
    const run = async (seed: number) => {
      const { core, clock, account } = makeCore({ ...simulator, seed });
      send(core, account.id, receivers(400));
      clock.advance(1000);
      await core.scheduler.drain();
      clock.advance(5000);
      await core.scheduler.drain();
      return statuses(core).map((m) => m.status);
    };
    const a = await run(7);
    expect(await run(7)).toEqual(a);
    expect(await run(8)).not.toEqual(a);
  });

  it('follows the configured shares', () => {
    const simulator = {
      seed: 3,
      handoff_ms: 0,
      delivery_ms: 0,
      outcomes: { '10': 0.85, '11': 0.08, '13': 0.03, '14': 0.04 },
    };
    const counts: Record<number, number> = { 10: 0, 11: 0, 13: 0, 14: 0 };
    for (let id = 1; id <= 100_000; id++) counts[outcomeFor(simulator, id)]!++;
    expect(counts[10]! / 100_000).toBeCloseTo(0.85, 1);
    expect(counts[11]! / 100_000).toBeCloseTo(0.08, 1);
    expect(counts[13]! / 100_000).toBeCloseTo(0.03, 1);
    expect(counts[14]! / 100_000).toBeCloseTo(0.04, 1);
    for (let id = 1; id < 1000; id++) {
      const x = draw(3, id);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });

  it('refunds a cancelled (13) message once, and nothing moves again after a final status', async () => {
    const simulator = { seed: 1, handoff_ms: 0, delivery_ms: 0, outcomes: { '13': 1 } };
    const { core, clock, account } = makeCore(simulator);
    const before = core.credit.balance(account.id);
    const result = send(core, account.id, receivers(20));
    expect(core.credit.balance(account.id)).toBe(before - result.totalRials);
    clock.advance(1000);
    await core.scheduler.drain();
    clock.advance(5000);
    await core.scheduler.drain();
    expect(statuses(core).every((m) => m.status === 13)).toBe(true);
    expect(core.credit.balance(account.id)).toBe(before);
    // Asking again (a retry after a crash would) refunds nothing more.
    for (const m of statuses(core)) core.credit.refundMessage(account.id, m.id, 1500);
    expect(core.credit.balance(account.id)).toBe(before);
    expect(core.credit.ledgerSum(account.id)).toBe(before);
    clock.advance(60_000);
    await core.scheduler.drain();
    expect(statuses(core).every((m) => m.status === 13)).toBe(true);
  });

  it('ends an opted-out receiver as 14 without handing it to the carrier, refunded', async () => {
    const { core, clock, account } = makeCore({ seed: 1, handoff_ms: 0, delivery_ms: 0, outcomes: { '10': 1 } });
    core.db
      .prepare('INSERT INTO optouts (account_id, phone, created_at) VALUES (?, ?, 0)')
      .run(account.id, '09120000001');
    const before = core.credit.balance(account.id);
    const result = send(core, account.id, receivers(3));
    expect(result.statuses).toEqual([1, 1, 1]);
    clock.advance(1000);
    await core.scheduler.drain();
    const blocked = core.db.prepare('SELECT status, handed_at FROM messages WHERE receptor = ?').get('09120000001') as {
      status: number;
      handed_at: number | null;
    };
    expect(blocked).toEqual({ status: 14, handed_at: null });
    clock.advance(5000);
    await core.scheduler.drain();
    expect(core.credit.balance(account.id)).toBe(before - (result.totalRials * 2) / 3);
  });

  it('keeps what is due as ranges of ids: one per send, moved 500 at a time off the front', async () => {
    const { core, clock, account } = makeCore({ seed: 1, handoff_ms: 0, delivery_ms: 0, outcomes: { '10': 1 } });
    const ranges = () =>
      // The lifecycle's due moves and the simulator's due reports, together.
      core.db
        .prepare(
          `SELECT due_at, first_id, last_id FROM message_due UNION ALL SELECT due_at, first_id, last_id FROM simulator_due
           ORDER BY due_at, first_id`,
        )
        .all();
    const start = clock.now();
    const { ids } = send(core, account.id, receivers(1_200));
    const first = ids[0]!;
    expect(ranges()).toEqual([{ due_at: start + 1000, first_id: first, last_id: first + 1_199 }]);
    clock.advance(1000);
    // One step: the first 500 handed over, due again for delivery; the rest of the range waits.
    expect(core.messaging.lifecycle.step()!.map((c) => c.status)).toEqual(Array(500).fill(4));
    expect(ranges()).toEqual([
      { due_at: start + 1000, first_id: first + 500, last_id: first + 1_199 },
      { due_at: start + 6000, first_id: first, last_id: first + 499 },
    ]);
    await core.scheduler.drain();
    expect(ranges()).toEqual([
      { due_at: start + 6000, first_id: first, last_id: first + 499 },
      { due_at: start + 6000, first_id: first + 500, last_id: first + 999 },
      { due_at: start + 6000, first_id: first + 1000, last_id: first + 1_199 },
    ]);
    expect(nextDue(core)).toBe(start + 6000);
    clock.advance(5000);
    await core.scheduler.drain();
    expect(ranges()).toEqual([]);
    expect(statuses(core).every((m) => m.status === 10)).toBe(true);
    expect(core.messaging.lifecycle.step()).toBeNull();
  });

  it('moves sends made one by one together: one step takes the due ranges of many sends, up to 500 messages', async () => {
    const { core, clock, account } = makeCore({ seed: 1, handoff_ms: 0, delivery_ms: 0, outcomes: { '10': 1 } });
    // 700 one-receiver sends, as a program sending one message per request makes them: 700 ranges,
    // due at 70 different times.
    for (let i = 0; i < 700; i++) {
      send(core, account.id, ['0912' + String(i).padStart(7, '0')]);
      if (i % 10 === 9) clock.advance(1);
    }
    expect(core.db.prepare('SELECT COUNT(*) AS n FROM message_due').get()).toEqual({ n: 700 });
    clock.advance(1000);
    const first = core.messaging.lifecycle.step()!;
    expect(first).toHaveLength(500);
    expect(first.every((change) => change.status === 4)).toBe(true);
    // In id order, the earliest due first.
    expect(first.map((change) => change.id)).toEqual([...first.map((change) => change.id)].sort((x, y) => x - y));
    expect(core.messaging.lifecycle.step()!).toHaveLength(200);
    expect(core.messaging.lifecycle.step()).toBeNull();
    // The simulator's reports, one batch of 500 too.
    clock.advance(5000);
    expect(await core.messaging.lifecycle.carrier.worker!.runDue()).toBe(true);
    expect(statuses(core).filter((m) => m.status === 10)).toHaveLength(500);
    await core.scheduler.drain();
    expect(statuses(core).every((m) => m.status === 10)).toBe(true);
  });

  it("hands a step of several sends to each line's carrier: the simulator never reports a provider line's message", async () => {
    const { core, clock, account } = makeCore({ seed: 1, handoff_ms: 0, delivery_ms: 0, outcomes: { '10': 1 } });
    // 30002222 delivers through a provider (no key kept: its messages wait, handed over).
    core.accounts.setGateway(account.id, { number: '30002222', kind: 'kavenegar-v1', base_url: 'http://127.0.0.1:9' });
    const one = (sender: string, receiver: string) =>
      core.messaging.accept.accept({
        accountId: account.id,
        origin: 'panel',
        sender,
        text: 'hi',
        receivers: [receiver],
        rule: 'strict',
      }).firstMessageId;
    const a = one('30001111', '09120000001');
    const b = one('30002222', '09120000002');
    const c = one('30001111', '09120000003');
    expect([b, c]).toEqual([a + 1, a + 2]);
    clock.advance(1000);
    expect(core.messaging.lifecycle.step()!.map((change) => [change.id, change.status])).toEqual([
      [a, 4],
      [b, 4],
      [c, 4],
    ]);
    clock.advance(5000);
    await core.messaging.lifecycle.carrier.worker!.runDue();
    expect(statuses(core)).toEqual([
      { id: a, status: 10 },
      { id: b, status: 4 },
      { id: c, status: 10 },
    ]);
  });

  it("passes over messages already final inside a range; the carrier's ranges pass over no id it was not handed", async () => {
    const { core, clock, account } = makeCore({ seed: 1, handoff_ms: 0, delivery_ms: 0, outcomes: { '10': 1 } });
    core.db
      .prepare('INSERT INTO optouts (account_id, phone, created_at) VALUES (?, ?, 0)')
      .run(account.id, '09120000001');
    const [a, b, c] = send(core, account.id, receivers(3)).ids;
    clock.advance(1000);
    expect(core.messaging.lifecycle.step()).toEqual([
      { id: a, account_id: account.id, status: 4 },
      { id: b, account_id: account.id, status: 14 },
      { id: c, account_id: account.id, status: 4 },
    ]);
    // The carrier's ranges never pass over an id it was not handed: a step may gather several
    // sends, and the id between two of them may be another send's, on another line.
    expect(core.db.prepare('SELECT first_id, last_id FROM message_due').all()).toEqual([]);
    expect(core.db.prepare('SELECT first_id, last_id FROM simulator_due').all()).toEqual([
      { first_id: a, last_id: a },
      { first_id: c, last_id: c },
    ]);
    // Everything in a range may be final by then (here: cancelled by hand): the step changes
    // nothing, but the range goes.
    core.db.prepare('UPDATE messages SET status = 13').run();
    clock.advance(5000);
    const reported: unknown[] = [];
    core.events.on('message-status', (changes) => reported.push(...changes));
    expect(await core.messaging.lifecycle.carrier.worker!.runDue()).toBe(true);
    expect(reported).toEqual([]);
    expect(core.db.prepare('SELECT COUNT(*) AS n FROM simulator_due').get()).toEqual({ n: 0 });
    expect(core.messaging.lifecycle.step()).toBeNull();
  });
});
