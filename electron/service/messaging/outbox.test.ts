// API version 1's outbox reads over the real store: only the account's own messages, in the range
// asked, newest first or counted; the limits and the range rule; and every statement searches by an
// index (no read walks the whole messages table or other accounts' sends).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { ServiceError } from '../errors';
import { testCores } from '../../../test/helpers/core';
import { MessageStatus } from '../../../shared/lifecycle';
import { BETWEEN_SQL, COUNT_SQL, LATEST_SQL, OWN_TEXTS_SQL, RANGE_LIMIT_MS, readRange } from './outbox';

const cores = testCores();

const START = Date.UTC(2026, 0, 1);
const HOUR = 60 * 60 * 1000;

function makeCore() {
  const clock = new ManualClock(START);
  const core = cores.open({ clock });
  const acme = core.accounts.findByName('acme')!.id;
  const other = core.accounts.findByName('other')!.id;
  const send = (accountId: number, sender: string, receivers: string[], text = 'hello') =>
    core.messaging.accept.accept({ accountId, origin: 'api-v1', sender, text, receivers, rule: 'strict' });
  return { core, clock, acme, other, send };
}

function code(run: () => unknown): number | 'ok' {
  try {
    run();
    return 'ok';
  } catch (error) {
    if (error instanceof ServiceError) return error.code;
    throw error;
  }
}

describe('readRange', () => {
  it('takes a day at most, refuses an end before the start (417) and ends a day on or now without an end', () => {
    expect(readRange(START, START + RANGE_LIMIT_MS, START)).toEqual({ from: START, to: START + RANGE_LIMIT_MS });
    expect(code(() => readRange(START, START + RANGE_LIMIT_MS + 1000, START))).toBe(417);
    expect(code(() => readRange(START, START - 1000, START))).toBe(417);
    expect(readRange(START, undefined, START + HOUR)).toEqual({ from: START, to: START + HOUR });
    expect(readRange(START, undefined, START + 5 * RANGE_LIMIT_MS)).toEqual({
      from: START,
      to: START + RANGE_LIMIT_MS,
    });
    expect(readRange(START + HOUR, undefined, START)).toEqual({ from: START + HOUR, to: START + HOUR });
  });
});

