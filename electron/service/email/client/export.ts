// A send's recipients written to a file (CSV or XLSX) for the person who asked, through the
// writers the other exports use (contacts/csv.ts, exceljs's streaming writer with
// messaging/export-format.ts's sheet and time rules): headers and statuses in the UI's language,
// times in their zone (Jalali in Persian) with ISO 8601 beside, a right-to-left sheet in Persian.
// Read in keyset pages with a turn of the event loop between them; written as `file.part` and
// renamed when whole.
import fs from 'node:fs';
import type { Db } from '../../db/database';
import { CsvWriter } from '../../contacts/csv';
import { discardPartial, workbookStream } from '../../files/partial-file';
import {
  localTimeStyle,
  setColumnWidths,
  sheetOptions,
  zonedTimeFormatter,
  type ExportLanguage,
} from '../../messaging/export-format';
import type { EmailRecipientStatus } from '../../../../shared/email';
import { EMAIL_STATUS_LABELS } from '../../../../shared/email-labels';

export const EMAIL_EXPORT_HEADERS: Record<ExportLanguage, readonly string[]> = {
  en: ['Row', 'Email', 'Name', 'Status', 'Error', 'Message ID', 'Updated', 'Updated (ISO 8601)'],
  fa: ['ردیف', 'ایمیل', 'نام', 'وضعیت', 'خطا', 'شناسه پیام', 'آخرین تغییر', 'آخرین تغییر (ISO 8601)'],
};
const WIDTHS = [8, 32, 24, 16, 40, 38, 20, 26];
const PAGE = 2_000;

export interface EmailExportRequest {
  sendId: number;
  format: 'csv' | 'xlsx';
  language: ExportLanguage;
  timeZone: string;
  file: string;
  statuses?: readonly EmailRecipientStatus[];
  /** Stops the export between two pages (the workspace closes); the partial file is removed. */
  signal?: AbortSignal;
}

type Tuple = [number, number, string, string, EmailRecipientStatus, string | null, string | null, number];

interface RowWriter {
  write(values: Array<string | number>): Promise<void> | void;
  close(): Promise<void>;
  /** Closes the file (no write lands after) and removes it. */
  abort(): Promise<void>;
}

async function xlsxWriter(file: string, language: ExportLanguage): Promise<RowWriter> {
  // Loaded on first use: exceljs is large (25 MB of a resting process), and most exports are CSV.
  const { default: excel } = await import('exceljs');
  const workbook = new excel.stream.xlsx.WorkbookWriter({
    filename: file,
    useSharedStrings: false,
    useStyles: false,
  });
  const sheet = workbook.addWorksheet(language === 'fa' ? 'گیرندگان' : 'recipients', sheetOptions(language));
  setColumnWidths(sheet, WIDTHS);
  return {
    write: (values) => sheet.addRow(values).commit(),
    async close() {
      sheet.commit();
      await workbook.commit();
    },
    abort: () => discardPartial(workbookStream(workbook), file),
  };
}

function csvWriter(file: string): RowWriter {
  const writer = new CsvWriter(file);
  return {
    write: (values) => writer.write(values.map(String)),
    close: () => writer.close(),
    abort: () => writer.discard(),
  };
}

export async function exportRecipients(
  db: Db,
  request: EmailExportRequest,
  progress: (done: number, total: number) => void,
): Promise<{ rows: number }> {
  const statuses = request.statuses && request.statuses.length > 0 ? [...new Set(request.statuses)] : null;
  const filter = statuses ? ` AND status IN (${statuses.map(() => '?').join(', ')})` : '';
  const total = db
    .prepare<unknown[], number>(`SELECT count(*) FROM email_recipients WHERE send_id = ?${filter}`)
    .pluck()
    .get(request.sendId, ...(statuses ?? []))!;
  const page = db
    .prepare<unknown[], Tuple>(
      `SELECT seq, row, email, name, status, error, message_id, updated_at FROM email_recipients
       WHERE send_id = ? AND seq > ?${filter} ORDER BY seq LIMIT ${PAGE}`,
    )
    .raw();
  const partial = request.file + '.part';
  const writer = request.format === 'xlsx' ? await xlsxWriter(partial, request.language) : csvWriter(partial);
  const local = zonedTimeFormatter(localTimeStyle(request.language), request.timeZone);
  const iso = zonedTimeFormatter('iso', request.timeZone);
  const texts = EMAIL_STATUS_LABELS[request.language];
  let rows = 0;
  progress(0, total);
  try {
    await writer.write([...EMAIL_EXPORT_HEADERS[request.language]]);
    for (let after = -1; ;) {
      const tuples = page.all(request.sendId, after, ...(statuses ?? []));
      if (tuples.length === 0) break;
      for (const [, row, email, name, status, error, messageId, updatedAt] of tuples)
        await writer.write([
          row,
          email,
          name,
          texts[status],
          error ?? '',
          messageId ?? '',
          local(updatedAt),
          iso(updatedAt),
        ]);
      rows += tuples.length;
      after = tuples[tuples.length - 1]![0];
      progress(rows, Math.max(total, rows));
      await new Promise<void>((resolve) => setImmediate(resolve));
      request.signal?.throwIfAborted();
    }
    await writer.close();
    await fs.promises.rename(partial, request.file);
    return { rows };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}
