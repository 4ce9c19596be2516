// The acceptance path and its dry run never disagree: for every line kind and every origin, the
// quote refuses exactly when the send refuses (the sender-line rule), and otherwise names the very
// final text, pages, cost and total that the send then records.
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors';
import { testCores } from '../../../test/helpers/core';
import { ORIGINS, type Origin } from '../../../shared/lines';
import { MessageStatus } from '../../../shared/lifecycle';
import type { AcceptCommand } from './accept';
import { preview, panelSend } from './compose';

const cores = testCores();

function makeCore() {
  const core = cores.open();
  const account = core.accounts.findByName('acme')!;
  // One line of each provider and each permission set.
  core.accounts.upsertLine(account.id, {
    number: 'bale_panel',
    provider: 'bale',
    permissions: ['can_send_panel_campaign'],
  });
  core.accounts.upsertLine(account.id, {
    number: 'rubika_both',
    provider: 'rubika',
    permissions: ['can_send_api_campaign', 'can_send_panel_campaign'],
  });
  core.accounts.upsertLine(account.id, { number: '30003333', provider: 'sms', permissions: [] });
  return { core, account };
}

const LINES = ['30001111', '30002222', '30003333', 'bale_acme_bot', 'bale_panel', 'rubika_acme', 'rubika_both'];
// 300 characters: 5 SMS pages (UCS-2 with the opt-out phrase), one messenger message.
const TEXT = 'س'.repeat(150) + 'a'.repeat(150);

function outcome<T>(run: () => T): { ok: true; value: T } | { ok: false; code: number } {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (error instanceof ServiceError) return { ok: false, code: error.code };
    throw error;
  }
}

