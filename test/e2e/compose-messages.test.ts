// Compose and send to mixed receivers, then watch the statuses move to their final values in
// Messages without reloading, filter, open a timeline and export. Real serve, real Chromium.
import fs from 'node:fs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, post } from '../helpers/server';
import { openPage, screenshot, startApp, type RunningApp } from './app';
import { acceptedResultRows, composeMixedSend, poll, statusesOf, waitAllFinal } from './scenarios';

describe('compose, send and follow messages (web UI)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    // A simulator slow enough that messages are seen on their way, fast enough for a test.
    app = await startApp({
      seed: {
        simulator: {
          seed: 7,
          handoff_ms: 300,
          delivery_ms: 900,
          outcomes: { '10': 0.85, '11': 0.08, '13': 0.03, '14': 0.04 },
        },
      },
    });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  it('previews and sends to valid, invalid and duplicate receivers, with live result statuses', async () => {
    const { page } = app;
    await openPage(page, 'compose');
    await composeMixedSend(page);
    // 2 valid receivers x 1 page x 150 tomans x 10 (the form itself is cleared once sent).
    expect(await page.getByTestId('result-cost').innerText()).toContain('3,000');
    await page.getByTestId('compose-preview').scrollIntoViewIfNeeded();
    await screenshot(page, 'en-compose-preview');

    // The accepted rows move on by themselves (pushes), to a final status.
    await waitAllFinal(acceptedResultRows(page));
    await page.getByTestId('compose-result').scrollIntoViewIfNeeded();
    await screenshot(page, 'en-compose-result');
  });

  it('shows statuses reaching their final values in Messages without a reload', async () => {
    const { page, url } = app;
    await openPage(page, 'messages');
    await poll(() => page.getByTestId('messages-count').getAttribute('data-value')).toBe('2');
    // A mark on the page's window: it survives only if the page is never reloaded.
    await page.evaluate('window.e2eMark = 42');

    // Messages sent meanwhile by another program through the HTTP API show up and move live.
    const receivers = ['09123333333', '09124444444', '09125555555'];
    const sent = await post(`${url}/v2/sms/send`, { message: 'API send', sender: '30001111', receivers }, KEY);
    expect(sent.status).toBe(200);
    await poll(() => page.getByTestId('messages-count').getAttribute('data-value'), { timeout: 15_000 }).toBe('5');
    await poll(() => page.getByTestId('message-row').count()).toBe(5);
    await waitAllFinal(page.getByTestId('message-row'));
    expect(await page.evaluate('window.e2eMark')).toBe(42);

    // Dates in English are Gregorian.
    expect(await page.getByTestId('message-date').first().innerText()).toMatch(/^20\d\d-\d\d-\d\d \d\d:\d\d:\d\d$/);

    // The timeline of one message: queued -> with the carrier -> final.
    await page.getByTestId('message-row').first().click();
    await poll(() => page.getByTestId('timeline-item').count()).toBe(3);
    await screenshot(page, 'en-messages-timeline');
    await page.keyboard.press('Escape');
    await page.getByTestId('timeline-item').first().waitFor({ state: 'detached' });
  });

  it('filters by receiver and by status, and exports the filtered rows', async () => {
    const { page } = app;
    await page.getByTestId('filter-receptor').fill('09124444444');
    await poll(() => page.getByTestId('messages-count').getAttribute('data-value')).toBe('1');
    expect(await page.getByTestId('message-row').first().innerText()).toContain('09124444444');
    await page.getByTestId('filter-clear').click();
    await poll(() => page.getByTestId('messages-count').getAttribute('data-value')).toBe('5');

    const delivered = (await statusesOf(page.getByTestId('message-row'))).filter((s) => s === '10').length;
    await page.getByTestId('filter-status').click();
    await page.getByRole('option', { name: 'Delivered', exact: true }).click();
    await page.keyboard.press('Escape');
    await poll(() => page.getByTestId('messages-count').getAttribute('data-value')).toBe(String(delivered));
    expect((await statusesOf(page.getByTestId('message-row'))).every((s) => s === '10')).toBe(true);

    const download = page.waitForEvent('download');
    await page.getByTestId('export-csv').click();
    const file = await (await download).path();
    // Texts hold a line break (before the opt-out phrase): parse the CSV, do not split lines.
    const csv = Papa.parse<Record<string, string>>(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: true,
    });
    expect(csv.data.length).toBe(delivered);
    expect(await page.getByTestId('export-result').getAttribute('data-rows')).toBe(String(delivered));
    // The same rows as a spreadsheet (an XLSX file is a zip: it starts with PK).
    const xlsxDownload = page.waitForEvent('download');
    await page.getByTestId('export-xlsx').click();
    const xlsx = await (await xlsxDownload).path();
    expect(fs.readFileSync(xlsx).subarray(0, 2).toString('latin1')).toBe('PK');
    expect((await xlsxDownload).suggestedFilename()).toMatch(/\.xlsx$/);
    await screenshot(page, 'en-messages-filtered');
    expect(app.problems).toEqual([]);
  });
});
