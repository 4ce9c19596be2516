// Settings → Workspace end to end, in both languages: the workspace's size in human units, the
// retention setting saved, its preview of the old messages, exporting them first (the Messages
// export, downloaded), applying it through a confirmation naming the count, and the run's result.
// The service's clock is moved a year on instead of waiting for messages to grow old.
import fs from 'node:fs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { KEY, post } from '../helpers/server';
import { advanceClock, openPage, screenshot, startApp, type RunningApp } from './app';
import { bridge, poll, switchToPersian } from './scenarios';

const DAY = 86_400_000;

/** Sends `n` messages through the HTTP API and moves the clock until every one is final. */
async function sendFinal(app: RunningApp, page: Page, n: number, first: number): Promise<void> {
  const receivers = Array.from({ length: n }, (_, i) => `0912${String(3_000_000 + first + i).padStart(7, '0')}`);
  const sent = await post(`${app.url}/v2/sms/send`, { message: 'Spring sale', sender: '30001111', receivers }, KEY);
  expect(sent.status).toBe(200);
  // The simulator moves them as the clock goes (a minute a step; a few steps are enough).
  for (let step = 0; ; step++) {
    await advanceClock(app, 60_000);
    const pending = await bridge<{ count: number }>(page, 'messages:count', { status: [1, 2, 4, 6] });
    if (pending.count === 0) return;
    if (step > 200) throw new Error(`${pending.count} messages are still not final`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A text as read, without the isolation marks around dates and names. */
async function textOf(page: Page, testId: string): Promise<string> {
  return (await page.getByTestId(testId).innerText()).replace(/[\u2066-\u2069]/g, '');
}

/** Screenshots without the notices of earlier steps over them. */
async function quietScreenshot(page: Page, name: string): Promise<void> {
  const hidden = await page.addStyleTag({ content: '.mantine-Notifications-root { visibility: hidden; }' });
  await screenshot(page, name);
  await hidden.evaluate((style) => style.remove());
}

async function openWorkspaceTab(page: Page): Promise<void> {
  await openPage(page, 'settings');
  await page.getByTestId('settings-tab-workspace').click();
  await page.getByTestId('workspace-total').waitFor();
  await page.getByTestId('retention-enabled').waitFor();
}

describe('workspace settings (web UI)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp({ locale: 'en-US', env: { CHAPAR_TEST_CLOCK: '1' } });
    // Thirty messages, then thirteen months later two more: the thirty are older than a year.
    await sendFinal(app, app.page, 30, 0);
    await advanceClock(app, 400 * DAY);
    await sendFinal(app, app.page, 2, 100);
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it('shows the size, saves the setting, exports the old messages first and archives them after a confirmation', async () => {
    const { page } = app;
    await openWorkspaceTab(page);
    expect(await page.getByTestId('workspace-total').innerText()).toMatch(/^[\d.,]+ (KB|MB)$/);
    expect(await page.getByTestId('workspace-messages').innerText()).toBe('32 messages in the workspace');
    expect(await page.getByTestId('workspace-part-database').innerText()).toMatch(/Database\s+[\d.,]+ (KB|MB)/);
    expect(await page.getByTestId('retention-status').innerText()).toBe('Off: every message is kept.');

    await page.getByTestId('retention-enabled').click();
    await page.getByTestId('retention-months').fill('12');
    await page.getByTestId('retention-save').click();
    await poll(() => page.getByTestId('retention-status').innerText()).toBe(
      'Saved. It starts once you apply it below.',
    );

    await page.getByTestId('retention-preview').click();
    const count = page.getByTestId('retention-preview-count');
    await count.waitFor();
    expect(await textOf(page, 'retention-preview-count')).toMatch(
      /^30 messages, from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d, would be archived\.$/,
    );
    await page.getByTestId('retention-preview-result').scrollIntoViewIfNeeded();
    await quietScreenshot(page, 'en-settings-workspace-preview');

    // Export first: the Messages export of every message before the cut-off, downloaded.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('retention-export-csv').click(),
    ]);
    const csv = fs.readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const rows = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data;
    expect(rows.length).toBe(30);

    // Never one click: the confirmation names the count.
    await page.getByTestId('retention-apply').click();
    const confirmText = page.getByTestId('retention-confirm-text');
    await confirmText.waitFor();
    expect(await textOf(page, 'retention-confirm-text')).toMatch(
      /^The 30 messages created before \d{4}-\d\d-\d\d move into archive/,
    );
    expect(await page.getByTestId('retention-confirm').innerText()).toBe('Archive 30 messages');
    await quietScreenshot(page, 'en-settings-workspace-confirm');
    await page.getByTestId('retention-confirm').click();

    await poll(() => page.getByTestId('retention-run-done').innerText(), { timeout: 30_000 }).toMatch(
      /: 30 messages archived\.$/,
    );
    await poll(() => page.getByTestId('workspace-messages').innerText()).toBe('2 messages in the workspace');
    expect(await page.getByTestId('retention-status').innerText()).toBe('On: applied each day at a quiet time.');
    await page.getByTestId('workspace-archive').first().waitFor();
    expect(await page.getByTestId('workspace-archive').first().innerText()).toMatch(/^messages-\d{4}-\d\d\.db/);
    await quietScreenshot(page, 'en-settings-workspace');
    expect(app.problems).toEqual([]);
  });

  it('speaks Persian: sizes and counts in Persian digits and units, and deletes after naming the count', async () => {
    const { page } = app;
    await switchToPersian(page);
    await openWorkspaceTab(page);
    expect(await page.getByTestId('settings-tab-workspace').innerText()).toBe('فضای کار');
    expect(await page.getByTestId('workspace-total').innerText()).toMatch(/^[۰-۹٫٬]+ (کیلوبایت|مگابایت)$/);
    expect(await page.getByTestId('workspace-messages').innerText()).toBe('۲ پیام در فضای کار');
    expect(await page.getByTestId('retention-status').innerText()).toBe('روشن: هر روز در زمانی خلوت اعمال می‌شود.');

    // Another action is another setting: saved, it waits for its own confirmation.
    await page.getByTestId('retention-action').getByText('حذف').click();
    await page.getByTestId('retention-save').click();
    await poll(() => page.getByTestId('retention-status').innerText()).toBe(
      'ذخیره شد. از وقتی که آن را در پایین اعمال کنید، آغاز می‌شود.',
    );
    // Another year on, the two are old too.
    await advanceClock(app, 400 * DAY);
    await sendFinal(app, page, 1, 200);
    await page.getByTestId('retention-preview').click();
    const count = page.getByTestId('retention-preview-count');
    await count.waitFor();
    expect(await textOf(page, 'retention-preview-count')).toMatch(
      /^۲ پیام، از .*[۰-۹]{4}\/[۰-۹]{2}\/[۰-۹]{2}.* حذف می‌شود\.$/,
    );
    await page.getByTestId('retention-preview-result').scrollIntoViewIfNeeded();
    await quietScreenshot(page, 'fa-settings-workspace-preview');
    await page.getByTestId('retention-apply').click();
    expect(await page.getByTestId('retention-confirm').innerText()).toBe('حذف ۲ پیام');
    await quietScreenshot(page, 'fa-settings-workspace-confirm');
    await page.getByTestId('retention-confirm').click();
    await poll(() => page.getByTestId('retention-run-done').innerText(), { timeout: 30_000 }).toMatch(
      /: ۲ پیام حذف شد\.$/,
    );
    await poll(() => page.getByTestId('workspace-messages').innerText()).toBe('۱ پیام در فضای کار');

    // Compact now, behind its own confirmation.
    await page.getByTestId('workspace-compact').click();
    await page.getByTestId('workspace-compact-confirm').click();
    await page.getByTestId('workspace-compacted-done').waitFor();
    expect(await page.getByTestId('workspace-compacted').innerText()).toMatch(/[۰-۹]{4}\/[۰-۹]{2}\/[۰-۹]{2}/);
    await quietScreenshot(page, 'fa-settings-workspace');
    expect(app.problems).toEqual([]);
  });
});
