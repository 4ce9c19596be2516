// Web mode survives a restart of `serve` on the same data, in both languages: the printed address
// stays the same (the token is the workspace's, not the process's), an open page reconnects
// signed in, and what was typed in Compose, the campaign editor and the email composer is still
// there after a reload, the campaign's changes typed while the server was gone included.
// "Sign out other browsers" still signs them out after a restart, and they stay signed out after
// the next one; a browser signed in again finds its draft where it left it.
import { afterEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright';
import { screenshot, startApp, stopServer, type RunningApp } from './app';
import { bridgeCall, poll, switchToPersian } from './scenarios';

let app: RunningApp | undefined;
let other: BrowserContext | undefined;
afterEach(async () => {
  await other?.close();
  other = undefined;
  await app?.close();
  app = undefined;
});

/** No fixed token: the workspace's own is what is tested. */
const ENV: NodeJS.ProcessEnv = { CHAPAR_WEB_TOKEN: '' };

const TEXTS = {
  en: {
    compose: 'Friday sale: 20% off everything',
    subject: 'Our spring catalogue',
    html: '<p>Dear customer, the spring catalogue is here.</p>',
    campaign: 'Weekend sale',
    body: 'Hi {{NAME}}, the weekend sale starts Friday',
    offline: ' (typed while the server was away)',
    banner: 'Connection to Chapar lost',
  },
  fa: {
    compose: 'حراج جمعه: ۲۰٪ تخفیف روی همه چیز',
    subject: 'کاتالوگ بهاری ما',
    html: '<p>مشتری گرامی، کاتالوگ بهاری رسید.</p>',
    campaign: 'حراج آخر هفته',
    body: 'سلام {{NAME}}، حراج آخر هفته از جمعه شروع می‌شود',
    offline: ' (نوشته‌شده وقتی سرور نبود)',
    banner: 'ارتباط با چاپار قطع شد',
  },
} as const;

const go = (page: Page, hash: string) => page.evaluate(`window.location.hash = '${hash}'`);

/** Restarts `serve` on the same data and port; answers the address it printed. */
async function restart(running: RunningApp, whileAway?: () => Promise<void>): Promise<string> {
  const start = await stopServer(running, ENV);
  await whileAway?.();
  await start();
  return running.serve.webUrl!;
}

describe.each(['en', 'fa'] as const)('web mode across a restart (%s)', (language) => {
  const text = TEXTS[language];

  it('reconnects signed in at the same address, and keeps the drafts of Compose, campaigns and email', async () => {
    app = await startApp({ locale: language === 'fa' ? 'fa-IR' : 'en-US', env: ENV });
    const { page } = app;
    const address = app.serve.webUrl!;
    expect(address).toMatch(/\?token=[\w-]{32}$/);
    if (language === 'fa') await poll(() => page.locator('html').getAttribute('dir')).toBe('rtl');
    await page.locator('[data-pages-loaded]').waitFor({ state: 'attached' });

    await go(page, '#/compose');
    await page.getByTestId('compose-text').fill(text.compose);
    await page.getByTestId('compose-receivers').fill('09121234567\n09127654321');
    await go(page, '#/email');
    await page.getByTestId('email-subject').fill(text.subject);
    await page.getByTestId('email-html').fill(text.html);
    await go(page, '#/campaigns/new');
    await page.getByTestId('editor-name').fill(text.campaign);
    await poll(() => page.evaluate('location.hash')).toMatch(/^#\/campaigns\/draft\/\d+$/);
    const campaignHash = (await page.evaluate('location.hash')) as string;
    await page.getByTestId('editor-body').fill(text.body);
    await poll(() => page.getByTestId('editor-saved').getAttribute('data-state')).toBe('saved');

    // A second tab that stays open across the restart.
    const tab = await app.context.newPage();
    await tab.goto(new URL(address).origin);
    await tab.getByTestId('app-title').waitFor();
    await tab.locator('[data-pages-loaded]').waitFor({ state: 'attached' });

    const again = await restart(app, async () => {
      await page.getByTestId('offline-banner').waitFor();
      expect(await page.getByTestId('offline-banner').innerText()).toContain(text.banner);
      // The server cannot hear of this change, and the tab is closed before it is back: only the
      // browser keeps it.
      await page.getByTestId('editor-body').pressSequentially(text.offline, { delay: 5 });
      await poll(() => page.getByTestId('editor-saved').getAttribute('data-state')).toBe('failed');
      await screenshot(page, `web-restart-away-${language}`);
      await page.close();
    });
    // The same address, and the open tab back without a sign-in: the banner goes by itself.
    expect(again).toBe(address);
    await tab.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 20_000 });
    expect((await bridgeCall(tab, 'accounts:list', null)).ok).toBe(true);

    // Reloaded, it finds every draft typed in the other tab.
    await tab.reload();
    await tab.getByTestId('app-title').waitFor();
    expect(tab.url()).not.toContain('token=');
    if (language === 'fa') await poll(() => tab.locator('html').getAttribute('dir')).toBe('rtl');
    await checkDrafts(tab, campaignHash);
  }, 120_000);

  async function checkDrafts(page: Page, campaignHash: string): Promise<void> {
    await go(page, campaignHash);
    await poll(() => page.getByTestId('editor-body').inputValue()).toBe(`${text.body}${text.offline}`);
    expect(await page.getByTestId('editor-name').inputValue()).toBe(text.campaign);
    // Written to the workspace: another browser opening the draft reads it from there.
    await poll(() => page.getByTestId('editor-saved').getAttribute('data-state')).toBe('saved');
    const saved = await bridgeCall(page, 'campaigns:draftGet', {
      account_id: 1,
      draft_id: Number(campaignHash.split('/').pop()),
    });
    expect(saved.value.fields.template_body).toBe(`${text.body}${text.offline}`);
    await screenshot(page, `web-restart-campaign-${language}`);
    await go(page, '#/compose');
    await poll(() => page.getByTestId('compose-text').inputValue()).toBe(text.compose);
    expect(await page.getByTestId('compose-receivers').inputValue()).toBe('09121234567\n09127654321');
    await screenshot(page, `web-restart-compose-${language}`);
    await go(page, '#/email');
    await poll(() => page.getByTestId('email-subject').inputValue()).toBe(text.subject);
    expect(await page.getByTestId('email-html').inputValue()).toBe(text.html);
    await screenshot(page, `web-restart-email-${language}`);

    // Emptied by hand, it stays empty after a reload.
    await go(page, '#/compose');
    await page.getByTestId('compose-text').fill('');
    await page.getByTestId('compose-receivers').fill('');
    await page.reload();
    await page.getByTestId('app-title').waitFor();
    await go(page, '#/compose');
    await page.getByTestId('compose-text').waitFor();
    await page.waitForTimeout(500);
    expect(await page.getByTestId('compose-text').inputValue()).toBe('');
  }

  it('signs out other browsers after a restart, and they stay signed out after the next one', async () => {
    app = await startApp({ locale: language === 'fa' ? 'fa-IR' : 'en-US', env: ENV });
    const mine = app.page;
    const address = app.serve.webUrl!;
    other = await app.browser.newContext({
      locale: language === 'fa' ? 'fa-IR' : 'en-US',
      viewport: { width: 1366, height: 860 },
    });
    const theirs = await other.newPage();
    await theirs.goto(address);
    await theirs.getByTestId('app-title').waitFor();
    await go(theirs, '#/compose');
    await theirs.getByTestId('compose-text').fill(text.compose);

    expect(await restart(app)).toBe(address);
    // Both still signed in after the restart.
    await poll(async () => (await bridgeCall(theirs, 'accounts:list', null)).ok, { timeout: 20_000 }).toBe(true);
    await poll(async () => (await bridgeCall(mine, 'accounts:list', null)).ok, { timeout: 20_000 }).toBe(true);
    if (language === 'fa') await switchToPersian(mine);

    await go(mine, '#/settings');
    await mine.getByTestId('web-session-sign-out').click();
    await mine.getByTestId('web-session-confirm').click();
    await mine.getByText(language === 'en' ? 'Other browsers are signed out' : 'مرورگرهای دیگر خارج شدند').waitFor();
    // Theirs is shown the sign-in page, in its language.
    await poll(() => theirs.locator('body').innerText(), { timeout: 15_000 }).toContain('?token=');
    await theirs.waitForLoadState();
    expect(await theirs.locator('html').getAttribute('lang')).toBe(language);
    expect(await theirs.locator('html').getAttribute('dir')).toBe(language === 'fa' ? 'rtl' : 'ltr');
    await screenshot(theirs, `web-restart-signed-out-${language}`);

    // Another restart does not bring their session back; mine stays.
    expect(await restart(app)).toBe(address);
    const answer = await bridgeCall(theirs, 'accounts:list', null);
    expect(answer).toMatchObject({ ok: false, error: { code: 401, reason: 'signed_out' } });
    await theirs.reload();
    expect(await theirs.locator('h1').innerText()).toBe(
      language === 'en' ? 'This browser is not signed in' : 'این مرورگر وارد نشده است',
    );
    await poll(async () => (await bridgeCall(mine, 'accounts:list', null)).ok, { timeout: 20_000 }).toBe(true);
    await mine.reload();
    await mine.getByTestId('app-title').waitFor();

    // The printed address signs them in again, and their draft is where they left it.
    await theirs.goto(address);
    await theirs.getByTestId('app-title').waitFor();
    await go(theirs, '#/compose');
    await poll(() => theirs.getByTestId('compose-text').inputValue()).toBe(text.compose);
    await screenshot(theirs, `web-restart-signed-in-again-${language}`);
  }, 120_000);
});
