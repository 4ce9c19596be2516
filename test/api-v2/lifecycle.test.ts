// The message lifecycle behind the API (spec 3.1; PRODUCT.md "Message lifecycle without a
// carrier", "Opt-outs"): 1 -> 4 -> one final status, final statuses never change, 13 refunds its
// cost exactly once, opted-out receivers end as 14 refunded, and a seed always gives the same
// outcomes. Time is a manual clock moved by the test; the scheduler is real.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import { outcomeFor } from '../../electron/service/messaging/carriers/simulator';
import type { SimulatorSettings } from '../../electron/service/settings/settings';
import { post, startServer, testSeed, type TestServer } from '../helpers/server';
import { accountId, counts, expectEnvelope, phones, refundRows } from './support';

const FINAL = [10, 11, 13, 14];
const open: TestServer[] = [];

async function start(simulator?: Partial<SimulatorSettings>) {
  const clock = new ManualClock();
  const seed = testSeed();
  seed.simulator = { ...seed.simulator!, ...simulator };
  const server = await startServer({ clock, seed });
  open.push(server);
  const acme = accountId(server.core, 'acme');
  /** Moves the clock on and waits until the scheduler has nothing due. */
  const advance = async (ms: number) => {
    clock.advance(ms);
    await server.core.scheduler.waitForIdle();
  };
  const send = async (receivers: string[], message = 'x') => {
    const result = await post(`${server.url}/v2/sms/send`, { message, sender: '30001111', receivers });
    expectEnvelope(result, 200);
    return result.body.entries.map((e: { messageid: number }) => e.messageid) as number[];
  };
  const statuses = async (ids: number[]) => {
    const result = await post(`${server.url}/v2/sms/status`, { messageids: ids });
    expectEnvelope(result, 200);
    return result.body.entries.map((e: { status: number }) => e.status) as number[];
  };
  return { server, clock, acme, advance, send, statuses, sim: server.core.settings.simulator() };
}

afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
});