describe('the outbox of an account', () => {
  it('selects its own messages by id, in the order asked, and answers 100 for another account’s or an unknown id', () => {
    const { core, acme, other, send } = makeCore();
    const mine = send(acme, '30001111', ['09120000001', '09120000002']);
    const theirs = send(other, '30009999', ['09120000003']);
    const entries = core.messaging.outbox.select(acme, [
      mine.firstMessageId + 1,
      theirs.firstMessageId,
      999,
      mine.firstMessageId,
    ]);
    expect(entries.map((e) => [e.messageid, e.status, e.receptor])).toEqual([
      [mine.firstMessageId + 1, MessageStatus.Queued, '09120000002'],
      [theirs.firstMessageId, 100, ''],
      [999, 100, ''],
      [mine.firstMessageId, MessageStatus.Queued, '09120000001'],
    ]);
    expect(entries[0]).toEqual({
      messageid: mine.firstMessageId + 1,
      message: mine.price.text,
      status: 1,
      statustext: 'در صف ارسال',
      sender: '30001111',
      receptor: '09120000002',
      date: START / 1000,
      cost: mine.price.costRials,
    });
    expect(
      code(() =>
        core.messaging.outbox.select(
          acme,
          Array.from({ length: 501 }, (_, i) => i + 1),
        ),
      ),
    ).toBe(414);
    expect(
      core.messaging.outbox.select(
        acme,
        Array.from({ length: 500 }, (_, i) => i + 1),
      ),
    ).toHaveLength(500);
  });

  it('reads a range of its own messages, oldest first, from one of its lines if named (412 for another’s)', () => {
    const { core, clock, acme, other, send } = makeCore();
    const before = send(acme, '30001111', ['09120000001']);
    clock.advance(HOUR);
    const first = send(acme, '30001111', ['09120000002', '09120000003']);
    send(other, '30009999', ['09120000004']);
    clock.advance(HOUR);
    const bale = send(acme, 'bale_acme_bot', ['09120000005']);
    clock.advance(HOUR);
    send(acme, '30001111', ['09120000006']);
    const range = { from: START + HOUR, to: START + 3 * HOUR };
    const outbox = core.messaging.outbox;
    expect(outbox.between(acme, range).map((e) => e.messageid)).toEqual([
      first.firstMessageId,
      first.firstMessageId + 1,
      bale.firstMessageId,
    ]);
    expect(outbox.between(acme, range, 'bale_acme_bot').map((e) => e.messageid)).toEqual([bale.firstMessageId]);
    expect(outbox.between(acme, range, '۳۰۰۰۱۱۱۱').map((e) => e.messageid)).toEqual([
      first.firstMessageId,
      first.firstMessageId + 1,
    ]);
    expect(outbox.between(acme, { from: START, to: START + 1 }).map((e) => e.messageid)).toEqual([
      before.firstMessageId,
    ]);
    expect(outbox.between(acme, { from: START + 10 * HOUR, to: START + 11 * HOUR })).toEqual([]);
    expect(outbox.between(other, range).map((e) => e.receptor)).toEqual(['09120000004']);
    expect(code(() => outbox.between(acme, range, '30009999'))).toBe(412);
  });

  it('reads its newest messages, newest first, at most pagesize (1 to 500), from one line if named', () => {
    const { core, clock, acme, other, send } = makeCore();
    const a = send(acme, '30001111', ['09120000001', '09120000002']);
    clock.advance(1000);
    send(other, '30009999', ['09120000003']);
    const b = send(acme, 'bale_acme_bot', ['09120000004']);
    const outbox = core.messaging.outbox;
    expect(outbox.latest(acme, 500).map((e) => e.messageid)).toEqual([
      b.firstMessageId,
      a.firstMessageId + 1,
      a.firstMessageId,
    ]);
    expect(outbox.latest(acme, 2).map((e) => e.messageid)).toEqual([b.firstMessageId, a.firstMessageId + 1]);
    expect(outbox.latest(acme, 500, '30001111').map((e) => e.receptor)).toEqual(['09120000002', '09120000001']);
    expect(code(() => outbox.latest(acme, 501))).toBe(414);
    expect(code(() => outbox.latest(acme, 0))).toBe(400);
    expect(code(() => outbox.latest(acme, 10, '30009999'))).toBe(412);
  });

  it('counts messages, pages and cost over a range, of some statuses if named; personalized texts by their own pages', () => {
    const { core, clock, acme, other, send } = makeCore();
    // 300 Persian characters with the opt-out phrase: 5 pages.
    const long = send(acme, '30001111', ['09120000001', '09120000002'], 'س'.repeat(300));
    send(other, '30009999', ['09120000003']);
    const bale = send(acme, 'bale_acme_bot', ['09120000004']);
    const own = core.messaging.accept.accept({
      accountId: acme,
      origin: 'api-v1',
      sender: '30001111',
      text: 'hi',
      texts: ['س'.repeat(100)],
      receivers: ['09120000005'],
      rule: 'strict',
    });
    clock.advance(HOUR);
    const range = { from: START, to: START + HOUR };
    const outbox = core.messaging.outbox;
    expect(long.price.pages).toBe(5);
    expect(own.texts![0]).not.toBe(own.price.text);
    expect(outbox.count(acme, range)).toEqual({
      sumcount: 4,
      sumpart: 5 + 5 + 1 + 2,
      cost: long.totalRials + bale.totalRials + own.totalRials,
    });
    expect(outbox.count(acme, range, [MessageStatus.Queued])).toMatchObject({ sumcount: 4 });
    expect(outbox.count(acme, range, [MessageStatus.Delivered])).toEqual({ sumcount: 0, sumpart: 0, cost: 0 });
    expect(outbox.count(acme, { from: START + HOUR, to: START + 2 * HOUR })).toEqual({
      sumcount: 0,
      sumpart: 0,
      cost: 0,
    });
  });

  it('searches by index in every read: no statement scans messages or sends', () => {
    const { core } = makeCore();
    const statements = [
      BETWEEN_SQL(false),
      BETWEEN_SQL(true),
      LATEST_SQL(false),
      LATEST_SQL(true),
      COUNT_SQL(false),
      COUNT_SQL(true),
      OWN_TEXTS_SQL(false),
      OWN_TEXTS_SQL(true),
    ];
    for (const sql of statements) {
      const plan = core.db
        .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 1))
        .map((row) => row.detail);
      expect(
        plan.filter((detail) => /^SCAN (s|m)\b/.test(detail)),
        `${sql}\n${plan.join('\n')}`,
      ).toEqual([]);
      // A line's sends by the line's index, not by walking all of the account's.
      if (sql.includes('s.sender = ?')) expect(plan.join('\n')).toContain('sends_sender');
    }
  });
});