describe('accept and its dry run', () => {
  it('agree on the sender-line rule, final text, pages and cost for sms, bale and rubika lines and every origin', () => {
    const { core, account } = makeCore();
    let recorded = 0;
    for (const sender of LINES)
      for (const origin of ORIGINS) {
        const command: AcceptCommand = {
          accountId: account.id,
          origin,
          sender,
          text: TEXT,
          receivers: ['09121234567', '0912 123 4567', 'abc', '+989351112233'],
          rule: origin === 'panel' || origin === 'campaign' ? 'lenient' : 'strict',
        };
        const quoted = outcome(() => core.messaging.accept.quote(command));
        const accepted = outcome(() => core.messaging.accept.accept(command));
        expect({ sender, origin, ok: accepted.ok }).toEqual({ sender, origin, ok: quoted.ok });
        if (!quoted.ok || !accepted.ok) {
          expect(accepted).toEqual(quoted);
          expect(quoted).toEqual({ ok: false, code: 412 });
          continue;
        }
        recorded++;
        const quote = quoted.value;
        const acceptance = accepted.value;
        expect(acceptance.price).toEqual(quote.price);
        expect(acceptance.totalRials).toBe(quote.totalRials);
        expect(acceptance.accepted).toBe(quote.accepted);
        expect(acceptance.classified).toEqual(quote.classified);
        const send = core.db
          .prepare('SELECT text, pages, total_rials, origin, api_version FROM sends WHERE id = ?')
          .get(acceptance.sendId) as Record<string, unknown>;
        expect(send).toEqual({
          text: quote.price.text,
          pages: quote.price.pages,
          total_rials: quote.totalRials,
          origin: origin.startsWith('api') ? 'api' : origin,
          api_version: origin.startsWith('api') ? Number(origin.slice(-1)) : null,
        });
        const costs = core.db
          .prepare('SELECT DISTINCT cost_rials AS cost FROM messages WHERE send_id = ?')
          .all(acceptance.sendId) as Array<{ cost: number }>;
        expect(costs).toEqual([{ cost: quote.price.costRials }]);
        const line = core.accounts.findLine(account.id, sender)!;
        expect(quote.price.pages).toBe(line.provider === 'sms' ? 5 : 1);
      }
    // 30001111 and rubika_both take every origin; the others some.
    expect(recorded).toBeGreaterThan(ORIGINS.length * 2);
  });

  it('the composer: its preview and its send agree, also for a line the panel may not use (412 both)', () => {
    const { core, account } = makeCore();
    for (const sender of LINES) {
      const input = {
        account_id: account.id,
        sender,
        message: TEXT,
        receivers_text: '09121234567\n۰۹۳۵۱۱۱۲۲۳۳, 12345, 0912 123 4567',
      };
      const shown = outcome(() => preview(core, input));
      const sent = outcome(() => panelSend(core, input));
      expect({ sender, ok: sent.ok }).toEqual({ sender, ok: shown.ok });
      if (!shown.ok || !sent.ok) {
        expect(sent).toEqual({ ok: false, code: 412 });
        expect(shown).toEqual({ ok: false, code: 412 });
        continue;
      }
      const send = core.db
        .prepare('SELECT text, pages, total_rials, message_count FROM sends WHERE id = ?')
        .get(sent.value.send_id) as Record<string, unknown>;
      expect(send).toEqual({
        text: shown.value.final_text,
        pages: shown.value.pages,
        total_rials: shown.value.total_cost_rials,
        message_count: shown.value.receivers.total,
      });
      expect(sent.value.total_rials).toBe(shown.value.total_cost_rials);
      expect(sent.value.invalid).toEqual(shown.value.receivers.invalid);
      expect(sent.value.duplicates).toEqual(shown.value.receivers.duplicates);
    }
  });

  it('records scheduled messages as 2, own texts priced one by one, and an idempotency key only once', () => {
    const { core, account } = makeCore();
    const before = core.credit.balance(account.id);
    const command: AcceptCommand = {
      accountId: account.id,
      origin: 'campaign',
      sender: '30001111',
      text: 'Hello',
      texts: [undefined, 'س'.repeat(100)],
      receivers: ['09120000001', '09120000002'],
      rule: 'lenient',
      dueAt: core.clock.now() + 60_000,
      idempotencyKey: 'run-1',
    };
    const first = core.messaging.accept.accept(command);
    expect(first.status).toBe(MessageStatus.Scheduled);
    // 'Hello' + phrase: 1 UCS-2 page; 100 Persian letters + phrase: 2 pages.
    expect(first.costs).toEqual([1500, 3000]);
    expect(first.totalRials).toBe(4500);
    const rows = core.db
      .prepare('SELECT status, cost_rials, text FROM messages WHERE send_id = ? ORDER BY id')
      .all(first.sendId) as Array<{ status: number; cost_rials: number; text: string | null }>;
    expect(rows).toEqual([
      { status: 2, cost_rials: 1500, text: null },
      { status: 2, cost_rials: 3000, text: 'س'.repeat(100) + '\nلغو۱۱' },
    ]);
    const again = core.messaging.accept.accept(command);
    expect(again).toMatchObject({
      replayed: true,
      sendId: first.sendId,
      totalRials: 4500,
      firstMessageId: first.firstMessageId,
    });
    expect(core.credit.balance(account.id)).toBe(before - 4500);
    expect(core.db.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 2 });
  });

  it('refuses with nothing recorded: 411 without a valid receiver, 418 short of credit', () => {
    const { core, account } = makeCore();
    const base = {
      accountId: account.id,
      origin: 'api-v2' as Origin,
      sender: '30001111',
      text: 'x',
      rule: 'strict' as const,
    };
    expect(core.messaging.accept.quote({ ...base, receivers: ['abc'] }).refusal).toBe(411);
    expect(outcome(() => core.messaging.accept.accept({ ...base, receivers: ['abc'] }))).toEqual({
      ok: false,
      code: 411,
    });
    const many = Array.from({ length: 10_000 }, (_, i) => '0912' + String(i).padStart(7, '0'));
    expect(core.messaging.accept.quote({ ...base, receivers: many }).refusal).toBe(418);
    expect(outcome(() => core.messaging.accept.accept({ ...base, receivers: many }))).toEqual({ ok: false, code: 418 });
    expect(core.db.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 0 });
  });
});
