// Language: the first start follows the browser's language (English here); choosing Persian in
// Settings flips the layout to right-to-left with Persian digits and Jalali dates, and sticks
// across a reload. Every screen is photographed in both languages (test/screenshots/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { KEY, post } from '../helpers/server';
import { openPage, screenshot, startApp, type RunningApp } from './app';
import { acceptedResultRows, poll, switchToPersian, waitAllFinal } from './scenarios';

/** Latin words on a Persian screen that are names, not untranslated texts. */
const LATIN_ALLOWED = new Set([
  'English',
  'acme',
  'UCS',
  'GSM',
  'API',
  'HTTP',
  'CSV',
  'SMS',
  'send',
  'Hello',
  'from',
  'Chapar',
  'sale',
  'website',
]);

async function untranslated(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  // Paths, addresses and keys are shown as code, and texts users typed keep their own direction
  // (dir="auto"): data, not UI texts.
  const data = (await page.locator('code, pre, [dir="auto"]').allInnerTexts()).join(' ');
  const words = text.match(/[A-Za-z]{3,}/g) ?? [];
  // Data the user typed (message texts) and paths/addresses are not UI texts.
  return [...new Set(words)].filter((w) => !LATIN_ALLOWED.has(w) && !data.includes(w));
}

async function screens(page: Page, language: 'en' | 'fa'): Promise<void> {
  await openPage(page, 'dashboard');
  await page.getByTestId('status-chart').waitFor();
  await page.locator('.recharts-bar-rectangle path').first().waitFor({ state: 'attached' });
  await screenshot(page, `${language}-dashboard`);

  await openPage(page, 'compose');
  await page
    .getByTestId('compose-text')
    .fill(language === 'fa' ? 'سلام! تخفیف ویژهٔ جمعه' : 'Hello! Friday sale, 20% off');
  await page.getByTestId('compose-receivers').fill('09121234567\n+98 912 765 4321\n۰۹۱۲۱۲۳۴۵۶۷\n12345');
  await page.getByTestId('compose-invalid-list').waitFor();
  await screenshot(page, `${language}-compose`);
  await page.getByTestId('compose-send').click();
  await waitAllFinal(acceptedResultRows(page));
  await page.getByTestId('compose-result').scrollIntoViewIfNeeded();
  await screenshot(page, `${language}-compose-result`);

  await openPage(page, 'messages');
  await page.getByTestId('message-row').first().waitFor();
  await screenshot(page, `${language}-messages`);
  await page.getByTestId('message-row').first().click();
  await page.getByTestId('timeline-item').first().waitFor();
  await screenshot(page, `${language}-messages-timeline`);
  await page.keyboard.press('Escape');
  await page.getByTestId('timeline-item').first().waitFor({ state: 'detached' });

  await openPage(page, 'settings');
  await screenshot(page, `${language}-settings`);
  // Every tab: each has a table or a form to wait for.
  const tabs: Array<[string, string]> = [
    ['accounts', 'accounts-table'],
    ['apiKeys', 'apikeys-table'],
    ['lines', 'lines-table'],
    ['credit', 'ledger-row'],
    ['pricing', 'pricing-save'],
    ['simulator', 'simulator-save'],
    ['backup', 'backup-create'],
  ];
  for (const [tab, ready] of tabs) {
    await page.getByTestId(`settings-tab-${tab}`).click();
    await page.getByTestId(ready).first().waitFor();
    await screenshot(page, `${language}-settings-${tab}`);
  }
  await page.getByTestId('settings-tab-general').click();
}

describe('language and direction (web UI)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp({ locale: 'en-US' });
    // Something to show: a send through the HTTP API, followed to its final statuses.
    const receivers = Array.from({ length: 12 }, (_, i) => `0912${String(1000000 + i * 7919).padStart(7, '0')}`);
    const sent = await post(
      `${app.url}/v2/sms/send`,
      { message: 'Hello from Chapar', sender: '30001111', receivers },
      KEY,
    );
    expect(sent.status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it('starts in the browser language, left to right, with Gregorian dates', async () => {
    const { page } = app;
    expect(await page.locator('html').getAttribute('dir')).toBe('ltr');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await openPage(page, 'messages');
    await poll(() => page.getByTestId('message-row').count()).toBe(12);
    await waitAllFinal(page.getByTestId('message-row'));
    expect(await page.getByTestId('message-date').first().innerText()).toMatch(/^20\d\d-\d\d-\d\d/);
    await screens(page, 'en');
  });

  it('switches to Persian: right to left, Persian digits, Jalali dates, every text translated', async () => {
    const { page } = app;
    await switchToPersian(page);
    expect(await page.getByTestId('nav-messages').innerText()).toBe('پیام‌ها');

    await openPage(page, 'messages');
    // Jalali: the year 14xx, in Persian digits.
    expect(await page.getByTestId('message-date').first().innerText()).toMatch(/^۱۴[۰-۹]{2}\/[۰-۹]{2}\/[۰-۹]{2} /);
    expect(await page.getByTestId('messages-count').innerText()).toMatch(/^[۰-۹٬]+ پیام$/);
    // The navigation sits on the right in right-to-left, the timeline drawer opens on the left.
    const nav = await page.getByTestId('nav').boundingBox();
    expect(nav!.x).toBeGreaterThan(600);
    await page.getByTestId('message-row').first().click();
    await page.getByTestId('timeline-item').first().waitFor();
    expect((await page.getByTestId('timeline').boundingBox())!.x).toBeLessThan(600);
    await page.keyboard.press('Escape');
    await page.getByTestId('timeline-item').first().waitFor({ state: 'detached' });

    await screens(page, 'fa');
    for (const name of ['dashboard', 'compose', 'messages', 'settings'] as const) {
      await openPage(page, name);
      expect(await untranslated(page), `untranslated on ${name}`).toEqual([]);
    }
  });

  it('keeps the chosen language after a reload (saved in settings)', async () => {
    const { page } = app;
    await page.reload();
    await page.getByTestId('app-title').waitFor();
    await poll(() => page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await page.getByTestId('app-title').innerText()).toBe('چاپار');
    expect(app.problems).toEqual([]);
  });
});
