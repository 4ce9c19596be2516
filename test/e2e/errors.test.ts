// Errors a user causes are said in the UI's language with what to do: a file that is not a
// spreadsheet given as an opt-out list, and a segment renamed after someone else deleted it. In
// English in the English UI (no Persian words), in Persian in the Persian UI (no English ones).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { createSegment } from '../campaigns/support';
import { en } from '../../renderer/src/i18n/en';
import { fa } from '../../renderer/src/i18n/fa';
import { screenshot, startApp, type RunningApp } from './app';
import { switchToPersian } from './scenarios';

/** A PNG's first bytes under a spreadsheet's name. */
const PHOTO = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0,
]);
const PERSIAN = /[\u0600-\u06ff]/;

/** The notification saying `text`, once shown. */
async function notified(page: Page, text: string): Promise<string> {
  const notification = page.locator('.mantine-Notification-root').filter({ hasText: text });
  await notification.first().waitFor();
  return notification.first().innerText();
}

async function closeNotifications(page: Page): Promise<void> {
  await page.evaluate(`document.querySelectorAll('.mantine-Notification-closeButton').forEach((b) => b.click())`);
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached' });
}

async function badOptOutFile(page: Page): Promise<void> {
  await page.getByTestId('nav-contacts').click();
  await page.getByTestId('contacts-optouts').click();
  await page
    .locator('[data-testid="page-optouts"] input[type="file"]')
    .setInputFiles({ name: 'numbers.csv', mimeType: 'text/csv', buffer: PHOTO });
}

/** Opens the rename of the first segment, deletes that segment as another window would, then saves. */
async function renameDeletedSegment(page: Page, name: string): Promise<void> {
  await page.getByTestId('nav-contacts').click();
  await page.getByTestId('segment-row').first().waitFor();
  await page.getByTestId('segment-menu').first().click();
  await page.getByTestId('segment-rename').click();
  await page.getByTestId('rename-input').fill(name);
  // Another window of the same panel deletes it meanwhile (the bridge, as the UI calls it).
  await page.evaluate(`(async () => {
    const call = (channel, input) => fetch('/bridge/invoke/' + channel, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) }).then((r) => r.json());
    const accounts = (await call('accounts:list', null)).value;
    const account = accounts.find((a) => a.name === 'acme');
    const segments = (await call('segments:list', { account_id: account.id })).value;
    await call('segments:delete', { account_id: account.id, segment_id: segments[0].id });
  })()`);
  await page.getByTestId('rename-save').click();
}

describe('translated errors (web UI)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp({ locale: 'en-US' });
    for (let i = 0; i < 2; i++) await createSegment(app.url, ['09131000001', '09131000002'], { NAME: () => 'x' });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it('says them in English in the English UI, with what to do', async () => {
    const { page } = app;
    await badOptOutFile(page);
    const file = await notified(page, en.errors.reasons.import_binary);
    expect(file).not.toMatch(PERSIAN);
    await screenshot(page, 'en-error-file');
    await closeNotifications(page);

    await renameDeletedSegment(page, 'VIP customers');
    const gone = await notified(page, en.errors.reasons.segment_not_found);
    expect(gone).not.toMatch(PERSIAN);
    await page.getByTestId('rename-cancel').click();
    await closeNotifications(page);
  });

  it('says them in Persian in the Persian UI', async () => {
    const { page } = app;
    await switchToPersian(page);
    // The errors said before are not said again (in the old language) on the switch.
    await page.waitForTimeout(500);
    expect(await page.locator('.mantine-Notification-root').count()).toBe(0);
    await badOptOutFile(page);
    const file = await notified(page, fa.errors.reasons.import_binary);
    // Only the names of formats stay Latin.
    expect(file.replace(/PDF|CSV|XLSX/g, '')).not.toMatch(/[A-Za-z]/);
    await screenshot(page, 'fa-error-file');
    await closeNotifications(page);

    await renameDeletedSegment(page, 'مشتریان ویژه');
    const gone = await notified(page, fa.errors.reasons.segment_not_found);
    expect(gone).not.toMatch(/[A-Za-z]/);
    await page.getByTestId('rename-cancel').click();
  });
});
