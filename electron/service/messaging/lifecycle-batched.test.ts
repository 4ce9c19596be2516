// A step and a report over many one-message sends make their moves in a few statements, not one
// per message, and move exactly as one by one would.
import { describe, expect, it } from 'vitest';
import type { Statement } from 'better-sqlite3';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { testSeed } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { MessageStatus } from '../../../shared/lifecycle';

const cores = testCores();

function makeCore() {
  const clock = new ManualClock();
  const simulator = { ...testSeed().simulator!, handoff_ms: 1000, delivery_ms: 5000, outcomes: { '10': 1 } };
  const core = cores.open({ clock, seed: { ...testSeed(), simulator } });
  const account = core.accounts.findByName('acme')!;
  return { core, clock, account };
}

/** `n` one-receiver sends, as a program sending one message per request makes them; their ids and one's cost. */
function oneByOne(core: Core, accountId: number, n: number): { ids: number[]; cost: number } {
  const ids: number[] = [];
  let cost = 0;
  for (let i = 0; i < n; i++) {
    const acceptance = core.messaging.accept.accept({
      accountId,
      origin: 'api-v2',
      sender: '30001111',
      text: 'hi',
      receivers: ['0912' + String(i).padStart(7, '0')],
      rule: 'strict',
    });
    ids.push(acceptance.firstMessageId);
    cost = acceptance.totalRials;
  }
  return { ids, cost };
}

/** The statements `work` runs on the messages table, each by its SQL (every statement is counted as it runs). */
function messageStatements(core: Core, work: () => void): string[] {
  const proto = Object.getPrototypeOf(core.db.prepare('SELECT 1')) as Record<string, unknown>;
  const names = ['run', 'get', 'all', 'iterate'] as const;
  const originals = names.map((name) => proto[name] as (...args: unknown[]) => unknown);
  const sources: string[] = [];
  names.forEach((name, i) => {
    proto[name] = function (this: Statement, ...args: unknown[]) {
      sources.push(this.source);
      return originals[i]!.apply(this, args);
    };
  });
  try {
    work();
  } finally {
    names.forEach((name, i) => (proto[name] = originals[i]));
  }
  return sources.filter((sql) => /\b(FROM|UPDATE|JOIN) messages\b/.test(sql));
}

const statusOf = (core: Core, id: number) =>
  (core.db.prepare('SELECT status FROM messages WHERE id = ?').get(id) as { status: number }).status;

describe('a lifecycle over many one-message sends', () => {
  it('steps 300 sends with one read and one hand-over, and reports them with one update a kind', () => {
    const { core, clock, account } = makeCore();
    const { ids } = oneByOne(core, account.id, 300);
    clock.advance(1000);
    let handed: number[] = [];
    const step = messageStatements(core, () => {
      handed = core.messaging.lifecycle.step()!.map((change) => change.status);
    });
    expect(handed).toEqual(Array(300).fill(MessageStatus.HandedToCarrier));
    // Before: a read, a send's read and a hand-over per send.
    expect(step.length).toBeLessThanOrEqual(2);
    const outcomes = ids.map((id, i) => ({
      id,
      status: i % 3 === 0 ? MessageStatus.Undelivered : MessageStatus.Delivered,
    }));
    const report = messageStatements(core, () => expect(core.messaging.lifecycle.report(outcomes)).toHaveLength(300));
    // One read and one update for each of the two kinds of move; before, an update per message.
    expect(report.length).toBeLessThanOrEqual(3);
    expect(ids.map((id) => statusOf(core, id))).toEqual(outcomes.map((outcome) => outcome.status));
  });

  it('reports as one by one would: in order, an id reported twice moved twice, each refund once', () => {
    const { core, clock, account } = makeCore();
    const { ids, cost } = oneByOne(core, account.id, 6);
    clock.advance(1000);
    core.messaging.lifecycle.step();
    const [a, b, c, d, e, f] = ids as [number, number, number, number, number, number];
    const before = core.credit.balance(account.id);
    const outcomes = [
      { id: a, status: MessageStatus.SendError },
      { id: b, status: MessageStatus.Delivered },
      { id: c, status: MessageStatus.Cancelled },
      { id: d, status: MessageStatus.Blocked, refund: true },
      { id: a, status: MessageStatus.Delivered },
      { id: e, status: MessageStatus.Blocked },
      { id: b, status: MessageStatus.Undelivered },
      { id: f, status: MessageStatus.SendError },
    ];
    expect(core.messaging.lifecycle.report(outcomes).map((change) => [change.id, change.status])).toEqual([
      [a, MessageStatus.SendError],
      [b, MessageStatus.Delivered],
      [c, MessageStatus.Cancelled],
      [d, MessageStatus.Blocked],
      [a, MessageStatus.Delivered],
      [e, MessageStatus.Blocked],
      [f, MessageStatus.SendError],
    ]);
    expect([a, b, c, d, e, f].map((id) => statusOf(core, id))).toEqual([10, 10, 13, 14, 14, 6]);
    // c is refunded by its move, d by the provider's word; e's block was sent, so it stays paid.
    expect(core.credit.balance(account.id) - before).toBe(2 * cost);
    // Without duplicates, moves of one kind go together, the refunding ones one by one.
    const more = oneByOne(core, account.id, 4).ids;
    clock.advance(1000);
    core.messaging.lifecycle.step();
    const again = core.credit.balance(account.id);
    const kinds = more.map((id, i) => ({ id, status: i < 2 ? MessageStatus.Cancelled : MessageStatus.Delivered }));
    expect(core.messaging.lifecycle.report(kinds).map((change) => change.id)).toEqual(more);
    expect(more.map((id) => statusOf(core, id))).toEqual([13, 13, 10, 10]);
    expect(core.credit.balance(account.id) - again).toBe(2 * cost);
    // Reported again, nothing moves and nothing is refunded twice.
    expect(core.messaging.lifecycle.report(kinds)).toEqual([]);
    expect(core.credit.balance(account.id) - again).toBe(2 * cost);
  });

  it('takes off the due ranges as far as one read of them all gave rows: one passing over gone messages, one shrunk', async () => {
    const { core, clock, account } = makeCore();
    const { ids } = oneByOne(core, account.id, 800);
    clock.advance(1000);
    // Two steps: the simulator's reports wait as two ranges, of 500 and 300.
    core.messaging.lifecycle.step();
    core.messaging.lifecycle.step();
    const first = ids[0]!;
    const due = () => core.db.prepare('SELECT first_id, last_id FROM simulator_due ORDER BY first_id').all();
    expect(due()).toEqual([
      { first_id: first, last_id: first + 499 },
      { first_id: first + 500, last_id: first + 799 },
    ]);
    // A hundred of the first range end meanwhile: it gives 400 reports, the second the 100 left of 500.
    core.db.prepare('UPDATE messages SET status = 13 WHERE id BETWEEN ? AND ?').run(first + 100, first + 199);
    clock.advance(5000);
    expect(await core.messaging.lifecycle.carrier.worker!.runDue()).toBe(true);
    expect(due()).toEqual([{ first_id: first + 600, last_id: first + 799 }]);
    const delivered = core.db.prepare('SELECT id FROM messages WHERE status = 10 ORDER BY id').pluck().all();
    expect(delivered).toEqual(ids.filter((id) => id < first + 600 && (id < first + 100 || id >= first + 200)));
  });
});
