// Money in Chromium through web mode, in English and in Persian: "resend to failed" asks through
// the campaigns' confirmation (recipients, line, pages, the core's cost, time, rate and quiet
// hours, and who is left out and why), charges nothing before it is confirmed and then exactly what
// it showed, keeps the original's send rate and quiet hours, and happens once; a credit top-up asks
// once and is undone by a correction; amounts shown and typed in tomans or rials, as chosen.
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSegment } from '../campaigns/support';
import { toAsciiDigits } from '../../shared/digits';
import { screenshot, startApp, type RunningApp } from './app';
import { bridge, poll, switchToPersian } from './scenarios';

const ZONE = 'Asia/Tehran';
const ACCOUNT = 1;

/** Quiet hours well away from now in Tehran, so the campaigns run at once. */
function quietHoursAwayFromNow(): string {
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', hourCycle: 'h23' }).format(Date.now()),
  );
  const at = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
  return `${at(hour + 6)}-${at(hour + 7)}`;
}

interface Report {
  execution_status: string;
  sent: number;
  failed: number;
  pending: number;
  cost: number;
  campaign_id: number;
}
interface Message {
  receptor: string;
  status: number;
}

function balance(page: Page): Promise<number> {
  return bridge<{ credit_rials: number }>(page, 'credit:balance', { account_id: ACCOUNT }).then((b) => b.credit_rials);
}

/** A campaign sent now to `phones` whose every message fails (undelivered or blocked); its execution id. */
async function failedCampaign(app: RunningApp, name: string, phones: string[], quiet: string): Promise<number> {
  const { page } = app;
  await bridge(page, 'simulator:set', { seed: 11, handoff_ms: 10, delivery_ms: 20, outcomes: { '11': 1, '14': 1 } });
  const segment = await createSegment(app.url, phones, { NAME: (i) => `Customer ${i + 1}` });
  const created = await bridge<{ execution_id: number }>(page, 'campaigns:create', {
    account_id: ACCOUNT,
    sender: '30001111',
    name,
    template_body: 'Hi {{NAME}}, your order is ready',
    send_datetime: new Date().toISOString(),
    inclusion_segments: [segment],
    send_rate: 600,
    quiet_hours: quiet,
  });
  const byExecution = { account_id: ACCOUNT, execution_id: created.execution_id };
  await poll(
    async () => {
      const report = await bridge<Report>(page, 'campaigns:report', byExecution);
      return report.execution_status === 'COMPLETED' && report.pending === 0 ? report.failed : -1;
    },
    { timeout: 30_000 },
  ).toBe(phones.length);
  return created.execution_id;
}

