// The pages the server makes itself answer in the visitor's language, in Chromium: the sign-in
// page a browser without a session is shown (and the one for an address whose token is wrong),
// and a dead short link, in Persian (right to left, the address left to right inside it) or
// English from the browser's languages; a person who chose a language in the web UI gets that
// one (its cookie), whatever the browser asks for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { screenshot, startApp, type RunningApp } from './app';
import { poll, switchToPersian } from './scenarios';

const TITLES = {
  fa: { signIn: 'این مرورگر وارد نشده است', wrong: 'این نشانی برای ورود درست نیست', dead: 'این پیوند کار نمی‌کند' },
  en: {
    signIn: 'This browser is not signed in',
    wrong: 'This address does not sign in',
    dead: 'This link does not work',
  },
} as const;

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
}, 180_000);
afterAll(async () => {
  await app?.close();
});

/** Opens `path` and checks the page: its status, language, direction and title. */
async function expectPage(page: Page, path: string, status: number, language: 'fa' | 'en', title: string) {
  const response = await page.goto(`${app.url}${path}`);
  expect(response?.status()).toBe(status);
  expect(response?.headers()['content-language']).toBe(language);
  expect(await page.locator('html').getAttribute('lang')).toBe(language);
  expect(await page.locator('html').getAttribute('dir')).toBe(language === 'fa' ? 'rtl' : 'ltr');
  expect(await page.locator('h1').innerText()).toBe(title);
  // Its style applies (not the browser's bare white page).
  expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(245, 246, 248)');
}

describe('pages in the visitor’s language', () => {
  it('the sign-in page and a dead short link follow the browser’s languages', async () => {
    for (const [locale, language] of [
      ['fa-IR', 'fa'],
      ['en-US', 'en'],
    ] as const) {
      const context = await app.browser.newContext({ locale, viewport: { width: 412, height: 700 } });
      try {
        const page = await context.newPage();
        await expectPage(page, '/', 401, language, TITLES[language].signIn);
        // The address to open, written left to right inside the Persian sentence, with this host.
        const address = page.locator('.address');
        expect(await address.getAttribute('dir')).toBe('ltr');
        expect(await address.innerText()).toBe(`${app.url}/?token=…`);
        await screenshot(page, `visitor-sign-in-${language}`);
        await expectPage(page, '/?token=not-this-one', 401, language, TITLES[language].wrong);
        await screenshot(page, `visitor-wrong-token-${language}`);
        await expectPage(page, '/l/zzzzzzzz', 404, language, TITLES[language].dead);
        await screenshot(page, `visitor-dead-link-${language}`);
      } finally {
        await context.close();
      }
    }
  }, 60_000);

  it('a language chosen in the web UI is the one these pages use', async () => {
    // An English browser, the UI switched to Persian; then its session is gone.
    const { page, context } = app;
    await switchToPersian(page);
    await poll(async () => (await context.cookies()).find((c) => c.name === 'chapar_lang')?.value).toBe('fa');
    await context.clearCookies({ name: 'chapar_session' });
    await expectPage(page, '/', 401, 'fa', TITLES.fa.signIn);
    await expectPage(page, '/l/zzzzzzzz', 404, 'fa', TITLES.fa.dead);
    await screenshot(page, 'visitor-chosen-fa');

    // Signed in again and switched back to English: English, on a Persian-first browser too.
    await page.goto(app.serve.webUrl!);
    await page.getByTestId('app-title').waitFor();
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-language').getByText('English').click();
    await poll(async () => (await context.cookies()).find((c) => c.name === 'chapar_lang')?.value).toBe('en');
    await context.clearCookies({ name: 'chapar_session' });
    await context.setExtraHTTPHeaders({ 'accept-language': 'fa-IR,fa;q=0.9' });
    await expectPage(page, '/', 401, 'en', TITLES.en.signIn);
    await screenshot(page, 'visitor-chosen-en');
  }, 60_000);
});
