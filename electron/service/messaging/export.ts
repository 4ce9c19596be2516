// Delivery report exports (CSV, XLSX): the filtered messages are read in keyset pages and streamed
// to a file, yielding to the event loop between pages so IPC and HTTP stay responsive however
// large the report; progress goes out as export:progress events. The file reads as the UI does for
// the person who asked (export-format.ts): headers and status labels in their language, times in
// their time zone (Jalali in Persian) beside an ISO 8601 column, a right-to-left sheet in Persian.
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import Papa from 'papaparse';
import type { MessageFilter, MessageRow } from '../../../shared/ipc/schemas';
import type { MessageQueries } from './queries';
import { discardPartial, workbookStream } from '../files/partial-file';
import type { PayloadOf } from '../../../shared/ipc/contracts';
import {
  DEFAULT_TIME_ZONE,
  exportStatusText,
  localTimeStyle,
  setColumnWidths,
  sheetOptions,
  zonedTimeFormatter,
  type ExportLanguage,
} from './export-format';

export type ExportFormat = 'csv' | 'xlsx';

/** The `export:progress` event's payload. */
export type ExportProgress = PayloadOf<'export:progress'>;

/** Who the file is for: the UI's language and the person's time zone (IANA). */
export interface ExportLocale {
  language: ExportLanguage;
  timeZone: string;
}

interface Column {
  header: Record<ExportLanguage, string>;
  /** Characters, in the sheet. */
  width: number;
  value: (row: MessageRow, cells: CellFormat) => string | number;
}

interface CellFormat {
  language: ExportLanguage;
  local: (ms: number) => string;
  iso: (ms: number) => string;
}

const time = (ms: number | null, format: (ms: number) => string) => (ms === null ? '' : format(ms));

// Numbers that are identifiers keep their leading 0 as text (a receiver, a line); counts and money are numbers.
const COLUMNS: readonly Column[] = [
  { header: { en: 'Message ID', fa: 'شناسه پیام' }, width: 12, value: (r) => r.id },
  { header: { en: 'Send ID', fa: 'شناسه ارسال' }, width: 10, value: (r) => r.send_id },
  { header: { en: 'Line', fa: 'خط' }, width: 16, value: (r) => r.sender },
  { header: { en: 'Receiver', fa: 'گیرنده' }, width: 15, value: (r) => r.receptor },
  { header: { en: 'Status code', fa: 'کد وضعیت' }, width: 10, value: (r) => r.status },
  { header: { en: 'Status', fa: 'وضعیت' }, width: 22, value: (r, c) => exportStatusText(r.status, c.language) },
  { header: { en: 'Cost (rials)', fa: 'هزینه (ریال)' }, width: 12, value: (r) => r.cost_rials },
  { header: { en: 'Pages', fa: 'صفحه' }, width: 7, value: (r) => r.pages },
  { header: { en: 'Created', fa: 'زمان ثبت' }, width: 20, value: (r, c) => c.local(r.created_at) },
  {
    header: { en: 'Handed to the carrier', fa: 'تحویل به مخابرات' },
    width: 20,
    value: (r, c) => time(r.handed_at, c.local),
  },
  { header: { en: 'Final status at', fa: 'زمان وضعیت نهایی' }, width: 20, value: (r, c) => time(r.final_at, c.local) },
  { header: { en: 'Created (ISO 8601)', fa: 'زمان ثبت (ISO 8601)' }, width: 26, value: (r, c) => c.iso(r.created_at) },
  { header: { en: 'Text', fa: 'متن پیام' }, width: 60, value: (r) => r.text },
];

/** The export's header row in a language. */
export function messageExportHeaders(language: ExportLanguage): string[] {
  return COLUMNS.map((column) => column.header[language]);
}