describe('lifecycle', () => {
  it('moves 1 -> 4 -> final, and final statuses never change again', async () => {
    const { server, advance, send, statuses, sim } = await start();
    const ids = await send(phones(300));
    expect(await statuses(ids)).toEqual(ids.map(() => 1));
    await advance(sim.handoff_ms - 1);
    expect(await statuses(ids)).toEqual(ids.map(() => 1));
    await advance(1);
    expect(await statuses(ids)).toEqual(ids.map(() => 4));
    await advance(sim.delivery_ms);
    const final = await statuses(ids);
    for (const status of final) expect(FINAL).toContain(status);
    // Each outcome is the documented draw for (seed, id): nothing was moved twice.
    expect(final).toEqual(ids.map((id) => outcomeFor(sim, id)));
    const rows = () => server.core.db.prepare('SELECT id, status, final_at FROM messages ORDER BY id').all();
    const snapshot = rows();
    for (let i = 0; i < 5; i++) {
      await advance(3_600_000);
      await server.core.scheduler.drain();
      expect(await statuses(ids)).toEqual(final);
    }
    expect(rows()).toEqual(snapshot);
    // Nothing is left waiting for the gateway.
    expect(server.core.db.prepare('SELECT COUNT(*) AS n FROM message_due').get()).toEqual({ n: 0 });
  });

  it('refunds status 13 exactly once per message, and nothing else', async () => {
    const { server, acme, advance, send, statuses, sim } = await start({ outcomes: { '13': 1 } });
    const before = counts(server.core, acme);
    const ids = await send(phones(10), 'س'.repeat(65)); // two pages: 3,000 rials each
    expect(counts(server.core, acme).balance).toBe(before.balance - 10 * 3000);
    await advance(sim.handoff_ms);
    await advance(sim.delivery_ms);
    expect(await statuses(ids)).toEqual(ids.map(() => 13));
    const refunds = refundRows(server.core, acme);
    expect(refunds).toEqual(ids.map((message_id) => ({ message_id, amount_rials: 3000 })));
    const after = counts(server.core, acme);
    expect(after.balance).toBe(before.balance);
    expect(after.ledgerSum).toBe(after.balance);
    // Later steps, and a second refund asked for directly, change nothing.
    await advance(3_600_000);
    await server.core.scheduler.drain();
    expect(server.core.db.transaction(() => server.core.credit.refundMessage(acme, ids[0]!, 3000))()).toBe(false);
    expect(refundRows(server.core, acme)).toEqual(refunds);
    expect(counts(server.core, acme)).toEqual(after);
  });

  it('does not refund 10, 11 or a carrier 14', async () => {
    for (const outcome of ['10', '11', '14'] as const) {
      const { server, acme, advance, send, statuses, sim } = await start({ outcomes: { [outcome]: 1 } });
      const before = counts(server.core, acme);
      const ids = await send(phones(4));
      await advance(sim.handoff_ms);
      await advance(sim.delivery_ms);
      expect(await statuses(ids)).toEqual(ids.map(() => Number(outcome)));
      expect(refundRows(server.core, acme)).toEqual([]);
      const after = counts(server.core, acme);
      expect(after.balance).toBe(before.balance - 4 * 1500);
      expect(after.ledgerSum).toBe(after.balance);
    }
  });

  it("ends an opted-out receiver as 14 without reaching the carrier, refunded; another account's opt-out does not count", async () => {
    const { server, acme, advance, statuses, sim } = await start({ outcomes: { '10': 1 } });
    const other = accountId(server.core, 'other');
    const addOptOut = server.core.db.prepare('INSERT INTO optouts (account_id, phone, created_at) VALUES (?, ?, 0)');
    addOptOut.run(acme, '09125550001');
    addOptOut.run(other, '09125550002');
    const before = counts(server.core, acme);
    // Accepted like any valid number (status 1), whatever form it was given in.
    const result = await post(`${server.url}/v2/sms/send`, {
      message: 'x',
      sender: '30001111',
      receivers: ['+989125550001', '09125550002', '09125550003'],
    });
    expectEnvelope(result, 200);
    expect(result.body.entries.map((e: { status: number }) => e.status)).toEqual([1, 1, 1]);
    const ids = result.body.entries.map((e: { messageid: number }) => e.messageid) as number[];
    await advance(sim.handoff_ms);
    expect(await statuses(ids)).toEqual([14, 4, 4]);
    await advance(sim.delivery_ms);
    expect(await statuses(ids)).toEqual([14, 10, 10]);
    const blocked = server.core.db.prepare('SELECT handed_at, final_at FROM messages WHERE id = ?').get(ids[0]) as {
      handed_at: number | null;
    };
    expect(blocked.handed_at).toBeNull();
    expect(refundRows(server.core, acme)).toEqual([{ message_id: ids[0], amount_rials: 1500 }]);
    const after = counts(server.core, acme);
    expect(after.balance).toBe(before.balance - 2 * 1500);
    expect(after.ledgerSum).toBe(after.balance);
  });

  it('moves every message exactly once per step across a restart on the same workspace', async () => {
    const moves = new Map<number, number[]>();
    const record = (server: TestServer) =>
      server.core.events.on('message-status', (changes) => {
        for (const change of changes) moves.set(change.id, [...(moves.get(change.id) ?? []), change.status]);
      });
    const clock = new ManualClock();
    const seed = testSeed();
    seed.simulator = { ...seed.simulator!, outcomes: { '10': 1, '13': 1 } };
    const first = await startServer({ clock, seed });
    record(first);
    const sim = first.core.settings.simulator();
    const sent = await post(`${first.url}/v2/sms/send`, { message: 'x', sender: '30001111', receivers: phones(200) });
    expectEnvelope(sent, 200);
    const ids = sent.body.entries.map((e: { messageid: number }) => e.messageid) as number[];
    clock.advance(sim.handoff_ms);
    await first.core.scheduler.waitForIdle();
    await first.close();
    expect([...moves.values()].every((m) => m.length === 1 && m[0] === 4)).toBe(true);

    // The same folder, opened again; time goes on from where it stopped.
    const second = await startServer({ clock, seed, dataDir: first.dataDir });
    open.push(second);
    record(second);
    clock.advance(sim.delivery_ms);
    await second.core.scheduler.waitForIdle();
    clock.advance(3_600_000);
    await second.core.scheduler.waitForIdle();
    expect([...moves.keys()].sort((a, b) => a - b)).toEqual(ids);
    for (const id of ids) expect(moves.get(id)).toEqual([4, outcomeFor(sim, id)]);
    const acme = accountId(second.core, 'acme');
    const thirteens = ids.filter((id) => outcomeFor(sim, id) === 13);
    expect(thirteens.length).toBeGreaterThan(0);
    expect(refundRows(second.core, acme).map((r) => r.message_id)).toEqual(thirteens);
    expect(second.core.credit.ledgerSum(acme)).toBe(second.core.credit.balance(acme));
  });

  it('gives the same outcomes for the same seed, and other outcomes for another seed', async () => {
    const run = async (seed: number) => {
      const { advance, send, statuses, sim } = await start({ seed });
      const ids = await send(phones(400));
      await advance(sim.handoff_ms);
      await advance(sim.delivery_ms);
      return statuses(ids);
    };
    const first = await run(7);
    const second = await run(7);
    const third = await run(8);
    expect(second).toEqual(first);
    expect(third).not.toEqual(first);
    for (const status of [...first, ...third]) expect(FINAL).toContain(status);
    // The configured shares are honoured roughly (85/8/3/4 %): most are delivered, not all.
    const delivered = first.filter((s) => s === 10).length;
    expect(delivered).toBeGreaterThan(300);
    expect(delivered).toBeLessThan(400);
  });
});
