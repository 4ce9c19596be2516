// An execution's per-recipient report written to a file, as CSV or XLSX, for the person who asked
// (messaging/export-format.ts): headers and status labels in the UI's language, dates in their time
// zone (else the account's) as Jalali in Persian or Gregorian in English, with an ISO 8601 column
// beside; a right-to-left sheet in Persian, its header frozen. Streamed in constant memory: the
// execution's batches are walked in message-id order and read in keyset pages, each page written
// before the next is read, with a turn of the event loop between pages so IPC and HTTP stay
// responsive. The file is written as `file.part` and renamed when whole.
//
// The CSV path is the one a million-row report takes: rows come from `.raw()` statements as arrays,
// each line is one string concatenation with per-status cells and dates built once and reused, a
// field is quoted only when it has to be, and the disk gets a page (a few MB) per write.
import fs from 'node:fs';
import { once } from 'node:events';
// Loaded with the module, as messaging/export.ts does: loading it takes 150-350 ms of one thread,
// which must not land in the middle of an export while the window waits.
import type { Db } from '../db/database';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { csvField } from '../contacts/csv';
import { discardPartial, workbookStream } from '../files/partial-file';
import { accountTimeZoneSql } from '../accounts/accounts';
import { messagesSql, RangeMessages } from '../messaging/id-ranges';
import {
  DEFAULT_TIME_ZONE,
  exportStatusText,
  localTimeStyle,
  setColumnWidths,
  sheetOptions,
  zonedTimeFormatter,
  type ExportLanguage,
} from '../messaging/export-format';

export type ReportLanguage = ExportLanguage;
export type ReportFormat = 'csv' | 'xlsx';

export interface ReportFilter {
  /** Only these statuses; absent or empty: every status. */
  status?: number[];
  /** true: recipients who clicked at least once; false: those who never did. */
  clicked?: boolean;
}

export interface ExportExecutionRequest {
  executionId: number;
  format: ReportFormat;
  /** The finished report's path; written as `file + '.part'` until whole. */
  file: string;
  language: ReportLanguage;
  /** Dates are written in this zone (IANA); absent, the account's. */
  timeZone?: string;
  filter?: ReportFilter;
  /** Stops the export between two pages (the workspace closes); the partial file is removed. */
  signal?: AbortSignal;
}

/**
 * Rows read and written between two turns of the event loop: 20-30 ms of work each (a CSV row
 * takes about 5 µs, an XLSX one 8 µs in exceljs), so IPC round trips stay well under 100 ms.
 */
export const EXPORT_PAGE: Record<ReportFormat, number> = { csv: 5_000, xlsx: 2_000 };

const HEADERS: Record<ReportLanguage, readonly string[]> = {
  en: ['Message ID', 'Receiver', 'Status code', 'Status', 'Cost (rials)', 'Date', 'Date (ISO 8601)', 'Clicks', 'Text'],
  fa: ['شناسه پیام', 'گیرنده', 'کد وضعیت', 'وضعیت', 'هزینه (ریال)', 'تاریخ', 'تاریخ (ISO 8601)', 'کلیک‌ها', 'متن پیام'],
};
/** Column widths of the sheet (characters), in the headers' order. */
const WIDTHS = [12, 15, 10, 22, 12, 20, 26, 8, 60];

export function reportStatusText(status: number, language: ReportLanguage): string {
  return exportStatusText(status, language);
}

export function reportHeaders(language: ReportLanguage): readonly string[] {
  return HEADERS[language];
}

/**
 * The two date cells of a row, as CSV (`1405/08/29 10:00:00,2026-11-20T10:00:00+03:30`): the date
 * in the language's calendar and the same time in ISO 8601, both in `timeZone`. Neither needs quotes.
 */
export function reportDateCells(language: ReportLanguage, timeZone: string): (ms: number) => string {
  const local = zonedTimeFormatter(localTimeStyle(language), timeZone);
  const iso = zonedTimeFormatter('iso', timeZone);
  let lastMs = NaN;
  let last = '';
  return (ms) => {
    if (ms !== lastMs) {
      lastMs = ms;
      last = local(ms) + ',' + iso(ms);
    }
    return last;
  };
}