function cellFormat({ language, timeZone }: ExportLocale): CellFormat {
  return {
    language,
    local: zonedTimeFormatter(localTimeStyle(language), timeZone),
    iso: zonedTimeFormatter('iso', timeZone),
  };
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class Exporter {
  constructor(
    private readonly queries: MessageQueries,
    private readonly dir: string,
    private readonly onProgress: (progress: ExportProgress) => void,
    private readonly now: () => number,
    /** Aborted when the workspace closes: the export stops between two pages, its partial file removed. */
    private readonly closing?: AbortSignal,
  ) {}

  async run(
    filter: MessageFilter,
    format: ExportFormat,
    exportId: string = randomUUID(),
    locale: ExportLocale = { language: 'fa', timeZone: DEFAULT_TIME_ZONE },
  ): Promise<{
    export_id: string;
    rows: number;
    path: string;
    file_name: string;
  }> {
    fs.mkdirSync(this.dir, { recursive: true });
    const stamp = new Date(this.now()).toISOString().replace(/[:.]/g, '-').slice(0, 19);
    const fileName = `messages-${stamp}-${
      exportId
        .replace(/[^A-Za-z0-9_-]/g, '')
        .slice(0, 12)
        .replace(/-+$/, '') || 'x'
    }.${format}`;
    const file = path.join(this.dir, fileName);
    const partial = file + '.part';
    const total = await this.queries.count(filter);
    let done = 0;
    this.onProgress({ export_id: exportId, state: 'running', done, total });
    let writer: RowWriter | null = null;
    try {
      writer = format === 'csv' ? await csvWriter(partial, locale) : await xlsxWriter(partial, locale);
      let lastReport = 0;
      // Pages of 500: formatting a page (dates in the reader's calendar) runs on the main thread.
      for await (const page of this.queries.pages(filter, 500)) {
        await writer.write(page);
        done += page.length;
        if (done - lastReport >= 10_000) {
          lastReport = done;
          this.onProgress({ export_id: exportId, state: 'running', done, total });
        }
        await yieldToLoop();
        this.closing?.throwIfAborted();
      }
      await writer.close();
      // Only a finished report gets its name: a crash never leaves a truncated file that looks whole.
      fs.renameSync(partial, file);
      this.onProgress({ export_id: exportId, state: 'done', done, total: Math.max(total, done) });
      return { export_id: exportId, rows: done, path: file, file_name: fileName };
    } catch (error) {
      await (writer ? writer.abort() : discardPartial(undefined, partial));
      this.onProgress({
        export_id: exportId,
        state: 'failed',
        done,
        total,
        error: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
  }
}

interface RowWriter {
  write(rows: MessageRow[]): Promise<void>;
  close(): Promise<void>;
  /** Closes the file (no write lands after) and removes it. */
  abort(): Promise<void>;
}

async function csvWriter(file: string, locale: ExportLocale): Promise<RowWriter> {
  const stream = fs.createWriteStream(file);
  await once(stream, 'open');
  const put = async (text: string) => {
    if (!stream.write(text)) await once(stream, 'drain');
  };
  const cells = cellFormat(locale);
  // A byte-order mark so spreadsheet programs read the Persian text as UTF-8.
  await put('\ufeff' + Papa.unparse([messageExportHeaders(locale.language)]) + '\r\n');
  return {
    write: (rows) => put(Papa.unparse(rows.map((row) => COLUMNS.map((c) => c.value(row, cells)))) + '\r\n'),
    close: () =>
      new Promise<void>((resolve, reject) => {
        stream.once('error', reject);
        stream.end(() => resolve());
      }),
    abort: () => discardPartial(stream, file),
  };
}

async function xlsxWriter(file: string, locale: ExportLocale): Promise<RowWriter> {
  // Loaded on first use: exceljs is large (25 MB of a resting process), and most exports are CSV.
  const { default: excel } = await import('exceljs');
  const workbook = new excel.stream.xlsx.WorkbookWriter({
    filename: file,
    useSharedStrings: false,
    useStyles: false,
  });
  const sheet = workbook.addWorksheet(locale.language === 'fa' ? 'پیام‌ها' : 'messages', sheetOptions(locale.language));
  setColumnWidths(
    sheet,
    COLUMNS.map((c) => c.width),
  );
  sheet.addRow(messageExportHeaders(locale.language)).commit();
  const cells = cellFormat(locale);
  return {
    async write(rows) {
      for (const row of rows) sheet.addRow(COLUMNS.map((c) => c.value(row, cells))).commit();
    },
    async close() {
      sheet.commit();
      await workbook.commit();
    },
    abort: () => discardPartial(workbookStream(workbook), file),
  };
}
