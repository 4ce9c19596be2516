// The contacts IPC operations through the real dispatcher and core: the import wizard (preview,
// remembered mappings, start into a new or an existing segment, cancel and rollback, rejections
// by reason and their report), segments (list, search, detail, members at any position, search
// by number in any digit form, rename, delete, union / difference with the count first) and the
// opt-out list.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { Core } from '../core';
import { applySeed } from '../seed';
import { eventually, tempDir, testSeed } from '../../../test/helpers/server';
import { writeSegment } from '../../../test/helpers/segments';
import { importErrorCode } from '../../../shared/contacts';
import { createDispatcher, type IpcDispatcher } from './dispatcher';
import {
  EXPECTED,
  OPTED_OUT,
  REJECTED,
  VALID_PHONES,
  rowOf,
  twoSheetXlsx,
  utf8BomCsv,
  windows1256Csv,
} from '../../../test/e2e/spreadsheets';
import { ipcCalls } from '../../../test/helpers/ipc';

let core: Core;
let dispatcher: IpcDispatcher;
let account: number;
let dir: string;

const { ok, refused } = ipcCalls(() => dispatcher);

function file(name: string, content: string | Buffer): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, content);
  return target;
}

async function waitDone(jobId: number) {
  const job = await core.imports.wait(jobId);
  await core.jobs.waitForIdle();
  // The purge worker (rollbacks, cleanup) runs on the scheduler's turn: waited for, however busy
  // the machine (a fixed number of short sleeps went on without it).
  await eventually(() => (core.db.prepare('SELECT count(*) FROM import_added').pluck().get() === 0 ? true : undefined));
  return job;
}

beforeEach(() => {
  dir = tempDir('chapar-ipc-contacts-');
  core = new Core({ dataDir: path.join(dir, 'data') });
  applySeed(core, testSeed());
  dispatcher = createDispatcher(core, { mode: 'desktop' });
  account = core.accounts.findByName('acme')!.id;
});
afterEach(async () => {
  dispatcher.close();
  await core.close();
});

const CUSTOMERS = [
  'name,mobile,city',
  'Sara,09120000001,Tehran',
  'Ali,+989120000002,Shiraz',
  'Reza,۰۹۱۲۰۰۰۰۰۰۳,Tabriz',
  'Dup,0912 000 0001,Tehran',
  'Bad,12345,Nowhere',
  'Out,0098-912-000-0009,Qom',
].join('\n');