// ---- reading the execution

/** A message row as read: [id, receptor, status, cost_rials, created_at, text or null]. */
type MessageTuple = [number, string, number, number, number, string | null];

interface Batch {
  sendId: number;
  firstId: number;
  lastId: number;
}

export interface ExecutionReportSource {
  /** The account's time zone. */
  timeZone: string;
  /** Rows matching the filter (for progress). */
  total: number;
  /**
   * Pages of rows in message-id order, each with its send's text and its clicks per message. A
   * page's rows are read as they are iterated (arrays that die young cost the collector nothing;
   * a page of them held at once got promoted and tripled the time spent collecting), so a page
   * must be iterated to its end before the next page is asked for, without awaiting in between.
   */
  pages(pageRows: number): Generator<ReportPage>;
}

export interface ReportPage {
  rows: IterableIterator<MessageTuple>;
  /** The send's text, for rows whose own text is NULL. */
  sendText: string;
  /** message id -> clicks, for the page's messages that were clicked. */
  clicks: Map<number, number>;
}

function statusCondition(filter: ReportFilter | undefined): string {
  const statuses = (filter?.status ?? []).filter((s) => Number.isInteger(s));
  return statuses.length > 0 ? ` AND m.status IN (${statuses.join(', ')})` : '';
}

function clickCondition(filter: ReportFilter | undefined): string {
  if (filter?.clicked === undefined) return '';
  return ` AND ${filter.clicked ? '' : 'NOT '}EXISTS (SELECT 1 FROM campaign_clicks c WHERE c.message_id = m.id)`;
}

/** Opens an execution's report for reading (throws 404 for an unknown execution). */
export function openExecutionReport(db: Db, executionId: number, filter?: ReportFilter): ExecutionReportSource {
  const execution = db
    .prepare<[number], { id: number; time_zone: string | null }>(
      `SELECT e.id, ${accountTimeZoneSql('e.account_id')} AS time_zone FROM campaign_executions e WHERE e.id = ?`,
    )
    .get(executionId);
  if (!execution) throw new ServiceError(ApiCode.NotFound, `execution ${executionId} not found`);
  const batches = db
    .prepare<[number], [number, number, number]>(
      'SELECT send_id, first_message_id, count FROM campaign_batches WHERE execution_id = ? ORDER BY first_seq',
    )
    .raw()
    .all(executionId)
    .map(([sendId, firstId, count]): Batch => ({ sendId, firstId, lastId: firstId + count - 1 }));
  const where = statusCondition(filter) + clickCondition(filter);
  const countIn = db
    .prepare<[number, number, number], number>(
      `SELECT count(*) FROM ${messagesSql('m')} WHERE m.id BETWEEN ? AND ? AND m.send_id = ?${where}`,
    )
    .pluck();
  const total = batches.reduce(
    (sum, b) => sum + (where === '' ? b.lastId - b.firstId + 1 : countIn.get(b.firstId, b.lastId, b.sendId)!),
    0,
  );
  const page = db
    .prepare<[number, number, number], MessageTuple>(
      `SELECT m.id, m.receptor, m.status, m.cost_rials, m.created_at, m.text FROM ${messagesSql('m')}
       WHERE m.id > ? AND m.id <= ? AND m.send_id = ?${where} ORDER BY m.id`,
    )
    .raw();
  const clicksIn = db
    .prepare<[number, number], [number, number]>(
      'SELECT message_id, count(*) FROM campaign_clicks WHERE message_id BETWEEN ? AND ? GROUP BY message_id',
    )
    .raw();
  const messages = new RangeMessages(db);
  return {
    timeZone: execution.time_zone ?? DEFAULT_TIME_ZONE,
    total,
    *pages(pageRows) {
      for (const batch of batches) {
        const text = messages.sendText(batch.sendId) ?? '';
        // Keyset pages over the batch's consecutive ids: at most pageRows rows each.
        for (let after = batch.firstId - 1; after < batch.lastId; after += pageRows) {
          const upTo = Math.min(after + pageRows, batch.lastId);
          const clicks = new Map<number, number>();
          for (const [messageId, count] of clicksIn.all(after + 1, upTo)) clicks.set(messageId, count);
          yield { rows: page.iterate(after, upTo, batch.sendId), sendText: text, clicks };
        }
      }
    },
  };
}

