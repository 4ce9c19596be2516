// Money entering an account is bounded where it enters (shared/credit.ts), so a balance and the sum
// of its ledger stay exact numbers that agree; and the ledger lists each charge (a send, a campaign's
// run) as one named row with its refunds taken off, paged, at a cost that follows the page and not
// the ledger's size.
import { describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { ServiceError } from '../errors';
import { testSeed } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { refusal } from '../../../test/helpers/refusal';
import { MAX_BALANCE_RIALS, MAX_CREDIT_CHANGE_RIALS } from '../../../shared/credit';
import type { LedgerRow } from './credit';
import { panelSend } from '../messaging/compose';

const cores = testCores();

function makeCore(outcomes: Record<string, number> = { '10': 1 }, startScheduler = false) {
  const clock = new ManualClock();
  const core = cores.open({
    clock,
    startScheduler,
    seed: { ...testSeed(), simulator: { seed: 1, handoff_ms: 10, delivery_ms: 20, outcomes } },
  });
  return { core, clock, acme: core.accounts.findByName('acme')!.id };
}

describe('credit entering an account', () => {
  it('is at most 10^13 rials at once: a larger top-up or correction is refused with its reason', () => {
    const { core, acme } = makeCore();
    const before = core.credit.balance(acme);
    expect(refusal(() => core.credit.adjust(acme, MAX_CREDIT_CHANGE_RIALS + 1))).toBe('amount_too_large');
    // 99,999,999,999,999,999,999 as a form would parse it: past exact integers.
    expect(refusal(() => core.credit.adjust(acme, Number('99999999999999999999999')))).toBe('amount_too_large');
    expect(refusal(() => core.credit.adjust(acme, MAX_CREDIT_CHANGE_RIALS + 1, '', 'adjust'))).toBe('amount_too_large');
    // Taking credit away is bounded by the balance: never below zero (418).
    expect(refusal(() => core.credit.adjust(acme, -MAX_CREDIT_CHANGE_RIALS - 1, '', 'adjust'))).toBe('code 418');
    expect(refusal(() => core.credit.adjust(acme, 0))).toBe('amount_not_positive');
    expect(refusal(() => core.credit.adjust(acme, -5))).toBe('amount_not_positive');
    expect(core.credit.balance(acme)).toBe(before);
    expect(core.credit.adjust(acme, MAX_CREDIT_CHANGE_RIALS)).toBe(before + MAX_CREDIT_CHANGE_RIALS);
  });

  it('stops at a balance of 10^15 rials: repeated top-ups cannot pass it, and balance and ledger keep agreeing', () => {
    const { core, acme } = makeCore();
    let refused = 0;
    for (let i = 0; i < 1_000 && refused === 0; i++) {
      try {
        core.credit.adjust(acme, MAX_CREDIT_CHANGE_RIALS);
      } catch (error) {
        expect((error as ServiceError).reason).toBe('balance_too_large');
        refused++;
      }
    }
    expect(refused).toBe(1);
    const balance = core.credit.balance(acme);
    expect(balance).toBeLessThanOrEqual(MAX_BALANCE_RIALS);
    expect(balance + MAX_CREDIT_CHANGE_RIALS).toBeGreaterThan(MAX_BALANCE_RIALS);
    expect(Number.isSafeInteger(balance)).toBe(true);
    expect(core.credit.ledgerSum(acme)).toBe(balance);
    // A smaller top-up that fits still goes in.
    expect(core.credit.adjust(acme, MAX_BALANCE_RIALS - balance)).toBe(MAX_BALANCE_RIALS);
  });

  it('is bounded for an opening credit and a seed file too, and nothing is half made', () => {
    const { core } = makeCore();
    expect(refusal(() => core.accounts.create({ name: 'rich', credit_rials: MAX_CREDIT_CHANGE_RIALS * 10 }))).toBe(
      'amount_too_large',
    );
    expect(core.accounts.findByName('rich')).toBeUndefined();
    expect(() => applySeed(core, { accounts: [{ name: 'rich', credit_rials: 2 ** 60 }] })).toThrow();
    expect(core.accounts.findByName('rich')).toBeUndefined();
  });
});

describe('changes of credit told', () => {
  it('once per turn for all its writes, with the balance after them, whatever wrote them', async () => {
    const { core, clock, acme } = makeCore({ '13': 1 });
    const told: Array<Array<{ account_id: number; credit_rials: number }>> = [];
    // The seed's opening credits are told first.
    await new Promise((resolve) => setImmediate(resolve));
    core.events.on('credit', (credits) => told.push(credits));
    core.credit.adjust(acme, 1000);
    core.credit.adjust(acme, 2000, '', 'adjust');
    expect(told).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toEqual([[{ account_id: acme, credit_rials: core.credit.balance(acme) }]]);
    // A send's charge, then its messages' refunds (a batch of them is one change told).
    panelSend(core, { account_id: acme, sender: '30001111', message: 'hi', receivers: ['09120000001', '09120000002'] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toHaveLength(2);
    for (let i = 0; i < 3; i++) {
      clock.advance(100);
      await core.scheduler.drain();
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(told.at(-1)).toEqual([{ account_id: acme, credit_rials: core.credit.balance(acme) }]);
    expect(told.length).toBeLessThanOrEqual(4);
  });
});

describe('the ledger', () => {
  /** Sends `n` messages from the panel and lets the simulator end them all (cancelled: refunded). */
  async function sendAndEnd(core: Core, clock: ManualClock, acme: number, n: number): Promise<number> {
    const receivers = Array.from({ length: n }, (_, i) => '0912' + String(i).padStart(7, '0'));
    const { send_id } = panelSend(core, {
      account_id: acme,
      sender: '30001111',
      message: 'hi',
      receivers,
    });
    for (let i = 0; i < 3; i++) {
      clock.advance(100);
      await core.scheduler.drain();
    }
    return send_id;
  }

  /** Every page of the ledger, `limit` rows at a time. */
  function allPages(core: Core, acme: number, limit: number): LedgerRow[][] {
    const pages: LedgerRow[][] = [];
    let before: number | undefined;
    for (;;) {
      const page = core.credit.ledger(acme, { limit, ...(before === undefined ? {} : { beforeId: before }) });
      pages.push(page.entries);
      if (page.next_before_id === null) return pages;
      before = page.next_before_id;
    }
  }

  /** A campaign to the given numbers, two messages a minute (a send per batch), due now; its execution. */
  async function campaign(core: Core, acme: number, name: string, phones: string[]): Promise<number> {
    const { segment_id } = core.uploads.create(
      acme,
      phones.map((phone_number) => ({ phone_number })),
    );
    await core.jobs.waitForIdle();
    const created = core.campaigns.create(acme, {
      sender: '30001111',
      name,
      template_body: 'Friday sale',
      send_datetime: new Date(core.clock.now()).toISOString(),
      inclusion_segments: [String(segment_id)],
      exclusion_segments: [],
      links: [],
      utm: {},
      send_rate: '2',
    });
    const recorded = () =>
      core.db
        .prepare<[number], { audience: number | null; recorded: number }>(
          'SELECT audience, recorded FROM campaign_executions WHERE id = ?',
        )
        .get(created.execution_id)!;
    for (let i = 0; i < 20; i++) {
      await core.jobs.waitForIdle();
      await core.scheduler.waitForIdle();
      const { audience, recorded: done } = recorded();
      if (audience !== null && done === audience) break;
      (core.clock as ManualClock).advance(1000);
    }
    return created.execution_id;
  }

  /** A row's name: a campaign's, or the first word of a send's text (the opt-out line follows it). */
  const label = (row: LedgerRow) =>
    row.group === null ? undefined : row.group.execution_id !== null ? row.group.name : row.group.name.split(/\s/)[0];

  const phones = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => '0935' + String(from + i).padStart(7, '0'));

  it('lists each send as one named row (charged, refunded, net), which expands to its refunds', async () => {
    const { core, clock, acme } = makeCore({ '13': 1 });
    const first = await sendAndEnd(core, clock, acme, 12);
    const second = await sendAndEnd(core, clock, acme, 3);
    core.credit.adjust(acme, 5000, 'cash');
    const { entries, next_before_id } = core.credit.ledger(acme);
    expect(next_before_id).toBeNull();
    expect(
      entries.map((e) => [e.kind, e.send_id, e.amount_rials, e.group?.charged_rials, e.group?.refunded_rials]),
    ).toEqual([
      ['topup', null, 5000, undefined, undefined],
      ['send', second, 0, 3 * 1500, 3 * 1500],
      ['send', first, 0, 12 * 1500, 12 * 1500],
      ['topup', null, 10_000_000, undefined, undefined],
    ]);
    expect(entries[1]!.group!.name).toMatch(/^hi\b/);
    expect(entries[1]!.group).toMatchObject({ origin: 'panel', sender: '30001111', refund_count: 3 });
    expect(entries.reduce((sum, e) => sum + e.amount_rials, 0)).toBe(core.credit.balance(acme));

    const expanded = core.credit.ledger(acme, { sendId: first, limit: 5 });
    expect(expanded.entries).toHaveLength(5);
    expect(expanded.entries.every((e) => e.kind === 'refund' && e.message_id !== null && e.group === null)).toBe(true);
    const rest = core.credit.ledger(acme, { sendId: first, limit: 100, beforeId: expanded.next_before_id! });
    expect(rest.next_before_id).toBeNull();
    expect([...expanded.entries, ...rest.entries].map((e) => e.amount_rials)).toEqual(Array(12).fill(1500));
    // Another account's send expands to nothing here.
    const other = core.accounts.findByName('other')!.id;
    expect(core.credit.ledger(other, { sendId: first }).entries).toEqual([]);
  });

  it("lists a campaign's run as one row with its name, its refunds that came later summed in, in its place", async () => {
    const { core, clock, acme } = makeCore({ '10': 0.5, '13': 0.5 }, true);
    const before = core.credit.balance(acme);
    const run = await campaign(core, acme, 'Friday sale', phones(6));
    // A send after the campaign's charges, before any of its refunds.
    const { send_id: later } = panelSend(core, {
      account_id: acme,
      sender: '30001111',
      message: 'later',
      receivers: phones(1, 50),
    });
    const rowsNow = core.credit.ledger(acme).entries;
    expect(rowsNow.map(label)).toEqual(['later', 'Friday sale', undefined]);
    expect(rowsNow[1]!.group).toMatchObject({
      execution_id: run,
      sends: 3,
      messages: 6,
      charged_rials: 6 * 1500,
      refunded_rials: 0,
    });
    for (let i = 0; i < 3; i++) {
      clock.advance(100);
      await core.scheduler.drain();
    }
    const report = core.campaigns.report(acme, run);
    expect(report.refunded).toBeGreaterThan(0);
    const { entries } = core.credit.ledger(acme);
    // The refunds came after the later send: the campaign keeps its place, its row sums them.
    expect(entries.map(label)).toEqual(['later', 'Friday sale', undefined]);
    const row = entries[1]!;
    expect(row.id).toBe(rowsNow[1]!.id);
    expect(row.group).toMatchObject({ charged_rials: report.cost, refunded_rials: report.refunded, sends: 3 });
    expect(row.amount_rials).toBe(report.refunded - report.cost);
    expect(entries[0]!.send_id).toBe(later);
    // What the campaign and the later send cost is what the balance lost.
    expect(entries[0]!.amount_rials + row.amount_rials).toBe(core.credit.balance(acme) - before);
    // Its run expands to its three sends, each with its own sums, paged.
    const page = core.credit.ledger(acme, { executionId: run, limit: 2 });
    const rest = core.credit.ledger(acme, { executionId: run, limit: 2, beforeId: page.next_before_id! });
    expect(rest.next_before_id).toBeNull();
    const sends = [...page.entries, ...rest.entries];
    expect(sends).toHaveLength(3);
    expect(sends.map((e) => e.send_id)).toEqual([...sends.map((e) => e.send_id)].sort((a, b) => b! - a!));
    expect(sends.reduce((sum, e) => sum + e.amount_rials, 0)).toBe(row.amount_rials);
    expect(sends.every((e) => e.group!.sends === 1 && e.group!.messages === 2)).toBe(true);
    const other = core.accounts.findByName('other')!.id;
    expect(core.credit.ledger(other, { executionId: run }).entries).toEqual([]);
  });

  it('pages the rows so that every charge and entry comes once, the last page saying so', async () => {
    const { core, clock, acme } = makeCore({ '10': 0.5, '13': 0.5 }, true);
    for (let i = 0; i < 4; i++) await sendAndEnd(core, clock, acme, 5 + i);
    await campaign(core, acme, 'one', phones(5));
    await sendAndEnd(core, clock, acme, 3);
    await campaign(core, acme, 'two', phones(4, 20));
    for (let i = 0; i < 3; i++) {
      clock.advance(100);
      await core.scheduler.drain();
    }
    for (const limit of [1, 2, 3, 100]) {
      const pages = allPages(core, acme, limit);
      const rows = pages.flat();
      expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true);
      expect(pages.at(-1)!.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
      expect(rows.filter((r) => r.kind === 'send' && r.group?.execution_id === null)).toHaveLength(5);
      expect(rows.filter((r) => r.group?.execution_id).map((r) => r.group!.name)).toEqual(['two', 'one']);
      expect(rows.filter((r) => r.kind === 'refund')).toHaveLength(0);
      expect(rows.reduce((sum, r) => sum + r.amount_rials, 0)).toBe(core.credit.ledgerSum(acme));
      expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => b - a));
    }
  });

  it('reads a page of a large ledger on its indexes, without scanning it', () => {
    const { core, acme } = makeCore();
    // 2,000 sends of 100 messages each, every message refunded, all the refunds after all the
    // charges and interleaved: the first page passes all 200,000 of them.
    core.db.exec(`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
      INSERT INTO sends (id, account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
      SELECT 1000 + i, ${acme}, 1, '30001111', 'sms', 'hi', 1, 'panel', 100, 150000, i FROM n;
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
      INSERT INTO credit_ledger (account_id, amount_rials, kind, send_id, created_at)
      SELECT ${acme}, -150000, 'send', 1000 + i, i FROM n;
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 199999)
      INSERT INTO messages (id, send_id, account_id, receptor, status, cost_rials, created_at)
      SELECT 1 + i, 1001 + i / 100, ${acme}, '09120000000', 13, 1500, i FROM n;
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 199999)
      INSERT INTO credit_ledger (account_id, amount_rials, kind, message_id, created_at)
      SELECT ${acme}, 1500, 'refund', 1 + (i % 2000) * 100 + i / 2000, i FROM n;
    `);
    const started = performance.now();
    const page = core.credit.ledger(acme, { limit: 100 });
    const second = core.credit.ledger(acme, { limit: 100, beforeId: page.next_before_id! });
    const elapsed = performance.now() - started;
    expect(page.entries).toHaveLength(100);
    expect(
      page.entries.every(
        (e) => e.group?.refund_count === 100 && e.group.charged_rials === 150_000 && e.amount_rials === 0,
      ),
    ).toBe(true);
    expect(second.entries).toHaveLength(100);
    const shown = new Set(page.entries.map((e) => e.send_id));
    expect(second.entries.some((e) => shown.has(e.send_id))).toBe(false);
    // Generous: a scan of 200,000 rows per charge would take minutes.
    expect(elapsed).toBeLessThan(2_000);
    const plans = [
      `SELECT l.* FROM credit_ledger l
       LEFT JOIN messages m ON l.kind = 'refund' AND m.id = l.message_id
       WHERE l.account_id = 1 AND l.id < 5 AND (l.kind <> 'refund' OR m.send_id IS NULL) ORDER BY l.id DESC LIMIT 10`,
      `SELECT count(*), sum(amount_rials) FROM credit_ledger WHERE kind = 'refund' AND message_id BETWEEN 1 AND 100`,
      'SELECT (SELECT min(id) FROM messages WHERE send_id = 1), (SELECT max(id) FROM messages WHERE send_id = 1)',
      'SELECT execution_id FROM campaign_batches WHERE send_id = 1 LIMIT 1',
      `SELECT (SELECT min(b.send_id) FROM campaign_batches b WHERE b.execution_id = e.id),
              (SELECT total(s.total_rials) FROM campaign_batches b JOIN sends s ON s.id = b.send_id WHERE b.execution_id = e.id)
       FROM campaign_executions e JOIN campaigns c ON c.id = e.campaign_id WHERE e.id = 1`,
      `SELECT total(l.amount_rials), count(l.id) FROM campaign_batches b
         JOIN credit_ledger l ON l.kind = 'refund' AND l.message_id BETWEEN b.first_message_id AND b.first_message_id + b.count - 1
       WHERE b.execution_id = 1`,
    ].map((sql) =>
      (core.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join('; '),
    );
    for (const plan of plans)
      expect(plan).not.toMatch(/SCAN (credit_ledger|l|messages|m|campaign_batches|b|sends|s)\b(?! USING)/);
  });
});
