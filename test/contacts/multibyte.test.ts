// Persian customers' files come out of every reader whole: numbers written in Persian or Arabic
// digits (two bytes each in UTF-8 and UTF-16) and names with half-spaces, in files large enough
// that the readers' chunk boundaries fall inside those characters many times over. Every row must
// be valid, and the segment and its export must hold each name byte for byte. (The XLSX reader
// once decoded each inflated chunk on its own: about one number in a thousand came out with two
// U+FFFD in it and was rejected as invalid.)
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAsciiDigits } from '../../shared/digits';
import { tempDir } from '../helpers/server';
import { openCore, type TestCore } from './support';

const ROWS = 20_000;
const PERSIAN = '۰۱۲۳۴۵۶۷۸۹';
const ARABIC = '٠١٢٣٤٥٦٧٨٩';
const inDigits = (text: string, digits: string) => text.replace(/[0-9]/g, (d) => digits[Number(d)]!);

interface Contact {
  /** The number as the sheet writes it. */
  written: string;
  /** What the import must make of it. */
  phone: string;
  name: string;
}

/** Distinct mobile numbers, each written one of the ways Persian sheets write them. */
function contacts(encodable: (text: string) => string = (text) => text): Contact[] {
  return Array.from({ length: ROWS }, (_, i) => {
    const phone = '09' + String(120_000_000 + ((i * 7_919) % 800_000_000)).padStart(9, '0');
    const fa = inDigits(phone, PERSIAN);
    const forms = [
      fa,
      `${fa.slice(0, 4)} ${fa.slice(4, 7)} ${fa.slice(7)}`,
      '+۹۸' + fa.slice(1),
      inDigits(phone, ARABIC),
      '۰۰۹۸ ' + fa.slice(1),
    ];
    const name = `مشتری‌ شمارهٔ ${inDigits(String(i), PERSIAN)} ی ک`;
    return { written: encodable(forms[i % forms.length]!), phone, name: encodable(name) };
  });
}

async function writeXlsx(file: string, rows: Contact[]): Promise<void> {
  // Excel's own layout: every text in the shared strings part.
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('مشتریان');
  sheet.addRow(['موبایل', 'NAME']);
  for (const row of rows) sheet.addRow([row.written, row.name]);
  await book.xlsx.writeFile(file);
}

function delimited(rows: Contact[], delimiter: string): string {
  return (
    ['موبایل' + delimiter + 'NAME', ...rows.map((row) => row.written + delimiter + row.name)].join('\r\n') + '\r\n'
  );
}

describe('multi-byte characters on every chunk boundary', () => {
  let t: TestCore;
  let dir: string;
  beforeAll(() => {
    t = openCore();
    dir = tempDir('chapar-multibyte-');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(t.dir, { recursive: true, force: true });
  });

  /** The segment's export, as phone → NAME, exactly as written to the file. */
  async function exported(segmentId: number): Promise<Map<string, string>> {
    const out = path.join(dir, `export-${segmentId}.csv`);
    expect(await t.core.segments.exportCsv(t.accountId, segmentId, out)).toEqual({ rows: ROWS });
    const lines = fs
      .readFileSync(out, 'utf8')
      .replace(/^\ufeff/, '')
      .split('\n');
    expect(lines[0]).toBe('phone_number,NAME');
    return new Map(lines.slice(1, -1).map((line) => line.split(',') as [string, string]));
  }

  async function expectWhole(segmentId: number, jobId: number, rows: Contact[]): Promise<void> {
    const job = await t.core.imports.wait(jobId);
    expect({ status: job.status, valid: job.valid, invalid: job.invalid, duplicates: job.duplicates }).toEqual({
      status: 'done',
      valid: ROWS,
      invalid: 0,
      duplicates: 0,
    });
    const byPhone = await exported(segmentId);
    expect(byPhone.size).toBe(ROWS);
    const wrong = rows.filter((row) => byPhone.get(row.phone) !== row.name);
    expect(wrong.slice(0, 3)).toEqual([]);
  }

  it('imports an XLSX of Persian- and Arabic-digit numbers with every row valid and every name intact', async () => {
    const rows = contacts();
    const file = path.join(dir, 'مشتریان.xlsx');
    await writeXlsx(file, rows);
    const preview = await t.core.imports.preview(file);
    expect(preview.phoneColumn).toBe(0);
    const { jobId, segmentId } = await t.core.imports.start(t.accountId, { file, name: 'xlsx' });
    await expectWhole(segmentId, jobId, rows);
  });

  it.each([
    ['UTF-8', 'utf-8', ','],
    ['UTF-8 with a BOM', 'utf-8-bom', ';'],
    ['UTF-16 (Excel "Unicode text")', 'utf-16le', '\t'],
  ] as const)('imports a %s CSV of Persian-digit numbers whole', async (_name, encoding, delimiter) => {
    const rows = contacts();
    const text = delimited(rows, delimiter);
    const file = path.join(dir, `customers-${encoding}.csv`);
    if (encoding === 'utf-16le') fs.writeFileSync(file, Buffer.from('\ufeff' + text, 'utf16le'));
    else fs.writeFileSync(file, (encoding === 'utf-8-bom' ? '\ufeff' : '') + text, 'utf8');
    const { jobId, segmentId } = await t.core.imports.start(t.accountId, { file, name: encoding });
    await expectWhole(segmentId, jobId, rows);
  });

  it('imports a Windows-1256 CSV (Persian Excel: ASCII digits, Arabic yeh) whole', async () => {
    // Windows-1256 has no Persian or Arabic digits, no Persian yeh and no hamza above: Excel writes
    // ASCII digits and the Arabic yeh. The half-space it has (0x9D).
    const rows = contacts((text) => toAsciiDigits(text).replaceAll('ی', 'ي').replaceAll('\u0654', ''));
    expect(iconv.decode(iconv.encode(rows[7]!.name, 'windows-1256'), 'windows-1256')).toBe(rows[7]!.name);
    const file = path.join(dir, 'customers-1256.csv');
    fs.writeFileSync(file, iconv.encode(delimited(rows, ','), 'windows-1256'));
    const preview = await t.core.imports.preview(file);
    expect(preview.encoding).toBe('windows-1256');
    const { jobId, segmentId } = await t.core.imports.start(t.accountId, { file, name: '1256' });
    await expectWhole(segmentId, jobId, rows);
  });

  it('takes a JSON upload of Persian-digit numbers whole', async () => {
    const rows = contacts();
    const body = JSON.stringify(rows.map((row) => ({ phone_number: row.written, NAME: row.name })));
    const { segment_id } = await t.core.uploads.createFromJson(t.accountId, new TextEncoder().encode(body));
    const job = t.core.db
      .prepare<[number], number>('SELECT id FROM import_jobs WHERE segment_id = ?')
      .pluck()
      .get(segment_id)!;
    await expectWhole(segment_id, job, rows);
  });

  it('imports an opt-out XLSX of Persian-digit numbers whole', async () => {
    const rows = contacts();
    const file = path.join(dir, 'optouts.xlsx');
    await writeXlsx(file, rows);
    const { jobId } = await t.core.optouts.importFile(t.accountId, { file });
    expect(await t.core.imports.wait(jobId)).toMatchObject({ status: 'done', valid: ROWS, invalid: 0 });
    expect(t.core.optouts.filter(t.accountId, [rows[0]!.phone, rows.at(-1)!.phone])).toHaveLength(2);
    expect(t.core.optouts.list(t.accountId).total).toBe(ROWS);
  });
});