// ---- writing

/** Characters of CSV built as one string before it is encoded (see csvLines). */
export const CSV_PIECE = 1 << 18;
/** Bytes of encoded CSV handed to the file stream at once. */
const CSV_WRITE_BYTES = 4 << 20;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Text of the status and statustext cells (`10,Delivered`), built once per status. */
function statusCells(language: ReportLanguage): (status: number) => string {
  const cells = new Map<number, string>();
  return (status) => {
    let cell = cells.get(status);
    if (cell === undefined) cells.set(status, (cell = status + ',' + csvField(reportStatusText(status, language))));
    return cell;
  };
}

/**
 * The CSV lines of one page, handed to `emit` in pieces of about CSV_PIECE characters; returns the
 * number of rows. (The export1m bench's floor writes the same line format.) Pieces stay small
 * because a long string built by concatenation is a tree of thousands of small objects: one of a
 * few MB outlived the young generation and multiplied the collector's time by five.
 */
export function csvLines(
  page: ReportPage,
  statusCell: (status: number) => string,
  dates: (ms: number) => string,
  emit: (text: string) => void,
): number {
  const { sendText, clicks } = page;
  const shared = csvField(sendText);
  const noClicks = clicks.size === 0;
  let out = '';
  let rows = 0;
  for (const row of page.rows) {
    rows++;
    const id = row[0];
    const text = row[5];
    out +=
      id +
      ',' +
      csvField(row[1]) +
      ',' +
      statusCell(row[2]) +
      ',' +
      row[3] +
      ',' +
      dates(row[4]) +
      ',' +
      (noClicks ? 0 : (clicks.get(id) ?? 0)) +
      ',' +
      (text === null ? shared : csvField(text)) +
      '\n';
    if (out.length >= CSV_PIECE) {
      emit(out);
      out = '';
    }
  }
  if (out !== '') emit(out);
  return rows;
}

interface ReportWriter {
  /** Takes the page's rows (iterated to the end before anything is awaited); resolves with their number. */
  write(page: ReportPage): Promise<number>;
  close(): Promise<void>;
  /** Closes the file (no write lands after) and removes it. */
  abort(): Promise<void>;
}

async function csvReportWriter(file: string, language: ReportLanguage, timeZone: string): Promise<ReportWriter> {
  const stream = fs.createWriteStream(file);
  await once(stream, 'open');
  const put = async (chunk: Buffer) => {
    if (!stream.write(chunk)) await once(stream, 'drain');
  };
  const statusCell = statusCells(language);
  const dates = reportDateCells(language, timeZone);
  // Encoded at once (buffers live outside the JS heap), written in large chunks: small batches
  // (a slow send rate) give small pages, and the disk still gets large writes.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const add = (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    pending.push(bytes);
    pendingBytes += bytes.length;
  };
  const flush = async () => {
    if (pendingBytes === 0) return;
    const chunk = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await put(chunk);
  };
  // A byte-order mark so spreadsheet programs read the Persian text as UTF-8.
  add('\ufeff' + HEADERS[language].map(csvField).join(',') + '\n');
  return {
    async write(page) {
      const rows = csvLines(page, statusCell, dates, add);
      if (pendingBytes >= CSV_WRITE_BYTES) await flush();
      return rows;
    },
    async close() {
      await flush();
      await new Promise<void>((resolve, reject) => {
        stream.once('error', reject);
        stream.end(() => resolve());
      });
    },
    abort: () => discardPartial(stream, file),
  };
}

