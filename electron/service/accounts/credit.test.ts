// Money entering an account is bounded where it enters (shared/credit.ts), so a balance and the sum
// of its ledger stay exact numbers that agree; and the ledger lists a send's refunds as one row,
// paged, at a cost that follows the page and not the ledger's size.
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

function makeCore(outcomes: Record<string, number> = { '10': 1 }) {
  const clock = new ManualClock();
  const core = cores.open({
    clock,
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

  it("lists a send's refunds as one row (how many, how much), which expands to its rows", async () => {
    const { core, clock, acme } = makeCore({ '13': 1 });
    const first = await sendAndEnd(core, clock, acme, 12);
    const second = await sendAndEnd(core, clock, acme, 3);
    core.credit.adjust(acme, 5000, 'cash');
    const { entries, next_before_id } = core.credit.ledger(acme);
    expect(next_before_id).toBeNull();
    expect(entries.map((e) => [e.kind, e.send_id, e.refund_count, e.amount_rials])).toEqual([
      ['topup', null, null, 5000],
      ['refund', second, 3, 3 * 1500],
      ['send', second, null, -3 * 1500],
      ['refund', first, 12, 12 * 1500],
      ['send', first, null, -12 * 1500],
      ['topup', null, null, 10_000_000],
    ]);
    expect(entries.reduce((sum, e) => sum + e.amount_rials, 0)).toBe(core.credit.balance(acme));

    const expanded = core.credit.ledger(acme, { sendId: first, limit: 5 });
    expect(expanded.entries).toHaveLength(5);
    expect(expanded.entries.every((e) => e.kind === 'refund' && e.message_id !== null && e.refund_count === null)).toBe(
      true,
    );
    const rest = core.credit.ledger(acme, { sendId: first, limit: 100, beforeId: expanded.next_before_id! });
    expect(rest.next_before_id).toBeNull();
    expect([...expanded.entries, ...rest.entries].map((e) => e.amount_rials)).toEqual(Array(12).fill(1500));
    // Another account's send expands to nothing here.
    const other = core.accounts.findByName('other')!.id;
    expect(core.credit.ledger(other, { sendId: first }).entries).toEqual([]);
  });

  it('pages the grouped rows so that every send and entry comes once, the last page saying so', async () => {
    const { core, clock, acme } = makeCore({ '10': 0.5, '13': 0.5 });
    for (let i = 0; i < 7; i++) await sendAndEnd(core, clock, acme, 5 + i);
    for (const limit of [1, 2, 3, 100]) {
      const pages = allPages(core, acme, limit);
      const rows = pages.flat();
      expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true);
      expect(pages.at(-1)!.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => `${r.kind}:${r.id}`)).size).toBe(rows.length);
      expect(rows.filter((r) => r.kind === 'send')).toHaveLength(7);
      expect(rows.reduce((sum, r) => sum + r.amount_rials, 0)).toBe(core.credit.ledgerSum(acme));
      expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => b - a));
    }
  });

  it('reads a page of a large ledger on its indexes, without scanning it', () => {
    const { core, acme } = makeCore();
    // 2,000 sends of 100 messages each, every message refunded, the refunds interleaved in time.
    core.db.exec(`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
      INSERT INTO sends (id, account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
      SELECT 1000 + i, ${acme}, 1, '30001111', 'sms', 'hi', 1, 'panel', 100, 150000, i FROM n;
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
    expect(page.entries.every((e) => e.refund_count === 100 && e.amount_rials === 150_000)).toBe(true);
    expect(second.entries).toHaveLength(100);
    const shown = new Set(page.entries.map((e) => e.send_id));
    expect(second.entries.some((e) => shown.has(e.send_id))).toBe(false);
    // Generous: a scan of 200,000 rows per group would take minutes.
    expect(elapsed).toBeLessThan(2_000);
    const plans = [
      `SELECT l.*, m.send_id AS refunded_send FROM credit_ledger l
       LEFT JOIN messages m ON l.kind = 'refund' AND m.id = l.message_id
       WHERE l.account_id = 1 AND l.id < 5 ORDER BY l.id DESC LIMIT 10`,
      `SELECT count(*), sum(amount_rials), max(id), created_at FROM credit_ledger
       WHERE kind = 'refund' AND message_id BETWEEN 1 AND 100`,
      'SELECT (SELECT min(id) FROM messages WHERE send_id = 1), (SELECT max(id) FROM messages WHERE send_id = 1)',
    ].map((sql) =>
      (core.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join('; '),
    );
    for (const plan of plans) expect(plan).not.toMatch(/SCAN (credit_ledger|l|messages|m)\b(?! USING)/);
  });
});
