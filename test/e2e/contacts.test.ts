// The Contacts screens in Chromium through web mode: the import wizard with the generated customer
// spreadsheets (UTF-8 with BOM, Windows-1256 with semicolons, XLSX with two sheets and the header
// on row 3), their exact counts in the review and the segment, the rejected rows and their report;
// rename, union, difference, delete; the opt-out list changing a segment's count; bad files.
import fs from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/server';
import { screenshot, startApp, type RunningApp } from './app';
import { poll, switchToPersian } from './scenarios';
import {
  CONTACTS,
  EXPECTED,
  OPTED_OUT,
  REJECTED,
  VALID_PHONES,
  rowOf,
  twoSheetXlsx,
  utf8BomCsv,
  windows1256Csv,
} from './spreadsheets';

/** The wizard from the Contacts page through to its review; answers the new segment's id. */
async function importFile(
  page: Page,
  file: string,
  options: { sheet?: string; name?: string; shots?: string } = {},
): Promise<number> {
  await page.getByTestId('nav-contacts').click();
  await page.getByTestId('contacts-import').click();
  await page.getByTestId('import-file-input').setInputFiles(file);
  await page.getByTestId('import-layout').waitFor();
  if (options.sheet) {
    await page.getByTestId('import-sheet').click();
    await page.getByRole('option', { name: options.sheet, exact: true }).click();
    // The sheet's own header (row 3 of the customers' sheet) is found.
    await poll(() => page.locator('[data-testid="import-preview-row"][data-header]').getAttribute('data-row')).toBe(
      '3',
    );
  }
  if (options.shots) await screenshot(page, `${options.shots}-layout`);
  await page.getByTestId('import-next').click();
  await page.getByTestId('import-mapping').waitFor();
  // The phone column is found by itself; the name and city columns become fields.
  expect(await page.getByTestId('import-column-1').getAttribute('data-role')).toBe('phone');
  await page.getByTestId('import-name-0').fill('name');
  await page.getByTestId('import-name-2').fill('city');
  if (options.shots) await screenshot(page, `${options.shots}-mapping`);
  await page.getByTestId('import-next').click();
  if (options.name) await page.getByTestId('import-segment-name').fill(options.name);
  if (options.shots) await screenshot(page, `${options.shots}-target`);
  await page.getByTestId('import-start').click();
  await page.getByTestId('import-review').waitFor({ timeout: 30_000 });
  const status = await page.getByTestId('import-review').getAttribute('data-status');
  if (status !== 'done')
    throw new Error(`the import ended ${status}: ${await page.getByTestId('import-ended').innerText()}`);
  if (options.shots) await screenshot(page, `${options.shots}-review`);
  await page.getByTestId('import-open-segment').click();
  await page.getByTestId('page-segment').waitFor();
  return Number(await page.getByTestId('page-segment').getAttribute('data-id'));
}

/** Closes the notices still shown, so a picture shows the page alone. */
async function closeNotices(page: Page) {
  for (const close of await page.locator('.mantine-Notification-root button').all())
    await close.click({ timeout: 2_000 }).catch(() => undefined);
}

async function counts(page: Page) {
  const value = async (kind: string) =>
    Number(await page.getByTestId(`import-count-${kind}`).getAttribute('data-value'));
  return {
    valid: await value('valid'),
    invalid: await value('invalid'),
    duplicates: await value('duplicate'),
    opted_out: await value('opted_out'),
  };
}