describe('the import wizard', () => {
  it('previews, imports into a new segment with a chosen mapping, and remembers the mapping', async () => {
    core.optouts.add(account, ['09120000009']);
    const csv = file('customers.csv', CUSTOMERS + '\n');
    const preview = await ok('imports:preview', { account_id: account, file: csv });
    expect(preview).toMatchObject({
      file_name: 'customers.csv',
      format: 'csv',
      delimiter: ',',
      header_row: 1,
      columns: ['NAME', 'MOBILE', 'CITY'],
      phone_column: 1,
      remembered: null,
    });
    expect(preview.rows[1]).toEqual({ row: 2, cells: ['Sara', '09120000001', 'Tehran'] });
    // Every row of the file and no more (its last newline is not an empty row).
    expect(preview.rows.map((r) => r.row)).toEqual([1, 2, 3, 4, 5, 6, 7]);

    const mapping = { phone: 1, columns: [{ index: 0, name: 'FIRST_NAME' }] };
    const started = await ok('imports:start', { account_id: account, file: csv, mapping });
    const job = await waitDone(started.job_id);
    expect(job).toMatchObject({ status: 'done', valid: 3, invalid: 1, duplicates: 1, opted_out: 1 });

    const segment = await ok('segments:get', { account_id: account, segment_id: started.segment_id });
    expect(segment).toMatchObject({
      name: 'customers',
      member_count: 3,
      columns: ['FIRST_NAME'],
      source: { kind: 'import', label: 'customers.csv' },
      opted_out: 0,
      campaigns: [],
    });
    const view = await ok('imports:get', { account_id: account, job_id: started.job_id });
    expect(view).toMatchObject({ file_name: 'customers.csv', target_segment_id: null, status: 'done' });

    const rejected = await ok('imports:rejections', { account_id: account, job_id: started.job_id });
    expect(rejected.rows).toEqual([
      { row: 5, phone_number: '0912 000 0001', reason: 'duplicate' },
      { row: 6, phone_number: '12345', reason: 'invalid', problem: 'too_short' },
      { row: 7, phone_number: '0098-912-000-0009', reason: 'opted_out' },
    ]);
    const onlyInvalid = await ok('imports:rejections', {
      account_id: account,
      job_id: started.job_id,
      reason: 'invalid',
    });
    expect(onlyInvalid).toEqual({
      total: 1,
      rows: [{ row: 6, phone_number: '12345', reason: 'invalid', problem: 'too_short' }],
    });

    const report = await ok('imports:exportRejections', {
      account_id: account,
      job_id: started.job_id,
      format: 'csv',
      language: 'en',
    });
    expect(report.rows).toBe(3);
    expect(fs.readFileSync(report.path!, 'utf8')).toContain('6,12345,invalid,Too short for a mobile number');
    const xlsx = await ok('imports:exportRejections', {
      account_id: account,
      job_id: started.job_id,
      format: 'xlsx',
      language: 'fa',
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(xlsx.path!);
    expect(book.worksheets[0]!.getRow(3).values).toEqual([
      undefined,
      '6',
      '12345',
      'invalid',
      'برای شماره موبایل کوتاه است',
    ]);

    // The same layout again: the mapping comes back.
    const again = await ok('imports:preview', { account_id: account, file: file('march.csv', CUSTOMERS) });
    expect(again.remembered).toEqual(mapping);
  });

  it('adds rows to an existing segment: duplicates of its members counted, columns merged', async () => {
    const first = await ok('imports:start', {
      account_id: account,
      file: file('a.csv', 'mobile,city\n09120000001,Tehran\n09120000002,Shiraz\n'),
      mapping: { phone: 0, columns: [{ index: 1, name: 'CITY' }] },
    });
    await waitDone(first.job_id);
    const added = await ok('imports:start', {
      account_id: account,
      file: file('b.csv', 'mobile,name\n09120000002,Ali\n09120000003,Reza\n'),
      mapping: { phone: 0, columns: [{ index: 1, name: 'NAME' }] },
      segment_id: first.segment_id,
    });
    expect(added.segment_id).toBe(first.segment_id);
    const job = await waitDone(added.job_id);
    expect(job).toMatchObject({ status: 'done', valid: 1, duplicates: 1 });
    const segment = await ok('segments:get', { account_id: account, segment_id: first.segment_id });
    expect(segment).toMatchObject({ status: 'ready', member_count: 3, columns: ['CITY', 'NAME'] });
    const { members } = await ok('segments:members', { account_id: account, segment_id: first.segment_id });
    expect(members.map((m) => [m.phone, m.fields])).toEqual([
      ['09120000001', { CITY: 'Tehran', NAME: '' }],
      ['09120000002', { CITY: 'Shiraz', NAME: '' }],
      ['09120000003', { CITY: '', NAME: 'Reza' }],
    ]);
    expect(core.db.prepare('SELECT count(*) FROM import_added').pluck().get()).toBe(0);
  });

  it('a cancelled import into an existing segment leaves it exactly as it was', async () => {
    const segmentId = writeSegment(core, account, 'club', { from: 0, to: 1_000 });
    const before = core.db
      .prepare('SELECT phone, fields FROM segment_members WHERE segment_id = ? ORDER BY phone')
      .all(segmentId);
    const rows = ['mobile,city'];
    for (let i = 0; i < 200_000; i++) rows.push(`09${String(300_000_000 + i)},c${i}`);
    const started = await ok('imports:start', {
      account_id: account,
      file: file('big.csv', rows.join('\n')),
      mapping: { phone: 0, columns: [{ index: 1, name: 'CITY' }] },
      segment_id: segmentId,
    });
    expect((await ok('segments:get', { account_id: account, segment_id: segmentId })).status).toBe('importing');
    // Some batches in, then cancel.
    await new Promise<void>((resolve) => {
      const listener = (progress: { jobId: number; valid: number }) => {
        if (progress.jobId === started.job_id && progress.valid > 0) {
          core.imports.events.off('progress', listener);
          resolve();
        }
      };
      core.imports.events.on('progress', listener);
    });
    expect((await ok('imports:cancel', { account_id: account, job_id: started.job_id })).cancelled).toBe(true);
    await waitDone(started.job_id);
    // The rollback's last step gives the segment back its columns and its 'ready'.
    await eventually(async () =>
      (await ok('segments:get', { account_id: account, segment_id: segmentId })).status === 'ready' ? true : undefined,
    );
    const segment = await ok('segments:get', { account_id: account, segment_id: segmentId });
    expect(segment).toMatchObject({ status: 'ready', member_count: 1_000, columns: ['NAME'] });
    expect(
      core.db.prepare('SELECT phone, fields FROM segment_members WHERE segment_id = ? ORDER BY phone').all(segmentId),
    ).toEqual(before);
  });

  it('a cancelled import into a new segment leaves no segment', async () => {
    const rows = ['mobile'];
    for (let i = 0; i < 200_000; i++) rows.push(`09${String(300_000_000 + i)}`);
    const started = await ok('imports:start', {
      account_id: account,
      file: file('big.csv', rows.join('\n')),
      mapping: { phone: 0, columns: [] },
    });
    await ok('imports:cancel', { account_id: account, job_id: started.job_id });
    const job = await waitDone(started.job_id);
    expect(job.status).toBe('cancelled');
    expect((await ok('segments:list', { account_id: account })).map((s) => s.id)).not.toContain(started.segment_id);
  });

  it('refuses bad files with a code the window translates', async () => {
    const cases: Array<[string, string | Buffer, string]> = [
      ['empty.csv', '', 'empty'],
      ['photo.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]), 'binary'],
      ['broken.xlsx', Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(200, 7)]), 'corrupt_xlsx'],
      [
        'locked.xlsx',
        Buffer.concat([
          Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
          Buffer.alloc(600),
          Buffer.from('EncryptedPackage', 'utf16le'),
          Buffer.alloc(600),
        ]),
        'encrypted',
      ],
      [
        'old.xls',
        Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600)]),
        'xls',
      ],
    ];
    for (const [name, content, code] of cases) {
      const error = await refused('imports:preview', { account_id: account, file: file(name, content) });
      expect([name, error.code, importErrorCode(error.detail)]).toEqual([name, 400, code]);
    }
    // A 2 GB workbook (sparse: no disk is spent): refused before a byte of it is unzipped.
    const huge = file('huge.xlsx', Buffer.from([0x50, 0x4b, 3, 4]));
    fs.truncateSync(huge, 2 * 1024 ** 3);
    expect(importErrorCode((await refused('imports:preview', { account_id: account, file: huge })).detail)).toBe(
      'too_large',
    );
    const missing = await refused('imports:preview', { account_id: account, file: path.join(dir, 'gone.csv') });
    expect(importErrorCode(missing.detail)).toBe('file_missing');
    const names = file('names.csv', 'name,city\nSara,Tehran\nAli,Shiraz\n');
    expect((await ok('imports:preview', { account_id: account, file: names })).phone_column).toBeNull();
    const error = await refused('imports:start', {
      account_id: account,
      file: names,
      mapping: { phone: 5, columns: [] },
    });
    expect(importErrorCode(error.detail)).toBe('bad_mapping');
    // A file removed after the preview.
    const later = file('later.csv', CUSTOMERS);
    await ok('imports:preview', { account_id: account, file: later });
    fs.rmSync(later);
    const gone = await refused('imports:start', {
      account_id: account,
      file: later,
      mapping: { phone: 1, columns: [] },
    });
    expect(importErrorCode(gone.detail)).toBe('file_missing');
    expect(await ok('segments:list', { account_id: account })).toEqual([]);
  });

  it('reads an XLSX sheet of choice with its header on row 3', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Notes').addRow(['nothing here']);
    const sheet = book.addWorksheet('Customers');
    sheet.addRow(['Customer list']);
    sheet.addRow([]);
    sheet.addRow(['Name', 'Phone']);
    sheet.addRow(['Sara', '09120000001']);
    sheet.addRow(['Ali', 9120000002]);
    const xlsx = path.join(dir, 'book.xlsx');
    await book.xlsx.writeFile(xlsx);
    const first = await ok('imports:preview', { account_id: account, file: xlsx });
    expect(first).toMatchObject({ format: 'xlsx', sheets: ['Notes', 'Customers'], sheet: 'Notes', phone_column: null });
    const chosen = await ok('imports:preview', { account_id: account, file: xlsx, sheet: 'Customers' });
    expect(chosen).toMatchObject({ sheet: 'Customers', header_row: 3, columns: ['NAME', 'PHONE'], phone_column: 1 });
    const started = await ok('imports:start', {
      account_id: account,
      file: xlsx,
      sheet: 'Customers',
      header_row: 3,
      mapping: { phone: 1, columns: [{ index: 0, name: 'NAME' }] },
      name: 'مشتریان',
    });
    expect(await waitDone(started.job_id)).toMatchObject({ valid: 2, invalid: 0 });
    expect((await ok('segments:get', { account_id: account, segment_id: started.segment_id })).name).toBe('مشتریان');
  });
});

