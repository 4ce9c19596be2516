// The execution report export: CSV and XLSX of a small execution in a store built by the real
// migrations, with its rows in message order, quoting only where needed, the send's text for
// messages without their own, clicks counted per message, headers and status texts in the UI's
// language, dates in the account's zone, the status and clicked filters, and a `.part` file
// renamed only when whole.
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { tempDir } from '../../../test/helpers/server';
import { statusShortLabel } from '../../../shared/status-labels';
import { exportExecution } from './export';

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

/**
 * Execution 1 of account 1 in two batches: the first personalized (its own texts), the second on
 * its send's text. Another execution's batch sits between them, so ids are not one run.
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
    INSERT INTO campaign_executions (id, campaign_id, account_id, status, send_datetime, send_at, created_at)
      VALUES (1, 1, 1, 'COMPLETED', '2026-11-20T10:00:00+03:30', 0, 0), (2, 1, 1, 'COMPLETED', '2026-11-20T10:00:00+03:30', 0, 0);
    INSERT INTO sends (id, account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
      VALUES (1, 1, 1, '30001111', 'sms', 'template', 1, 'campaign', 3, 4500, 0),
             (2, 1, 1, '30001111', 'sms', 'other execution', 1, 'campaign', 1, 1500, 0),
             (3, 1, 1, '30001111', 'sms', '${SHARED_TEXT}', 1, 'campaign', 2, 3000, 0);
    INSERT INTO campaign_batches (execution_id, first_seq, count, send_id, first_message_id, due_at)
      VALUES (1, 0, 3, 1, 1, 0), (2, 0, 1, 2, 4, 0), (1, 3, 2, 3, 5, 0);
  `);
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

async function readXlsx(
  file: string,
): Promise<{ rows: unknown[][]; rightToLeft: boolean | undefined; view: unknown; widths: number[] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  const widths = Array.from({ length: sheet.columnCount }, (_, i) => sheet.getColumn(i + 1).width ?? 0);
  return { rows, rightToLeft: sheet.views[0]?.rightToLeft, view: sheet.views[0], widths };
}

const EN_HEADERS = [
  'Message ID',
  'Receiver',
  'Status code',
  'Status',
  'Cost (rials)',
  'Date',
  'Date (ISO 8601)',
  'Clicks',
  'Text',
];
const FA_HEADERS = [
  'شناسه پیام',
  'گیرنده',
  'کد وضعیت',
  'وضعیت',
  'هزینه (ریال)',
  'تاریخ',
  'تاریخ (ISO 8601)',
  'کلیک‌ها',
  'متن پیام',
];
const AT = ['2026-11-20 10:00:00', '2026-11-20T10:00:00+03:30'];
const AT_LATER = ['2026-11-20 10:01:01', '2026-11-20T10:01:01+03:30'];

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
      ['1', '989120000001', '10', 'Delivered', '1500', ...AT, '2', 'Hi Ali, "50%" off'],
      ['2', '989120000002', '11', 'Not delivered', '1500', ...AT, '0', 'Hi Sara\nsecond line'],
      ['3', '989120000003', '14', 'Blocked', '1500', ...AT_LATER, '0', 'سلام مریم، تخفیف'],
      ['5', '989120000005', '13', 'Cancelled (refunded)', '1500', ...AT, '0', SHARED_TEXT],
      ['6', '989120000006', '6', 'Send error', '1500', ...AT, '1', SHARED_TEXT],
    ]);
    // Quotes only around the fields that need them.
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    expect(lines[1]).toBe(
      '1,989120000001,10,Delivered,1500,2026-11-20 10:00:00,2026-11-20T10:00:00+03:30,2,"Hi Ali, ""50%"" off"',
    );
    expect(lines.slice(2, 4)).toEqual([
      '2,989120000002,11,Not delivered,1500,2026-11-20 10:00:00,2026-11-20T10:00:00+03:30,0,"Hi Sara',
      'second line"',
    ]);
    expect(lines[4]).toBe(
      '3,989120000003,14,Blocked,1500,2026-11-20 10:01:01,2026-11-20T10:01:01+03:30,0,سلام مریم، تخفیف',
    );
  });

  it('writes Persian headers, the short status labels and Jalali dates in Persian', async () => {
    const { db, dir } = fixture();
    const file = path.join(dir, 'report-fa.csv');
    await exportExecution(db, { executionId: 1, format: 'csv', file, language: 'fa' });
    const rows = readCsv(file);
    expect(rows[0]).toEqual(FA_HEADERS);
    expect(rows.slice(1).map((row) => [row[0], row[3], row[5], row[6]])).toEqual([
      ['1', statusShortLabel(10, 'fa'), '1405/08/29 10:00:00', AT[1]],
      ['2', statusShortLabel(11, 'fa'), '1405/08/29 10:00:00', AT[1]],
      ['3', statusShortLabel(14, 'fa'), '1405/08/29 10:01:01', AT_LATER[1]],
      ['5', statusShortLabel(13, 'fa'), '1405/08/29 10:00:00', AT[1]],
      ['6', statusShortLabel(6, 'fa'), '1405/08/29 10:00:00', AT[1]],
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
    expect(readCsv(berlin)[1]!.slice(5, 7)).toEqual(['2026-11-20 07:30:00', '2026-11-20T07:30:00+01:00']);
    db.prepare(`UPDATE accounts SET time_zone = 'UTC' WHERE id = 1`).run();
    const file = path.join(dir, 'utc.csv');
    await exportExecution(db, { executionId: 1, format: 'csv', file, language: 'en' });
    expect(readCsv(file)[1]!.slice(5, 7)).toEqual(['2026-11-20 06:30:00', '2026-11-20T06:30:00+00:00']);
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

  it('writes the XLSX: typed cells, a right-to-left sheet in Persian, left-to-right in English, header frozen', async () => {
    const { db, dir } = fixture();
    const fa = path.join(dir, 'report-fa.xlsx');
    expect(await exportExecution(db, { executionId: 1, format: 'xlsx', file: fa, language: 'fa' })).toEqual({
      rows: 5,
    });
    expect(fs.existsSync(fa + '.part')).toBe(false);
    const persian = await readXlsx(fa);
    expect(persian.rightToLeft).toBe(true);
    expect(persian.view).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(persian.widths).toHaveLength(FA_HEADERS.length);
    expect(Math.min(...persian.widths)).toBeGreaterThanOrEqual(8);
    expect(persian.rows[0]).toEqual(FA_HEADERS);
    expect(persian.rows[1]).toEqual([
      1,
      // The receiver keeps its leading digits as text.
      '989120000001',
      10,
      statusShortLabel(10, 'fa'),
      1500,
      '1405/08/29 10:00:00',
      AT[1],
      2,
      'Hi Ali, "50%" off',
    ]);
    expect(persian.rows.slice(1).map((row) => row[0])).toEqual([1, 2, 3, 5, 6]);

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
    expect(english.rows.slice(1)).toEqual([
      [2, '989120000002', 11, 'Not delivered', 1500, ...AT, 0, 'Hi Sara\nsecond line'],
      [3, '989120000003', 14, 'Blocked', 1500, ...AT_LATER, 0, 'سلام مریم، تخفیف'],
      [5, '989120000005', 13, 'Cancelled (refunded)', 1500, ...AT, 0, SHARED_TEXT],
    ]);
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
