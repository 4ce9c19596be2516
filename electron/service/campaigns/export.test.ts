// The execution report export: CSV and XLSX of a small execution in a store built by the real
// migrations, with its rows in message order, quoting only where needed, the send's text for
// messages without their own, clicks counted per message, each recipient's values of their
// segment's columns, the delivery time, headers and status texts in the UI's language, dates in the
// account's zone (real date cells in the XLSX, the Jalali text beside them in Persian), the status
// and clicked filters, and a `.part` file renamed only when whole.
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { tempDir } from '../../../test/helpers/server';
import { statusShortLabel } from '../../../shared/status-labels';
import { exportExecution, reportFileTitle } from './export';
import { FIELD_SEPARATOR } from '../contacts/fields';

const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// 2026-11-20 06:30:00 UTC = 10:00 in Tehran (+03:30) = 1405/08/29 (Jalali).
const CREATED = Date.UTC(2026, 10, 20, 6, 30);
const SHARED_TEXT = 'Shared text, for everyone';

interface Fixture {
  db: Db;
  dir: string;
}

// Message 1 was delivered 90 s after it was sent: 10:01:30 in Tehran.
const DELIVERED = CREATED + 90_000;

/**
 * Execution 1 of account 1 in two batches: the first personalized (its own texts), the second on
 * its send's text. Another execution's batch sits between them, so ids are not one run. Its
 * recipients come from two segments: 7 (NAME, CITY) and 8 (NAME, SHOP).
 */
function fixture(): Fixture {
  const dir = tempDir('chapar-export-');
  dirs.push(dir);
  const db = openDatabase({ file: path.join(dir, 'chapar.db') });
  dbs.push(db);
  db.exec(`
    INSERT INTO accounts (id, name, created_at) VALUES (1, 'acme', 0);
    INSERT INTO lines (id, account_id, number, provider, created_at) VALUES (1, 1, '30001111', 'sms', 0);
    INSERT INTO campaigns (id, account_id, name, sender, template_body, utm_source, utm_medium, utm_campaign, created_at)
      VALUES (1, 1, 'c', '30001111', 't', 's', 'sms', '1', 0);
    INSERT INTO campaign_executions (id, campaign_id, account_id, status, send_datetime, send_at, created_at, segment_columns)
      VALUES (1, 1, 1, 'COMPLETED', '2026-11-20T10:00:00+03:30', 0, 0, '{"7":["NAME","CITY"],"8":["NAME","SHOP"]}'),
             (2, 1, 1, 'COMPLETED', '2026-11-20T10:00:00+03:30', 0, 0, NULL);
    INSERT INTO sends (id, account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
      VALUES (1, 1, 1, '30001111', 'sms', 'template', 1, 'campaign', 3, 4500, 0),
             (2, 1, 1, '30001111', 'sms', 'other execution', 1, 'campaign', 1, 1500, 0),
             (3, 1, 1, '30001111', 'sms', '${SHARED_TEXT}', 1, 'campaign', 2, 3000, 0);
    INSERT INTO campaign_batches (execution_id, first_seq, count, send_id, first_message_id, due_at)
      VALUES (1, 0, 3, 1, 1, 0), (2, 0, 1, 2, 4, 0), (1, 3, 2, 3, 5, 0);
  `);
  const recipient = db.prepare(
    `INSERT INTO campaign_recipients (execution_id, seq, phone, segment_id, fields, cost_rials) VALUES (1, ?, ?, ?, ?, 1500)`,
  );
  recipient.run(0, '09120000001', 7, ['Ali', 'Tehran'].join(FIELD_SEPARATOR));
  recipient.run(1, '09120000002', 7, ['Sara, "S"', 'Shiraz'].join(FIELD_SEPARATOR));
  recipient.run(2, '09120000003', 8, ['مریم', 'Book shop'].join(FIELD_SEPARATOR));
  recipient.run(3, '09120000005', 7, ['Reza', ''].join(FIELD_SEPARATOR));
  recipient.run(4, '09120000006', 8, ['Nima', 'Cafe'].join(FIELD_SEPARATOR));
  const message = db.prepare(
    `INSERT INTO messages (id, send_id, account_id, receptor, status, cost_rials, created_at, text)
     VALUES (?, ?, 1, ?, ?, 1500, ?, ?)`,
  );
  message.run(1, 1, '989120000001', 10, CREATED, 'Hi Ali, "50%" off');
  message.run(2, 1, '989120000002', 11, CREATED, 'Hi Sara\nsecond line');
  message.run(3, 1, '989120000003', 14, CREATED + 61_000, 'سلام مریم، تخفیف');
  message.run(4, 2, '989120000004', 10, CREATED, 'not in execution 1');
  message.run(5, 3, '989120000005', 13, CREATED, null);
  message.run(6, 3, '989120000006', 6, CREATED, null);
  // Final times: message 1 delivered; message 2 failed (a final time, but no delivery).
  db.prepare('UPDATE messages SET final_at = ? WHERE id IN (1, 2)').run(DELIVERED);
  const click = db.prepare(
    'INSERT INTO campaign_clicks (execution_id, message_id, link_idx, clicked_at) VALUES (?, ?, 0, 0)',
  );
  click.run(1, 1);
  click.run(1, 1);
  click.run(1, 6);
  click.run(2, 4);
  return { db, dir };
}

