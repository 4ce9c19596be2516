// "Sign out other browsers" in Settings → General, in both languages: two browsers signed in with
// the printed address; one signs out the other, which is shown the server's sign-in message at
// once (its event stream ends, its calls answer 401), while the one that asked keeps working and
// stays signed in across a reload; the printed address signs the other in again. The desktop app
// never shows the card (its settings say mode 'desktop'; see the component).
import { afterEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright';
import { screenshot, startApp, type RunningApp } from './app';
import { bridgeCall, poll, switchToPersian } from './scenarios';

let app: RunningApp | undefined;
let other: BrowserContext | undefined;
afterEach(async () => {
  await other?.close();
  other = undefined;
  await app?.close();
  app = undefined;
});

/** A second browser (its own cookies), signed in with the printed address. */
async function signInAnotherBrowser(running: RunningApp): Promise<Page> {
  other ??= await running.browser.newContext({ viewport: { width: 1366, height: 860 } });
  const page = await other.newPage();
  await page.goto(running.serve.webUrl!);
  await page.getByTestId('app-title').waitFor();
  // The page listens to pushes: its event stream is open.
  expect((await bridgeCall(page, 'accounts:list', null)).ok).toBe(true);
  return page;
}

async function signOutOthers(page: Page, language: 'en' | 'fa'): Promise<void> {
  await page.evaluate(`window.location.hash = '#/settings'`);
  const card = page.getByTestId('web-session');
  await card.waitFor();
  await screenshot(page, `web-session-card-${language}`);
  await page.getByTestId('web-session-sign-out').click();
  await page.getByTestId('web-session-confirm').waitFor();
  await screenshot(page, `web-session-confirm-${language}`);
  await page.getByTestId('web-session-confirm').click();
  await page.getByText(language === 'en' ? 'Other browsers are signed out' : 'مرورگرهای دیگر خارج شدند').waitFor();
  await screenshot(page, `web-session-done-${language}`);
}

/** The other browser was signed out: its page turned into the sign-in message, its calls answer 401. */
async function expectSignedOut(page: Page): Promise<void> {
  await poll(() => page.locator('body').innerText(), { timeout: 15_000 }).toContain('?token=');
  expect(await page.locator('body').innerText()).toContain('not signed in');
  const answer = await bridgeCall(page, 'accounts:list', null);
  expect(answer).toMatchObject({ ok: false, error: { code: 401, reason: 'signed_out' } });
}

describe('sign out other browsers', () => {
  it('signs out the other browser at once; this one stays signed in (English, then Persian)', async () => {
    app = await startApp();
    const mine = app.page;
    const theirs = await signInAnotherBrowser(app);

    await signOutOthers(mine, 'en');
    await expectSignedOut(theirs);
    await screenshot(theirs, 'web-session-signed-out');
    expect((await bridgeCall(mine, 'accounts:list', null)).ok).toBe(true);
    await mine.reload();
    await mine.getByTestId('app-title').waitFor();
    expect((await bridgeCall(mine, 'accounts:list', null)).ok).toBe(true);

    // The printed address signs it in again; then the same in Persian.
    const again = await signInAnotherBrowser(app);
    await switchToPersian(mine);
    await signOutOthers(mine, 'fa');
    await expectSignedOut(again);
    expect((await bridgeCall(mine, 'accounts:list', null)).ok).toBe(true);
    expect(app.problems.filter((problem) => !problem.startsWith('console: Failed to load resource'))).toEqual([]);
  }, 120_000);
});
