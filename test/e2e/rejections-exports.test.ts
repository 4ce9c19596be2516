// Issue 35, items 7 and 8, in Chromium through web mode, in English and in Persian: a sheet with one
// row per reason a number is left out (empty cell, landline, foreign number, letters, too short,
// too long) imported through the wizard, its review naming each reason and the downloaded
// rejection report holding them; the same values pasted in Compose, grouped by reason; and a
// campaign's XLSX report downloaded from its report page: named for the campaign and the local
// date, with the segment's columns, real date cells, the delivery time, and in Persian the Jalali
// text beside each date on a right-to-left sheet.
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/server';
import { campaignFields, createCampaign, createSegment, executionUrl, get } from '../campaigns/support';
import { advanceClock, screenshot, startApp, type RunningApp } from './app';
import { importThroughWizard, poll, switchToPersian } from './scenarios';
import { PHONE_PROBLEMS, type PhoneProblem } from '../../shared/phone';

const ZONE = 'Asia/Tehran';

/** [name, phone as written, city, what is wrong with the number (null: a mobile number)]. */
// The valid rows first: the wizard takes the row above the first number for the header.
const ROWS: Array<[string, string, string, string | null]> = [
  ['سارا', '09121000001', 'تهران', null],
  ['علی', '۰۹۱۲۱۰۰۰۰۰۲', 'شیراز', null],
  ['خالی', '', 'تهران', 'empty'],
  ['ثابت', '021 8877 6655', 'تهران', 'landline'],
  ['خارجی', '+44 20 7946 0958', 'لندن', 'foreign'],
  ['حروف', '0912abc4567', 'کرج', 'letters'],
  ['کوتاه', '0912123456', 'کرج', 'too_short'],
  ['بلند', '091212345678', 'کرج', 'too_long'],
];
/** The rejected rows: [row of the sheet (header = 1), value, problem]. */
const REJECTED = ROWS.flatMap(([, phone, , problem], i) => (problem ? [[i + 2, phone, problem] as const] : []));
const TEXTS = {
  en: {
    empty: 'Empty cell',
    landline: 'A landline, not a mobile',
    foreign: 'A number outside Iran',
    letters: 'Contains letters or signs',
    too_short: 'Too short for a mobile number',
    too_long: 'Too long for a mobile number',
  },
  fa: {
    empty: 'خانه شماره خالی است',
    landline: 'تلفن ثابت است، نه موبایل',
    foreign: 'شماره خارج از ایران است',
    letters: 'حرف یا نشانه دارد',
    too_short: 'برای شماره موبایل کوتاه است',
    too_long: 'برای شماره موبایل بلند است',
  },
} as const;

function sheetFile(dir: string): string {
  const file = path.join(dir, 'reasons.csv');
  const lines = [['نام', 'موبایل', 'شهر'], ...ROWS.map(([name, phone, city]) => [name, phone, city])];
  fs.writeFileSync(file, '\ufeff' + lines.map((cells) => cells.join(',')).join('\r\n') + '\r\n');
  return file;
}

/** The wizard from the Contacts page to its review, the name and city columns kept. */
async function importSheet(page: Page, file: string, shots: string): Promise<void> {
  await importThroughWizard(page, file, { 0: 'name', 2: 'city' });
  await screenshot(page, `${shots}-import-review`);
  await page.getByTestId('import-count-invalid').click();
  await poll(() => page.getByTestId('import-rejection').count()).toBe(REJECTED.length);
  await screenshot(page, `${shots}-import-reasons`);
}

/** The review's invalid rows: [row, problem, reason as shown]. */
function shownRejections(page: Page): Promise<Array<[number, string, string]>> {
  return page
    .getByTestId('import-rejection')
    .evaluateAll((rows) =>
      rows.map(
        (row) =>
          [
            Number(row.getAttribute('data-row')),
            row.getAttribute('data-problem') ?? '',
            (row.lastElementChild?.textContent ?? '').trim(),
          ] as [number, string, string],
      ),
    );
}

