// The server goes away under an open page (web mode): a Persian banner says the connection is
// lost and that it reconnects, the last figures stay on screen, no "Failed to fetch" anywhere;
// the server comes back on the same port and the banner goes by itself, and what happened
// meanwhile (sends the page never heard of) shows without a reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { KEY, post, spawnServe } from '../helpers/server';
import { SCREENSHOTS, openPage, startApp, stopServer, type RunningApp } from './app';
import { poll } from './scenarios';

const ENV = { CHAPAR_WEB_TOKEN: 'offline-test-token-0123456789' };
const FA_BANNER = 'ارتباط با چاپار قطع شد';

const receivers = (count: number, from: number) =>
  Array.from({ length: count }, (_, i) => `0912${String(1000000 + (from + i) * 7919).padStart(7, '0')}`);

async function sendThroughApi(url: string, count: number, from: number): Promise<void> {
  const sent = await post(
    `${url}/v2/sms/send`,
    { message: 'سلام از چاپار', sender: '30001111', receivers: receivers(count, from) },
    KEY,
  );
  expect(sent.status).toBe(200);
}

const bodyText = (page: Page) => page.locator('body').innerText();

describe('offline banner (web UI)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    // A Persian browser: the app starts in Persian.
    app = await startApp({ locale: 'fa-IR', env: ENV });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it('shows the banner in Persian and keeps the last data while the server is gone, then refreshes when it is back', async () => {
    const { page } = app;
    await poll(() => page.locator('html').getAttribute('dir')).toBe('rtl');
    await openPage(page, 'dashboard');
    await sendThroughApi(app.url, 12, 0);
    await poll(() => page.getByTestId('stat-today').innerText()).toBe('۱۲');
    expect(await page.getByTestId('offline-banner').count()).toBe(0);
    // Every page's code is here before the server goes (fetched a moment after the first page).
    await page.locator('[data-pages-loaded]').waitFor({ state: 'attached' });

    const restart = await stopServer(app, ENV);
    // The event stream breaks: the banner comes without any click.
    await page.getByTestId('offline-banner').waitFor();
    expect(await page.getByTestId('offline-banner').innerText()).toContain(FA_BANNER);
    // A page that calls the core meanwhile (opened for the first time, too): its call fails
    // quietly, the banner says it.
    await page.getByTestId('nav-contacts').click();
    await page.getByTestId('page-contacts').waitFor();
    await openPage(page, 'dashboard');
    expect(await page.getByTestId('stat-today').innerText()).toBe('۱۲');
    await page.waitForTimeout(1500);
    const offlineText = await bodyText(page);
    expect(offlineText).not.toMatch(/Failed to fetch|NetworkError|fetch/i);
    expect(offlineText).toContain(FA_BANNER);
    // One banner, not a notification per page that could not read.
    expect(await page.locator('.mantine-Notification-root').count()).toBe(0);
    await page.evaluate('document.fonts.ready.then(() => true)');
    await page.screenshot({ path: `${SCREENSHOTS}/fa-offline.png` });
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.screenshot({ path: `${SCREENSHOTS}/fa-offline-1024.png` });
    await page.setViewportSize({ width: 1366, height: 860 });

    // Meanwhile, sends the page cannot hear of: another server on the same data, gone again.
    const other = await spawnServe({ dataDir: app.dataDir, env: ENV });
    try {
      await sendThroughApi(other.url, 5, 100);
    } finally {
      await other.stop();
    }
    expect(await page.getByTestId('stat-today').innerText()).toBe('۱۲');

    await restart();
    // Back by itself (checks every few seconds at most): the banner goes, the figures are read again.
    await page.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 20_000 });
    await poll(() => page.getByTestId('stat-today').innerText()).toBe('۱۷');
    expect(await bodyText(page)).not.toContain(FA_BANNER);
    // And live again: a push of a new send reaches the page.
    await sendThroughApi(app.url, 3, 200);
    await poll(() => page.getByTestId('stat-today').innerText()).toBe('۲۰');
  });
});
