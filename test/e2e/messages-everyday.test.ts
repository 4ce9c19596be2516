// Messages as a shop owner uses them every day, in the real UI over `serve`: a text typed with an
// Arabic keyboard finds the Persian one, any part of a number finds its receivers, a new filter
// starts the table at the top, the status filter offers only statuses that occur (short labels,
// the full text on hover), a failed message shows the failure colour and says what it cost, the
// exports are read back (headers, status labels and times in the person's language and time zone,
// a right-to-left sheet with a frozen header in Persian), the export notice keeps the file name
// apart from the sentence, and in Persian the numbers sit under their right-aligned headers. At
// 1024 px every column can be reached. Screenshots go to the system's temp folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, post } from '../helpers/server';
import { openPage, startApp, type RunningApp } from './app';
import { poll, switchToPersian } from './scenarios';

// No daylight saving, an offset no other test's zone has: times in the files can only be from it.
const ZONE = 'Asia/Kathmandu';
const OFFSET = '+05:45';
const SHOTS = path.join(os.tmpdir(), 'chapar-messages-everyday');

const YALDA_PERSIAN = ['09121234567', '09125551234'];
const YALDA_ARABIC = ['09361112233'];
const BULK = Array.from({ length: 300 }, (_, i) => `0912000${String(i).padStart(4, '0')}`);
const TOTAL = YALDA_PERSIAN.length + YALDA_ARABIC.length + BULK.length;

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  // Notices of earlier steps would cover the table.
  const notices = page.locator('.mantine-Notification-root');
  for (let left = await notices.count(); left > 0; left = await notices.count()) {
    await notices.first().locator('button').click();
    await poll(() => notices.count()).toBeLessThan(left);
  }
  await page.evaluate('document.fonts.ready.then(() => true)');
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

const count = (page: Page) => page.getByTestId('messages-count').getAttribute('data-value');

/** Types into a filter box and waits for the count it gives. */
async function filterBy(page: Page, testId: string, value: string, expected: number): Promise<void> {
  await page.getByTestId(testId).fill(value);
  await poll(() => count(page)).toBe(String(expected));
}

async function clearFilters(page: Page): Promise<void> {
  await page.getByTestId('filter-clear').click();
  await poll(() => count(page)).toBe(String(TOTAL));
}

async function download(page: Page, testId: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return (await file.path())!;
}

async function readSheet(file: string) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.worksheets[0]!;
  const headers = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
  const rows: Array<Record<string, unknown>> = [];
  sheet.eachRow((row, n) => {
    if (n === 1) return;
    const values = (row.values as unknown[]).slice(1);
    rows.push(Object.fromEntries(headers.map((header, i) => [header, values[i]])));
  });
  const widths = headers.map((_, i) => sheet.getColumn(i + 1).width ?? 0);
  return { view: sheet.views[0], headers, rows, widths };
}

/** The right edge of a cell's text as drawn, and of the cell (px). */
function textAndCellRight(page: Page, selector: string): Promise<{ text: number; cell: number }> {
  return page.evaluate(`(() => {
    const cell = document.querySelector(${JSON.stringify(selector)});
    const range = document.createRange();
    range.selectNodeContents(cell);
    return { text: range.getBoundingClientRect().right, cell: cell.getBoundingClientRect().right - parseFloat(getComputedStyle(cell).paddingRight) };
  })()`);
}

/**
 * Each column header of the messages table brought into view inside the table (as a person
 * scrolls it sideways): the headers that still lie outside the table's visible box.
 */