describe('the customer spreadsheets of the end-to-end tests', () => {
  it('each gives exactly the expected valid / invalid / duplicate / opted-out rows, with their row numbers', async () => {
    core.optouts.add(account, OPTED_OUT);
    const files: Array<[string, number, { sheet?: string }]> = [
      [utf8BomCsv(dir), 1, {}],
      [windows1256Csv(dir), 1, {}],
      [await twoSheetXlsx(dir), 3, { sheet: 'Customers' }],
    ];
    for (const [spreadsheet, headerRow, choices] of files) {
      const preview = await ok('imports:preview', { account_id: account, file: spreadsheet, ...choices });
      expect(preview).toMatchObject({ header_row: headerRow, phone_column: 1 });
      // Windows-1256 writes the Persian yeh as the Arabic one.
      expect(preview.columns.map((name) => name.replaceAll('ي', 'ی'))).toEqual(['نام', 'موبایل', 'شهر']);
      const started = await ok('imports:start', {
        account_id: account,
        file: spreadsheet,
        ...choices,
        mapping: {
          phone: 1,
          columns: [
            { index: 0, name: 'NAME' },
            { index: 2, name: 'CITY' },
          ],
        },
      });
      expect(await waitDone(started.job_id)).toMatchObject({ status: 'done', ...EXPECTED });
      const members = await ok('segments:members', { account_id: account, segment_id: started.segment_id });
      expect(members.members.map((m) => m.phone)).toEqual(VALID_PHONES);
      expect(members.members[0]!.fields).toEqual({ NAME: 'سارا', CITY: 'تهران' });
      for (const reason of ['duplicate', 'invalid', 'opted_out'] as const) {
        const rows = await ok('imports:rejections', { account_id: account, job_id: started.job_id, reason });
        expect(rows.rows.map((r) => r.row)).toEqual(REJECTED[reason].map((i) => rowOf(i, headerRow)));
      }
    }
  });
});

