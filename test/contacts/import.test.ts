// Spreadsheet import through the real path (worker thread, SQLite, scheduler) on files written
// here: CSV with a BOM, ';' and quoted newlines, Windows-1256 from Persian Excel, UTF-16, XLSX
// with several sheets, a header below title lines, Persian digits; corrupt and binary files;
// the rejection report; segment exports, union / difference, deletion; opt-out files.
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportProgress } from '../../shared/contacts';
import { eventually, tempDir } from '../helpers/server';
import { openCore, writeText, writeXlsx, type TestCore } from './support';

describe('spreadsheet import', () => {
  let t: TestCore;
  let dir: string;
  beforeAll(() => {
    t = openCore();
    dir = tempDir('chapar-sheets-');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(t.dir, { recursive: true, force: true });
  });

  async function importFile(file: string, options: Record<string, unknown> = {}) {
    const progress: ImportProgress[] = [];
    const { jobId, segmentId } = await t.core.imports.start(t.accountId, { file, ...options }, (p) => progress.push(p));
    const job = await t.core.imports.wait(jobId);
    return { job, segmentId, progress };
  }
  const phones = (segmentId: number) =>
    t.core.segments.members(t.accountId, segmentId, { limit: 1000 }).members.map((m) => m.phone);

  it('previews a UTF-8 CSV with a BOM: header, columns, phone column', async () => {
    const file = writeText(
      dir,
      'bom.csv',
      'Name,Mobile,City\nعلی,09121234567,تهران\nسارا,09351234567,شیراز\n',
      'utf-8-bom',
    );
    const preview = await t.core.imports.preview(file);
    expect(preview).toMatchObject({
      format: 'csv',
      encoding: 'utf-8',
      delimiter: ',',
      headerRow: 1,
      columns: ['NAME', 'MOBILE', 'CITY'],
      phoneColumn: 1,
    });
    expect(preview.rows[0]!.cells[0]).toBe('Name');
    const { job, segmentId } = await importFile(file);
    expect(job).toMatchObject({ status: 'done', total: 2, valid: 2, invalid: 0 });
    expect(t.core.segments.get(t.accountId, segmentId)).toMatchObject({
      status: 'ready',
      member_count: 2,
      columns: ['NAME', 'CITY'],
      name: 'bom.csv',
    });
    expect(t.core.segments.members(t.accountId, segmentId).members[0]).toMatchObject({
      phone: '09121234567',
      fields: { NAME: 'علی', CITY: 'تهران' },
    });
  });

  it("reads ';' delimited files with quoted newlines and counts rows as records", async () => {
    const file = writeText(dir, 'semi.csv', 'phone;note\n09120000001;"two\nlines"\nbad;x\n09120000002;"a;b"\n');
    const preview = await t.core.imports.preview(file);
    expect(preview.delimiter).toBe(';');
    const { job, segmentId } = await importFile(file);
    expect(job).toMatchObject({ status: 'done', total: 3, valid: 2, invalid: 1 });
    expect(t.core.segments.members(t.accountId, segmentId).members).toMatchObject([
      { phone: '09120000001', fields: { NOTE: 'two\nlines' } },
      { phone: '09120000002', fields: { NOTE: 'a;b' } },
    ]);
    expect(t.core.imports.rejections(t.accountId, job.id).rows).toEqual([
      { row: 3, phone_number: 'bad', reason: 'invalid', problem: 'letters' },
    ]);
  });

  // Windows-1256 has no Persian yeh (U+06CC), so the text sticks to letters it does have.
  it('falls back to Windows-1256 when the bytes are not UTF-8 (Persian Excel)', async () => {
    const file = writeText(
      dir,
      'excel-fa.csv',
      'نام,شماره همراه\r\nمحمد رضا,09121110000\r\nزهرا,09121110001\r\n',
      'windows-1256',
    );
    const preview = await t.core.imports.preview(file);
    expect(preview).toMatchObject({ encoding: 'windows-1256', columns: ['نام', 'شماره همراه'], phoneColumn: 1 });
    const { job, segmentId } = await importFile(file);
    expect(job.status).toBe('done');
    expect(t.core.segments.members(t.accountId, segmentId).members[0]!.fields).toEqual({ نام: 'محمد رضا' });
  });

  it('reads UTF-16 text (Excel "Unicode text", tab separated)', async () => {
    const file = writeText(dir, 'unicode.txt', 'phone\tname\n09121112222\tنگار\n', 'utf-16le');
    const { job, segmentId } = await importFile(file);
    expect(job.status).toBe('done');
    expect(t.core.segments.members(t.accountId, segmentId).members).toMatchObject([
      { phone: '09121112222', fields: { NAME: 'نگار' } },
    ]);
  });

  it('normalizes Persian and Arabic digits, separators and prefixes; dedups; reports rows as the sheet numbers them', async () => {
    const file = writeText(
      dir,
      'digits.csv',
      [
        'mobile',
        '۰۹۱۲۳۴۵۶۷۸۹',
        '٠٩١٢٣٤٥٦٧٨٩',
        '+98 912 345 6780',
        '0098-912-345-6781',
        '9123456782',
        '',
        '12345',
        '09123456789',
      ].join('\n') + '\n',
    );
    const { job, segmentId } = await importFile(file);
    expect(job).toMatchObject({ status: 'done', total: 7, valid: 4, invalid: 1, duplicates: 2 });
    expect(phones(segmentId)).toEqual(['09123456780', '09123456781', '09123456782', '09123456789']);
    expect(t.core.imports.rejections(t.accountId, job.id).rows).toEqual([
      { row: 3, phone_number: '٠٩١٢٣٤٥٦٧٨٩', reason: 'duplicate' },
      { row: 8, phone_number: '12345', reason: 'invalid', problem: 'too_short' },
      { row: 9, phone_number: '09123456789', reason: 'duplicate' },
    ]);
    const report = path.join(dir, 'rejections.csv');
    expect(await t.core.imports.exportRejections(t.accountId, job.id, report)).toEqual({ rows: 3 });
    const parsed = Papa.parse<string[]>(fs.readFileSync(report, 'utf8').replace(/^\ufeff/, ''), {
      skipEmptyLines: true,
    }).data;
    expect(parsed[0]).toEqual(['row', 'phone_number', 'reason', 'reason_text']);
    expect(parsed[2]).toEqual(['8', '12345', 'invalid', 'برای شماره موبایل کوتاه است']);
  });

  it('finds duplicates of numbers written by earlier commits, keeping the first row of each', async () => {
    // Rows 1-50,000 bring even numbers. From row 50,001 every other row repeats the number of the
    // row 50,000 before it, which an earlier commit wrote (a commit holds at most 40,000 rows); the
    // rows between bring odd numbers, new ones that sort among the repeated ones.
    const lines = ['phone,NAME'];
    const number = (n: number) => `0915${String(n).padStart(7, '0')}`;
    for (let row = 1; row <= 100_000; row++) {
      const n = row <= 50_000 ? 2 * row : row % 2 === 1 ? 2 * (row - 50_000) : 2 * (row - 50_000) + 1;
      lines.push(`${number(n)},n${row}`);
    }
    const { job, segmentId } = await importFile(writeText(dir, 'late-duplicates.csv', lines.join('\n') + '\n'));
    expect(job).toMatchObject({ status: 'done', total: 100_000, valid: 75_000, duplicates: 25_000, invalid: 0 });
    expect(t.core.segments.get(t.accountId, segmentId)).toMatchObject({ status: 'ready', member_count: 75_000 });
    const report = t.core.imports.rejections(t.accountId, job.id, { limit: 100_000 });
    expect(report.total).toBe(25_000);
    expect(report.rows.slice(0, 2)).toEqual([
      // Reported as the sheet numbers rows: the header is row 1.
      { row: 50_002, phone_number: number(2), reason: 'duplicate' },
      { row: 50_004, phone_number: number(6), reason: 'duplicate' },
    ]);
    expect(report.rows.every((r) => r.row > 50_001 && r.row % 2 === 0)).toBe(true);
    // The member keeps the first row's fields.
    const first = t.core.db
      .prepare('SELECT fields FROM segment_members WHERE segment_id = ? AND phone = ?')
      .get(segmentId, number(2));
    expect(first).toEqual({ fields: 'n1' });
    // The import's page cache and checkpoint interval are back to normal once no import runs.
    await eventually(() => (t.core.db.pragma('wal_autocheckpoint', { simple: true }) === 1000 ? true : undefined));
    expect(t.core.db.pragma('cache_size', { simple: true })).toBe(-32000);
  });

  it('detects a header row below title lines in a CSV', async () => {
    const file = writeText(
      dir,
      'titled.csv',
      'Customer list,,\nexported 1403/01/01,,\n,,\nName,Phone,Code\nA,09121000001,1\nB,09121000002,2\n',
    );
    const preview = await t.core.imports.preview(file);
    expect(preview).toMatchObject({ headerRow: 4, columns: ['NAME', 'PHONE', 'CODE'], phoneColumn: 1 });
    const { job, segmentId } = await importFile(file);
    expect(job).toMatchObject({ status: 'done', total: 2, valid: 2, invalid: 0 });
    expect(t.core.segments.get(t.accountId, segmentId).columns).toEqual(['NAME', 'CODE']);
  });

  it('imports the chosen sheet of an XLSX with several sheets, header below a title, mapped columns', async () => {
    const file = await writeXlsx(dir, 'book.xlsx', {
      Notes: [['nothing here'], ['at all']],
      Customers: [
        ['Our customers'],
        [],
        ['Name', 'Mobile', 'City'],
        ['Ali', 9121230001, 'Tehran'],
        ['Sara', '۰۹۱۲۱۲۳۰۰۰۲', 'Tabriz'],
        ['Bad', 'abc', 'X'],
      ],
      Other: [['phone'], ['09350000000']],
    });
    const preview = await t.core.imports.preview(file, { sheet: 'Customers' });
    expect(preview).toMatchObject({
      format: 'xlsx',
      sheets: ['Notes', 'Customers', 'Other'],
      sheet: 'Customers',
      headerRow: 3,
      columns: ['NAME', 'MOBILE', 'CITY'],
      phoneColumn: 1,
    });
    const { job, segmentId } = await importFile(file, {
      sheet: 'Customers',
      mapping: { phone: 1, columns: [{ index: 0, name: 'FIRST_NAME' }] },
    });
    expect(job).toMatchObject({ status: 'done', total: 3, valid: 2, invalid: 1 });
    expect(t.core.segments.members(t.accountId, segmentId).members).toMatchObject([
      { phone: '09121230001', fields: { FIRST_NAME: 'Ali' } },
      { phone: '09121230002', fields: { FIRST_NAME: 'Sara' } },
    ]);
    expect(t.core.imports.rejections(t.accountId, job.id).rows).toEqual([
      { row: 6, phone_number: 'abc', reason: 'invalid', problem: 'letters' },
    ]);
    const third = await importFile(file, { sheet: 3 });
    expect(phones(third.segmentId)).toEqual(['09350000000']);
  });

  it('refuses a corrupt XLSX with a clear error and creates no segment', async () => {
    const file = path.join(dir, 'corrupt.xlsx');
    fs.writeFileSync(file, Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(4000, 7)]));
    const before = t.core.segments.list(t.accountId).length;
    await expect(t.core.imports.start(t.accountId, { file })).rejects.toThrow(/corrupt_xlsx/);
    expect(t.core.segments.list(t.accountId).length).toBe(before);
  });

  it('fails a truncated XLSX cleanly in the middle of the import and removes the half-made segment', async () => {
    const rows: Array<Array<string | number>> = [['phone', 'name']];
    for (let i = 0; i < 20_000; i++) rows.push([`0912${String(i).padStart(7, '0')}`, `name ${i} ${'x'.repeat(20)}`]);
    const whole = await writeXlsx(dir, 'whole.xlsx', { Sheet1: rows });
    const file = path.join(dir, 'truncated.xlsx');
    const bytes = fs.readFileSync(whole);
    fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const before = t.core.segments.list(t.accountId).map((s) => s.id);
    let started: { jobId: number; segmentId: number } | null = null;
    try {
      started = await t.core.imports.start(t.accountId, { file });
    } catch (error) {
      // The preview may already meet the cut: then nothing was created at all.
      expect(String(error)).toMatch(/corrupt_xlsx/);
    }
    if (started) {
      const job = await t.core.imports.wait(started.jobId);
      expect(job.status).toBe('failed');
      expect(job.error).toMatch(/corrupt_xlsx/);
      await eventually(() =>
        t.core.segments.list(t.accountId).some((s) => s.id === started!.segmentId) ? undefined : true,
      );
      await t.core.scheduler.waitForIdle();
      const left = t.core.db
        .prepare('SELECT count(*) FROM segment_members WHERE segment_id = ?')
        .pluck()
        .get(started.segmentId);
      expect(left).toBe(0);
    }
    expect(t.core.segments.list(t.accountId).map((s) => s.id)).toEqual(before);
  });

  it('refuses a binary file and an old .xls with a clear error', async () => {
    const png = path.join(dir, 'picture.csv');
    fs.writeFileSync(
      png,
      Buffer.from([
        0x89,
        0x50,
        0x4e,
        0x47,
        0x0d,
        0x0a,
        0x1a,
        0x0a,
        0,
        0,
        0,
        13,
        0x49,
        0x48,
        0x44,
        0x52,
        ...Array(200).fill(0),
      ]),
    );
    await expect(t.core.imports.preview(png)).rejects.toThrow(/binary/);
    await expect(t.core.imports.start(t.accountId, { file: png })).rejects.toThrow(/binary/);
    const xls = path.join(dir, 'old.xls');
    fs.writeFileSync(xls, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...Array(600).fill(0)]));
    await expect(t.core.imports.start(t.accountId, { file: xls })).rejects.toThrow(/xls/);
    await expect(t.core.imports.start(t.accountId, { file: path.join(dir, 'missing.csv') })).rejects.toThrow(
      /file_missing/,
    );
  });

  it('refuses a file without any column of mobile numbers unless one is chosen', async () => {
    const file = writeText(dir, 'nophones.csv', 'name,city\nA,B\n');
    await expect(t.core.imports.start(t.accountId, { file })).rejects.toThrow(/no_phone_column/);
  });

  it('leaves opted-out numbers out of an import and reports them', async () => {
    t.core.optouts.add(t.accountId, ['09124440000']);
    const file = writeText(dir, 'optout.csv', 'phone\n09124440000\n09124440001\n');
    const { job, segmentId } = await importFile(file);
    expect(job).toMatchObject({ valid: 1, opted_out: 1 });
    expect(phones(segmentId)).toEqual(['09124440001']);
    expect(t.core.imports.rejections(t.accountId, job.id).rows).toEqual([
      { row: 2, phone_number: '09124440000', reason: 'opted_out' },
    ]);
  });

  it('reports progress and lists the segment as importing until its last batch', async () => {
    const lines = ['phone,NAME'];
    for (let i = 0; i < 120_000; i++) lines.push(`0913${String(i).padStart(7, '0')},n${i}`);
    const file = writeText(dir, 'big.csv', lines.join('\n') + '\n');
    const progress: ImportProgress[] = [];
    const { jobId, segmentId } = await t.core.imports.start(t.accountId, { file }, (p) => progress.push(p));
    expect(t.core.segments.get(t.accountId, segmentId).status).toBe('importing');
    const job = await t.core.imports.wait(jobId);
    expect(job).toMatchObject({ status: 'done', valid: 120_000 });
    expect(progress.at(-1)).toMatchObject({ status: 'done', fraction: 1, valid: 120_000 });
    expect(progress.some((p) => p.status === 'running')).toBe(true);
    expect(t.core.segments.count(t.accountId, segmentId)).toBe(120_000);
  });

  it('cancels an import: the segment is removed, nothing half-made stays', async () => {
    const lines = ['phone'];
    for (let i = 0; i < 300_000; i++) lines.push(`0914${String(i).padStart(7, '0')}`);
    const file = writeText(dir, 'cancel.csv', lines.join('\n') + '\n');
    let cancelled = false;
    const { jobId, segmentId } = await t.core.imports.start(t.accountId, { file }, (p) => {
      if (!cancelled && p.status === 'running') cancelled = t.core.imports.cancel(t.accountId, jobId);
    });
    const job = await t.core.imports.wait(jobId);
    expect(['cancelled', 'done']).toContain(job.status);
    if (job.status === 'cancelled') {
      await eventually(() => (t.core.segments.list(t.accountId).some((s) => s.id === segmentId) ? undefined : true));
      await t.core.scheduler.waitForIdle();
      expect(
        t.core.db.prepare('SELECT count(*) FROM segment_members WHERE segment_id = ?').pluck().get(segmentId),
      ).toBe(0);
    }
  });

  it('exports a segment as CSV and XLSX, combines segments, counts audiences, and deletes', async () => {
    const a = await importFile(writeText(dir, 'a.csv', 'phone,NAME\n09120000011,a1\n09120000012,a2\n09120000013,a3\n'));
    const b = await importFile(writeText(dir, 'b.csv', 'phone,CITY\n09120000013,b3\n09120000014,b4\n'));
    const csv = path.join(dir, 'a-export.csv');
    expect(await t.core.segments.exportCsv(t.accountId, a.segmentId, csv)).toEqual({ rows: 3 });
    expect(fs.readFileSync(csv, 'utf8')).toBe(
      '\ufeffphone_number,NAME\n09120000011,a1\n09120000012,a2\n09120000013,a3\n',
    );
    const xlsx = path.join(dir, 'a-export.xlsx');
    expect(await t.core.segments.exportXlsx(t.accountId, a.segmentId, xlsx)).toEqual({ rows: 3 });
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(xlsx);
    expect(book.worksheets[0]!.getRow(2).values).toEqual([undefined, '09120000011', 'a1']);

    expect(t.core.segments.audienceCount(t.accountId, { include: [a.segmentId, b.segmentId] })).toBe(4);
    expect(t.core.segments.audienceCount(t.accountId, { include: [a.segmentId], exclude: [b.segmentId] })).toBe(2);

    const union = t.core.segments.union(t.accountId, { name: 'a+b', segmentIds: [a.segmentId, b.segmentId] });
    expect((await t.core.imports.wait(union.jobId)).status).toBe('done');
    expect(t.core.segments.get(t.accountId, union.segmentId)).toMatchObject({
      status: 'ready',
      member_count: 4,
      columns: ['NAME', 'CITY'],
    });
    expect(t.core.segments.members(t.accountId, union.segmentId).members.at(-1)).toMatchObject({
      phone: '09120000014',
      fields: { NAME: '', CITY: 'b4' },
    });

    const diff = t.core.segments.difference(t.accountId, { name: 'a-b', from: [a.segmentId], minus: [b.segmentId] });
    await t.core.imports.wait(diff.jobId);
    expect(phones(diff.segmentId)).toEqual(['09120000011', '09120000012']);

    t.core.segments.rename(t.accountId, diff.segmentId, 'only a');
    expect(t.core.segments.get(t.accountId, diff.segmentId).name).toBe('only a');
    t.core.segments.delete(t.accountId, diff.segmentId);
    expect(t.core.segments.list(t.accountId).some((s) => s.id === diff.segmentId)).toBe(false);
    await eventually(() =>
      t.core.db.prepare('SELECT count(*) FROM segments WHERE id = ?').pluck().get(diff.segmentId) === 0
        ? true
        : undefined,
    );
    expect(
      t.core.db.prepare('SELECT count(*) FROM segment_members WHERE segment_id = ?').pluck().get(diff.segmentId),
    ).toBe(0);
  });

  it('keeps segments to their account', async () => {
    const a = await importFile(writeText(dir, 'mine.csv', 'phone\n09120000021\n'));
    expect(() => t.core.segments.get(t.otherId, a.segmentId)).toThrow(/not found/);
    expect(() => t.core.segments.members(t.otherId, a.segmentId)).toThrow(/not found/);
    expect(() => t.core.segments.delete(t.otherId, a.segmentId)).toThrow(/not found/);
    expect(t.core.segments.list(t.otherId)).toEqual([]);
    expect(t.core.imports.get(t.otherId, a.job.id)).toBeNull();
  });
});

