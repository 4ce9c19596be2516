// Exports written by the import worker (large segments never block the main thread): a segment
// as CSV or XLSX (exceljs's streaming writer), an import's rejection report, the opt-out list.
import type { Db } from '../db/database';
import { rejectionText, type RejectionReason } from '../../../shared/rejections';
import { CsvWriter } from './csv';
import { FIELD_SEPARATOR } from './fields';

export type ExportRequest =
  | { kind: 'segment'; format: 'csv' | 'xlsx'; segmentId: number; file: string }
  | { kind: 'rejections'; jobId: number; file: string; format?: 'csv' | 'xlsx'; language?: 'fa' | 'en' }
  | { kind: 'optouts'; accountId: number; file: string; format?: 'csv' | 'xlsx' };

const PAGE = 20_000;

interface RowWriter {
  write(values: string[]): Promise<void> | void;
  close(): Promise<void>;
}

async function xlsxWriter(file: string, sheetName: string): Promise<RowWriter> {
  // Loaded on first use: exceljs is large and most exports are CSV.
  const { default: excel } = await import('exceljs');
  const workbook = new excel.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31) || 'Sheet1');
  return {
    write(values) {
      sheet.addRow(values).commit();
    },
    async close() {
      sheet.commit();
      await workbook.commit();
    },
  };
}

/** Writes the export; returns the number of data rows. `progress` gets rows written so far. */
export async function runExport(
  db: Db,
  request: ExportRequest,
  progress: (rows: number, total: number) => void,
): Promise<number> {
  let rows = 0;
  if (request.kind === 'segment') {
    const segment = db
      .prepare<[number], { name: string; columns: string; member_count: number }>(
        'SELECT name, columns, member_count FROM segments WHERE id = ?',
      )
      .get(request.segmentId);
    if (!segment) throw new Error('segment not found');
    const columns = JSON.parse(segment.columns) as string[];
    const writer: RowWriter =
      request.format === 'xlsx' ? await xlsxWriter(request.file, segment.name) : new CsvWriter(request.file);
    await writer.write(['phone_number', ...columns]);
    const page = db
      .prepare<[number, string], [string, string]>(
        `SELECT phone, fields FROM segment_members WHERE segment_id = ? AND phone > ? ORDER BY phone LIMIT ${PAGE}`,
      )
      .raw();
    let after = '';
    for (;;) {
      const members = page.all(request.segmentId, after);
      if (members.length === 0) break;
      for (const [phone, fields] of members) {
        const values = columns.length > 0 ? fields.split(FIELD_SEPARATOR) : [];
        while (values.length < columns.length) values.push('');
        await writer.write([phone, ...values.slice(0, columns.length)]);
      }
      rows += members.length;
      after = members[members.length - 1]![0];
      progress(rows, segment.member_count);
    }
    await writer.close();
    return rows;
  }
  if (request.kind === 'rejections') {
    const language = request.language ?? 'fa';
    const writer: RowWriter =
      request.format === 'xlsx' ? await xlsxWriter(request.file, 'rejections') : new CsvWriter(request.file);
    await writer.write(['row', 'phone_number', 'reason', 'reason_text']);
    const page = db
      .prepare<[number, number], [number, string, RejectionReason]>(
        `SELECT row, phone_number, reason FROM import_rejections WHERE job_id = ? AND row > ? ORDER BY row LIMIT ${PAGE}`,
      )
      .raw();
    let after = 0;
    for (;;) {
      const batch = page.all(request.jobId, after);
      if (batch.length === 0) break;
      for (const [row, phone, reason] of batch)
        await writer.write([String(row), phone, reason, rejectionText(reason, phone, language)]);
      rows += batch.length;
      after = batch[batch.length - 1]![0];
      progress(rows, 0);
    }
    await writer.close();
    return rows;
  }
  const writer: RowWriter =
    request.format === 'xlsx' ? await xlsxWriter(request.file, 'opt-outs') : new CsvWriter(request.file);
  await writer.write(['phone_number', 'created_at']);
  const page = db
    .prepare<[number, string], [string, number]>(
      `SELECT phone, created_at FROM optouts WHERE account_id = ? AND phone > ? ORDER BY phone LIMIT ${PAGE}`,
    )
    .raw();
  let after = '';
  for (;;) {
    const batch = page.all(request.accountId, after);
    if (batch.length === 0) break;
    for (const [phone, createdAt] of batch) await writer.write([phone, new Date(createdAt).toISOString()]);
    rows += batch.length;
    after = batch[batch.length - 1]![0];
    progress(rows, 0);
  }
  await writer.close();
  return rows;
}
