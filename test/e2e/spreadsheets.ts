// The customer spreadsheets the contacts end-to-end tests import, generated with known outcomes:
// the same 14 contacts in every file: 7 valid numbers written every way people write them (+98,
// 0098, spaces, dashes, Persian and Arabic digits), 2 duplicates, 3 invalid numbers and 2 numbers
// on the opt-out list (OPTED_OUT, added before the import).
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { toAsciiDigits } from '../../shared/digits';

export const OPTED_OUT = ['09121000099', '09121000098'];

/** [name, phone as written, city], in file order, with what the import must make of each. */
export const CONTACTS: Array<[string, string, string]> = [
  ['سارا', '09121000001', 'تهران'],
  ['علی', '+989121000002', 'شیراز'],
  ['رضا', '00989121000003', 'تبریز'],
  ['مریم', '0912 100 0004', 'اصفهان'],
  ['Nima', '0912-100-0005', 'Mashhad'],
  ['زهرا', '۰۹۱۲۱۰۰۰۰۰۶', 'قم'],
  ['حسن', '٠٩١٢١٠٠٠٠٠٧', 'یزد'],
  ['سارا ۲', '09121000001', 'تهران'],
  ['علی ۲', '+98 912 100 0002', 'شیراز'],
  ['بی‌شماره', '12345', 'کرج'],
  ['نامعلوم', 'abc', 'کرج'],
  ['ثابت', '0212345678', 'تهران'],
  ['لغو', '09121000099', 'رشت'],
  ['لغو ۲', '۰۹۱۲۱۰۰۰۰۹۸', 'رشت'],
];

export const EXPECTED = { valid: 7, invalid: 3, duplicates: 2, opted_out: 2 };
/** The valid members, normalized, in number order. */
export const VALID_PHONES = [1, 2, 3, 4, 5, 6, 7].map((n) => `0912100000${n}`);
/** Data row i (0-based) is on this sheet row, for a file whose header is `headerRow`. */
export const rowOf = (index: number, headerRow: number) => headerRow + 1 + index;
/** Indexes into CONTACTS of the rows left out, by reason. */
export const REJECTED = { duplicate: [7, 8], invalid: [9, 10, 11], opted_out: [12, 13] };

const HEADER = ['نام', 'موبایل', 'شهر'];

/** UTF-8 with a BOM (what Excel's "CSV UTF-8" writes), comma separated. */
export function utf8BomCsv(dir: string): string {
  const file = path.join(dir, 'مشتریان-utf8.csv');
  const lines = [HEADER, ...CONTACTS].map((cells) => cells.join(','));
  fs.writeFileSync(file, '\ufeff' + lines.join('\r\n') + '\r\n');
  return file;
}

/** Windows-1256 (what Persian Excel writes as plain "CSV"), semicolon separated. */
export function windows1256Csv(dir: string): string {
  const file = path.join(dir, 'customers-1256.csv');
  // Windows-1256 has no Persian or Arabic digits and no Persian yeh (ی): Excel writes ASCII digits
  // and the Arabic yeh (ي).
  const encodable = (text: string) => toAsciiDigits(text).replaceAll('\u06cc', '\u064a');
  const lines = [HEADER, ...CONTACTS].map((cells) => cells.map(encodable).join(';'));
  fs.writeFileSync(file, iconv.encode(lines.join('\r\n') + '\r\n', 'windows-1256'));
  return file;
}

/** Two sheets; the customers on the second, under a title line and a blank row (header on row 3). */
export async function twoSheetXlsx(dir: string): Promise<string> {
  const file = path.join(dir, 'customers.xlsx');
  const book = new ExcelJS.Workbook();
  const notes = book.addWorksheet('Notes');
  notes.addRow(['Exported from the shop system']);
  notes.addRow(['No numbers here']);
  const sheet = book.addWorksheet('Customers');
  sheet.addRow(['Customer list, November']);
  sheet.addRow([]);
  sheet.addRow(HEADER);
  // The first valid number as Excel keeps a typed number: 9121000001, no leading zero.
  CONTACTS.forEach(([name, phone, city], i) => sheet.addRow([name, i === 0 ? 9121000001 : phone, city]));
  await book.xlsx.writeFile(file);
  return file;
}

/** A large CSV: `rows` distinct valid numbers and a name column. */
export function largeCsv(dir: string, rows: number): string {
  const file = path.join(dir, 'million.csv');
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, 'name,mobile\n');
  for (let start = 0; start < rows; start += 50_000) {
    let chunk = '';
    for (let i = start; i < Math.min(rows, start + 50_000); i++)
      chunk += `customer ${i},09${String(200_000_000 + ((i * 7_919) % 700_000_000)).padStart(9, '0')}\n`;
    fs.writeSync(fd, chunk);
  }
  fs.closeSync(fd);
  return file;
}
