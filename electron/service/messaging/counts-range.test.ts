// A count over a date range (queries.ts) equals a scan of the messages, whatever its ends: the
// whole 15-minute slots come from the aggregates, the partial slots at the ends from the message
// states and sources of their id range. Seeded random ranges (ends on messages' own times, a
// millisecond either side, on slot edges, or open) and filters, after sends crossing the states'
// rows, moves and refunds, cancels, retention, and in a workspace upgraded with messages whose
// rows are not filled yet, while the fill goes on.
import { describe, expect, it, vi } from 'vitest';
import { expectAggregatesEqualScan } from '../../../test/helpers/counts';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { mulberry32 } from '../seeded-random';
import { STATES_TO_FILL } from '../db/migrations/0023-message-states';
import { SLOT_MS } from './counts';
import { STATES_CHUNK } from './message-states';
import type { Origin } from '../../../shared/lines';
import type { MessageFilter } from '../../../shared/ipc/schemas';

const cores = testCores();

const LINES: Array<{ account: 'acme' | 'other'; sender: string; origin: Origin }> = [
  { account: 'acme', sender: '30001111', origin: 'api-v2' },
  { account: 'acme', sender: '30001111', origin: 'panel' },
  { account: 'acme', sender: '30002222', origin: 'campaign' },
  { account: 'acme', sender: 'bale_acme_bot', origin: 'api-v1' },
  { account: 'other', sender: '30009999', origin: 'api-v2' },
];
/** A send's size: single messages, small ones, and some over a row of states (2,000 ids). */
const SIZES = [1, 1, 1, 3, 40, 300, 2_500];

function open(dataDir: string, clock: ManualClock): Core {
  const core = cores.open({ dataDir, clock, seed: false });
  return core;
}

function makeCore() {
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 8, 7, 0));
  const dataDir = tempDir();
  const core = open(dataDir, clock);
  applySeed(core, {
    ...testSeed(),
    simulator: {
      seed: 3,
      handoff_ms: 60_000,
      delivery_ms: 600_000,
      outcomes: { '6': 0.05, '10': 0.7, '11': 0.1, '13': 0.05, '14': 0.1 },
    },
  });
  for (const name of ['acme', 'other']) core.credit.adjust(core.accounts.findByName(name)!.id, 10_000_000_000, 'test');
  return { core, clock, dataDir };
}

/** Sends at random times a few minutes (or no time) apart, some on a slot's edge, some scheduled for later. */
function sendSome(core: Core, clock: ManualClock, random: () => number, sends: number): void {
  let phone = Math.floor(random() * 1_000_000);
  for (let i = 0; i < sends; i++) {
    const line = LINES[Math.floor(random() * LINES.length)]!;
    const n = SIZES[Math.floor(random() * SIZES.length)]!;
    core.messaging.accept.accept({
      accountId: core.accounts.findByName(line.account)!.id,
      origin: line.origin,
      sender: line.sender,
      text: 'Spring sale',
      receivers: Array.from({ length: n }, () => '0912' + String(phone++ % 10_000_000).padStart(7, '0')),
      rule: 'strict',
      dueAt: random() < 0.1 ? clock.now() + 3_600_000 : undefined,
    });
    const gap = random();
    if (gap < 0.2) continue;
    // Now and then on a slot's edge, or a millisecond before it.
    const edge = (Math.floor(clock.now() / SLOT_MS) + 1) * SLOT_MS - (random() < 0.5 ? 1 : 0);
    clock.advance(gap < 0.3 ? edge - clock.now() : Math.floor(random() * (gap < 0.7 ? 60_000 : 20 * 60_000)));
  }
}

/** The filter's count over the messages themselves, by its plain meaning. */
function scanned(core: Core, filter: MessageFilter): number {
  const parts = ['m.account_id IN (SELECT id FROM accounts)'];
  const params: Array<number | string> = [];
  const add = (sql: string, ...values: Array<number | string>) => {
    parts.push(sql);
    params.push(...values);
  };
  if (filter.account_id !== undefined) add('m.account_id = ?', filter.account_id);
  if (filter.status?.length) add(`m.status IN (${filter.status.map(() => '?').join(',')})`, ...filter.status);
  if (filter.sender !== undefined) add('s.sender = ?', filter.sender);
  if (filter.origin !== undefined) add('s.origin = ?', filter.origin);
  if (filter.from !== undefined) add('m.created_at >= ?', filter.from);
  if (filter.to !== undefined) add('m.created_at < ?', filter.to);
  const sql = `SELECT count(*) FROM messages m JOIN sends s ON s.id = m.send_id WHERE ${parts.join(' AND ')}`;
  return core.db
    .prepare(sql)
    .pluck()
    .get(...params) as number;
}

/**
 * Random filters: ends on a message's time, a millisecond either side, on a slot's edge or a
 * millisecond off it, anywhere in the span, or open; statuses, an account, a line and an origin
 * sometimes (now and then one no message has).
 */