function unreachableColumns(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const table = document.querySelector('[data-testid="messages-table"]');
    const missing = [];
    for (const header of table.querySelectorAll('[role="columnheader"]')) {
      header.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const box = header.getBoundingClientRect();
      const view = table.getBoundingClientRect();
      if (box.left < view.left - 1 || box.right > view.right + 1 || box.right > window.innerWidth + 1)
        missing.push(header.textContent);
    }
    return missing;
  })()`);
}

describe('Messages for everyday use (web UI)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp({ timezoneId: ZONE });
    const sends: Array<[string, string[]]> = [
      ['سلام یلدا، تخفیف ویژهٔ شب یلدا', YALDA_PERSIAN],
      ['مسابقهٔ يلدا با جايزه', YALDA_ARABIC],
      ['Plain text for everyone', BULK],
    ];
    for (const [message, receivers] of sends) {
      const sent = await post(`${app.url}/v2/sms/send`, { message, sender: '30001111', receivers }, KEY);
      expect(sent.status).toBe(200);
    }
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it('finds a text typed with Arabic letters in one stored with Persian ones, and the other way round', async () => {
    const { page } = app;
    await openPage(page, 'messages');
    await poll(() => count(page)).toBe(String(TOTAL));
    await filterBy(page, 'filter-text', 'يلدا', 3);
    await filterBy(page, 'filter-text', 'یلدا', 3);
    await filterBy(page, 'filter-text', 'جایزه', 1);
    await clearFilters(page);
  });

  it('finds receivers by any part of their number, in any digits', async () => {
    const { page } = app;
    await filterBy(page, 'filter-receptor', '1234', 2);
    await filterBy(page, 'filter-receptor', '۱۲۳۴', 2);
    await filterBy(page, 'filter-receptor', '0936', 1);
    await clearFilters(page);
  });

  it('starts the table at the top when a filter changes', async () => {
    const { page } = app;
    await openPage(page, 'messages');
    await poll(() => count(page)).toBe(String(TOTAL));
    const scroll = page.getByTestId('messages-scroll');
    await scroll.evaluate((element) => element.scrollTo(0, 6000));
    await poll(() => scroll.evaluate((element) => element.scrollTop)).toBeGreaterThan(1000);
    await filterBy(page, 'filter-text', 'Plain', BULK.length);
    await poll(() => page.getByTestId('messages-scroll').evaluate((element) => element.scrollTop)).toBe(0);
    // The newest message is the first row again.
    expect(await page.getByTestId('message-row').first().getAttribute('data-id')).toBe(String(TOTAL));
    await clearFilters(page);
  });

  it('offers only the statuses that occur, by short labels with the full text on hover', async () => {
    const { page } = app;
    await page.getByTestId('filter-status').click();
    const options = page.getByTestId('status-option');
    await poll(() => options.count()).toBeGreaterThan(0);
    const labels = await options.allInnerTexts();
    expect(labels).toContain('Cancelled (refunded)');
    expect(labels).not.toContain('Send error');
    expect(await options.evaluateAll((all) => all.map((o) => o.getAttribute('data-status')))).not.toContain('6');
    await page.keyboard.press('Escape');
    // Which finals cost money, next to the filter.
    const hint = await page.getByTestId('messages-cost-hint').innerText();
    expect(hint).toContain('Charged: Delivered, Not delivered');
    expect(hint).toContain('Refunded: Cancelled (refunded)');
  });

  it('shows a failed message in the failure colour, in its badge and its timeline, and what it cost', async () => {
    const { page } = app;
    // Every message ends (the simulator is quick); some of 303 fail.
    await poll(() =>
      page
        .locator('[data-testid="message-row"][data-status="1"], [data-testid="message-row"][data-status="4"]')
        .count(),
    ).toBe(0);
    const failed = page.locator(
      '[data-testid="message-row"][data-status="11"], [data-testid="message-row"][data-status="13"], [data-testid="message-row"][data-status="14"]',
    );
    await page.getByTestId('filter-status').click();
    for (const name of ['Not delivered', 'Cancelled (refunded)', 'Blocked'])
      await page.getByRole('option', { name, exact: true }).click();
    await page.keyboard.press('Escape');
    await poll(() => failed.count()).toBeGreaterThan(0);
    const badges = page.getByTestId('message-row').getByTestId('status-badge');
    expect(new Set(await badges.evaluateAll((all) => all.map((b) => b.getAttribute('data-color'))))).toEqual(
      new Set(['red']),
    );
    await failed.first().click();
    const items = page.getByTestId('timeline-item');
    await poll(() => items.count()).toBeGreaterThan(1);
    expect(await items.last().getAttribute('data-color')).toBe('red');
    // Delivered never looks like it: the first step is the queue's grey.
    expect(await items.first().getAttribute('data-color')).not.toBe('red');
    const cost = await page.getByTestId('timeline-cost').getAttribute('data-cost');
    const status = await failed.first().getAttribute('data-status');
    // The simulator's 13s are refunded; its 11s and 14s (reported by the carrier) stay charged.
    expect(cost).toBe(status === '13' ? 'refunded' : status === '14' ? 'carrierBlocked' : 'charged');
    await shot(page, 'en-timeline-failed');
    await page.keyboard.press('Escape');
    await clearFilters(page);
  });

  it('exports in English with times in the person’s zone, and names the file apart from the sentence', async () => {
    const { page } = app;
    const sheet = await readSheet(await download(page, 'export-xlsx'));
    expect(sheet.view).toMatchObject({ rightToLeft: false, state: 'frozen', ySplit: 1 });
    expect(sheet.headers).toContain('Receiver');
    expect(sheet.headers).toContain('Created (ISO 8601)');
    expect(sheet.headers.some((h) => /_|^[a-z]+$/.test(h))).toBe(false);
    expect(sheet.widths.every((w) => w >= 7)).toBe(true);
    expect(sheet.rows).toHaveLength(TOTAL);
    const row = sheet.rows.find((r) => r['Receiver'] === '09361112233')!;
    expect(String(row['Created (ISO 8601)'])).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:]{8}\\${OFFSET}$`));
    expect(String(row['Created'])).toBe(String(row['Created (ISO 8601)']).slice(0, 19).replace('T', ' '));
    expect(['Delivered', 'Not delivered', 'Cancelled (refunded)', 'Blocked']).toContain(row['Status']);

    const text = fs.readFileSync(await download(page, 'export-csv'), 'utf8');
    expect(text.startsWith('\ufeff')).toBe(true);
    const csv = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true });
    expect(csv.data).toHaveLength(TOTAL);
    expect(csv.data.find((r) => r['Receiver'] === '09121234567')?.['Text']).toContain('یلدا');

    const fileName = await page.getByTestId('export-result').getAttribute('data-file');
    expect(await page.getByTestId('export-result').innerText()).toContain(`\u2068${fileName}\u2069`);
  });

  it('in Persian: Jalali times, Persian headers and labels in a right-to-left sheet; numbers under their headers', async () => {
    const { page } = app;
    await switchToPersian(page);
    await openPage(page, 'messages');
    await poll(() => count(page)).toBe(String(TOTAL));

    const sheet = await readSheet(await download(page, 'export-xlsx'));
    expect(sheet.view).toMatchObject({ rightToLeft: true, state: 'frozen', ySplit: 1 });
    expect(sheet.headers).toContain('گیرنده');
    const row = sheet.rows.find((r) => r['گیرنده'] === '09121234567')!;
    expect(String(row['زمان ثبت'])).toMatch(/^14\d\d\/\d\d\/\d\d \d\d:\d\d:\d\d$/);
    expect(String(row['زمان ثبت (ISO 8601)']).endsWith(OFFSET)).toBe(true);
    expect(['رسیده به گیرنده', 'نرسیده', 'لغو شده (برگشت هزینه)', 'بلاک شده']).toContain(row['وضعیت']);
    // The notice: the number, the arrow, then the file name as one isolated run.
    const fileName = await page.getByTestId('export-result').getAttribute('data-file');
    expect(await page.getByTestId('export-result').innerText()).toMatch(
      new RegExp(`^[۰-۹٬]+ ردیف ← \u2068${fileName!.replace(/[.]/g, '\\.')}\u2069$`),
    );

    // The line and the receiver sit at the column's start (the right), like their headers.
    for (const column of ['message-sender', 'message-receptor']) {
      const { text, cell } = await textAndCellRight(page, `[data-testid="message-row"] [data-testid="${column}"]`);
      expect(Math.abs(cell - text), column).toBeLessThan(2);
    }
    // The status filter's long text of 13 is its hover, not its label.
    await page.getByTestId('filter-status').click();
    const cancelled = page.locator('[data-testid="status-option"][data-status="13"]');
    expect(await cancelled.innerText()).toBe('لغو شده (برگشت هزینه)');
    await cancelled.hover();
    await page.getByText('ارسال پیام از سمت کاربر لغو شده', { exact: false }).first().waitFor();
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1366, height: 768 });
    await shot(page, 'fa-messages-1366');
  });

  it('reaches every column at 1024 px wide, and sideways below it, in both directions', async () => {
    const { page } = app;
    const sideways = () => page.getByTestId('messages-table').evaluate((t) => t.scrollWidth - t.clientWidth);
    const check = async (language: 'fa' | 'en') => {
      await page.setViewportSize({ width: 1024, height: 768 });
      expect(await unreachableColumns(page)).toEqual([]);
      // The text column gave way: nothing to scroll sideways at this width.
      expect(await sideways()).toBeLessThan(2);
      await shot(page, `${language}-messages-1024`);
      // Narrower still: the table scrolls sideways, and every column comes into view.
      await page.setViewportSize({ width: 860, height: 768 });
      expect(await sideways()).toBeGreaterThan(10);
      expect(await unreachableColumns(page)).toEqual([]);
      await page.setViewportSize({ width: 1366, height: 768 });
    };
    await check('fa');
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-language').getByText('English').click();
    await poll(() => page.locator('html').getAttribute('dir')).toBe('ltr');
    await openPage(page, 'messages');
    await poll(() => count(page)).toBe(String(TOTAL));
    await check('en');
    await shot(page, 'en-messages-1366');
    expect(app.problems).toEqual([]);
  });
});