describe('contacts (web UI)', () => {
  let app: RunningApp;
  let dir: string;

  beforeAll(async () => {
    app = await startApp();
    dir = tempDir('chapar-e2e-sheets-');
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('imports a UTF-8 CSV with a BOM: exact counts in the review and the segment, the rejected rows and their report', async () => {
    const { page } = app;
    // The opt-out list before the imports: two of the file's numbers are on it.
    await page.getByTestId('nav-contacts').click();
    await page.getByTestId('segments-empty').waitFor();
    await page.getByTestId('contacts-optouts').click();
    await page.getByTestId('optouts-input').fill(OPTED_OUT.join('\n'));
    await page.getByTestId('optouts-add').click();
    await poll(() => page.getByTestId('optouts-count').getAttribute('data-value')).toBe('2');
    await page.getByTestId('nav-contacts').click();
    await page.getByTestId('segments-empty').waitFor();
    await screenshot(page, 'en-contacts-empty');
    await page.getByTestId('contacts-import').click();
    await screenshot(page, 'en-import-file');

    const segmentId = await importFile(page, utf8BomCsv(dir), { shots: 'en-import' });
    await poll(() => page.getByTestId('segment-members').getAttribute('data-value')).toBe(String(EXPECTED.valid));
    await poll(() =>
      page.getByTestId('member-phone').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-phone'))),
    ).toEqual(VALID_PHONES);
    await screenshot(page, 'en-segment');

    // Back to the review: the counts, each opening its rows with the file's row numbers.
    await page.goBack();
    await page.getByTestId('import-review').waitFor();
    expect(await counts(page)).toEqual(EXPECTED);
    for (const reason of ['invalid', 'duplicate', 'opted_out'] as const) {
      await page.getByTestId(`import-count-${reason}`).click();
      await poll(() =>
        page.getByTestId('import-rejection').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-row')))),
      ).toEqual(REJECTED[reason].map((i) => rowOf(i, 1)));
    }
    await page.getByTestId('import-count-invalid').click();
    await screenshot(page, 'en-import-rejected');

    // The rejection report, downloaded as the browser does.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('import-export-csv').click(),
    ]);
    const report = path.join(dir, 'report.csv');
    await download.saveAs(report);
    const parsed = Papa.parse<string[]>(fs.readFileSync(report, 'utf8').replace(/^\ufeff/, ''), {
      skipEmptyLines: true,
    }).data;
    expect(parsed[0]).toEqual(['row', 'phone_number', 'reason', 'reason_text']);
    const expectedRows = Object.entries(REJECTED)
      .flatMap(([reason, indexes]) => indexes.map((i) => [String(rowOf(i, 1)), CONTACTS[i]![1], reason]))
      .sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(parsed.slice(1).map((row) => row.slice(0, 3))).toEqual(expectedRows);
    expect(parsed.find((row) => row[2] === 'invalid')![3]).toBe('Too short for a mobile number');
    expect(segmentId).toBeGreaterThan(0);
  });

  it('imports a Windows-1256 CSV with semicolons and an XLSX with two sheets and the header on row 3', async () => {
    const { page } = app;
    const cp1256 = await importFile(page, windows1256Csv(dir), { name: 'Windows customers' });
    await poll(() => page.getByTestId('segment-members').getAttribute('data-value')).toBe(String(EXPECTED.valid));
    const xlsx = await importFile(page, await twoSheetXlsx(dir), { sheet: 'Customers', name: 'Excel customers' });
    await poll(() => page.getByTestId('segment-members').getAttribute('data-value')).toBe(String(EXPECTED.valid));
    expect(cp1256).not.toBe(xlsx);
    await page.goBack();
    await page.getByTestId('import-review').waitFor();
    expect(await counts(page)).toEqual(EXPECTED);
    await page.getByTestId('import-count-duplicate').click();
    await poll(() =>
      page.getByTestId('import-rejection').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-row')))),
    ).toEqual(REJECTED.duplicate.map((i) => rowOf(i, 3)));
  });

  it('searches a segment by number in any digit form, renames, unions, differences and deletes', async () => {
    const { page } = app;
    await page.getByTestId('nav-contacts').click();
    await poll(() => page.getByTestId('segment-row').count()).toBe(3);
    await page.getByTestId('segment-row').first().click();
    await page.getByTestId('page-segment').waitFor();
    for (const search of ['۰۹۱۲۱۰۰۰۰۰۳', '+98 912 100 0003', 'تبریز']) {
      await page.getByTestId('members-search').fill(search);
      await poll(() => page.getByTestId('members-matches').getAttribute('data-value')).toBe('1');
      await poll(() => page.getByTestId('member-phone').first().getAttribute('data-phone')).toBe('09121000003');
    }
    await page.getByTestId('members-search').fill('');

    // Rename (Persian), from the list.
    await page.getByTestId('segment-back').click();
    await page.getByTestId('segment-menu').first().click();
    await page.getByTestId('segment-rename').click();
    await page.getByTestId('rename-input').fill('مشتریان وفادار');
    await page.getByTestId('rename-save').click();
    await poll(() => page.getByTestId('segment-row').first().getAttribute('data-name')).toBe('مشتریان وفادار');

    // Union of two: the count shown before creating; the difference of a segment with itself: 0.
    await page.getByTestId('contacts-combine').click();
    await page.getByTestId('combine-include').click();
    await page.getByRole('option', { name: 'مشتریان وفادار' }).click();
    await page.getByRole('option', { name: 'Windows customers' }).click();
    await page.keyboard.press('Escape');
    await poll(() => page.getByTestId('combine-count').getAttribute('data-value')).toBe(String(EXPECTED.valid));
    await page.getByTestId('combine-name').fill('Everyone');
    await screenshot(page, 'en-contacts-combine');
    await page.getByTestId('combine-create').click();
    await poll(() => page.locator('[data-testid="segment-row"][data-name="Everyone"]').getAttribute('data-count')).toBe(
      String(EXPECTED.valid),
    );
    await page.getByTestId('contacts-combine').click();
    await page.getByTestId('combine-include').click();
    await page.getByRole('option', { name: 'Everyone' }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('combine-exclude').click();
    await page.getByRole('option', { name: 'Excel customers' }).click();
    await page.keyboard.press('Escape');
    await poll(() => page.getByTestId('combine-count').getAttribute('data-value')).toBe('0');
    await page.getByTestId('combine-name').fill('Nobody');
    await page.getByTestId('combine-create').click();
    await poll(() => page.locator('[data-testid="segment-row"][data-name="Nobody"]').getAttribute('data-count')).toBe(
      '0',
    );
    await poll(() =>
      page.locator('[data-testid="segment-row"][data-name="Everyone"] [data-testid="segment-source"]').innerText(),
    ).toBe('Combined: مشتریان وفادار ∪ Windows customers');
    await closeNotices(page);
    await screenshot(page, 'en-contacts');

    // Delete: the confirmation says how many contacts go.
    const nobody = page.locator('[data-testid="segment-row"][data-name="Nobody"]');
    await nobody.getByTestId('segment-menu').click();
    await page.getByTestId('segment-delete').click();
    await poll(() => page.getByTestId('delete-info').getAttribute('data-members')).toBe('0');
    await page.getByTestId('delete-confirm').click();
    await poll(() => nobody.count()).toBe(0);
    await poll(() => page.getByTestId('segment-row').count()).toBe(4);
  });

  it('adds and removes opt-outs in any digit form and the segment says how many of it are opted out', async () => {
    const { page } = app;
    await page.getByTestId('nav-contacts').click();
    await page.locator('[data-testid="segment-row"][data-name="Everyone"]').click();
    await poll(() => page.getByTestId('segment-opted-out').getAttribute('data-value')).toBe('0');
    const segmentUrl = page.url();

    await page.getByTestId('segment-back').click();
    await page.getByTestId('contacts-optouts').click();
    await page.getByTestId('optouts-input').fill('۰۹۱۲۱۰۰۰۰۰۱\n+98 912 100 0002, not-a-number');
    await page.getByTestId('optouts-add').click();
    await poll(() => page.getByTestId('optouts-count').getAttribute('data-value')).toBe('4');
    expect(await page.getByTestId('optouts-invalid').innerText()).toContain('not-a-number');
    await page.getByTestId('optouts-search').fill('۱۰۰۰۰۰۲');
    await poll(() =>
      page.getByTestId('optout-phone').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-phone'))),
    ).toEqual(['09121000002']);
    await page.getByTestId('optouts-search').fill('');
    await screenshot(page, 'en-optouts');

    await page.goto(segmentUrl);
    await poll(() => page.getByTestId('segment-opted-out').getAttribute('data-value')).toBe('2');
    await poll(() => page.getByTestId('member-opted-out').count()).toBe(2);

    await page.getByTestId('segment-back').click();
    await page.getByTestId('contacts-optouts').click();
    await page.getByTestId('optouts-input').fill('0098-912-100-0001');
    await page.getByTestId('optouts-remove').click();
    await poll(() => page.getByTestId('optouts-count').getAttribute('data-value')).toBe('3');
    await page.goto(segmentUrl);
    await poll(() => page.getByTestId('segment-opted-out').getAttribute('data-value')).toBe('1');

    // A file of numbers into the list: its counts, and the segment's count follows.
    const stop = path.join(dir, 'stop.csv');
    fs.writeFileSync(stop, 'mobile\n09121000003\n۰۹۱۲۱۰۰۰۰۰۴\n09121000099\nnot-a-number\n');
    await page.getByTestId('segment-back').click();
    await page.getByTestId('contacts-optouts').click();
    await page.locator('[data-testid="page-optouts"] input[type="file"]').setInputFiles(stop);
    await poll(() => page.getByTestId('optouts-imported').getAttribute('data-valid')).toBe('2');
    expect(await page.getByTestId('optouts-imported').getAttribute('data-invalid')).toBe('1');
    expect(await page.getByTestId('optouts-imported').getAttribute('data-duplicates')).toBe('1');
    await poll(() => page.getByTestId('optouts-count').getAttribute('data-value')).toBe('5');
    await page.goto(segmentUrl);
    await poll(() => page.getByTestId('segment-opted-out').getAttribute('data-value')).toBe('3');
  });

  it('adds rows from a file to an existing segment', async () => {
    const { page } = app;
    await page.getByTestId('nav-contacts').click();
    await page.locator('[data-testid="segment-row"][data-name="Excel customers"]').click();
    await poll(() => page.getByTestId('segment-members').getAttribute('data-value')).toBe('7');
    const more = path.join(dir, 'more.csv');
    fs.writeFileSync(
      more,
      'mobile,name,email\n09121000020,Shirin,s@example.com\n09121000021,Kian,k@example.com\n09121000001,Sara,x@example.com\n',
    );
    await page.getByTestId('segment-add-rows').click();
    await page.getByTestId('import-file-input').setInputFiles(more);
    await page.getByTestId('import-next').click();
    await page.getByTestId('import-next').click();
    // The segment is the destination already.
    await poll(() => page.getByTestId('import-existing-segment').inputValue()).toContain('Excel customers');
    await page.getByTestId('import-start').click();
    await page.getByTestId('import-review').waitFor();
    expect(await counts(page)).toEqual({ valid: 2, invalid: 0, duplicates: 1, opted_out: 0 });
    await page.getByTestId('import-open-segment').click();
    await poll(() => page.getByTestId('segment-members').getAttribute('data-value')).toBe('9');
    await page.getByTestId('members-search').fill('Shirin');
    await poll(() => page.getByTestId('member-phone').first().getAttribute('data-phone')).toBe('09121000020');
  });

  it('explains bad files in the window’s language', async () => {
    const { page } = app;
    const cases: Array<[string, string | Buffer, string, RegExp]> = [
      ['empty.csv', '', 'empty', /empty/],
      ['photo.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2]), 'binary', /not a spreadsheet/],
      [
        'locked.xlsx',
        Buffer.concat([
          Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
          Buffer.alloc(600),
          Buffer.from('EncryptedPackage', 'utf16le'),
        ]),
        'encrypted',
        /password/,
      ],
      [
        'broken.xlsx',
        Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(300, 7)]),
        'corrupt_xlsx',
        /damaged/,
      ],
    ];
    await page.getByTestId('nav-contacts').click();
    for (const [name, content, code, text] of cases) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, content);
      await page.getByTestId('contacts-import').click();
      await page.getByTestId('import-file-input').setInputFiles(file);
      await poll(() => page.getByTestId('import-error').getAttribute('data-code')).toBe(code);
      expect(await page.getByTestId('import-error').innerText()).toMatch(text);
      if (code === 'encrypted') await screenshot(page, 'en-import-error');
      await page.getByTestId('nav-contacts').click();
    }
    // A file without a phone-like column: the wizard says so and Next waits for a choice.
    const names = path.join(dir, 'names.csv');
    fs.writeFileSync(names, 'name,city\nSara,Tehran\nAli,Shiraz\n');
    await page.getByTestId('contacts-import').click();
    await page.getByTestId('import-file-input').setInputFiles(names);
    await page.getByTestId('import-no-phone-found').waitFor();
    await page.getByTestId('import-next').click();
    await page.getByTestId('import-mapping-no-phone').waitFor();
    expect(await page.getByTestId('import-next').isDisabled()).toBe(true);
  });

  it('opens the wizard with a file dropped anywhere on the window', async () => {
    const { page } = app;
    await page.getByTestId('nav-messages').click();
    const csv = 'name,mobile\nSara,09121000001\n';
    // (A string: this file compiles without the DOM lib.)
    const dataTransfer = await page.evaluateHandle(
      `(() => { const t = new DataTransfer(); t.items.add(new File([${JSON.stringify(csv)}], 'dropped.csv', { type: 'text/csv' })); return t; })()`,
    );
    await page.dispatchEvent('main', 'dragenter', { dataTransfer });
    await page.getByTestId('window-drop-overlay').waitFor();
    await page.dispatchEvent('main', 'drop', { dataTransfer });
    await page.getByTestId('import-layout').waitFor();
    expect(await page.getByTestId('import-file-name').innerText()).toContain('dropped.csv');
    await page.getByTestId('window-drop-overlay').waitFor({ state: 'detached' });
  });

  it('shows every step in Persian', async () => {
    const { page } = app;
    // The English notices of the earlier steps are closed, so the pictures show only Persian.
    await closeNotices(page);
    await switchToPersian(page);
    await page.getByTestId('nav-contacts').click();
    await page.getByTestId('segments-table').waitFor();
    await screenshot(page, 'fa-contacts');
    await page.getByTestId('contacts-import').click();
    await screenshot(page, 'fa-import-file');
    const segmentId = await importFile(page, await twoSheetXlsx(dir), {
      sheet: 'Customers',
      name: 'مشتریان اکسل',
      shots: 'fa-import',
    });
    await poll(() => page.getByTestId('member-phone').count()).toBeGreaterThan(0);
    await screenshot(page, 'fa-segment');
    await page.goBack();
    await page.getByTestId('import-review').waitFor();
    await page.getByTestId('import-count-invalid').click();
    await page.getByTestId('import-rejection').first().waitFor();
    await screenshot(page, 'fa-import-rejected');
    await page.getByTestId('nav-contacts').click();
    await page.getByTestId('contacts-optouts').click();
    await page.getByTestId('optout-phone').first().waitFor();
    await screenshot(page, 'fa-optouts');
    expect(segmentId).toBeGreaterThan(0);
  });
});