describe('segments', () => {
  it('pages members at any position of a large segment, and searches by number in any digit form or by column', async () => {
    const id = writeSegment(core, account, 'big', { from: 0, to: 5_000 });
    const all = core.db
      .prepare<[number], string>('SELECT phone FROM segment_members WHERE segment_id = ? ORDER BY phone')
      .pluck()
      .all(id);
    for (const offset of [0, 1_023, 1_024, 1_025, 2_048 + 17, 4_990, 5_000]) {
      const page = await ok('segments:members', { account_id: account, segment_id: id, offset, limit: 20 });
      expect(page.total).toBe(5_000);
      expect(page.members.map((m) => m.phone)).toEqual(all.slice(offset, offset + 20));
    }
    const target = all[1234]!;
    core.optouts.add(account, [target]);
    const persian = target.replace(/[0-9]/g, (d) => String.fromCharCode(0x06f0 + Number(d)));
    for (const search of [target, persian, `+98${target.slice(1)}`, target.slice(3, 9)]) {
      const found = await ok('segments:members', { account_id: account, segment_id: id, search });
      expect(found.members.map((m) => m.phone)).toContain(target);
      expect(found.members.find((m) => m.phone === target)!.opted_out).toBe(true);
    }
    const byName = await ok('segments:members', { account_id: account, segment_id: id, search: 'customer 1999' });
    expect(byName.total).toBeGreaterThan(0);
    expect(byName.members.every((m) => m.fields['NAME']!.startsWith('customer 1999'))).toBe(true);
    expect((await ok('segments:members', { account_id: account, segment_id: id, search: 'CUSTOMER ۱۹۹۹' })).total).toBe(
      byName.total,
    );
    expect((await ok('segments:get', { account_id: account, segment_id: id })).opted_out).toBe(1);
  });

  it('renames, searches, combines with the count first, and deletes', async () => {
    const a = writeSegment(core, account, 'a', { from: 0, to: 100 });
    const b = writeSegment(core, account, 'b', { from: 50, to: 150 });
    core.optouts.add(account, [
      core.db.prepare('SELECT phone FROM segment_members WHERE segment_id = ? LIMIT 1').pluck().get(a) as string,
    ]);
    expect((await ok('segments:rename', { account_id: account, segment_id: a, name: '  مشتریان وفادار ' })).name).toBe(
      'مشتریان وفادار',
    );
    expect((await ok('segments:list', { account_id: account, search: 'وفادار' })).map((s) => s.id)).toEqual([a]);
    // Typed on an Arabic keyboard (ي, ك) and without the half-space, it still finds the name.
    await ok('segments:rename', { account_id: account, segment_id: b, name: 'مشتری‌های یلدا کرج' });
    expect((await ok('segments:list', { account_id: account, search: 'مشتريهاي يلدا كرج' })).map((s) => s.id)).toEqual([
      b,
    ]);
    await ok('segments:rename', { account_id: account, segment_id: b, name: 'b' });

    expect(await ok('segments:combineCount', { account_id: account, include: [a, b] })).toEqual({ count: 149 });
    expect(await ok('segments:combineCount', { account_id: account, include: [a], exclude: [b] })).toEqual({
      count: 49,
    });
    const union = await ok('segments:combine', { account_id: account, include: [a, b], name: 'all' });
    await waitDone(union.job_id);
    expect(await ok('segments:get', { account_id: account, segment_id: union.segment_id })).toMatchObject({
      member_count: 149,
      source: { kind: 'combine', label: 'مشتریان وفادار ∪ b' },
    });
    const difference = await ok('segments:combine', {
      account_id: account,
      include: [a],
      exclude: [b],
      name: 'only a',
    });
    await waitDone(difference.job_id);
    expect(await ok('segments:get', { account_id: account, segment_id: difference.segment_id })).toMatchObject({
      member_count: 49,
      source: { kind: 'combine', label: 'مشتریان وفادار − b' },
    });

    // The delete confirmation names the campaigns that use the segment.
    core.campaigns.create(account, {
      sender: '30001111',
      name: 'Yalda',
      template_body: 'Hi',
      send_datetime: '2030-01-01T00:00:00Z',
      inclusion_segments: [String(a)],
      exclusion_segments: [String(b)],
      links: [],
      utm: {},
    });
    expect((await ok('segments:get', { account_id: account, segment_id: b })).campaigns).toEqual([
      { campaign_id: expect.any(Number), name: 'Yalda' },
    ]);
    await ok('segments:delete', { account_id: account, segment_id: b });
    expect((await ok('segments:list', { account_id: account })).map((s) => s.id)).not.toContain(b);
    expect((await refused('segments:get', { account_id: account, segment_id: b })).code).toBe(404);
  });

  it('exports a segment as CSV and XLSX', async () => {
    const id = writeSegment(core, account, 'x', { from: 0, to: 10 });
    const csv = await ok('segments:export', { account_id: account, segment_id: id, format: 'csv' });
    expect(csv.rows).toBe(10);
    expect(fs.readFileSync(csv.path!, 'utf8').split(/\r?\n/)[0]).toContain('phone_number,NAME');
    const xlsx = await ok('segments:export', { account_id: account, segment_id: id, format: 'xlsx' });
    expect(xlsx).toMatchObject({ rows: 10, format: 'xlsx' });
  });
});

