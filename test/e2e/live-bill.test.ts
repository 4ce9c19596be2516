// Live figures and the bill, in Chromium, in both languages. A top-up made on another page moves
// the Dashboard's "credit left" without a reload; an email send's rows turn delivered while its
// results are open; a campaign's report moves to its final counts while open; and the credit
// history shows that campaign of several sends as one named row whose charged − refunded = net is
// what the balance lost, opening to its sends.
import type { Locator, Page } from 'playwright';
import { afterEach, describe, expect, it } from 'vitest';
import { createSegment } from '../campaigns/support';
import { toAsciiDigits } from '../../shared/digits';
import { advanceClock, screenshot, startApp, type RunningApp } from './app';
import { bridge, poll } from './scenarios';

let app: RunningApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const ACCOUNT = 1;
const CONTACTS = ['09120000001', '09120000002', '09120000003', '09120000004', '09120000005', '09120000006'];

/** The whole number a figure shows (any digits, grouping and unit left out). */
async function amountOf(page: Page, testId: string): Promise<number> {
  return Number(toAsciiDigits(await page.getByTestId(testId).first().innerText()).replace(/[^0-9-]/g, ''));
}

/** The rials a cell of the bill stands for. */
async function rialsOf(row: Locator, testId: string): Promise<number> {
  return Number(await row.getByTestId(testId).getAttribute('data-rials'));
}

/** A shown amount of money is this many rials, whether the unit shown is rials or tomans. */
function showsRials(shown: number, rials: number): boolean {
  return shown === rials || shown * 10 === rials;
}

const balance = async (page: Page) =>
  (await bridge<{ credit_rials: number }>(page, 'credit:balance', { account_id: ACCOUNT })).credit_rials;