function readCsv(file: string): string[][] {
  const text = fs.readFileSync(file, 'utf8');
  expect(text.startsWith('\ufeff')).toBe(true);
  return Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
}

/** The sheet's rows (cells as read), its view, its columns' widths, and the number format of each date column (by column number). */
async function readXlsx(file: string): Promise<{
  rows: unknown[][];
  rightToLeft: boolean | undefined;
  view: unknown;
  widths: number[];
  numFmts: Record<number, string>;
}> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) =>
    rows.push(Array.from({ length: sheet.columnCount }, (_, i) => row.getCell(i + 1).value ?? undefined)),
  );
  const widths = Array.from({ length: sheet.columnCount }, (_, i) => sheet.getColumn(i + 1).width ?? 0);
  const numFmts: Record<number, string> = {};
  sheet.getRow(2).eachCell((cell, column) => {
    if (cell.value instanceof Date) numFmts[column] = cell.numFmt;
  });
  return { rows, rightToLeft: sheet.views[0]?.rightToLeft, view: sheet.views[0], widths, numFmts };
}

const COLUMNS = ['NAME', 'CITY', 'SHOP'];
const EN_HEADERS = [
  'Message ID',
  'Receiver',
  ...COLUMNS,
  'Status code',
  'Status',
  'Cost (rials)',
  'Date',
  'Date (ISO 8601)',
  'Delivered at',
  'Delivered at (ISO 8601)',
  'Clicks',
  'Text',
];
const FA_HEADERS = [
  'شناسه پیام',
  'گیرنده',
  ...COLUMNS,
  'کد وضعیت',
  'وضعیت',
  'هزینه (ریال)',
  'تاریخ',
  'تاریخ (ISO 8601)',
  'زمان تحویل',
  'زمان تحویل (ISO 8601)',
  'کلیک‌ها',
  'متن پیام',
];
/** The XLSX in Persian: each time a date cell, its Jalali text, its ISO 8601 text. */
const FA_XLSX_HEADERS = [
  'شناسه پیام',
  'گیرنده',
  ...COLUMNS,
  'کد وضعیت',
  'وضعیت',
  'هزینه (ریال)',
  'تاریخ',
  'تاریخ (شمسی)',
  'تاریخ (ISO 8601)',
  'زمان تحویل',
  'زمان تحویل (شمسی)',
  'زمان تحویل (ISO 8601)',
  'کلیک‌ها',
  'متن پیام',
];
const AT = ['2026-11-20 10:00:00', '2026-11-20T10:00:00+03:30'];
const AT_LATER = ['2026-11-20 10:01:01', '2026-11-20T10:01:01+03:30'];
const DELIVERED_AT = ['2026-11-20 10:01:30', '2026-11-20T10:01:30+03:30'];
const NOT_DELIVERED = ['', ''];
/** A date cell as read back: the wall time in Tehran, as exceljs gives it (its UTC fields). */
const cellDate = (wall: string) => new Date(wall.replace(' ', 'T') + 'Z');