describe('the opt-out list', () => {
  it('adds and removes numbers in any digit form, searches, imports a file and exports', async () => {
    const added = await ok('optouts:add', {
      account_id: account,
      phones: ['۰۹۱۲۱۱۱۲۲۳۳', '+98 912 111 4455', 'nope'],
    });
    expect(added).toEqual({ added: 2, invalid: ['nope'] });
    expect((await ok('optouts:list', { account_id: account, search: '۱۱۱۲' })).items.map((i) => i.phone)).toEqual([
      '09121112233',
    ]);
    expect(await ok('optouts:list', { account_id: account, search: 'abc' })).toEqual({ total: 0, items: [] });
    expect(await ok('optouts:remove', { account_id: account, phones: ['0098-912-111-2233'] })).toEqual({ removed: 1 });

    const { job_id } = await ok('optouts:import', {
      account_id: account,
      file: file('stop.csv', 'mobile\n09125550001\n09125550002\nbad\n'),
    });
    expect(await waitDone(job_id)).toMatchObject({ status: 'done', valid: 2, invalid: 1 });
    expect((await ok('optouts:list', { account_id: account })).total).toBe(3);
    const exported = await ok('optouts:export', { account_id: account, format: 'xlsx' });
    expect(exported.rows).toBe(3);
  });
});

describe('web mode', () => {
  it('takes only the names of uploaded files, never a path', async () => {
    const web = createDispatcher(core, {
      mode: 'web',
      uploadedFile: (name) => {
        throw new Error(`not an upload: ${name}`);
      },
    });
    try {
      const result = await web.invoke('imports:preview', { account_id: account, file: '/etc/passwd' });
      expect(result.ok).toBe(false);
    } finally {
      web.close();
    }
  });
});