for (const [locale, language] of [
  ['en-US', 'en'],
  ['fa-IR', 'fa'],
] as const) {
  describe(`live figures and the bill (${language})`, () => {
    it('follows credit, email results and a campaign report without a reload, and bills the campaign as one row', async () => {
      app = await startApp({
        locale,
        env: { CHAPAR_TEST_CLOCK: '1' },
        seed: { simulator: { seed: 3, handoff_ms: 20, delivery_ms: 40, outcomes: { '10': 0.5, '13': 0.5 } } },
      });
      const { page } = app;
      const segmentId = await createSegment(app.url, CONTACTS, {
        EMAIL: (i) => `c${i}@example.com`,
      });
      // Whatever happens from here, the page is never reloaded: this marker would be lost.
      await page.evaluate('window.__notReloaded = true');
      const notReloaded = () => page.evaluate('window.__notReloaded === true');

      // 1. A top-up made elsewhere: the Dashboard here shows the new credit left.
      await page.getByTestId('nav-dashboard').click();
      await page.getByTestId('stat-credit').waitFor();
      const start = await balance(page);
      expect(showsRials(await amountOf(page, 'stat-credit'), start)).toBe(true);
      // (A call of its own to the bridge, as another page or window makes it: this page's stores
      // take no part in it.)
      await bridge(page, 'credit:topUp', { account_id: ACCOUNT, amount_rials: 2_500_000, note: 'cash' });
      const toppedUp = start + 2_500_000;
      await poll(async () => showsRials(await amountOf(page, 'stat-credit'), toppedUp)).toBe(true);
      await poll(async () => showsRials(await amountOf(page, 'header-credit'), toppedUp)).toBe(true);
      await screenshot(page, `${language}-live-dashboard-credit`);

      // 2. An email to the segment: its results, open, turn delivered row by row.
      const sent = await bridge<{ id: number }>(page, 'email:send', {
        account_id: ACCOUNT,
        segment_id: segmentId,
        from: { email: 'shop@example.com', name: 'Shop' },
        subject: 'Spring',
        text: 'Our spring sale starts today.',
        expected_count: CONTACTS.length,
        request_id: `live-bill-${language}-email`,
      });
      await page.evaluate(`window.location.hash = '#/email/send/${sent.id}'`);
      const rows = page.getByTestId('email-row');
      await poll(() => rows.count(), { timeout: 20_000 }).toBe(CONTACTS.length);
      await poll(
        async () => {
          await advanceClock(app!, 1000);
          return rows.evaluateAll((r) => r.map((e) => e.getAttribute('data-status')));
        },
        { timeout: 30_000 },
      ).toEqual(CONTACTS.map(() => 'delivered'));
      await screenshot(page, `${language}-live-email-results`);

      // 3. A campaign of six at two a minute (three sends), its report open while it runs.
      const now = await advanceClock(app, 0);
      const created = await bridge<{ execution_id: number }>(page, 'campaigns:create', {
        account_id: ACCOUNT,
        sender: '30001111',
        name: language === 'fa' ? 'حراج جمعه' : 'Friday sale',
        template_body: 'Friday sale, 20% off',
        send_datetime: new Date(now + 60_000).toISOString(),
        inclusion_segments: [segmentId],
        send_rate: 2,
      });
      const beforeCampaign = await balance(page);
      await page.evaluate(`window.location.hash = '#/campaigns/execution/${created.execution_id}'`);
      await poll(() => page.getByTestId('report-status').getAttribute('data-status'), { timeout: 20_000 }).toBe(
        'scheduled',
      );
      const figure = async (name: string) =>
        Number(await page.getByTestId(`report-${name}`).getAttribute('data-value'));
      await advanceClock(app, 90_000);
      await poll(() => page.getByTestId('report-status').getAttribute('data-status'), { timeout: 20_000 }).toBe(
        'running',
      );
      await poll(
        async () => {
          await advanceClock(app!, 30_000);
          return (await figure('delivered')) + (await figure('failed'));
        },
        { timeout: 40_000 },
      ).toBe(CONTACTS.length);
      await poll(() => page.getByTestId('report-status').getAttribute('data-status'), { timeout: 20_000 }).toBe(
        'completed',
      );
      expect(await figure('sent')).toBe(CONTACTS.length);
      const report = await bridge<{ cost: number; refunded: number; failed: number }>(page, 'campaigns:report', {
        account_id: ACCOUNT,
        execution_id: created.execution_id,
      });
      expect(report.failed).toBeGreaterThan(0);
      await screenshot(page, `${language}-live-campaign-report`);

      // The Dashboard's credit left is what the campaign left, refunds included.
      const afterCampaign = await balance(page);
      expect(afterCampaign).toBe(beforeCampaign - report.cost + report.refunded);
      await page.getByTestId('nav-dashboard').click();
      await poll(async () => showsRials(await amountOf(page, 'stat-credit'), afterCampaign)).toBe(true);

      // 4. The bill: the campaign is one named row, charged − refunded = net = what the balance lost.
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('settings-tab-credit').click();
      const row = page.locator('[data-testid="ledger-row"][data-origin="campaign"]');
      await poll(() => row.count()).toBe(1);
      expect(await row.getByTestId('ledger-name').innerText()).toBe(language === 'fa' ? 'حراج جمعه' : 'Friday sale');
      const charged = await rialsOf(row, 'ledger-charged');
      const refunded = await rialsOf(row, 'ledger-refunded');
      const net = await rialsOf(row, 'ledger-net');
      expect([charged, refunded]).toEqual([report.cost, report.refunded]);
      expect(charged - refunded).toBe(-net);
      expect(net).toBe(afterCampaign - beforeCampaign);
      // Shown in the language's digits: Persian ones in Persian.
      const shownNet = await row.getByTestId('ledger-net').innerText();
      expect(showsRials(Number(toAsciiDigits(shownNet).replace(/[^0-9]/g, '')), -net)).toBe(true);
      expect(/[۰-۹]/.test(shownNet)).toBe(language === 'fa');
      expect(await page.locator('[data-testid="ledger-row"][data-kind="refund"]').count()).toBe(0);
      await row.getByTestId('ledger-refunds-toggle').click();
      await poll(() => page.getByTestId('ledger-send-row').count()).toBe(3);
      await screenshot(page, `${language}-live-bill`);
      expect(await notReloaded()).toBe(true);
    }, 90_000);
  });
}
