// Language: the first start follows the browser's language (English here); choosing Persian in
// Settings flips the layout to right-to-left with Persian digits and Jalali dates, and sticks
// across a reload. The choice is each browser's own (two browsers on one server keep different
// languages; a new one follows its locale). Every screen is photographed in both languages
// (test/screenshots/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { KEY, post } from '../helpers/server';
import { openPage, screenshot, startApp, type RunningApp } from './app';
import { acceptedResultRows, confirmSend, poll, switchToPersian, waitAllFinal } from './scenarios';

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
  // (dir="auto", or the text's own, marked data-user-text): data, not UI texts.
  const data = (await page.locator('code, pre, [dir="auto"], [data-user-text]').allInnerTexts()).join(' ');
  const words = text.match(/[A-Za-z]{3,}/g) ?? [];
  // Data the user typed (message texts) and paths/addresses are not UI texts.
  return [...new Set(words)].filter((w) => !LATIN_ALLOWED.has(w) && !data.includes(w));
}

/** How far (px) each value label of the status chart is from the nearest grid line, top to bottom. */
function axisLabelOffsets(page: Page): Promise<number[]> {
  return page.evaluate(`(() => {
    const chart = document.querySelector('[data-testid="status-chart"]');
    const middle = (element) => { const box = element.getBoundingClientRect(); return box.top + box.height / 2; };
    const lines = Array.from(chart.querySelectorAll('.recharts-cartesian-grid-horizontal line')).map(middle);
    return Array.from(chart.querySelectorAll('.recharts-yAxis .recharts-cartesian-axis-tick text'))
      .map((label) => Math.min(...lines.map((line) => Math.abs(middle(label) - line))));
  })()`);
}

async function screens(page: Page, language: 'en' | 'fa'): Promise<void> {
  await openPage(page, 'dashboard');
  await page.getByTestId('status-chart').waitFor();
  await page.locator('.recharts-bar-rectangle path').first().waitFor({ state: 'attached' });
  await screenshot(page, `${language}-dashboard`);
  // Every value label level with its grid line, the top one too (it used to sit a line's half below).
  const offsets = await axisLabelOffsets(page);
  expect(offsets.length).toBeGreaterThan(2);
  expect(Math.max(...offsets), `label offsets ${offsets.join(', ')}`).toBeLessThan(3);

  await openPage(page, 'compose');
  await page
    .getByTestId('compose-text')
    .fill(language === 'fa' ? 'سلام! تخفیف ویژهٔ جمعه' : 'Hello! Friday sale, 20% off');
  await page.getByTestId('compose-receivers').fill('09121234567\n+98 912 765 4321\n۰۹۱۲۱۲۳۴۵۶۷\n12345');
  await page.getByTestId('compose-invalid-list').waitFor();
  await screenshot(page, `${language}-compose`);
  await confirmSend(page);
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

  it('keeps the chosen language after a reload (kept in this browser)', async () => {
    const { page } = app;
    await page.reload();
    await page.getByTestId('app-title').waitFor();
    await poll(() => page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await page.getByTestId('app-title').innerText()).toBe('چاپار');
    expect(app.problems).toEqual([]);
  });

  it('is each person’s own: another browser on the same server keeps its language, a new one follows its locale', async () => {
    const open = async (locale: string) => {
      const context = await app.browser.newContext({ locale, viewport: { width: 1366, height: 860 } });
      const page = await context.newPage();
      await page.goto(app.serve.webUrl!);
      await page.getByTestId('app-title').waitFor();
      return { context, page };
    };
    const lang = (page: Page) => page.locator('html').getAttribute('lang');
    // An English browser while the first one is Persian: English, and switching it changes only it.
    const other = await open('en-US');
    try {
      expect(await lang(other.page)).toBe('en');
      expect(await lang(app.page)).toBe('fa');
      await other.page.getByTestId('nav-settings').click();
      await other.page.getByTestId('settings-language').getByText('English').click();
      await other.page.reload();
      await other.page.getByTestId('app-title').waitFor();
      await app.page.reload();
      await app.page.getByTestId('app-title').waitFor();
      expect(await lang(other.page)).toBe('en');
      expect(await lang(app.page)).toBe('fa');
      expect(await app.page.getByTestId('app-title').innerText()).toBe('چاپار');

      // A browser that never chose: its system's language, Persian here.
      const fresh = await open('fa-IR');
      try {
        await poll(() => lang(fresh.page)).toBe('fa');
        expect(await fresh.page.locator('html').getAttribute('dir')).toBe('rtl');
        // Back to "System" in the English browser: it follows its own locale, English.
        await other.page.getByTestId('nav-settings').click();
        await other.page.getByTestId('settings-language').getByText('System').click();
        await other.page.reload();
        await other.page.getByTestId('app-title').waitFor();
        expect(await lang(other.page)).toBe('en');
      } finally {
        await fresh.context.close();
      }
    } finally {
      await other.context.close();
    }
  });
});