/** The zip entry's input stream inside exceljs (readable-stream's PassThrough): what is queued in it. */
interface ZipEntryInput extends NodeJS.EventEmitter {
  _writableState?: { length: number };
}

/** Bytes of sheet XML allowed to wait for the deflater. */
const XLSX_PENDING_BYTES = 4 << 20;

async function xlsxReportWriter(file: string, language: ReportLanguage, timeZone: string): Promise<ReportWriter> {
  // Loaded on first use: exceljs is large (25 MB of a resting process), and most exports are CSV.
  const { default: excel } = await import('exceljs');
  const workbook = new excel.stream.xlsx.WorkbookWriter({
    filename: file,
    useSharedStrings: false,
    useStyles: false,
  });
  const sheet = workbook.addWorksheet(language === 'fa' ? 'گزارش' : 'report', sheetOptions(language));
  setColumnWidths(sheet, WIDTHS);
  sheet.addRow([...HEADERS[language]]).commit();
  const local = zonedTimeFormatter(localTimeStyle(language), timeZone);
  const iso = zonedTimeFormatter('iso', timeZone);
  const statusText = new Map<number, string>();
  const textOf = (status: number) => {
    let text = statusText.get(status);
    if (text === undefined) statusText.set(status, (text = reportStatusText(status, language)));
    return text;
  };
  // exceljs's streaming writer has no backpressure: a committed row goes into the zip entry's
  // buffer whatever its size, and the sheet's XML (hundreds of MB for a million rows) would pile
  // up there faster than it is deflated. So each page waits until that buffer is nearly empty.
  const entry = () => (sheet as unknown as { stream?: { pipes?: ZipEntryInput[] } }).stream?.pipes?.[0];
  return {
    async write({ rows, sendText, clicks }) {
      let count = 0;
      for (const [id, receptor, status, cost, createdAt, text] of rows) {
        count++;
        sheet
          .addRow([
            id,
            receptor,
            status,
            textOf(status),
            cost,
            local(createdAt),
            iso(createdAt),
            clicks.get(id) ?? 0,
            text ?? sendText,
          ])
          .commit();
      }
      const input = entry();
      // Over the stream's high-water mark, its last write returned false: 'drain' comes when it empties.
      if (input?._writableState && input._writableState.length > XLSX_PENDING_BYTES) await once(input, 'drain');
      return count;
    },
    async close() {
      sheet.commit();
      await workbook.commit();
    },
    // The file's stream, closed so the partial file can go (Windows keeps open files).
    abort: () => discardPartial(workbookStream(workbook), file),
  };
}

/**
 * Writes the execution's report (filtered) to `request.file`; `onProgress` gets (rows written,
 * rows in the report) after every page. Resolves with the rows written once the file is whole.
 */
export async function exportExecution(
  db: Db,
  request: ExportExecutionRequest,
  onProgress?: (rows: number, total: number) => void,
): Promise<{ rows: number }> {
  const source = openExecutionReport(db, request.executionId, request.filter);
  const partial = request.file + '.part';
  let rows = 0;
  let sinceYield = 0;
  const pageRows = EXPORT_PAGE[request.format];
  onProgress?.(0, source.total);
  const timeZone = request.timeZone ?? source.timeZone;
  const writer =
    request.format === 'csv'
      ? await csvReportWriter(partial, request.language, timeZone)
      : await xlsxReportWriter(partial, request.language, timeZone);
  try {
    for (const page of source.pages(pageRows)) {
      const written = await writer.write(page);
      rows += written;
      sinceYield += written;
      if (sinceYield >= pageRows) {
        sinceYield = 0;
        onProgress?.(rows, Math.max(source.total, rows));
        await yieldToLoop();
        request.signal?.throwIfAborted();
      }
    }
    await writer.close();
    onProgress?.(rows, rows);
    // Only a finished report gets its name: a crash never leaves a truncated file that looks whole.
    await fs.promises.rename(partial, request.file);
    return { rows };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}