async function downloaded(page: Page, testId: string, dir: string): Promise<{ file: string; name: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const file = path.join(dir, `${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(file);
  return { file, name: download.suggestedFilename() };
}

/** Compose's receivers review of the same values (the empty cell aside: a pasted list has none). */
async function composeReasons(page: Page, language: 'en' | 'fa', shots: string): Promise<void> {
  await page.getByTestId('nav-compose').click();
  const pasted = REJECTED.filter(([, phone]) => phone !== '').map(([, phone]) => phone);
  await page.getByTestId('compose-receivers').fill([...pasted, '09121000001'].join('\n'));
  const groups = page.getByTestId('compose-invalid-list').locator('[data-problem]');
  await poll(() => groups.count()).toBe(pasted.length);
  const shown = await groups.evaluateAll((nodes) =>
    nodes.map((node) => [
      node.getAttribute('data-problem'),
      (node.querySelector('[data-testid="compose-invalid-why"]')?.textContent ?? '').trim(),
      (node.querySelector('.mantine-Badge-root')?.textContent ?? '').trim(),
    ]),
  );
  // Grouped by reason, in the classifier's order of reasons.
  const order = (problem: string) => PHONE_PROBLEMS.indexOf(problem as PhoneProblem);
  expect(shown).toEqual(
    [...REJECTED]
      .filter(([, phone]) => phone !== '')
      .sort((a, b) => order(a[2]) - order(b[2]))
      .map(([, phone, problem]) => [problem, `${TEXTS[language][problem as keyof (typeof TEXTS)['en']]}:`, phone]),
  );
  await page.getByTestId('compose-invalid-list').scrollIntoViewIfNeeded();
  await screenshot(page, `${shots}-compose-reasons`);
  await page.getByTestId('compose-receivers').fill('');
}

/** The wall date of `ms` in the zone, in the language's calendar: 2026-11-29 or 1405-09-08. */
function localDate(ms: number, language: 'en' | 'fa'): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat(language === 'fa' ? 'en-US-u-ca-persian-nu-latn' : 'en-US-u-ca-gregory-nu-latn', {
      timeZone: ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    })
      .formatToParts(ms)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

async function readSheet(file: string) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const sheet = book.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) =>
    rows.push(Array.from({ length: sheet.columnCount }, (_, i) => row.getCell(i + 1).value ?? null)),
  );
  return { rows, rightToLeft: sheet.views?.[0]?.rightToLeft };
}

describe('rejections say why, and a campaign report carries its segment (web UI)', () => {
  let app: RunningApp;
  let dir: string;
  let executionId: number;
  beforeAll(async () => {
    app = await startApp({ timezoneId: ZONE, env: { CHAPAR_TEST_CLOCK: '1' } });
    dir = tempDir('chapar-e2e-reasons-');
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('in English: each rejected row says why in the review, the report and Compose', async () => {
    const { page } = app;
    await importSheet(page, sheetFile(dir), 'en');
    expect(await shownRejections(page)).toEqual(
      REJECTED.map(([row, , problem]) => [row, problem, TEXTS.en[problem as keyof (typeof TEXTS)['en']]]),
    );
    const report = await downloaded(page, 'import-export-csv', dir);
    const parsed = Papa.parse<string[]>(fs.readFileSync(report.file, 'utf8').replace(/^\ufeff/, ''), {
      skipEmptyLines: true,
    }).data;
    expect(parsed).toEqual([
      ['row', 'phone_number', 'reason', 'reason_text'],
      ...REJECTED.map(([row, phone, problem]) => [
        String(row),
        phone,
        'invalid',
        TEXTS.en[problem as keyof (typeof TEXTS)['en']],
      ]),
    ]);
    await composeReasons(page, 'en', 'en');
  }, 90_000);

  it('in Persian: the same reasons in Persian, in the review, the Excel report and Compose', async () => {
    const { page } = app;
    for (const close of await page.locator('.mantine-Notification-root button').all())
      await close.click({ timeout: 2_000 }).catch(() => undefined);
    await switchToPersian(page);
    await importSheet(page, sheetFile(dir), 'fa');
    expect(await shownRejections(page)).toEqual(
      REJECTED.map(([row, , problem]) => [row, problem, TEXTS.fa[problem as keyof (typeof TEXTS)['fa']]]),
    );
    const report = await downloaded(page, 'import-export-xlsx', dir);
    const { rows } = await readSheet(report.file);
    expect(rows.slice(1)).toEqual(
      REJECTED.map(([row, phone, problem]) => [
        String(row),
        // An empty cell: nothing written.
        phone === '' ? null : phone,
        'invalid',
        TEXTS.fa[problem as keyof (typeof TEXTS)['fa']],
      ]),
    );
    await composeReasons(page, 'fa', 'fa');
  }, 90_000);

  it("a campaign's XLSX report: named for the campaign and the local date, with the segment's columns and delivery times", async () => {
    const { page } = app;
    const segmentId = await createSegment(app.url, ['09121000001', '09121000002', '09121000003'], {
      NAME: (i) => ['Sara', 'Ali', 'Reza'][i]!,
      CITY: (i) => ['Tehran', 'Shiraz', 'Tabriz'][i]!,
    });
    const now = await advanceClock(app, 0);
    const start = new Date(now + 60_000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    const created = await createCampaign(
      app.url,
      campaignFields({
        name: 'Yalda sale',
        template_body: 'Hi {{NAME}}, Yalda sale',
        send_datetime: start,
        inclusion_segments: String(segmentId),
      }),
    );
    expect(created.status, created.text).toBe(201);
    executionId = (created.body.entries as { execution_id: number }).execution_id;
    await advanceClock(app, 5 * 60_000);
    await poll(
      async () => {
        const report = (await get(executionUrl(app.url, executionId))).body.entries;
        const entry = (Array.isArray(report) ? report[0] : report) as { execution_status: string; pending: number };
        return `${entry.execution_status} ${entry.pending}`;
      },
      { timeout: 30_000 },
    ).toBe('COMPLETED 0');

    // In Persian: the Jalali date in the name, a right-to-left sheet.
    if ((await page.locator('html').getAttribute('dir')) !== 'rtl') await switchToPersian(page);
    await page.evaluate(`location.hash = '#/campaigns/execution/${executionId}'`);
    await page.getByTestId('report-status').waitFor();
    const fa = await downloaded(page, 'report-export-xlsx', dir);
    // The notice names the file written.
    await page.locator('.mantine-Notification-root').first().waitFor();
    await screenshot(page, 'fa-campaign-report-export');
    const today = await advanceClock(app, 0);
    expect(fa.name).toBe(`Yalda sale ${localDate(today, 'fa')}.xlsx`);
    const persian = await readSheet(fa.file);
    expect(persian.rightToLeft).toBe(true);
    const faHeader = persian.rows[0] as string[];
    expect(faHeader.slice(0, 4)).toEqual(['شناسه پیام', 'گیرنده', 'NAME', 'CITY']);
    expect(faHeader.slice(7, 13)).toEqual([
      'تاریخ',
      'تاریخ (شمسی)',
      'تاریخ (ISO 8601)',
      'زمان تحویل',
      'زمان تحویل (شمسی)',
      'زمان تحویل (ISO 8601)',
    ]);
    const byReceiver = (rows: unknown[][]) =>
      rows
        .slice(1)
        .map((row) => [String(row[1]).slice(-10), row[2], row[3]])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(byReceiver(persian.rows)).toEqual([
      ['9121000001', 'Sara', 'Tehran'],
      ['9121000002', 'Ali', 'Shiraz'],
      ['9121000003', 'Reza', 'Tabriz'],
    ]);
    const delivered = persian.rows.slice(1).filter((row) => row[10] !== null);
    expect(delivered.length).toBeGreaterThan(0);
    for (const row of persian.rows.slice(1)) {
      expect(row[7]).toBeInstanceOf(Date);
      expect(row[8]).toMatch(/^14\d\d\/\d\d\/\d\d \d\d:\d\d:\d\d$/);
    }
    for (const row of delivered) {
      expect(row[10]).toBeInstanceOf(Date);
      expect(row[11]).toMatch(/^14\d\d\/\d\d\/\d\d \d\d:\d\d:\d\d$/);
      // The date cell shows the wall time in Tehran, as its ISO 8601 text says.
      expect((row[10] as Date).toISOString().slice(0, 19)).toBe(String(row[12]).slice(0, 19));
    }

    // In English: the Gregorian date in the name, a left-to-right sheet, and the CSV likewise.
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-language').getByText('English').click();
    await poll(() => page.locator('html').getAttribute('dir')).toBe('ltr');
    await page.evaluate(`location.hash = '#/campaigns/execution/${executionId}'`);
    await page.getByTestId('report-status').waitFor();
    const en = await downloaded(page, 'report-export-xlsx', dir);
    expect(en.name).toBe(`Yalda sale ${localDate(today, 'en')}.xlsx`);
    const english = await readSheet(en.file);
    expect(english.rightToLeft).toBe(false);
    expect((english.rows[0] as string[]).slice(0, 11)).toEqual([
      'Message ID',
      'Receiver',
      'NAME',
      'CITY',
      'Status code',
      'Status',
      'Cost (rials)',
      'Date',
      'Date (ISO 8601)',
      'Delivered at',
      'Delivered at (ISO 8601)',
    ]);
    expect(byReceiver(english.rows)).toEqual(byReceiver(persian.rows));
    for (const row of english.rows.slice(1)) expect(row[7]).toBeInstanceOf(Date);
    const csv = await downloaded(page, 'report-export-csv', dir);
    expect(csv.name).toBe(`Yalda sale ${localDate(today, 'en')}.csv`);
    const lines = Papa.parse<string[]>(fs.readFileSync(csv.file, 'utf8').replace(/^\ufeff/, ''), {
      skipEmptyLines: true,
    }).data;
    expect(lines[0]!.slice(0, 4)).toEqual(['Message ID', 'Receiver', 'NAME', 'CITY']);
    expect(lines[0]!.slice(9, 11)).toEqual(['Delivered at', 'Delivered at (ISO 8601)']);
    expect(lines.slice(1).filter((line) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(line[9]!))).toHaveLength(
      delivered.length,
    );
    await screenshot(page, 'en-campaign-report-export');
  }, 90_000);

  it("an email's skipped rows name the rows of the file the segment was imported from, in both languages", async () => {
    const { page } = app;
    // Rows 3 and 4 of the file are skipped; in the segment's (number) order they are its first two.
    const file = path.join(dir, 'emails.csv');
    fs.writeFileSync(
      file,
      [
        'name,mobile,email',
        'Zahra,09121000009,zahra@example.com',
        'Ali,09121000001,',
        'Sara,09121000005,sara@',
        'Reza,09121000007,reza@example.com',
      ].join('\r\n') + '\r\n',
    );
    await page.getByTestId('nav-contacts').click();
    await page.getByTestId('contacts-import').click();
    await page.getByTestId('import-file-input').setInputFiles(file);
    await page.getByTestId('import-layout').waitFor();
    await page.getByTestId('import-next').click();
    await page.getByTestId('import-mapping').waitFor();
    expect(await page.getByTestId('import-column-1').getAttribute('data-role')).toBe('phone');
    await page.getByTestId('import-name-0').fill('name');
    await page.getByTestId('import-name-2').fill('email');
    await page.getByTestId('import-next').click();
    await page.getByTestId('import-start').click();
    await page.getByTestId('import-review').waitFor({ timeout: 30_000 });
    await page.getByTestId('import-open-segment').click();
    await page.getByTestId('page-segment').waitFor();
    const segmentId = Number(await page.getByTestId('page-segment').getAttribute('data-id'));

    const skippedRows = async (language: 'en' | 'fa') => {
      await page.getByTestId('nav-email').click();
      await page.getByTestId('page-email').waitFor();
      await page.getByTestId('email-segment').click();
      await page.getByTestId(`email-segment-option-${segmentId}`).click();
      await poll(() => page.getByTestId('email-skipped-count').getAttribute('data-value')).toBe('2');
      await page.getByTestId('email-skipped-toggle').click();
      const skipped = page.getByTestId('email-skipped-row');
      await poll(() => skipped.count()).toBe(2);
      expect(
        await skipped.evaluateAll((rows) =>
          rows.map((r) => [r.getAttribute('data-row'), r.getAttribute('data-reason'), r.getAttribute('data-phone')]),
        ),
      ).toEqual([
        ['3', 'missing', '09121000001'],
        ['4', 'invalid', '09121000005'],
      ]);
      expect(await skipped.first().innerText()).toContain(language === 'fa' ? '۳' : '3');
      // What the send would refuse (no sender yet) is said in the language of now, also after a switch.
      await poll(() => page.getByTestId('email-preview-error').innerText()).toBe(
        language === 'fa'
          ? 'نشانی فرستنده نشانی ایمیل درستی نیست: بخش «از طرف» را بررسی کنید.'
          : "The sender's address is not an email address: check the From field.",
      );
      await skipped.first().scrollIntoViewIfNeeded();
      await screenshot(page, `${language}-email-skipped-rows`);
    };
    await skippedRows('en');
    await switchToPersian(page);
    await skippedRows('fa');
  }, 90_000);
});
