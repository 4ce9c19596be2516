// Inbound messages: recording (an opt-out reply puts its sender on the list, in the same
// transaction), the API's unread fetch that marks read, counts by time range, the Inbox page's
// cursor and filters with the message each reply answers, and the simulator's replies: by the
// configured shares, the same for a seed, none at share 0, and neither lost nor repeated across a
// restart between the delivery and the reply.
import { describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { MessageStatus } from '../../../shared/lifecycle';
import { isOptOutReply } from '../../../shared/optout';
import { OPT_OUT_TEXTS, REPLY_TEXTS } from './carriers/simulator';
import type { SimulatorSettings } from '../settings/settings';

const START = Date.UTC(2026, 0, 5, 10, 0, 0);
const cores = testCores();

function open(dataDir = tempDir('chapar-inbox-'), clock = new ManualClock(START), seed = true) {
  const core = cores.open({ dataDir, clock, seed: false });
  if (seed) applySeed(core, testSeed());
  const account = core.accounts.findByName('acme')!.id;
  const other = core.accounts.findByName('other')!.id;
  return { core, clock, account, other, dataDir };
}

const phone = (n: number) => `0912${String(10_000_000 + n).slice(1)}`;

function send(core: Core, account: number, count: number, sender = '30001111') {
  return core.messaging.accept.accept({
    accountId: account,
    origin: 'panel',
    sender,
    text: 'تخفیف ویژه',
    receivers: Array.from({ length: count }, (_, i) => phone(i)),
    rule: 'lenient',
  });
}

/** Runs the scheduler's workers by hand, moving the clock, until nothing more is due within `ms`. */
function runFor(core: Core, clock: ManualClock, ms: number) {
  const end = clock.now() + ms;
  for (;;) {
    while (runAllDue(core)) {
      /* drain what is due now */
    }
    if (clock.now() >= end) return;
    clock.advance(Math.min(20, end - clock.now()));
  }
}

// The scheduler's due workers, run by hand (the scheduler is not started in these tests).
function runAllDue(core: Core): boolean {
  // The simulator's worker is synchronous (its runDue answers a boolean, never a promise).
  return core.messaging.lifecycle.step() !== null || core.messaging.lifecycle.carrier.worker?.runDue() === true;
}

const deliveredOf = (core: Core, account: number) =>
  core.db
    .prepare<[number, number], { id: number; receptor: string }>(
      'SELECT id, receptor FROM messages WHERE account_id = ? AND status = ? ORDER BY id',
    )
    .all(account, MessageStatus.Delivered);

const replying = (overrides: Partial<SimulatorSettings> = {}): SimulatorSettings => ({
  seed: 7,
  handoff_ms: 10,
  delivery_ms: 10,
  outcomes: { '10': 1 },
  reply_share: 1,
  optout_share: 0.5,
  reply_ms: 1000,
  ...overrides,
});

describe('recording a reply', () => {
  it('keeps the sender as 09xxxxxxxxx and the line in ASCII digits, unread', () => {
    const { core, account } = open();
    const row = core.inbox.record({
      accountId: account,
      lineNumber: '۳۰۰۰۱۱۱۱',
      sender: '+98 912 555 0001',
      text: 'ممنون',
    });
    expect(row).toMatchObject({
      line_number: '30001111',
      sender: '09125550001',
      text: 'ممنون',
      received_at: START,
      read_at: null,
      reply_to: null,
      opt_out: false,
    });
  });

  it('puts an opt-out reply’s sender on the account’s opt-out list, and only that account’s', () => {
    const { core, account, other } = open();
    const row = core.inbox.record({
      accountId: account,
      lineNumber: '30001111',
      sender: '09125550002',
      text: ' لغو ۱۱ ',
    });
    expect(row.opt_out).toBe(true);
    expect(core.optouts.has(account, '09125550002')).toBe(true);
    expect(core.optouts.has(other, '09125550002')).toBe(false);
  });

  it('does not take a sentence that merely contains 11 for an opt-out', () => {
    const { core, account } = open();
    const row = core.inbox.record({
      accountId: account,
      lineNumber: '30001111',
      sender: '09125550003',
      text: 'ساعت ۱۱ میام',
    });
    expect(row.opt_out).toBe(false);
    expect(core.optouts.has(account, '09125550003')).toBe(false);
  });

  it('records nothing of a batch when one of its rows fails (one transaction)', () => {
    const { core, account } = open();
    expect(() =>
      core.inbox.recordAll([
        { accountId: account, lineNumber: '30001111', sender: '09125550004', text: '11' },
        { accountId: 999_999, lineNumber: '30001111', sender: '09125550005', text: 'hi' },
      ]),
    ).toThrow();
    expect(core.inbox.counts(account).total).toBe(0);
    expect(core.optouts.has(account, '09125550004')).toBe(false);
  });

  it('tells who listens, once per account and batch', () => {
    const { core, account } = open();
    const told: unknown[] = [];
    core.events.on('inbound', (recorded) => told.push(recorded));
    const rows = core.inbox.recordAll([
      { accountId: account, lineNumber: '30001111', sender: '09125550006', text: 'لغو' },
      { accountId: account, lineNumber: '30001111', sender: '09125550007', text: 'ok' },
    ]);
    expect(told).toEqual([{ accountId: account, ids: rows.map((r) => r.id), optOuts: 1 }]);
  });
});

describe('receive and count (what API version 1 reads)', () => {
  it('gives the unread ones of a line oldest first and marks them read; then the read ones newest first', () => {
    const { core, clock, account } = open();
    for (let i = 0; i < 5; i++) {
      core.inbox.record({
        accountId: account,
        lineNumber: i < 3 ? '30001111' : '30002222',
        sender: phone(i),
        text: `r${i}`,
      });
      clock.advance(1000);
    }
    const unread = core.inbox.receive(account, '30001111', false, 2);
    expect(unread.map((r) => r.text)).toEqual(['r0', 'r1']);
    expect(unread.every((r) => r.read_at === clock.now())).toBe(true);
    expect(core.inbox.receive(account, '30001111', false).map((r) => r.text)).toEqual(['r2']);
    expect(core.inbox.receive(account, '30001111', false)).toEqual([]);
    expect(core.inbox.receive(account, '30001111', true).map((r) => r.text)).toEqual(['r2', 'r1', 'r0']);
    // The other line's stay unread.
    expect(core.inbox.counts(account)).toMatchObject({ unread: 2, total: 5 });
    expect(core.inbox.receive(account, '۳۰۰۰۲۲۲۲', true)).toEqual([]);
  });

  it('counts by time range (from inclusive, to exclusive), line and read state, one account only', () => {
    const { core, clock, account, other } = open();
    for (let i = 0; i < 4; i++) {
      core.inbox.record({
        accountId: account,
        lineNumber: i % 2 ? '30002222' : '30001111',
        sender: phone(i),
        text: 'x',
      });
      clock.advance(1000);
    }
    core.inbox.record({ accountId: other, lineNumber: '30009999', sender: phone(9), text: 'x' });
    core.inbox.receive(account, '30001111', false);
    expect(core.inbox.count(account, { from: START, to: START + 4000 })).toBe(4);
    expect(core.inbox.count(account, { from: START + 1000, to: START + 3000 })).toBe(2);
    expect(core.inbox.count(account, { from: START, to: START + 4000, lineNumber: '30002222' })).toBe(2);
    expect(core.inbox.count(account, { from: START, to: START + 4000, isRead: true })).toBe(2);
    expect(core.inbox.count(account, { from: START, to: START + 4000, isRead: false, lineNumber: '30002222' })).toBe(2);
    expect(core.inbox.count(other, { from: START, to: START + 10_000 })).toBe(1);
  });
});

describe('the Inbox page', () => {
  it('pages newest first by cursor, filters unread, opt-outs and a number typed in Persian digits', () => {
    const { core, account } = open();
    const texts = ['سلام', '11', 'ممنون', 'لغو', 'ok'];
    texts.forEach((text, i) =>
      core.inbox.record({ accountId: account, lineNumber: '30001111', sender: phone(i), text }),
    );
    const first = core.inbox.list(account, { limit: 2 });
    expect(first.items.map((r) => r.text)).toEqual(['ok', 'لغو']);
    const second = core.inbox.list(account, { limit: 2, before: first.next! });
    expect(second.items.map((r) => r.text)).toEqual(['ممنون', '11']);
    const last = core.inbox.list(account, { limit: 2, before: second.next! });
    expect(last).toMatchObject({ items: [{ text: 'سلام' }], next: null });

    expect(core.inbox.list(account, { opt_outs_only: true }).items.map((r) => r.text)).toEqual(['لغو', '11']);
    core.inbox.markRead(account, [first.items[0]!.id]);
    expect(core.inbox.list(account, { unread_only: true }).items).toHaveLength(4);
    expect(core.inbox.list(account, { search: '۰۰۰۰۰۰۲' }).items.map((r) => r.sender)).toEqual([phone(2)]);
    expect(core.inbox.list(account, { search: 'abc' }).items).toEqual([]);
  });

  it('links each reply to the message it answers (its text, sent time, line), only the account’s own', () => {
    const { core, account, other } = open();
    const sent = send(core, account, 1);
    const mine = core.inbox.record({
      accountId: account,
      lineNumber: '30001111',
      sender: phone(0),
      text: 'ممنون',
      replyTo: sent.firstMessageId,
    });
    const foreign = core.inbox.record({
      accountId: other,
      lineNumber: '30009999',
      sender: phone(0),
      text: 'ممنون',
      replyTo: sent.firstMessageId,
    });
    expect(core.inbox.list(account).items[0]).toMatchObject({
      id: mine.id,
      replied: { id: sent.firstMessageId, text: 'تخفیف ویژه\nلغو۱۱', sent_at: START, line_number: '30001111' },
    });
    expect(core.inbox.list(other).items[0]).toMatchObject({
      id: foreign.id,
      reply_to: sent.firstMessageId,
      replied: null,
    });
  });

  it('marks read the given ones, or all, of one account only', () => {
    const { core, account, other } = open();
    const rows = [0, 1, 2].map((i) =>
      core.inbox.record({ accountId: account, lineNumber: '30001111', sender: phone(i), text: 'x' }),
    );
    const theirs = core.inbox.record({ accountId: other, lineNumber: '30009999', sender: phone(0), text: 'x' });
    expect(core.inbox.markRead(account, [rows[0]!.id, theirs.id])).toBe(1);
    expect(core.inbox.counts(other).unread).toBe(1);
    expect(core.inbox.markRead(account)).toBe(2);
    expect(core.inbox.counts(account)).toEqual({ unread: 0, total: 3, unread_by_line: [] });
  });
});

describe('the simulator’s replies', () => {
  it('come reply_ms after delivery, one per delivered message at share 1, answering it from its receiver to its line', () => {
    const { core, clock, account } = open();
    core.settings.setSimulator(replying({ outcomes: { '10': 1, '11': 1 } }));
    send(core, account, 40);
    runFor(core, clock, 100);
    const delivered = deliveredOf(core, account);
    expect(delivered.length).toBeGreaterThan(5);
    expect(delivered.length).toBeLessThan(40);
    expect(core.inbox.counts(account).total).toBe(0);
    runFor(core, clock, 1000);
    const replies = core.inbox.list(account, { limit: 100 }).items;
    expect(replies.map((r) => r.reply_to).sort((a, b) => a! - b!)).toEqual(
      delivered.map((m) => m.id).sort((a, b) => a - b),
    );
    for (const reply of replies) {
      const message = delivered.find((m) => m.id === reply.reply_to)!;
      expect(reply).toMatchObject({ sender: message.receptor, line_number: '30001111' });
      expect([...REPLY_TEXTS, ...OPT_OUT_TEXTS]).toContain(reply.text);
      expect(reply.opt_out).toBe(isOptOutReply(reply.text));
      expect(core.optouts.has(account, reply.sender)).toBe(reply.opt_out);
    }
    // Both kinds at share 0.5, and every opt-out text is one.
    expect(replies.some((r) => r.opt_out)).toBe(true);
    expect(replies.some((r) => !r.opt_out)).toBe(true);
    for (const text of OPT_OUT_TEXTS) expect(isOptOutReply(text)).toBe(true);
    for (const text of REPLY_TEXTS) expect(isOptOutReply(text)).toBe(false);
    // Nothing more comes.
    runFor(core, clock, 5000);
    expect(core.inbox.counts(account).total).toBe(replies.length);
  });

  it('make none at reply_share 0, nor when the settings predate replies', () => {
    for (const simulator of [
      replying({ reply_share: 0 }),
      { seed: 7, handoff_ms: 10, delivery_ms: 10, outcomes: { '10': 1 } },
    ]) {
      const { core, clock, account } = open();
      core.settings.setSimulator(simulator);
      send(core, account, 50);
      runFor(core, clock, 10_000);
      expect(deliveredOf(core, account)).toHaveLength(50);
      expect(core.inbox.counts(account).total).toBe(0);
    }
  });

  it('follow the share roughly, and a seed always gives the same replies', () => {
    const runOnce = () => {
      const { core, clock, account } = open();
      core.settings.setSimulator(replying({ reply_share: 0.2, optout_share: 0.3 }));
      send(core, account, 400);
      runFor(core, clock, 2000);
      return core.inbox.list(account, { limit: 500 }).items.map((r) => [r.reply_to, r.text]);
    };
    const first = runOnce();
    expect(first.length).toBeGreaterThan(40);
    expect(first.length).toBeLessThan(120);
    expect(runOnce()).toEqual(first);
  });

  it('are neither lost nor repeated when the service stops between the delivery and the reply', async () => {
    const first = open();
    first.core.settings.setSimulator(replying({ optout_share: 0 }));
    send(first.core, first.account, 30);
    runFor(first.core, first.clock, 100);
    expect(first.core.inbox.counts(first.account).total).toBe(0);
    await first.core.close();
    cores.release(first.core);

    const again = open(first.dataDir, new ManualClock(first.clock.now()), false);
    runFor(again.core, again.clock, 2000);
    const replies = again.core.inbox.list(again.account, { limit: 100 }).items;
    expect(replies).toHaveLength(30);
    expect(new Set(replies.map((r) => r.reply_to)).size).toBe(30);
  });
});