describe('money (web UI)', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ timezoneId: ZONE });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  /**
   * Resends a failed execution from its report in the current language: the confirmation's
   * figures, nothing charged before it, the charge after it, the rate and quiet hours kept, once.
   */
  async function resendFromReport(language: 'en' | 'fa', executionId: number, quiet: string): Promise<void> {
    const { page } = app;
    const byExecution = { account_id: ACCOUNT, execution_id: executionId };
    const messages = await bridge<Message[]>(page, 'campaigns:messages', { ...byExecution, size: 100 });
    const blocked = messages.filter((m) => m.status === 14).length;
    const undelivered = messages.filter((m) => m.status === 11).map((m) => m.receptor);
    expect(blocked).toBeGreaterThan(0);
    expect(undelivered.length).toBeGreaterThan(1);
    // One of them opts out after the campaign: the resend leaves them out too.
    await bridge(page, 'optouts:add', { account_id: ACCOUNT, phones: [undelivered[0]] });
    const reachable = undelivered.length - 1;
    // The resend itself delivers, so what it is charged is not given back.
    await bridge(page, 'simulator:set', { seed: 11, handoff_ms: 10, delivery_ms: 20, outcomes: { '10': 1 } });

    await page.evaluate(`location.hash = '#/campaigns/execution/${executionId}'`);
    await poll(() => page.getByTestId('report-failed').getAttribute('data-value')).toBe(String(messages.length));
    const before = await balance(page);
    await page.getByTestId('report-resend').click();
    await page.getByTestId('resend-confirm-summary').waitFor();
    const text = (id: string) => page.getByTestId(id).innerText();
    const ascii = async (id: string) => toAsciiDigits(await text(id));
    expect(await ascii('resend-confirm-recipients')).toBe(String(reachable));
    expect(await text('resend-confirm-line')).toContain('30001111');
    expect(Number(await ascii('resend-confirm-pages'))).toBeGreaterThanOrEqual(reachable);
    expect(await ascii('resend-confirm-rate')).toContain('600');
    expect(await ascii('resend-confirm-quiet')).toBe(quiet);
    expect(await text('resend-confirm-when')).toBe(
      language === 'fa' ? 'همین حالا، به محض زمان‌بندی' : 'Now, as soon as it is scheduled',
    );
    await page.getByTestId('resend-confirm-last').waitFor();
    expect(await page.getByTestId('resend-left-out').getAttribute('data-count')).toBe(String(blocked + 1));
    expect(await ascii('resend-left-out-opted_out')).toContain(': 1');
    expect(await ascii('resend-left-out-blocked')).toContain(`: ${blocked}`);
    const shown = Number(await page.getByTestId('resend-confirm-cost').getAttribute('data-rials'));
    expect(shown).toBeGreaterThan(0);
    expect(await text('resend-confirm-name')).toContain(language === 'fa' ? '(ارسال دوباره ۱)' : '(resend #1)');
    if (language === 'fa') expect(await text('resend-confirm-recipients')).toMatch(/^[۰-۹]+$/);
    await screenshot(page, `money-resend-confirm-${language}`);
    // Asked, not charged: the credit has not moved.
    expect(await balance(page)).toBe(before);

    await page.getByTestId('resend-confirm').click();
    await poll(() => page.evaluate('location.hash')).toMatch(/^#\/campaigns\/execution\/\d+$/);
    const resentId = Number(/(\d+)$/.exec(String(await page.evaluate('location.hash')))![1]);
    expect(resentId).not.toBe(executionId);
    await poll(
      async () => {
        const report = await bridge<Report>(page, 'campaigns:report', { account_id: ACCOUNT, execution_id: resentId });
        return report.execution_status === 'COMPLETED' && report.pending === 0;
      },
      { timeout: 30_000 },
    ).toBe(true);
    const resent = await bridge<Report>(page, 'campaigns:report', { account_id: ACCOUNT, execution_id: resentId });
    expect(resent.sent).toBe(reachable);
    // Charged exactly what the confirmation showed.
    expect(resent.cost).toBe(shown);
    expect(before - (await balance(page))).toBe(shown);
    const campaign = await bridge<{ name: string; send_rate: number; quiet_hours: string }>(page, 'campaigns:get', {
      account_id: ACCOUNT,
      campaign_id: resent.campaign_id,
    });
    expect(campaign).toMatchObject({ send_rate: 600, quiet_hours: quiet });
    expect(campaign.name).toMatch(language === 'fa' ? / \(ارسال دوباره ۱\)$/ : / \(resend #1\)$/);
    await screenshot(page, `money-resend-report-${language}`);

    // The same resend cannot fire again: the original's report says it was resent, and opens it.
    await page.evaluate(`location.hash = '#/campaigns/execution/${executionId}'`);
    await poll(() => page.getByTestId('report-failed').getAttribute('data-value')).toBe(String(messages.length));
    await page.getByTestId('report-resend').click();
    await page.getByTestId('resend-already').waitFor();
    expect(await page.getByTestId('resend-confirm').count()).toBe(0);
    await screenshot(page, `money-resend-already-${language}`);
    await page.getByTestId('resend-open').click();
    await poll(() => page.evaluate('location.hash')).toBe(`#/campaigns/execution/${resentId}`);
  }

  it('resends to the failed through the confirmation, in English', async () => {
    const quiet = quietHoursAwayFromNow();
    const phones = Array.from({ length: 8 }, (_, i) => `0912100000${i}`);
    const executionId = await failedCampaign(app, 'Order ready', phones, quiet);
    await resendFromReport('en', executionId, quiet);
  }, 90_000);

  it('resends to the failed through the confirmation, in Persian', async () => {
    await switchToPersian(app.page);
    const quiet = quietHoursAwayFromNow();
    const phones = Array.from({ length: 8 }, (_, i) => `0912200000${i}`);
    const executionId = await failedCampaign(app, 'سفارش آماده', phones, quiet);
    await resendFromReport('fa', executionId, quiet);
  }, 90_000);
});