describe('exportExecution', () => {
  it('writes the CSV in English: every message of the execution in id order, quoted only where needed', async () => {
    const { db, dir } = fixture();
    const file = path.join(dir, 'report.csv');
    const progress: Array<[number, number]> = [];
    const result = await exportExecution(db, { executionId: 1, format: 'csv', file, language: 'en' }, (rows, total) =>
      progress.push([rows, total]),
    );
    expect(result).toEqual({ rows: 5 });
    expect(fs.existsSync(file + '.part')).toBe(false);
    expect(progress[0]).toEqual([0, 5]);
    expect(progress.at(-1)).toEqual([5, 5]);
    expect(readCsv(file)).toEqual([
      EN_HEADERS,
      [
        '1',
        '989120000001',
        'Ali',
        'Tehran',
        '',
        '10',
        'Delivered',
        '1500',
        ...AT,
        ...DELIVERED_AT,
        '2',
        'Hi Ali, "50%" off',
      ],
      [
        '2',
        '989120000002',
        'Sara, "S"',
        'Shiraz',
        '',
        '11',
        'Not delivered',
        '1500',
        ...AT,
        ...NOT_DELIVERED,
        '0',
        'Hi Sara\nsecond line',
      ],
      [
        '3',
        '989120000003',
        'مریم',
        '',
        'Book shop',
        '14',
        'Blocked',
        '1500',
        ...AT_LATER,
        ...NOT_DELIVERED,
        '0',
        'سلام مریم، تخفیف',
      ],
      [
        '5',
        '989120000005',
        'Reza',
        '',
        '',
        '13',
        'Cancelled (refunded)',
        '1500',
        ...AT,
        ...NOT_DELIVERED,
        '0',
        SHARED_TEXT,
      ],
      ['6', '989120000006', 'Nima', '', 'Cafe', '6', 'Send error', '1500', ...AT, ...NOT_DELIVERED, '1', SHARED_TEXT],
    ]);
    // Quotes only around the fields that need them.
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    expect(lines[1]).toBe(
      '1,989120000001,Ali,Tehran,,10,Delivered,1500,2026-11-20 10:00:00,2026-11-20T10:00:00+03:30,' +
        '2026-11-20 10:01:30,2026-11-20T10:01:30+03:30,2,"Hi Ali, ""50%"" off"',
    );
    expect(lines.slice(2, 4)).toEqual([
      '2,989120000002,"Sara, ""S""",Shiraz,,11,Not delivered,1500,2026-11-20 10:00:00,2026-11-20T10:00:00+03:30,,,0,"Hi Sara',
      'second line"',
    ]);
    expect(lines[4]).toBe(
      '3,989120000003,مریم,,Book shop,14,Blocked,1500,2026-11-20 10:01:01,2026-11-20T10:01:01+03:30,,,0,سلام مریم، تخفیف',
    );
  });

  it('writes Persian headers, the short status labels and Jalali dates in Persian', async () => {
    const { db, dir } = fixture();
    const file = path.join(dir, 'report-fa.csv');
    await exportExecution(db, { executionId: 1, format: 'csv', file, language: 'fa' });
    const rows = readCsv(file);
    expect(rows[0]).toEqual(FA_HEADERS);
    expect(rows.slice(1).map((row) => [row[0], row[2], row[6], row[8], row[9], row[10], row[11]])).toEqual([
      ['1', 'Ali', statusShortLabel(10, 'fa'), '1405/08/29 10:00:00', AT[1], '1405/08/29 10:01:30', DELIVERED_AT[1]],
      ['2', 'Sara, "S"', statusShortLabel(11, 'fa'), '1405/08/29 10:00:00', AT[1], '', ''],
      ['3', 'مریم', statusShortLabel(14, 'fa'), '1405/08/29 10:01:01', AT_LATER[1], '', ''],
      ['5', 'Reza', statusShortLabel(13, 'fa'), '1405/08/29 10:00:00', AT[1], '', ''],
      ['6', 'Nima', statusShortLabel(6, 'fa'), '1405/08/29 10:00:00', AT[1], '', ''],
    ]);
  });

  it('a report of an execution without segment columns has none', async () => {
    const { db, dir } = fixture();
    db.prepare('UPDATE campaign_executions SET segment_columns = NULL WHERE id = 1').run();
    const file = path.join(dir, 'plain.csv');
    await exportExecution(db, { executionId: 1, format: 'csv', file, language: 'en' });
    const rows = readCsv(file);
    expect(rows[0]).toEqual(EN_HEADERS.filter((header) => !COLUMNS.includes(header)));
    expect(rows[1]).toEqual([
      '1',
      '989120000001',
      '10',
      'Delivered',
      '1500',
      ...AT,
      ...DELIVERED_AT,
      '2',
      'Hi Ali, "50%" off',
    ]);
  });

  it("dates follow the person's time zone, else the account's", async () => {
    const { db, dir } = fixture();
    const berlin = path.join(dir, 'berlin.csv');
    await exportExecution(db, {
      executionId: 1,
      format: 'csv',
      file: berlin,
      language: 'en',
      timeZone: 'Europe/Berlin',
    });
    expect(readCsv(berlin)[1]!.slice(8, 12)).toEqual([
      '2026-11-20 07:30:00',
      '2026-11-20T07:30:00+01:00',
      '2026-11-20 07:31:30',
      '2026-11-20T07:31:30+01:00',
    ]);
    db.prepare(`UPDATE accounts SET time_zone = 'UTC' WHERE id = 1`).run();
    const file = path.join(dir, 'utc.csv');
    await exportExecution(db, { executionId: 1, format: 'csv', file, language: 'en' });
    expect(readCsv(file)[1]!.slice(8, 10)).toEqual(['2026-11-20 06:30:00', '2026-11-20T06:30:00+00:00']);
    const xlsx = path.join(dir, 'berlin.xlsx');
    await exportExecution(db, {
      executionId: 1,
      format: 'xlsx',
      file: xlsx,
      language: 'en',
      timeZone: 'Europe/Berlin',
    });
    expect((await readXlsx(xlsx)).rows[1]!.slice(8, 12)).toEqual([
      cellDate('2026-11-20 07:30:00'),
      '2026-11-20T07:30:00+01:00',
      cellDate('2026-11-20 07:31:30'),
      '2026-11-20T07:31:30+01:00',
    ]);
  });

  it('filters by status and by clicks', async () => {
    const { db, dir } = fixture();
    const ids = async (filter: { status?: number[]; clicked?: boolean }) => {
      const file = path.join(dir, `f-${JSON.stringify(filter).replace(/\W/g, '')}.csv`);
      const result = await exportExecution(db, { executionId: 1, format: 'csv', file, language: 'en', filter });
      const found = readCsv(file)
        .slice(1)
        .map((row) => Number(row[0]));
      expect(result.rows).toBe(found.length);
      return found;
    };
    expect(await ids({ status: [6, 11, 13, 14] })).toEqual([2, 3, 5, 6]);
    expect(await ids({ status: [10] })).toEqual([1]);
    expect(await ids({ clicked: true })).toEqual([1, 6]);
    expect(await ids({ clicked: false })).toEqual([2, 3, 5]);
    expect(await ids({ status: [10, 6], clicked: true })).toEqual([1, 6]);
    expect(await ids({ status: [13], clicked: true })).toEqual([]);
    expect(await ids({ status: [] })).toEqual([1, 2, 3, 5, 6]);
  });

  it('writes the XLSX: typed cells, real dates, the Jalali text beside them and a right-to-left sheet in Persian', async () => {
    const { db, dir } = fixture();
    const fa = path.join(dir, 'report-fa.xlsx');
    expect(await exportExecution(db, { executionId: 1, format: 'xlsx', file: fa, language: 'fa' })).toEqual({
      rows: 5,
    });
    expect(fs.existsSync(fa + '.part')).toBe(false);
    const persian = await readXlsx(fa);
    expect(persian.rightToLeft).toBe(true);
    expect(persian.view).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(persian.widths).toHaveLength(FA_XLSX_HEADERS.length);
    expect(Math.min(...persian.widths)).toBeGreaterThanOrEqual(8);
    expect(persian.rows[0]).toEqual(FA_XLSX_HEADERS);
    expect(persian.rows[1]).toEqual([
      1,
      // The receiver keeps its leading digits as text.
      '989120000001',
      'Ali',
      'Tehran',
      undefined,
      10,
      statusShortLabel(10, 'fa'),
      1500,
      cellDate(AT[0]!),
      '1405/08/29 10:00:00',
      AT[1],
      cellDate(DELIVERED_AT[0]!),
      '1405/08/29 10:01:30',
      DELIVERED_AT[1],
      2,
      'Hi Ali, "50%" off',
    ]);
    // Not delivered: the delivery columns are empty.
    expect(persian.rows[2]!.slice(11, 14)).toEqual([undefined, undefined, undefined]);
    expect(persian.rows.slice(1).map((row) => row[0])).toEqual([1, 2, 3, 5, 6]);
    expect(persian.rows.slice(1).map((row) => row[4])).toEqual([undefined, undefined, 'Book shop', undefined, 'Cafe']);
    expect(persian.numFmts).toEqual({ 9: 'yyyy-mm-dd hh:mm:ss', 12: 'yyyy-mm-dd hh:mm:ss' });

    const en = path.join(dir, 'report-en.xlsx');
    await exportExecution(db, {
      executionId: 1,
      format: 'xlsx',
      file: en,
      language: 'en',
      filter: { clicked: false },
    });
    const english = await readXlsx(en);
    expect(english.rightToLeft).toBe(false);
    expect(english.view).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(english.rows[0]).toEqual(EN_HEADERS);
    expect(english.widths).toHaveLength(EN_HEADERS.length);
    const noDelivery = [undefined, undefined];
    expect(english.rows.slice(1)).toEqual([
      [
        2,
        '989120000002',
        'Sara, "S"',
        'Shiraz',
        undefined,
        11,
        'Not delivered',
        1500,
        cellDate(AT[0]!),
        AT[1],
        ...noDelivery,
        0,
        'Hi Sara\nsecond line',
      ],
      [
        3,
        '989120000003',
        'مریم',
        undefined,
        'Book shop',
        14,
        'Blocked',
        1500,
        cellDate(AT_LATER[0]!),
        AT_LATER[1],
        ...noDelivery,
        0,
        'سلام مریم، تخفیف',
      ],
      [
        5,
        '989120000005',
        'Reza',
        undefined,
        undefined,
        13,
        'Cancelled (refunded)',
        1500,
        cellDate(AT[0]!),
        AT[1],
        ...noDelivery,
        0,
        SHARED_TEXT,
      ],
    ]);
    // The first row was not delivered: its one date cell is the time sent.
    expect(english.numFmts).toEqual({ 9: 'yyyy-mm-dd hh:mm:ss' });
  });

  it('an unknown execution is 404 and leaves no file', async () => {
    const { db, dir } = fixture();
    const file = path.join(dir, 'none.csv');
    await expect(exportExecution(db, { executionId: 99, format: 'csv', file, language: 'en' })).rejects.toMatchObject({
      code: 404,
    });
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('none'))).toEqual([]);
  });
});

