// The messages export for the person who asked (messages:export over the dispatcher, as the UI
// calls it): headers and status labels in their language, times in their time zone (Jalali in
// Persian) beside ISO 8601, receivers kept as text, a right-to-left sheet in Persian with its
// header frozen and column widths; callers that name neither get Persian and Tehran time; a zone
// that does not exist is refused.
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { statusShortLabel } from '../../../shared/status-labels';
import { createDispatcher, type IpcDispatcher } from '../ipc/dispatcher';
import { messageExportHeaders } from './export';
import { ipcCalls } from '../../../test/helpers/ipc';

// 2026-01-05 10:00:00 UTC = 13:30 in Tehran = 1404/10/15.
const NOW = Date.UTC(2026, 0, 5, 10, 0, 0);
let core: Core;
let clock: ManualClock;
let dispatcher: IpcDispatcher;
let account: number;

const { ok } = ipcCalls(() => dispatcher);

beforeEach(async () => {
  clock = new ManualClock(NOW);
  core = new Core({ dataDir: tempDir('chapar-export-'), clock });
  applySeed(core, testSeed());
  dispatcher = createDispatcher(core, { mode: 'desktop' });
  account = core.accounts.findByName('acme')!.id;
  await ok('messages:send', {
    account_id: account,
    sender: '30001111',
    message: 'تخفیف یلدا',
    receivers: ['09120000001', '09120000002'],
  });
  // The simulator moves them on to their final statuses.
  for (let i = 0; i < 3; i++) {
    clock.advance(50);
    await core.scheduler.waitForIdle();
  }
});
afterEach(async () => {
  dispatcher.close();
  await core.close();
});

function readCsv(file: string): Array<Record<string, string>> {
  const text = fs.readFileSync(file, 'utf8');
  expect(text.startsWith('\ufeff')).toBe(true);
  return Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true }).data;
}

describe('messages:export', () => {
  it('writes English headers, English labels and times in the zone asked for', async () => {
    const csv = await ok('messages:export', {
      account_id: account,
      format: 'csv',
      language: 'en',
      time_zone: 'Europe/Berlin',
    });
    const rows = readCsv(csv.path!);
    expect(Object.keys(rows[0]!)).toEqual(messageExportHeaders('en'));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row['Status']).toBe(statusShortLabel(Number(row['Status code']), 'en'));
      expect(row['Created']).toBe('2026-01-05 11:00:00');
      expect(row['Created (ISO 8601)']).toBe('2026-01-05T11:00:00+01:00');
      expect(row['Receiver']).toMatch(/^0912000000[12]$/);
      expect(row['Line']).toBe('30001111');
      expect(row['Text']).toBe('تخفیف یلدا\nلغو۱۱');
    }
    expect(messageExportHeaders('en').every((header) => !header.includes('_'))).toBe(true);
  });

  it('writes Persian headers, Persian labels and Jalali times in a right-to-left sheet', async () => {
    const xlsx = await ok('messages:export', {
      account_id: account,
      format: 'xlsx',
      language: 'fa',
      time_zone: 'Asia/Tehran',
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(xlsx.path!);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.views[0]).toMatchObject({ rightToLeft: true, state: 'frozen', ySplit: 1 });
    const headers = messageExportHeaders('fa');
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(headers);
    for (let c = 1; c <= headers.length; c++) expect(sheet.getColumn(c).width).toBeGreaterThanOrEqual(7);
    const row = (sheet.getRow(2).values as unknown[]).slice(1);
    const cell = (header: string) => row[headers.indexOf(header)];
    // A receiver keeps its leading 0: text, not a number.
    expect(cell('گیرنده')).toMatch(/^0912000000[12]$/);
    expect(cell('وضعیت')).toBe(statusShortLabel(cell('کد وضعیت') as number, 'fa'));
    expect(cell('زمان ثبت')).toBe('1404/10/15 13:30:00');
    expect(cell('زمان ثبت (ISO 8601)')).toBe('2026-01-05T13:30:00+03:30');
    expect(typeof cell('هزینه (ریال)')).toBe('number');
  });

  it('an English sheet reads left to right, its header frozen too', async () => {
    const xlsx = await ok('messages:export', { account_id: account, format: 'xlsx', language: 'en', time_zone: 'UTC' });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(xlsx.path!);
    expect(workbook.worksheets[0]!.views[0]).toMatchObject({ rightToLeft: false, state: 'frozen', ySplit: 1 });
  });

  it('callers that name no language or zone get Persian and Tehran time', async () => {
    const csv = await ok('messages:export', { account_id: account, format: 'csv' });
    const rows = readCsv(csv.path!);
    expect(Object.keys(rows[0]!)).toEqual(messageExportHeaders('fa'));
    expect(rows[0]!['زمان ثبت (ISO 8601)']).toBe('2026-01-05T13:30:00+03:30');
  });

  it('refuses a time zone that does not exist', async () => {
    const result = await dispatcher.invoke('messages:export', {
      account_id: account,
      format: 'csv',
      time_zone: 'Mars/Olympus',
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe(400);
  });
});
