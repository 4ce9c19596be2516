// importfa1m: the files Persian shops bring, 1,000,000 rows each, imported through the real path
// (bench/support/import-child.ts, a fresh child process per run) with every row valid:
// - an XLSX as Excel writes it (every text in the shared strings) of numbers in Persian and Arabic
//   digits, with spaces and +98, and Persian names: two-byte characters on every boundary of the
//   inflated stream;
// - a Windows-1256 CSV as Persian Excel saves "CSV" (that code page has no Persian digits: Excel
//   writes ASCII ones, and the Arabic yeh), with Persian names.
// Each next to a floor measured in the same run: the same file read the rawest way its library
// allows (exceljs's own streaming reader; iconv-lite + papaparse) plus a raw prepared insert of the
// same rows, in one transaction.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import { openDatabase } from '../../electron/service/db/database';
import { cellText } from '../../electron/service/contacts/sources';
import { normalizePhone } from '../../shared/phone';
import { importInChild } from '../support/import-run';
import { median, type BenchCase, type BenchResult } from '../case';

const ROWS = 1_000_000;
const RUNS = 3;
const PERSIAN = '۰۱۲۳۴۵۶۷۸۹';
const ARABIC = '٠١٢٣٤٥٦٧٨٩';

const phoneOf = (i: number) => '09' + String(100_000_000 + ((i * 7_919) % 900_000_000)).padStart(9, '0');
const inDigits = (text: string, digits: string) => text.replace(/[0-9]/g, (d) => digits[Number(d)]!);

/** The number as a Persian sheet writes it, five ways in turn. */
function writtenPhone(i: number): string {
  const fa = inDigits(phoneOf(i), PERSIAN);
  switch (i % 5) {
    case 0:
      return fa;
    case 1:
      return `${fa.slice(0, 4)} ${fa.slice(4, 7)} ${fa.slice(7)}`;
    case 2:
      return '+۹۸' + fa.slice(1);
    case 3:
      return inDigits(phoneOf(i), ARABIC);
    default:
      return '۰۰۹۸ ' + fa.slice(1);
  }
}

async function writeXlsx(file: string): Promise<void> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
  const sheet = book.addWorksheet('مشتریان');
  sheet.addRow(['موبایل', 'نام', 'شهر']).commit();
  for (let i = 0; i < ROWS; i++)
    sheet.addRow([writtenPhone(i), `مشتری‌ شمارهٔ ${inDigits(String(i), PERSIAN)}`, `شهر ${i % 97}`]).commit();
  sheet.commit();
  await book.commit();
}

function write1256Csv(file: string): void {
  const fd = fs.openSync(file, 'w');
  let chunk = 'موبايل,نام,شهر\r\n';
  for (let i = 0; i < ROWS; i++) {
    const phone = phoneOf(i);
    const written = i % 3 === 0 ? phone : i % 3 === 1 ? `+98 ${phone.slice(1, 4)} ${phone.slice(4)}` : phone;
    chunk += `${written},مشتري‌ شماره ${i},شهر ${i % 97}\r\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(fd, iconv.encode(chunk, 'windows-1256'));
      chunk = '';
    }
  }
  fs.writeSync(fd, iconv.encode(chunk, 'windows-1256'));
  fs.closeSync(fd);
}

/** The floor's members table, with the rows it is handed, one transaction; ms of the whole. */
async function floorInsert(dir: string, rows: (insert: (cells: string[]) => void) => Promise<void>): Promise<number> {
  const file = path.join(dir, 'floor.db');
  const db = openDatabase({ file });
  db.pragma('cache_size = -131072');
  const statement = db.prepare('INSERT OR IGNORE INTO segment_members (segment_id, phone, fields) VALUES (?, ?, ?)');
  const start = performance.now();
  db.exec('BEGIN');
  let header = true;
  await rows((cells) => {
    if (header) return void (header = false);
    const phone = normalizePhone(cells[0] ?? '');
    if (phone !== null) statement.run(1, phone, cells[1] + '\u001f' + cells[2]);
  });
  db.exec('COMMIT');
  const elapsed = performance.now() - start;
  db.close();
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  return elapsed;
}

const floors = {
  xlsx: (dir: string, file: string) =>
    floorInsert(dir, async (insert) => {
      const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
        worksheets: 'emit',
        sharedStrings: 'cache',
        hyperlinks: 'ignore',
        styles: 'ignore',
        entries: 'ignore',
      });
      for await (const sheet of reader)
        for await (const row of sheet) {
          const values = row.values as ExcelJS.CellValue[];
          insert(values.slice(1).map((value) => cellText(value ?? null)));
        }
    }),
  csv: (dir: string, file: string) =>
    floorInsert(dir, async (insert) => {
      const text = fs.createReadStream(file, { highWaterMark: 1 << 20 }).pipe(iconv.decodeStream('windows-1256'));
      await new Promise<void>((resolve, reject) => {
        Papa.parse(text as unknown as File, {
          chunk: (results: Papa.ParseResult<string[]>) => results.data.forEach(insert),
          complete: () => resolve(),
          error: (error: Error) => reject(error),
        });
      });
    }),
};

async function measure(kind: 'xlsx' | 'csv', dir: string, file: string): Promise<BenchResult> {
  const times: number[] = [];
  const floorTimes: number[] = [];
  const peaks: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const dataDir = path.join(dir, `data-${kind}-${run}`);
    const result = await importInChild(dataDir, file);
    if (result.status !== 'done' || result.valid !== ROWS || result.invalid !== 0)
      throw new Error(`${kind}: import ended ${result.status} with ${result.valid} valid, ${result.invalid} invalid`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    times.push(result.ms);
    peaks.push(Math.max(result.peakRssMb, result.maxRssMb));
    floorTimes.push(await floors[kind](dir, file));
  }
  const ms = median(times);
  const floorMs = median(floorTimes);
  return {
    name: `importfa1m-${kind}`,
    ms,
    floorMs,
    ratio: ms / floorMs,
    target: '0 invalid rows (else it throws); ratio <= 1.5',
    extra: {
      'rows/s': Math.round(ROWS / (ms / 1000)),
      'floor rows/s': Math.round(ROWS / (floorMs / 1000)),
      invalid: 0,
      'peak RSS MB': Math.round(Math.max(...peaks)),
      file: `${(fs.statSync(file).size / 2 ** 20).toFixed(1)} MB`,
    },
  };
}

const importfa1m: BenchCase = {
  name: 'importfa1m',
  async run() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chapar-bench-importfa-'));
    try {
      const xlsx = path.join(dir, 'مشتریان.xlsx');
      const csv = path.join(dir, 'customers-1256.csv');
      await writeXlsx(xlsx);
      write1256Csv(csv);
      const results = [await measure('xlsx', dir, xlsx), await measure('csv', dir, csv)];
      // One row of the table per file; the case's own line is the XLSX's.
      const [first, second] = results;
      return {
        ...first!,
        extra: {
          ...first!.extra,
          'CSV ms': second!.ms.toFixed(0),
          'CSV floor ms': second!.floorMs!.toFixed(0),
          'CSV ratio': second!.ratio!.toFixed(2),
          'CSV rows/s': second!.extra['rows/s']!,
        },
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default importfa1m;
