// A shop's customers' sheet as Persian Excel keeps it, through the import wizard in Chromium, in
// Persian and then English: 20,000 numbers written in Persian and Arabic digits (with spaces, +98
// and 0098), Persian names with half-spaces. Every row comes out valid, and a number typed in
// Persian digits finds its member with the name as written. (Before the XLSX reader decoded whole
// characters, about one row in a thousand of such a sheet was shown as invalid with `��` in it.)
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/server';
import { screenshot, startApp, type RunningApp } from './app';
import { importThroughWizard, poll, switchToPersian } from './scenarios';

const ROWS = 20_000;
const PERSIAN = '۰۱۲۳۴۵۶۷۸۹';
const ARABIC = '٠١٢٣٤٥٦٧٨٩';
const inDigits = (text: string, digits: string) => text.replace(/[0-9]/g, (d) => digits[Number(d)]!);
const phoneOf = (i: number) => '09' + String(120_000_000 + ((i * 7_919) % 800_000_000)).padStart(9, '0');
const nameOf = (i: number) => `مشتری‌ شمارهٔ ${inDigits(String(i), PERSIAN)}`;

function written(i: number): string {
  const fa = inDigits(phoneOf(i), PERSIAN);
  return [fa, `${fa.slice(0, 4)} ${fa.slice(4, 7)} ${fa.slice(7)}`, '+۹۸' + fa.slice(1), inDigits(phoneOf(i), ARABIC)][
    i % 4
  ]!;
}

async function customersSheet(dir: string): Promise<string> {
  const file = path.join(dir, 'مشتریان.xlsx');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('مشتریان');
  sheet.addRow(['نام', 'موبایل']);
  for (let i = 0; i < ROWS; i++) sheet.addRow([nameOf(i), written(i)]);
  await book.xlsx.writeFile(file);
  return file;
}

describe('a Persian customers sheet through the import wizard', () => {
  let app: RunningApp;
  let dir: string;
  beforeAll(async () => {
    app = await startApp();
    dir = tempDir('chapar-e2e-persian-sheet-');
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('imports every row valid, in Persian, and finds a member by a number typed in Persian digits', async () => {
    const { page } = app;
    await switchToPersian(page);
    const file = await customersSheet(dir);
    await importThroughWizard(page, file, { 0: 'NAME' }, 'مشتریان اکسل', { reviewTimeoutMs: 60_000 });
    const count = async (kind: string) => page.getByTestId(`import-count-${kind}`).getAttribute('data-value');
    expect({ valid: await count('valid'), invalid: await count('invalid') }).toEqual({
      valid: String(ROWS),
      invalid: '0',
    });
    await screenshot(page, 'fa-import-persian-digits-review');

    await page.getByTestId('import-open-segment').click();
    await poll(() => page.getByTestId('segment-members').getAttribute('data-value')).toBe(String(ROWS));
    const i = 12_345;
    await page.getByTestId('members-search').fill(inDigits(phoneOf(i), PERSIAN));
    await poll(() =>
      page.getByTestId('member-phone').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-phone'))),
    ).toEqual([phoneOf(i)]);
    expect(await page.locator('[data-testid="members-table"]').innerText()).toContain(nameOf(i));
    await screenshot(page, 'fa-segment-persian-digits');
  }, 180_000);
});