function randomFilter(core: Core, random: () => number): MessageFilter {
  const times = core.db.prepare('SELECT DISTINCT created_at FROM messages').pluck().all() as number[];
  const lo = Math.min(...times) - 2 * SLOT_MS;
  const hi = Math.max(...times) + 2 * SLOT_MS;
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const end = (): number | undefined => {
    const kind = random();
    if (kind < 0.1) return undefined;
    if (kind < 0.55) return pick(times) + pick([-1, 0, 0, 1]);
    if (kind < 0.8) return Math.floor((lo + random() * (hi - lo)) / SLOT_MS) * SLOT_MS + pick([-1, 0, 0, 1]);
    return Math.floor(lo + random() * (hi - lo));
  };
  const [a, b] = [end(), end()];
  const filter: MessageFilter =
    a !== undefined && b !== undefined ? { from: Math.min(a, b), to: Math.max(a, b) } : { from: a, to: b };
  if (filter.from === undefined) delete filter.from;
  if (filter.to === undefined) filter.from ??= lo;
  if (random() < 0.4) filter.status = [pick([1, 2, 4, 6, 10, 11, 13, 14])];
  else if (random() < 0.2) filter.status = [10, 13, 14];
  if (random() < 0.4) filter.account_id = core.accounts.findByName(pick(['acme', 'other']))!.id;
  if (random() < 0.3) filter.sender = pick([...LINES.map((l) => l.sender), '30005555']);
  if (random() < 0.3) filter.origin = pick(['api', 'panel', 'campaign'] as const);
  return filter;
}

async function expectCountsEqualScan(core: Core, random: () => number, ranges = 250): Promise<void> {
  for (let i = 0; i < ranges; i++) {
    const filter = randomFilter(core, random);
    expect({ filter, count: await core.messaging.queries.count(filter) }).toEqual({
      filter,
      count: scanned(core, filter),
    });
  }
}

describe('counts over date ranges', () => {
  for (const seed of [1, 2])
    it(`equal a scan at any ends, after sends, moves, refunds, cancels and retention (seed ${seed})`, async () => {
      const random = mulberry32(seed);
      const { core, clock } = makeCore();
      // The messages are never read for a count of these filters (the scans below read them on the
      // writer's connection, not on a reader thread).
      const reads = vi.spyOn(core.readers, 'get');
      sendSome(core, clock, random, 40);
      const last = core.db.prepare('SELECT max(id) FROM messages').pluck().get() as number;
      // Several rows of states in one slot: the ends of a range cross rows.
      expect(last).toBeGreaterThan(3 * STATES_CHUNK);
      await expectCountsEqualScan(core, random);

      // Handed over, delivered or not, refunded; some cancelled while scheduled.
      clock.advance(120_000);
      await core.scheduler.drain();
      const acme = core.accounts.findByName('acme')!.id;
      core.messaging.lifecycle.cancel(
        acme,
        Array.from({ length: 400 }, () => 1 + Math.floor(random() * last)),
      );
      clock.advance(3_600_000);
      await core.scheduler.drain();
      expect(core.db.prepare('SELECT count(DISTINCT status) FROM messages').pluck().get()).toBeGreaterThanOrEqual(5);
      await expectCountsEqualScan(core, random);

      // Retention removes the oldest ids and a range in the middle, forgetting them first.
      const cut = Math.floor(last / 3);
      for (const [first, lastId] of [
        [1, cut],
        [cut + 700, cut + 2_600],
      ] as const)
        core.db.transaction(() => {
          core.messaging.counts.forgetMessages(first, lastId);
          core.messaging.states.forget(first, lastId);
          core.db.prepare('DELETE FROM messages WHERE id BETWEEN ? AND ?').run(first, lastId);
        })();
      sendSome(core, clock, random, 10);
      await expectCountsEqualScan(core, random);
      expectAggregatesEqualScan(core.db);
      expect(reads).not.toHaveBeenCalled();
    });

  it('equal a scan in a workspace upgraded with messages, before, while and after the fill', async () => {
    const random = mulberry32(7);
    const made = makeCore();
    sendSome(made.core, made.clock, random, 30);
    made.clock.advance(120_000);
    await made.core.scheduler.drain();
    // As migration 0025 leaves a workspace with messages: no sources, every chunk to fill again
    // (the states' rows as they were, to be written over).
    made.core.db.exec(`DELETE FROM message_sources; DELETE FROM send_sources; ${STATES_TO_FILL}`);
    await made.core.close();
    cores.release(made.core);
    const core = open(made.dataDir, made.clock);
    const fill = () => core.db.prepare('SELECT next_chunk, end_chunk FROM message_states_fill').get();
    expect(fill()).toEqual({ next_chunk: 0, end_chunk: expect.any(Number) });
    await expectCountsEqualScan(core, random, 100);

    // Moves in the chunks not filled (the writers leave them), new sends after them, then one step.
    made.clock.advance(3_600_000);
    await core.messaging.lifecycle.carrier.worker!.runDue();
    sendSome(core, made.clock, random, 5);
    expect(core.messaging.states.worker.runDue()).toBe(true);
    const { next_chunk: filled, end_chunk: end } = fill() as { next_chunk: number; end_chunk: number };
    expect(0 < filled && filled < end).toBe(true);
    await expectCountsEqualScan(core, random, 100);

    await core.scheduler.drain();
    expect(fill()).toBeUndefined();
    await expectCountsEqualScan(core, random, 100);
    expectAggregatesEqualScan(core.db);
  });
});
