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
    // The line in the language's digits, as every screen shows it.
    expect(await text('resend-confirm-line')).toBe(language === 'fa' ? '۳۰۰۰۱۱۱۱' : '30001111');
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
    // The report of the new run opens (the original's address was on screen until then).
    await poll(() => page.evaluate('location.hash')).not.toBe(`#/campaigns/execution/${executionId}`);
    expect(await page.evaluate('location.hash')).toMatch(/^#\/campaigns\/execution\/\d+$/);
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

  /** A top-up asked once (amount and the balance after), then undone by a correction. */
  async function topUpAndUndo(language: 'en' | 'fa'): Promise<void> {
    const { page } = app;
    await openTab(page, 'credit');
    await page.getByTestId('ledger-row').first().waitFor();
    const before = await balance(page);
    const ledgerBefore = await ledgerRows(page);
    await page.getByTestId('credit-amount').fill(language === 'fa' ? '۵۰۰۰۰' : '50000');
    await page.getByTestId('credit-topup').click();
    await page.getByTestId('credit-topup-summary').waitFor();
    expect(await page.getByTestId('credit-topup-adds').getAttribute('data-rials')).toBe('50000');
    expect(await page.getByTestId('credit-topup-after').getAttribute('data-rials')).toBe(String(before + 50_000));
    const after = await page.getByTestId('credit-topup-after').innerText();
    expect(toAsciiDigits(after).replace(/[,\u066c]/g, '')).toContain(String(before + 50_000));
    await screenshot(page, `money-topup-confirm-${language}`);
    // Asked, not added.
    expect(await balance(page)).toBe(before);
    await page.getByTestId('credit-topup-confirm').click();
    await poll(() => balance(page)).toBe(before + 50_000);
    await poll(() => page.getByTestId('credit-topup-done').getAttribute('data-kind')).toBe('added');
    // Once: the form is empty again, so the same top-up cannot go twice by accident.
    expect(await page.getByTestId('credit-topup').isDisabled()).toBe(true);
    await screenshot(page, `money-topup-done-${language}`);

    await page.getByTestId('credit-topup-undo').click();
    await poll(() => balance(page)).toBe(before);
    await poll(() => page.getByTestId('credit-topup-done').getAttribute('data-kind')).toBe('undone');
    expect(await page.getByTestId('credit-topup-undo').count()).toBe(0);
    // The ledger keeps the top-up and records the correction beside it.
    const ledger = await ledgerRows(page);
    expect(ledger.length).toBe(ledgerBefore.length + 2);
    expect(ledger.slice(0, 2).map((row) => [row.kind, row.amount_rials])).toEqual([
      ['adjust', -50_000],
      ['topup', 50_000],
    ]);
    await poll(() => page.locator('[data-testid=ledger-row][data-kind=adjust]').count()).toBe(
      1 + countAdjust(ledgerBefore),
    );
    await screenshot(page, `money-topup-undone-${language}`);
  }

  /** Tomans chosen in Settings → General: amounts shown and typed in tomans; back to rials after. */
  async function inTomans(language: 'en' | 'fa'): Promise<void> {
    const { page } = app;
    const credit = await balance(page);
    const unitWord = { en: { rials: 'rials', tomans: 'tomans' }, fa: { rials: 'ریال', tomans: 'تومان' } }[language];
    const plain = (text: string) =>
      toAsciiDigits(text)
        .replace(/[,\u066c]/g, '')
        .replace('\u066b', '.');
    await openTab(page, 'general');
    expect(await page.getByTestId('settings-money-unit').getAttribute('data-value')).toBe('rials');
    expect(plain(await page.getByTestId('header-credit').innerText())).toBe(`${credit} ${unitWord.rials}`);
    await page.getByTestId('settings-money-unit').getByText(unitWord.tomans).click();
    await poll(() => page.getByTestId('settings-money-unit').getAttribute('data-value')).toBe('tomans');
    await poll(async () => plain(await page.getByTestId('header-credit').innerText())).toBe(
      `${credit / 10} ${unitWord.tomans}`,
    );
    // The control's indicator slides to its choice: the picture waits for it to arrive.
    await poll(() => page.evaluate('document.getAnimations().length')).toBe(0);
    await screenshot(page, `money-tomans-general-${language}`);

    // The amount field says it takes tomans, and what is typed is tomans: 5,000 tomans = 50,000 rials.
    await openTab(page, 'credit');
    await page.getByTestId('ledger-row').first().waitFor();
    const field = page.getByTestId('credit-amount');
    const label = await page.locator(`label[for="${await field.getAttribute('id')}"]`).innerText();
    expect(label).toContain(unitWord.tomans);
    expect(plain(await page.getByTestId('credit-balance').innerText())).toBe(`${credit / 10} ${unitWord.tomans}`);
    expect(await page.getByTestId('ledger-row').first().locator('[data-unit]').getAttribute('data-unit')).toBe(
      'tomans',
    );
    await field.fill(language === 'fa' ? '۵۰۰۰' : '5000');
    await page.getByTestId('credit-topup').click();
    await page.getByTestId('credit-topup-summary').waitFor();
    expect(await page.getByTestId('credit-topup-adds').getAttribute('data-rials')).toBe('50000');
    expect(plain(await page.getByTestId('credit-topup-adds').innerText())).toBe(`5000 ${unitWord.tomans}`);
    await screenshot(page, `money-tomans-topup-${language}`);
    await page.getByTestId('credit-topup-confirm').click();
    await poll(() => balance(page)).toBe(credit + 50_000);
    await page.getByTestId('credit-topup-undo').click();
    await poll(() => balance(page)).toBe(credit);

    // The sending-safety limit is typed in tomans too, and kept in rials.
    await openTab(page, 'sending');
    const limit = page.getByTestId('safety-confirm-above');
    expect(await page.locator(`label[for="${await limit.getAttribute('id')}"]`).innerText()).toContain(unitWord.tomans);
    expect(plain(await limit.inputValue())).toBe('1000000');
    // (Emptied first: the field shows its value ungrouped on focus, as a person would edit it.)
    await limit.fill('');
    await limit.fill(language === 'fa' ? '۲۰۰۰۰۰' : '200000');
    await poll(() => page.evaluate(`JSON.parse(localStorage.getItem('chapar.preferences')).confirmAboveRials`)).toBe(
      2_000_000,
    );
    await limit.fill('');
    await limit.fill('1000000');
    await poll(() => page.evaluate(`JSON.parse(localStorage.getItem('chapar.preferences')).confirmAboveRials`)).toBe(
      10_000_000,
    );

    // The choice is kept across a reload, and rials come back when chosen.
    await page.reload();
    await openTab(page, 'general');
    expect(await page.getByTestId('settings-money-unit').getAttribute('data-value')).toBe('tomans');
    await page.getByTestId('settings-money-unit').getByText(unitWord.rials).click();
    await poll(async () => plain(await page.getByTestId('header-credit').innerText())).toBe(
      `${credit} ${unitWord.rials}`,
    );
    await openTab(page, 'credit');
    const rialsLabel = await page
      .locator(`label[for="${await page.getByTestId('credit-amount').getAttribute('id')}"]`)
      .innerText();
    expect(rialsLabel).toContain(unitWord.rials);
  }

  it('tops up once after asking, undoes it by a correction, and shows amounts in tomans, in English', async () => {
    await topUpAndUndo('en');
    await inTomans('en');
  }, 90_000);

  it('resends to the failed through the confirmation, in Persian', async () => {
    await switchToPersian(app.page);
    const quiet = quietHoursAwayFromNow();
    const phones = Array.from({ length: 8 }, (_, i) => `0912200000${i}`);
    const executionId = await failedCampaign(app, 'سفارش آماده', phones, quiet);
    await resendFromReport('fa', executionId, quiet);
  }, 90_000);

  it('tops up once after asking, undoes it by a correction, and shows amounts in tomans, in Persian', async () => {
    await topUpAndUndo('fa');
    await inTomans('fa');
  }, 90_000);
});

interface LedgerEntry {
  kind: string;
  amount_rials: number;
}

function ledgerRows(page: Page): Promise<LedgerEntry[]> {
  return bridge<{ entries: LedgerEntry[] }>(page, 'credit:ledger', { account_id: ACCOUNT }).then((l) => l.entries);
}

function countAdjust(rows: LedgerEntry[]): number {
  return rows.filter((row) => row.kind === 'adjust').length;
}

async function openTab(page: Page, tab: string): Promise<void> {
  // (A string: this file compiles without the DOM lib.)
  await page.evaluate(`window.location.hash = '#/${tab === 'general' ? 'settings' : `settings/${tab}`}'`);
  await page.getByTestId('page-settings').waitFor();
  await poll(() => page.getByTestId(`settings-tab-${tab}`).getAttribute('aria-selected')).toBe('true');
}
