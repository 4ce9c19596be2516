// An execution's per-recipient report written to a file, as CSV or XLSX, for the person who asked
// (messaging/export-format.ts): headers and status labels in the UI's language, each recipient's
// values of their segment's columns (NAME, CITY…) beside their number, the time sent and the time
// delivered in their time zone (else the account's): in the CSV as Jalali text in Persian or
// Gregorian in English, in the XLSX as real date cells (the Jalali text beside them in Persian),
// each with an ISO 8601 column; a right-to-left sheet in Persian, its header frozen. Streamed in
// constant memory: the
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
import { MessageStatus } from '../../../shared/lifecycle';
import { recipientColumns, type RecipientColumns } from './results';
import {
  DEFAULT_TIME_ZONE,
  exportStatusText,
  localTimeStyle,
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

/** The headers' words: [before the segment's columns, sent, delivered, after the times]. */
const WORDS = {
  en: {
    head: ['Message ID', 'Receiver'],
    status: ['Status code', 'Status', 'Cost (rials)'],
    sent: 'Date',
    delivered: 'Delivered at',
    jalali: '',
    iso: ' (ISO 8601)',
    tail: ['Clicks', 'Text'],
  },
  fa: {
    head: ['شناسه پیام', 'گیرنده'],
    status: ['کد وضعیت', 'وضعیت', 'هزینه (ریال)'],
    sent: 'تاریخ',
    delivered: 'زمان تحویل',
    jalali: ' (شمسی)',
    iso: ' (ISO 8601)',
    tail: ['کلیک‌ها', 'متن پیام'],
  },
} as const;

export function reportStatusText(status: number, language: ReportLanguage): string {
  return exportStatusText(status, language);
}

/**
 * The report's headers: the message and its receiver, the recipient's `columns` (their segment's),
 * the status and cost, the time sent and the time delivered (each as written for the language, then
 * in ISO 8601; the XLSX has a date cell first, and in Persian the Jalali text beside it), clicks, text.
 */
export function reportHeaders(
  language: ReportLanguage,
  columns: readonly string[] = [],
  format: ReportFormat = 'csv',
): string[] {
  const w = WORDS[language];
  const times = (name: string) =>
    format === 'xlsx' && language === 'fa' ? [name, name + w.jalali, name + w.iso] : [name, name + w.iso];
  return [...w.head, ...columns, ...w.status, ...times(w.sent), ...times(w.delivered), ...w.tail];
}

/** Column widths of the sheet (characters), in the headers' order. */
function reportWidths(language: ReportLanguage, columns: readonly string[]): number[] {
  const time = language === 'fa' ? [20, 20, 26] : [20, 26];
  return [12, 15, ...columns.map(() => 16), 10, 22, 12, ...time, ...time, 8, 60];
}

/**
 * Characters a file name may not hold on some system (Windows' reserved ones, controls) and the
 * invisible direction marks, each made a space.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_NAMES = /[<>:"/\\|?*\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Names Windows keeps for devices (with any extension). */
const RESERVED_NAMES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;
/** Characters of the campaign's name kept in a file name. */
const NAME_CHARACTERS = 80;

/**
 * A report file's name without its extension: the campaign's name and the date where the person
 * is (`Yalda sale 2026-11-29`; in Persian the Jalali date, `حراج یلدا 1405-09-08`), in characters
 * every system's files allow.
 */
export function reportFileTitle(campaignName: string, now: number, language: ReportLanguage, timeZone: string): string {
  const date = zonedTimeFormatter(localTimeStyle(language), timeZone)(now).slice(0, 10).replaceAll('/', '-');
  let name = campaignName.replace(UNSAFE_IN_NAMES, ' ').replace(/\s+/g, ' ').trim();
  name = [...name]
    .slice(0, NAME_CHARACTERS)
    .join('')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  if (name === '' || RESERVED_NAMES.test(name)) name = language === 'fa' ? 'گزارش کارزار' : 'Campaign report';
  return `${name} ${date}`;
}

/** A date cell's format: the time as the sheet's program shows it, in the person's zone. */
const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';

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

/**
 * A time as a sheet's date cell shows it in the person's zone: a Date whose UTC fields are the
 * zone's wall time (exceljs writes a Date's UTC time as the cell's serial). `iso` is the time's
 * ISO 8601 text in the zone, which has that wall time first.
 */
function zonedWallClock(iso: (ms: number) => string): (ms: number, text?: string) => Date {
  return (ms, text = iso(ms)) => new Date(Date.parse(text.slice(0, 19) + 'Z'));
}

// ---- reading the execution

/**
 * A message row as read: [id, receptor, status, cost_rials, created_at, text or null, delivered
 * at or null, the recipient's segment, their stored fields].
 */
type MessageTuple = [
  number,
  string,
  number,
  number,
  number,
  string | null,
  number | null,
  number | null,
  string | null,
];

interface Batch {
  sendId: number;
  firstSeq: number;
  firstId: number;
  lastId: number;
}

export interface ExecutionReportSource {
  /** The account's time zone. */
  timeZone: string;
  /** The recipients' columns (their segments'), and each one's values under them. */
  recipients: RecipientColumns;
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
    .prepare<[number], { id: number; time_zone: string | null; segment_columns: string | null }>(
      `SELECT e.id, ${accountTimeZoneSql('e.account_id')} AS time_zone, e.segment_columns
       FROM campaign_executions e WHERE e.id = ?`,
    )
    .get(executionId);
  if (!execution) throw new ServiceError(ApiCode.NotFound, `execution ${executionId} not found`);
  const batches = db
    .prepare<[number], [number, number, number, number]>(
      'SELECT send_id, first_seq, first_message_id, count FROM campaign_batches WHERE execution_id = ? ORDER BY first_seq',
    )
    .raw()
    .all(executionId)
    .map(([sendId, firstSeq, firstId, count]): Batch => ({ sendId, firstSeq, firstId, lastId: firstId + count - 1 }));
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
  // A batch's messages have consecutive ids: message id's recipient is seq first_seq + (id - first id).
  const page = db
    .prepare<[number, number, number, number, number, number], MessageTuple>(
      `SELECT m.id, m.receptor, m.status, m.cost_rials, m.created_at, m.text,
         CASE WHEN m.status = ${MessageStatus.Delivered} THEN m.final_at END, r.segment_id, r.fields
       FROM ${messagesSql('m')}
       LEFT JOIN campaign_recipients r ON r.execution_id = ? AND r.seq = ? + m.id - ?
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
    recipients: recipientColumns(execution.segment_columns),
    total,
    *pages(pageRows) {
      for (const batch of batches) {
        const text = messages.sendText(batch.sendId) ?? '';
        // Keyset pages over the batch's consecutive ids: at most pageRows rows each.
        for (let after = batch.firstId - 1; after < batch.lastId; after += pageRows) {
          const upTo = Math.min(after + pageRows, batch.lastId);
          const clicks = new Map<number, number>();
          for (const [messageId, count] of clicksIn.all(after + 1, upTo)) clicks.set(messageId, count);
          yield {
            rows: page.iterate(executionId, batch.firstSeq, batch.firstId, after, upTo, batch.sendId),
            sendText: text,
            clicks,
          };
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

/** How a CSV row's cells are written: per status, per time (sent, delivered), and a recipient's values. */
export interface CsvCells {
  statusCell: (status: number) => string;
  sent: (ms: number) => string;
  delivered: (ms: number) => string;
  /** The recipient's values of the columns, each after a comma ('' without columns). */
  values: (segmentId: number | null, fields: string | null) => string;
}

/**
 * The CSV lines of one page, handed to `emit` in pieces of about CSV_PIECE characters; returns the
 * number of rows. (The export1m bench's floor writes the same line format.) Pieces stay small
 * because a long string built by concatenation is a tree of thousands of small objects: one of a
 * few MB outlived the young generation and multiplied the collector's time by five.
 */
export function csvLines(page: ReportPage, cells: CsvCells, emit: (text: string) => void): number {
  const { sendText, clicks } = page;
  const { statusCell, sent, delivered, values } = cells;
  const shared = csvField(sendText);
  const noClicks = clicks.size === 0;
  let out = '';
  let rows = 0;
  for (const row of page.rows) {
    rows++;
    const id = row[0];
    const text = row[5];
    const deliveredAt = row[6];
    out +=
      id +
      ',' +
      csvField(row[1]) +
      values(row[7], row[8]) +
      ',' +
      statusCell(row[2]) +
      ',' +
      row[3] +
      ',' +
      sent(row[4]) +
      ',' +
      (deliveredAt === null ? ',' : delivered(deliveredAt)) +
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

async function csvReportWriter(
  file: string,
  language: ReportLanguage,
  timeZone: string,
  recipients: RecipientColumns,
): Promise<ReportWriter> {
  const stream = fs.createWriteStream(file);
  await once(stream, 'open');
  const put = async (chunk: Buffer) => {
    if (!stream.write(chunk)) await once(stream, 'drain');
  };
  const cells: CsvCells = {
    statusCell: statusCells(language),
    sent: reportDateCells(language, timeZone),
    delivered: reportDateCells(language, timeZone),
    values:
      recipients.columns.length === 0
        ? () => ''
        : (segmentId, fields) => {
            let out = '';
            for (const value of recipients.valuesOf(segmentId, fields)) out += ',' + csvField(value);
            return out;
          },
  };
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
  add('\ufeff' + reportHeaders(language, recipients.columns).map(csvField).join(',') + '\n');
  return {
    async write(page) {
      const rows = csvLines(page, cells, add);
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

async function xlsxReportWriter(
  file: string,
  language: ReportLanguage,
  timeZone: string,
  recipients: RecipientColumns,
): Promise<ReportWriter> {
  // Loaded on first use: exceljs is large (25 MB of a resting process), and most exports are CSV.
  const { default: excel } = await import('exceljs');
  const workbook = new excel.stream.xlsx.WorkbookWriter({
    filename: file,
    useSharedStrings: false,
    // The date cells' number format is a style.
    useStyles: true,
  });
  const sheet = workbook.addWorksheet(language === 'fa' ? 'گزارش' : 'report', sheetOptions(language));
  const { columns } = recipients;
  const headers = reportHeaders(language, columns, 'xlsx');
  const widths = reportWidths(language, columns);
  // The date columns (the sent and delivered times' first cells) carry the date format.
  const sentAt = 2 + columns.length + 3;
  const deliveredAt = sentAt + (language === 'fa' ? 3 : 2);
  sheet.columns = widths.map((width, i) =>
    i === sentAt || i === deliveredAt ? { width, style: { numFmt: DATE_FORMAT } } : { width },
  );
  const header = sheet.addRow(headers);
  // The header row's own cells are text: no date format on them.
  header.eachCell((cell) => (cell.numFmt = 'General'));
  header.commit();
  const jalali = language === 'fa' ? zonedTimeFormatter('jalali', timeZone) : null;
  const iso = zonedTimeFormatter('iso', timeZone);
  const wall = zonedWallClock(iso);
  const times = (ms: number | null): unknown[] => {
    if (ms === null) return jalali ? [null, null, null] : [null, null];
    const text = iso(ms);
    return jalali ? [wall(ms, text), jalali(ms), text] : [wall(ms, text), text];
  };
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
      for (const [id, receptor, status, cost, createdAt, text, deliveredAt, segmentId, fields] of rows) {
        count++;
        sheet
          .addRow([
            id,
            receptor,
            ...(columns.length > 0 ? recipients.valuesOf(segmentId, fields) : []),
            status,
            textOf(status),
            cost,
            ...times(createdAt),
            ...times(deliveredAt),
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
      ? await csvReportWriter(partial, request.language, timeZone, source.recipients)
      : await xlsxReportWriter(partial, request.language, timeZone, source.recipients);
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