describe('opt-outs', () => {
  let t: TestCore;
  let dir: string;
  beforeAll(() => {
    t = openCore();
    dir = tempDir('chapar-optouts-');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(t.dir, { recursive: true, force: true });
  });

  it('adds, lists, filters, removes, imports and exports', async () => {
    expect(t.core.optouts.add(t.accountId, ['۰۹۱۲۰۰۰۰۰۰۱', '09120000002', 'junk', '09120000002'])).toEqual({
      added: 2,
      invalid: ['junk'],
    });
    expect(t.core.optouts.has(t.accountId, '+989120000001')).toBe(true);
    expect(t.core.optouts.has(t.otherId, '09120000001')).toBe(false);
    expect(t.core.optouts.filter(t.accountId, ['09120000001', '09120000009'])).toEqual(['09120000001']);
    expect(t.core.optouts.remove(t.accountId, ['09120000002'])).toBe(1);
    const file = await writeXlsx(dir, 'optouts.xlsx', {
      Sheet1: [['شماره'], ['09120000003'], ['۰۹۱۲۰۰۰۰۰۰۴'], ['bad']],
    });
    const { jobId } = await t.core.optouts.importFile(t.accountId, { file });
    expect(await t.core.imports.wait(jobId)).toMatchObject({ status: 'done', valid: 2, invalid: 1 });
    expect(t.core.optouts.list(t.accountId)).toMatchObject({
      total: 3,
      items: [{ phone: '09120000001' }, { phone: '09120000003' }, { phone: '09120000004' }],
    });
    // A second file meeting numbers already listed: those count as duplicates, the rest are added.
    const again = writeText(
      dir,
      'optouts-again.csv',
      ['phone', '09120000003', '09120000005', '09120000001', '09120000005'].join('\n') + '\n',
    );
    const second = await t.core.optouts.importFile(t.accountId, { file: again });
    expect(await t.core.imports.wait(second.jobId)).toMatchObject({
      status: 'done',
      total: 4,
      valid: 1,
      duplicates: 3,
    });
    expect(t.core.optouts.list(t.accountId).total).toBe(4);
    expect(t.core.optouts.remove(t.accountId, ['09120000005'])).toBe(1);
    const out = path.join(dir, 'optouts.csv');
    expect(await t.core.optouts.exportCsv(t.accountId, out)).toEqual({ rows: 3 });
    expect(fs.readFileSync(out, 'utf8').split('\n')[1]).toMatch(/^09120000001,/);
  });
});