describe('reportFileTitle', () => {
  // 2026-11-29 20:45 UTC: still the 29th in London, already the 30th in Tehran (1405/09/09).
  const NOW = Date.UTC(2026, 10, 29, 20, 45);
  it("is the campaign's name and the local date: Gregorian in English, Jalali in Persian", () => {
    expect(reportFileTitle('Yalda sale', NOW, 'en', 'Europe/London')).toBe('Yalda sale 2026-11-29');
    expect(reportFileTitle('Yalda sale', NOW, 'en', 'Asia/Tehran')).toBe('Yalda sale 2026-11-30');
    expect(reportFileTitle('حراج یلدا', NOW, 'fa', 'Asia/Tehran')).toBe('حراج یلدا 1405-09-09');
  });

  it('keeps only characters every system allows in a file name', () => {
    expect(reportFileTitle('a/b\\c:d*e?f"g<h>i|j', NOW, 'en', 'UTC')).toBe('a b c d e f g h i j 2026-11-29');
    expect(reportFileTitle('  ..\u200fسلام\u200e\n  دنیا.. ', NOW, 'fa', 'UTC')).toBe('سلام دنیا 1405-09-08');
    expect(reportFileTitle('../../etc', NOW, 'en', 'UTC')).toBe('etc 2026-11-29');
    expect(reportFileTitle('CON', NOW, 'en', 'UTC')).toBe('Campaign report 2026-11-29');
    expect(reportFileTitle('///', NOW, 'fa', 'UTC')).toBe('گزارش کارزار 1405-09-08');
    expect([...reportFileTitle('x'.repeat(300), NOW, 'en', 'UTC')]).toHaveLength(80 + 11);
  });
});
