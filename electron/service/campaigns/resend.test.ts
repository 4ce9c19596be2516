// "Resend to failed" in the real core and database: who it leaves out (opted out, blocked,
// invalid), its quote's cost against what the resend is then charged, the original's send rate and
// quiet hours kept, its name in the person's language, and that an execution is resent once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { MessageStatus } from '../../../shared/lifecycle';
import { leftOutReason, resendName } from './resend';

describe('leftOutReason', () => {
  const optedOut = (phone: string) => phone === '09120000009';
  it('leaves out what cannot succeed, and nothing else', () => {
    expect(leftOutReason('12345', MessageStatus.Undelivered, optedOut)).toBe('invalid');
    expect(leftOutReason('+98 912 000 0009', MessageStatus.Undelivered, optedOut)).toBe('opted_out');
    expect(leftOutReason('09120000001', MessageStatus.Blocked, optedOut)).toBe('blocked');
    expect(leftOutReason('09120000001', MessageStatus.Undelivered, optedOut)).toBeNull();
    expect(leftOutReason('09120000001', MessageStatus.Cancelled, optedOut)).toBeNull();
    expect(leftOutReason('09120000001', MessageStatus.SendError, optedOut)).toBeNull();
  });
  it('names the resend in the language asked, English by default', () => {
    expect(resendName('Sale', 1)).toBe('Sale (resend #1)');
    expect(resendName('حراج', 12, 'fa')).toBe('حراج (ارسال دوباره ۱۲)');
  });
});

describe('resending an execution to its failed recipients', () => {
  let core: Core;
  let clock: ManualClock;
  let account: number;

  beforeEach(() => {
    clock = new ManualClock(Date.UTC(2026, 0, 5, 10, 0, 0));
    core = new Core({ dataDir: tempDir('chapar-resend-'), clock });
    applySeed(core, testSeed());
    account = core.accounts.findByName('acme')!.id;
  });
  afterEach(async () => {
    await core.close();
  });

  async function run(times: number, step: number): Promise<void> {
    for (let i = 0; i < times; i++) {
      clock.advance(step);
      await core.jobs.waitForIdle();
      await core.scheduler.waitForIdle();
    }
  }

  it('quotes what it will charge, leaves out the opted-out and blocked, keeps rate and quiet hours, once', async () => {
    // Half undelivered, half blocked by the carrier: both failed.
    core.settings.setSimulator({ seed: 5, handoff_ms: 10, delivery_ms: 10, outcomes: { '11': 1, '14': 1 } });
    const phones = Array.from({ length: 30 }, (_, i) => '0912' + String(i).padStart(7, '0'));
    const { segment_id } = core.uploads.create(
      account,
      phones.map((phone_number, i) => ({ phone_number, NAME: i % 2 ? `n${i}` : `نام ${i}` })),
    );
    await core.jobs.waitForIdle();
    const created = core.campaigns.create(account, {
      sender: '30001111',
      name: 'First',
      template_body: 'Hi {{NAME}}',
      send_datetime: '2026-01-05T10:00:00Z',
      inclusion_segments: [String(segment_id)],
      exclusion_segments: [],
      links: [],
      utm: {},
      send_rate: '600',
      quiet_hours: '23:00-07:00',
    });
    await run(20, 1_000);
    const report = core.campaigns.report(account, created.execution_id);
    expect(report.failed).toBe(30);
    const failed = await core.campaigns.messages(account, created.execution_id, { size: 100 });
    const blocked = failed.filter((m) => m.status === MessageStatus.Blocked).map((m) => m.receptor);
    const undelivered = failed.filter((m) => m.status === MessageStatus.Undelivered).map((m) => m.receptor);
    expect(blocked.length).toBeGreaterThan(0);
    expect(undelivered.length).toBeGreaterThan(2);
    // One of the undelivered opts out after the campaign.
    core.optouts.add(account, [undelivered[0]!]);
    const reachable = undelivered.slice(1);

    const creditBefore = core.credit.balance(account);
    const quote = await core.campaigns.resendQuote(account, created.execution_id, 'fa');
    expect(quote.left_out).toEqual({ opted_out: 1, blocked: blocked.length, invalid: 0 });
    expect(quote.failed).toBe(30);
    expect(quote.audience.recipients).toBe(reachable.length);
    expect(quote).toMatchObject({ name: 'First (ارسال دوباره ۱)', sender: '30001111', send_rate: 600 });
    expect(quote.quiet_hours).toBe('23:00-07:00');
    expect(quote.resent).toBeNull();
    expect(quote.total_cost_rials).toBeGreaterThan(0);
    // Asking costs nothing.
    expect(core.credit.balance(account)).toBe(creditBefore);

    core.settings.setSimulator({ seed: 5, handoff_ms: 10, delivery_ms: 10, outcomes: { '10': 1 } });
    const resent = await core.campaigns.resendToFailed(account, created.execution_id, { language: 'fa' });
    await run(30, 2_000);
    const second = core.campaigns.report(account, resent.execution_id);
    expect(second.sent).toBe(reachable.length);
    // Charged exactly what the quote said.
    expect(second.cost).toBe(quote.total_cost_rials);
    expect(creditBefore - core.credit.balance(account)).toBe(quote.total_cost_rials);
    const again = await core.campaigns.messages(account, resent.execution_id, { size: 100 });
    expect(again.map((m) => m.receptor).sort()).toEqual([...reachable].sort());
    const campaign = core.campaigns.get(account, resent.campaign_id);
    expect(campaign).toMatchObject({ name: 'First (ارسال دوباره ۱)', send_rate: 600, quiet_hours: '23:00-07:00' });

    // Once: the quote names the resend, and a second resend is refused.
    const after = await core.campaigns.resendQuote(account, created.execution_id);
    expect(after.resent).toEqual({ campaign_id: resent.campaign_id, execution_id: resent.execution_id });
    await expect(core.campaigns.resendToFailed(account, created.execution_id)).rejects.toMatchObject({
      reason: 'already_resent',
    });
  }, 60_000);
});