describe('interrupted jobs', () => {
  it('closing the core mid-import leaves the job to resume on the next start, with the exact result', async () => {
    const dir = tempDir('chapar-close-');
    const first = openCore(dir);
    let second: TestCore | undefined;
    try {
      const lines = ['phone,NAME'];
      for (let i = 0; i < 300_000; i++) lines.push(`0916${String(i).padStart(7, '0')},n${i}`);
      const file = writeText(dir, 'close.csv', lines.join('\n') + '\n');
      let running = false;
      const { jobId, segmentId } = await first.core.imports.start(
        first.accountId,
        { file },
        (p) => (running ||= p.status === 'running'),
      );
      await eventually(() => (running ? true : undefined), 30_000);
      await first.close();
      second = openCore(dir);
      const job = await second.core.imports.wait(jobId);
      expect(job).toMatchObject({ status: 'done', total: 300_000, valid: 300_000, duplicates: 0 });
      expect(second.core.segments.get(second.accountId, segmentId)).toMatchObject({
        status: 'ready',
        member_count: 300_000,
      });
    } finally {
      // The first core too, when the test failed before its close (a second close waits for the
      // first): its import would go on writing into the folder removed below.
      await first.close();
      await second?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a restore in the middle of an import: nothing of the old job lands in the restored database', async () => {
    const dir = tempDir('chapar-restore-');
    const t = openCore(dir);
    try {
      const { createBackup, restoreBackup } = await import('../../electron/service/workspace/backup');
      const before = await createBackup(t.core);
      const lines = ['phone,NAME'];
      for (let i = 0; i < 300_000; i++) lines.push(`0917${String(i).padStart(7, '0')},n${i}`);
      const file = writeText(dir, 'restore.csv', lines.join('\n') + '\n');
      let committed = false;
      const { jobId } = await t.core.imports.start(
        t.accountId,
        { file },
        (p) => (committed ||= p.status === 'running' && p.valid > 0),
      );
      await eventually(() => (committed ? true : undefined), 30_000);
      await restoreBackup(t.core, before.path);
      // The backup was taken before the import: no job, no segment, no member, and nothing arrives later.
      const count = () =>
        t.core.db
          .prepare(
            'SELECT (SELECT count(*) FROM import_jobs) + (SELECT count(*) FROM segments) + (SELECT count(*) FROM segment_members) AS n',
          )
          .get();
      expect(count()).toEqual({ n: 0 });
      expect(t.core.imports.get(t.accountId, jobId)).toBeNull();
      // Long enough for the old job to have written all its rows, had it gone on.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(count()).toEqual({ n: 0 });
      expect(t.core.db.pragma('integrity_check', { simple: true })).toBe('ok');
      // Imports go on working after it.
      const again = await t.core.imports.start(t.accountId, {
        file: writeText(dir, 'after.csv', 'phone\n09121234567\n'),
      });
      expect(await t.core.imports.wait(again.jobId)).toMatchObject({ status: 'done', valid: 1 });
    } finally {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an upload whose CSV disappeared ends FAILED, its segment failed and empty', async () => {
    const { startServer, post } = await import('../helpers/server');
    const server = await startServer({ startScheduler: false });
    try {
      const created = await post(`${server.url}/v2/sms/campaigns/contacts`, [{ phone_number: '09121234567' }]);
      const { upload_data_id, segment_id } = created.body.entries;
      for (const name of fs.readdirSync(path.join(server.dataDir, 'uploads')))
        fs.rmSync(path.join(server.dataDir, 'uploads', name));
      server.core.scheduler.start();
      const account = server.core.accounts.findByName('acme')!;
      const record = await eventually(() => {
        const status = server.core.uploads.status(account.id, upload_data_id);
        return status?.status === 'FAILED' ? status : undefined;
      }, 30_000);
      expect(record).toMatchObject({ segment_id, valid: 0 });
      expect(server.core.segments.get(account.id, segment_id)).toMatchObject({ status: 'failed', member_count: 0 });
    } finally {
      await server.close();
    }
  });
});
