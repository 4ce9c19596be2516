import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import type { FileEncoding } from '../../../shared/contacts';
import { Readable } from 'node:stream';
import { AutoDecoder, cellText, detectLayout, guessDelimiter, readXlsx, xmlText, type RowSink } from './sources';

const rows = (...lines: string[][]) => lines.map((cells, i) => ({ row: i + 1, cells }));

describe('AutoDecoder', () => {
  it('keeps a UTF-8 character cut between two chunks', () => {
    const bytes = Buffer.from('ab,علی\n', 'utf8');
    const decoder = new AutoDecoder();
    const text = decoder.write(bytes.subarray(0, 4)) + decoder.write(bytes.subarray(4)) + decoder.end();
    expect(text).toBe('ab,علی\n');
    expect(decoder.encoding).toBe('utf-8');
  });

  it('settles on Windows-1256 at the first byte that is not UTF-8, after plain ASCII chunks', () => {
    const decoder = new AutoDecoder();
    const text =
      decoder.write(Buffer.from('phone,name\n')) +
      decoder.write(iconv.encode('09121234567,محمد\n', 'windows-1256')) +
      decoder.end();
    expect(text).toBe('phone,name\n09121234567,محمد\n');
    expect(decoder.encoding).toBe('windows-1256');
  });

  it('drops a UTF-8 BOM and reads UTF-16 by its BOM', () => {
    const utf8 = new AutoDecoder();
    expect(utf8.write(Buffer.from('\ufeffa,b', 'utf8'))).toBe('a,b');
    const utf16 = new AutoDecoder();
    expect(utf16.write(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\tب', 'utf16le')]))).toBe('a\tب');
    expect(utf16.encoding).toBe('utf-16le');
  });
});

describe('a character cut by a chunk boundary', () => {
  // Persian and Arabic digits, a half-space and an emoji (four bytes in UTF-8, two code units in
  // UTF-16), long enough that the encoding is settled before the end of the text.
  const line = 'موبایل,نام\n۰۹۱۲ ۳۴۵ ۶۷۸۹,مشتری‌ شمارهٔ ٠٩١٢ 🙂\n';
  const text = 'phone,name\n' + line.repeat(120);
  // What Persian Excel can write in Windows-1256 (no Persian digits, no Persian yeh, no emoji).
  const legacy = 'phone,name\n' + '09123456789,مشتري‌ شماره 12 گچپژ\n'.repeat(200);
  const files: Array<[string, Buffer, string, FileEncoding]> = [
    ['UTF-8', Buffer.from(text), text, 'utf-8'],
    ['UTF-8 with a BOM', Buffer.from('\ufeff' + text), text, 'utf-8'],
    ['UTF-16 with a BOM', Buffer.from('\ufeff' + text, 'utf16le'), text, 'utf-16le'],
    ['Windows-1256', iconv.encode(legacy, 'windows-1256'), legacy, 'windows-1256'],
  ];

  /** The text of `bytes` cut at `cuts`, as the decoder (auto, or told the encoding) gives it. */
  function decode(
    bytes: Buffer,
    cuts: number[],
    encoding: FileEncoding | 'auto',
  ): { text: string; found: string | null } {
    const decoder = new AutoDecoder(encoding);
    let text = '';
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      text += decoder.write(bytes.subarray(from, cut));
      from = cut;
    }
    return { text: text + decoder.end(), found: decoder.encoding };
  }

  it.each(files)('reads %s whole wherever the file is cut, found or told', (_name, bytes, expected, encoding) => {
    expect(iconv.decode(bytes, encoding === 'windows-1256' ? 'windows-1256' : encoding)).toBe(
      expected.replace(/^\ufeff/, ''),
    );
    for (let cut = 0; cut <= bytes.length; cut++) {
      // One cut, and a one-byte chunk after it: a BOM or a character in three pieces.
      for (const cuts of [[cut], [cut, Math.min(cut + 1, bytes.length)]]) {
        const auto = decode(bytes, cuts, 'auto');
        if (auto.text !== expected || auto.found !== encoding)
          expect({ cuts, ...auto }).toEqual({ cuts, text: expected, found: encoding });
        const told = decode(bytes, cuts, encoding);
        if (told.text !== expected) expect({ cuts, ...told }).toEqual({ cuts, text: expected, found: encoding });
      }
    }
  });

  it("hands exceljs's XML reader whole characters wherever the inflated part is cut", async () => {
    const xml = Buffer.from(`<si><t>${'۰۹۱۲۳۴۵۶۷۸۹ مشتری‌ 🙂 '.repeat(8)}</t></si>`);
    const read = async (chunks: Buffer[]) => {
      let bytes = 0;
      let out = '';
      for await (const part of xmlText(Readable.from(chunks), (n) => (bytes += n))) out += part as string;
      return { out, bytes };
    };
    for (let cut = 0; cut <= xml.length; cut++) {
      const result = await read([xml.subarray(0, cut), xml.subarray(cut, cut + 1), xml.subarray(cut + 1)]);
      if (result.out !== xml.toString())
        expect({ cut, ...result }).toEqual({ cut, out: xml.toString(), bytes: xml.length });
      expect(result.bytes).toBe(xml.length);
    }
  });
});

describe('layout detection', () => {
  it('takes the nearest non-empty row above the first number as the header', () => {
    expect(detectLayout(rows(['Title'], [], ['Name', 'Tel'], ['A', '09121234567']))).toEqual({
      headerRow: 3,
      columns: ['NAME', 'TEL'],
      phoneColumn: 1,
    });
  });

  it('finds no header when numbers start on the first row, and names columns', () => {
    expect(detectLayout(rows(['09121234567', 'x'], ['09121234568', 'y']))).toEqual({
      headerRow: null,
      columns: ['COLUMN_1', 'COLUMN_2'],
      phoneColumn: 0,
    });
  });

  it('prefers the column with more numbers, a phone-like header breaking ties, and makes names unique', () => {
    const layout = detectLayout(
      rows(['code', 'mobile', 'mobile'], ['09121234567', '09121234567', ''], ['', '09121234568', '']),
    );
    expect(layout).toEqual({ headerRow: 1, columns: ['CODE', 'MOBILE', 'MOBILE_2'], phoneColumn: 1 });
  });

  it('honours an explicit header row, or none', () => {
    expect(detectLayout(rows(['a', 'b'], ['09121234567', 'c']), null).headerRow).toBeNull();
    expect(detectLayout(rows(['x'], ['a', 'b'], ['09121234567', 'c']), 2).columns).toEqual(['A', 'B']);
  });
});

describe('cells and delimiters', () => {
  it('turns XLSX cell values into the text a user sees', () => {
    expect(cellText(9121234567)).toBe('9121234567');
    expect(cellText(989121234567)).toBe('989121234567');
    expect(cellText({ richText: [{ text: '0912' }, { text: '1234567' }] })).toBe('09121234567');
    expect(cellText({ formula: 'A1', result: 5 } as never)).toBe('5');
    expect(cellText({ text: 'link', hyperlink: 'http://x' })).toBe('link');
    expect(cellText(null)).toBe('');
  });

  it('guesses the delimiter, ignoring the final newline', () => {
    expect(guessDelimiter('a;b\n1;2\n')).toBe(';');
    expect(guessDelimiter('a\tb\n1\t2\n')).toBe('\t');
    expect(guessDelimiter('a|b|c\n1|2|3\n')).toBe('|');
    expect(guessDelimiter('09121234567\n')).toBe(',');
  });
});

describe('readXlsx', () => {
  // exceljs writes the workbook part last, and its own single pass over the zip lost the last
  // entry now and then: about 1 read in 500 of this file failed as corrupt (exceljs issue 3064).
  it('reads every sheet of an exceljs-written workbook, every time', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chapar-xlsx-'));
    try {
      const file = path.join(dir, 'book.xlsx');
      const workbook = new ExcelJS.Workbook();
      workbook.addWorksheet('Notes').addRow(['nothing here']);
      workbook.addWorksheet('Customers').addRows([
        ['Name', 'Mobile'],
        ['Ali', 9121230001],
      ]);
      workbook.addWorksheet('Other').addRows([['phone'], ['09350000000']]);
      await workbook.xlsx.writeFile(file);
      const read = async (sheet: string | number) => {
        const rows: string[][] = [];
        const sink: RowSink = { rows: (batch) => (rows.push(...batch), true), bytes() {} };
        let names: string[] = [];
        const chosen = await readXlsx(file, { sheet }, sink, (sheets) => (names = sheets.map((s) => s.name)));
        return { chosen, names, rows };
      };
      expect(await read('Customers')).toEqual({
        chosen: 'Customers',
        names: ['Notes', 'Customers', 'Other'],
        rows: [
          ['Name', 'Mobile'],
          ['Ali', '9121230001'],
        ],
      });
      for (let i = 0; i < 1500; i++) expect((await read(3)).rows).toEqual([['phone'], ['09350000000']]);
      await expect(read('Missing')).rejects.toMatchObject({ code: 'sheet_not_found' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a workbook whose sheet data is damaged as corrupt, without an unhandled error', async () => {
    // The archive's directory is intact, the deflate stream of the sheet is not: its error once
    // escaped the pipe as an unhandled 'error' event, which ends the import worker.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chapar-xlsx-'));
    try {
      const file = path.join(dir, 'damaged.xlsx');
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
      const sheet = workbook.addWorksheet('Customers');
      for (let i = 0; i < 50_000; i++)
        sheet.addRow([`0912${String(i).padStart(7, '0')}`, `name ${i}`, 'تهران']).commit();
      await sheet.commit();
      await workbook.commit();
      const bytes = fs.readFileSync(file);
      bytes.fill(0xff, bytes.length >> 1, (bytes.length >> 1) + 4096);
      fs.writeFileSync(file, bytes);
      const sink: RowSink = { rows: () => true, bytes() {} };
      await expect(readXlsx(file, {}, sink)).rejects.toMatchObject({ code: 'corrupt_xlsx' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
