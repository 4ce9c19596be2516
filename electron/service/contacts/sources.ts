// Reading spreadsheets as streams of rows, in constant memory: CSV / delimited text (any delimiter,
// UTF-8 with or without BOM, UTF-16 from Excel's "Unicode text", Windows-1256 from Persian Excel
// detected by invalid UTF-8) through papaparse, and XLSX through exceljs's streaming sheet reader. Also
// the guesses an import starts from: format, header row, phone column. Runs in the import worker.
import { isAscii } from 'node:buffer';
import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { TextDecoder } from 'node:util';
import Papa from 'papaparse';
import type ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { normalizePhone } from '../../../shared/phone';
import type { FileEncoding, Preview, ReadOptions } from '../../../shared/contacts';

type Encoding = Exclude<FileEncoding, 'auto'>;

/** A file we cannot read, with a Persian message for the user and a stable code for programs. */
export class ImportFileError extends Error {
  constructor(
    readonly code:
      | 'binary'
      | 'xls'
      | 'encrypted'
      | 'corrupt_xlsx'
      | 'too_large'
      | 'empty'
      | 'no_phone_column'
      | 'sheet_not_found'
      | 'file_missing'
      | 'file_changed'
      | 'bad_mapping',
    message: string,
  ) {
    super(`${message} (${code})`);
  }
}

// ---------------------------------------------------------------------------------------------
// Format and encoding

export function sniffFormat(file: string): 'csv' | 'xlsx' {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    throw new ImportFileError('file_missing', 'فایل پیدا نشد یا خواندنی نیست');
  }
  const head = Buffer.alloc(8192);
  let length: number;
  try {
    length = fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  const bytes = head.subarray(0, length);
  if (length === 0) throw new ImportFileError('empty', 'فایل خالی است');
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    // exceljs keeps a sheet's shared strings in memory: a workbook this large is better read as CSV.
    if (fs.statSync(file).size > MAX_XLSX_BYTES)
      throw new ImportFileError('too_large', 'فایل XLSX بیش از حد بزرگ است؛ آن را در اکسل با قالب CSV ذخیره کنید');
    return 'xlsx';
  }
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    // An OLE compound file: an old XLS, or an XLSX Excel encrypted with a password (its package
    // is then a stream named EncryptedPackage inside one).
    if (isEncryptedPackage(file))
      throw new ImportFileError(
        'encrypted',
        'فایل با گذرواژه محافظت شده است؛ آن را در اکسل باز کنید، گذرواژه را بردارید و دوباره ذخیره کنید',
      );
    throw new ImportFileError(
      'xls',
      'فایل‌های XLS قدیمی پشتیبانی نمی‌شوند؛ آن را در اکسل با قالب XLSX یا CSV ذخیره کنید',
    );
  }
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (!utf16 && looksBinary(bytes)) throw new ImportFileError('binary', 'فایل متنی (CSV) یا XLSX نیست');
  return 'csv';
}

/** Above this an XLSX is refused (read it as CSV instead): 512 MB. */
const MAX_XLSX_BYTES = 512 * 1024 * 1024;
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

/** Whether an OLE compound file holds an encrypted OOXML package (its directory names the stream). */
function isEncryptedPackage(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    // The directory of a small compound file is near its start; 4 MB covers Excel's own.
    const buffer = Buffer.alloc(Math.min(fs.fstatSync(fd).size, 4 * 1024 * 1024));
    const length = fs.readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, length).includes(ENCRYPTED_PACKAGE);
  } finally {
    fs.closeSync(fd);
  }
}

/** NUL bytes or many control characters: an image, a PDF, an executable... not a table. */
function looksBinary(bytes: Buffer): boolean {
  let control = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0) return true;
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12) control++;
  }
  return control > bytes.length / 20;
}

/** Bytes after the first non-ASCII byte that the encoding is settled on, when the file has them. */
const SETTLE_LOOKAHEAD = 4096;

/**
 * Streaming decoder that settles the encoding on the first bytes that are not ASCII: a BOM decides
 * at once; otherwise valid UTF-8 means UTF-8 and anything else means Windows-1256 (what Persian
 * Excel writes as "CSV"). Up to those bytes both read the same, so nothing decoded earlier changes.
 *
 * The decision is made on whole characters, wherever the chunks are cut: a BOM cut after its first
 * byte is waited for, and the decision waits for SETTLE_LOOKAHEAD bytes after the first non-ASCII
 * one (or the end). Settling on a chunk that ended inside a character would read a Windows-1256
 * file's lone last byte as the start of a UTF-8 character, and then the rest as broken UTF-8.
 */
export class AutoDecoder {
  private decoder: TextDecoder | iconv.DecoderStream | null = null;
  /** Bytes not decoded yet because the encoding is not settled (the file's start, or after ASCII). */
  private held: Buffer = Buffer.alloc(0);
  private atStart = true;
  encoding: Encoding | null = null;

  constructor(forced: FileEncoding = 'auto') {
    if (forced !== 'auto') this.use(forced);
  }

  write(chunk: Buffer): string {
    if (this.decoder) return this.decode(chunk, false);
    this.held = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    return this.settle(false);
  }

  end(): string {
    const text = this.decoder ? '' : this.settle(true);
    return this.decoder ? text + this.decode(Buffer.alloc(0), true) : text;
  }

  /**
   * Settles on what has been read so far, as if more were to come (a sample cut from a longer
   * file): the bytes held are decoded, a character cut at their end is kept.
   */
  sample(): string {
    if (this.decoder || this.held.length === 0) return '';
    return this.decide(this.held, false);
  }

  private settle(final: boolean): string {
    let bytes = this.held;
    let text = '';
    if (this.atStart) {
      if (!final && bytes.length < 3 && isBomPrefix(bytes)) return '';
      this.atStart = false;
      if (bytes[0] === 0xff && bytes[1] === 0xfe) this.use('utf-16le');
      else if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) this.use('utf-8');
      if (this.decoder) {
        this.held = Buffer.alloc(0);
        return this.decode(bytes, false);
      }
    }
    // Most files are ASCII for long stretches (or throughout): isAscii is a vector scan.
    if (isAscii(bytes)) {
      this.held = Buffer.alloc(0);
      return bytes.toString('latin1');
    }
    const first = firstNonAscii(bytes);
    if (first > 0) {
      text = bytes.toString('latin1', 0, first);
      bytes = bytes.subarray(first);
    }
    if (!final && bytes.length < SETTLE_LOOKAHEAD) {
      this.held = bytes;
      return text;
    }
    return text + this.decide(bytes, !final);
  }

  /** Settles on `bytes` (from the first non-ASCII byte on) and decodes them. */
  private decide(bytes: Buffer, stream: boolean): string {
    this.held = Buffer.alloc(0);
    const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    try {
      const text = strict.decode(bytes, { stream });
      // The strict decoder keeps a character cut at the end for the next chunk.
      this.encoding = 'utf-8';
      this.decoder = strict;
      return text;
    } catch {
      this.use('windows-1256');
      return this.decode(bytes, false);
    }
  }

  private use(encoding: Encoding): void {
    this.encoding = encoding;
    this.decoder = encoding === 'windows-1256' ? iconv.getDecoder('windows-1256') : new TextDecoder(encoding);
  }

  private decode(chunk: Buffer, final: boolean): string {
    const decoder = this.decoder!;
    if (!(decoder instanceof TextDecoder)) return final ? (decoder.end() ?? '') : decoder.write(chunk);
    try {
      return decoder.decode(chunk, { stream: !final });
    } catch {
      // A stray invalid byte after valid UTF-8: keep going with replacement characters.
      this.decoder = new TextDecoder('utf-8');
      return final ? '\ufffd' : this.decode(chunk, false);
    }
  }
}

function firstNonAscii(bytes: Buffer): number {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return i;
  return -1;
}

/** Whether a file's first bytes may still become a BOM (UTF-8's EF BB BF, UTF-16LE's FF FE). */
function isBomPrefix(bytes: Buffer): boolean {
  if (bytes.length === 0) return true;
  if (bytes[0] === 0xff) return bytes.length < 2;
  return bytes[0] === 0xef && (bytes.length < 2 || bytes[1] === 0xbb);
}

// ---------------------------------------------------------------------------------------------
// CSV

const DELIMITERS = [',', ';', '\t', '|', '\u060c', '\u061b'];

export function guessDelimiter(sample: string): string {
  const result = Papa.parse<string[]>(sample, { preview: 50, delimitersToGuess: DELIMITERS, skipEmptyLines: true });
  return result.meta.delimiter || ',';
}

/** Reads the first bytes of a delimited file: decoded sample and the encoding found. */
function csvSample(
  file: string,
  encoding: FileEncoding,
  bytes = 256 * 1024,
): { text: string; encoding: Encoding; truncated: boolean } {
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.alloc(bytes);
  let length: number;
  try {
    length = fs.readSync(fd, buffer, 0, bytes, 0);
  } finally {
    fs.closeSync(fd);
  }
  const decoder = new AutoDecoder(encoding);
  const truncated = length === bytes;
  const text = decoder.write(buffer.subarray(0, length)) + (truncated ? decoder.sample() : decoder.end());
  return { text, encoding: decoder.encoding ?? 'utf-8', truncated };
}

export interface RowSink {
  /** A run of rows; rowNumbers[i] is the 1-based row number of rows[i]. Return false to stop. */
  rows(rows: string[][], rowNumbers: ArrayLike<number>): boolean;
  /** Bytes of the file read so far. */
  bytes(read: number): void;
}

/** Streams a delimited file through the sink; resolves with the encoding that was used. */
export async function readCsv(
  file: string,
  options: { encoding: FileEncoding; delimiter: string },
  sink: RowSink,
): Promise<void> {
  const decoder = new AutoDecoder(options.encoding);
  let read = 0;
  // Small buffers: the reader waits for the writer (flow control), and text piled up here while
  // it waits would only grow the thread's heap.
  const decode = new Transform({
    readableObjectMode: true,
    readableHighWaterMark: 2,
    transform(chunk: Buffer, _encoding, callback) {
      read += chunk.length;
      const text = decoder.write(chunk);
      callback(null, text.length > 0 ? text : undefined);
    },
    flush(callback) {
      const text = decoder.end();
      callback(null, text.length > 0 ? text : undefined);
    },
  });
  const input = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
  const stream = input.pipe(decode);
  let record = 0;
  let numbers = new Int32Array(0);
  await new Promise<void>((resolve, reject) => {
    input.on('error', reject);
    Papa.parse(stream as unknown as File, {
      delimiter: options.delimiter,
      skipEmptyLines: false,
      chunk(results: Papa.ParseResult<string[]>, parser: Papa.Parser) {
        const rows = results.data;
        if (numbers.length < rows.length) numbers = new Int32Array(rows.length * 2);
        for (let i = 0; i < rows.length; i++) numbers[i] = ++record;
        sink.bytes(read);
        if (!sink.rows(rows, numbers)) {
          parser.abort();
          input.destroy();
        }
      },
      complete: () => resolve(),
      error: (error: Error) => reject(error),
    });
  });
  sink.bytes(read);
}

// ---------------------------------------------------------------------------------------------
// XLSX

interface SheetInfo {
  name: string;
}

type CellValue = ExcelJS.CellValue;

/** Text of a cell as the user sees it; numbers without exponent or grouping. */
export function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value && Array.isArray(value.richText)) return value.richText.map((part) => part.text).join('');
    if ('result' in value) return cellText((value as { result?: CellValue }).result ?? null);
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('error' in value) return '';
  }
  return String(value);
}

function xlsxError(error: unknown): Error {
  if (error instanceof ImportFileError) return error;
  return new ImportFileError('corrupt_xlsx', 'فایل XLSX خراب است یا خوانده نمی‌شود');
}

/** The parts of exceljs's streaming reader used to parse one part of the archive at a time. */
interface WorkbookParts {
  model?: { sheets?: Array<SheetInfo & { rId?: string }> };
  workbookRels?: Array<{ Id: string; Target: string }>;
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(rows: AsyncIterable<unknown>, sheetNo: string): Generator<{ value: AsyncIterable<unknown> }>;
}

/**
 * A part of the archive as text, decoded here with the bytes of a character cut at a chunk's end
 * carried to the next chunk. exceljs's XML reader decodes every chunk it is given on its own, so a
 * Persian digit or letter (two bytes in UTF-8) that fell across a boundary of the inflated stream
 * became two U+FFFD: about one number in a thousand of a Persian-digit sheet was then invalid.
 * Handed text, it decodes nothing. `counted` learns the bytes read, for progress.
 */
export function xmlText(source: Readable, counted?: (bytes: number) => void): Readable {
  const decoder = new StringDecoder('utf8');
  const text = source.pipe(
    new Transform({
      readableObjectMode: true,
      transform(chunk: Buffer, _encoding, done) {
        counted?.(chunk.length);
        const part = decoder.write(chunk);
        done(null, part.length > 0 ? part : undefined);
      },
      flush(done) {
        const rest = decoder.end();
        done(null, rest.length > 0 ? rest : undefined);
      },
    }),
  );
  // pipe() does not pass the source's errors on: a damaged deflate stream would leave the reader
  // waiting forever.
  source.once('error', (error) => text.destroy(error));
  return text;
}

/** A part's path in the archive from its target in the workbook's relationships. */
function partPath(target: string): string {
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
}

/**
 * Streams one sheet of an XLSX file (by name or 1-based position in the workbook; default the
 * first) through the sink. Other sheets are never read.
 *
 * The archive is opened through its central directory, and the workbook, its relationships and
 * the shared strings are parsed before the sheet. exceljs's own single pass over the zip loses the
 * archive's last entry now and then (unzipper ends its entry stream while that entry is still
 * buffered; exceljs issue 3064), and exceljs itself writes the workbook last: about one read in
 * 500 of such a file failed as "corrupt".
 */
export async function readXlsx(
  file: string,
  options: { sheet?: string | number },
  sink: RowSink,
  onSheets?: (sheets: SheetInfo[]) => void,
): Promise<string> {
  // Loaded on first use: exceljs is large, and CSV imports (the common case) never need it.
  const [{ default: excel }, { default: unzipper }] = await Promise.all([import('exceljs'), import('unzipper')]);
  const fileBytes = fs.statSync(file).size;
  let chosen: string;
  try {
    const archive = await unzipper.Open.file(file);
    const entries = new Map(archive.files.map((entry) => [entry.path, entry]));
    const part = (name: string) => entries.get(name)?.stream() as Readable | undefined;
    const reader = new excel.stream.xlsx.WorkbookReader(file, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      entries: 'ignore',
    }) as unknown as WorkbookParts;
    if (!entries.has('xl/_rels/workbook.xml.rels') || !entries.has('xl/workbook.xml'))
      throw new ImportFileError('corrupt_xlsx', 'فایل XLSX خراب است یا برگه‌ای ندارد');
    await reader._parseRels(part('xl/_rels/workbook.xml.rels')!);
    await reader._parseWorkbook(part('xl/workbook.xml')!);
    const strings = part('xl/sharedStrings.xml');
    if (strings) for await (const _ of reader._parseSharedStrings(xmlText(strings))) void _;
    else (reader as unknown as { sharedStrings: unknown[] }).sharedStrings = [];

    const sheets = (reader.model?.sheets ?? []).filter((sheet) => {
      const rel = reader.workbookRels?.find((r) => r.Id === sheet.rId);
      return rel !== undefined && entries.has(partPath(rel.Target));
    });
    onSheets?.(sheets);
    const wanted =
      options.sheet === undefined
        ? sheets[0]
        : typeof options.sheet === 'string'
          ? sheets.find((sheet) => sheet.name === options.sheet)
          : sheets[options.sheet - 1];
    if (!wanted) {
      if (sheets.length === 0) throw new ImportFileError('corrupt_xlsx', 'فایل XLSX خراب است یا برگه‌ای ندارد');
      throw new ImportFileError('sheet_not_found', 'برگهٔ انتخاب‌شده در فایل نیست');
    }
    const target = partPath(reader.workbookRels!.find((r) => r.Id === wanted.rId)!.Target);
    const entry = entries.get(target)!;
    const sheetNo = /sheet(\d+)\.xml$/i.exec(target)?.[1] ?? '1';
    // Progress: the share of the sheet's uncompressed bytes read, as a share of the file. Counted
    // in a pipe, not a 'data' listener: that would start the flow before the sheet reader listens.
    let read = 0;
    const size = Math.max(1, entry.uncompressedSize);
    const source = entry.stream() as unknown as Readable;
    const stream = xmlText(source, (bytes) => (read += bytes));
    const position = () => Math.min(fileBytes, Math.round((fileBytes * read) / size));
    const [event] = reader._parseWorksheet(stream, sheetNo);
    chosen = wanted.name;
    let stop = false;
    const rows: string[][] = [];
    const numbers: number[] = [];
    const flush = () => {
      sink.bytes(position());
      stop = !sink.rows(rows, numbers);
      rows.length = 0;
      numbers.length = 0;
    };
    try {
      for await (const row of event!.value) {
        const values = (row as ExcelJS.Row).values as CellValue[];
        const cells: string[] = new Array(Math.max(0, values.length - 1));
        for (let c = 1; c < values.length; c++) cells[c - 1] = cellText(values[c] ?? null);
        rows.push(cells);
        numbers.push((row as ExcelJS.Row).number);
        if (rows.length >= 2000) flush();
        if (stop) break;
      }
      if (!stop && rows.length > 0) flush();
    } finally {
      source.destroy();
      stream.destroy();
    }
  } catch (error) {
    throw xlsxError(error);
  }
  sink.bytes(fileBytes);
  return chosen;
}

// ---------------------------------------------------------------------------------------------
// Guessing the layout

export function isPhoneLike(cell: string): boolean {
  return cell.length >= 9 && cell.length <= 40 && normalizePhone(cell) !== null;
}

const PHONE_HEADER = /phone|mobile|cell|tel|number|موبایل|همراه|تلفن|شماره/i;

export interface Layout {
  headerRow: number | null;
  columns: string[];
  phoneColumn: number | null;
}

/**
 * The header is the nearest non-empty row above the first row holding a mobile number (title lines
 * above it are skipped); no such row means no header. The phone column is the one with the most
 * mobile numbers in the sample, a header naming a phone winning ties.
 */
export function detectLayout(sample: Array<{ row: number; cells: string[] }>, headerRow?: number | null): Layout {
  const nonEmpty = sample.filter((entry) => entry.cells.some((cell) => cell.trim() !== ''));
  let header: { row: number; cells: string[] } | null = null;
  if (headerRow === undefined) {
    const firstData = nonEmpty.findIndex((entry) => entry.cells.some((cell) => isPhoneLike(cell)));
    if (firstData > 0) header = nonEmpty[firstData - 1]!;
    else if (firstData < 0 && nonEmpty.length > 0) header = nonEmpty[0]!;
  } else if (headerRow !== null) {
    header = sample.find((entry) => entry.row === headerRow) ?? { row: headerRow, cells: [] };
  }
  const data = nonEmpty.filter((entry) => header === null || entry.row > header.row);
  const width = Math.max(header?.cells.length ?? 0, ...data.map((entry) => entry.cells.length), 1);
  const columns = uniqueNames(Array.from({ length: width }, (_, i) => header?.cells[i]?.trim() ?? ''));
  let phoneColumn: number | null = null;
  let best = 0;
  for (let c = 0; c < width; c++) {
    let hits = data.reduce((count, entry) => count + (isPhoneLike(entry.cells[c] ?? '') ? 1 : 0), 0);
    if (hits > 0 && PHONE_HEADER.test(header?.cells[c] ?? '')) hits += 0.5;
    if (hits > best) {
      best = hits;
      phoneColumn = c;
    }
  }
  return { headerRow: header?.row ?? null, columns, phoneColumn };
}

function uniqueNames(raw: string[]): string[] {
  const seen = new Set<string>();
  return raw.map((text, i) => {
    let name = text.replaceAll('\u001f', '').trim().toUpperCase() || `COLUMN_${i + 1}`;
    if (seen.has(name)) {
      let n = 2;
      while (seen.has(`${name}_${n}`)) n++;
      name = `${name}_${n}`;
    }
    seen.add(name);
    return name;
  });
}

const PREVIEW_ROWS = 30;

/** The first rows of the file and everything the import wizard starts from. */
export async function preview(file: string, options: ReadOptions = {}): Promise<Preview> {
  const format = options.format ?? sniffFormat(file);
  const fileBytes = fs.statSync(file).size;
  const rows: Array<{ row: number; cells: string[] }> = [];
  const collect: RowSink = {
    rows(batch, numbers) {
      for (let i = 0; i < batch.length && rows.length < PREVIEW_ROWS; i++)
        rows.push({ row: numbers[i]!, cells: batch[i]! });
      return rows.length < PREVIEW_ROWS;
    },
    bytes() {},
  };
  if (format === 'xlsx') {
    let sheets: string[] = [];
    const sheet = await readXlsx(
      file,
      { sheet: options.sheet },
      collect,
      (found) => (sheets = found.map((s) => s.name)),
    );
    const layout = detectLayout(rows, options.headerRow);
    return {
      format,
      sheets: sheets.length ? sheets : [sheet],
      sheet,
      encoding: null,
      delimiter: null,
      ...layout,
      rows,
      fileBytes,
    };
  }
  const sample = csvSample(file, options.encoding ?? 'auto');
  const delimiter = options.delimiter ?? guessDelimiter(sample.text);
  const parsed = Papa.parse<string[]>(sample.text, { delimiter, skipEmptyLines: false, preview: PREVIEW_ROWS + 1 });
  let data = parsed.data;
  // A sample cut in the middle of the file may end in half a row.
  if (sample.truncated && data.length > PREVIEW_ROWS) data = data.slice(0, PREVIEW_ROWS);
  else if (sample.truncated && data.length > 1) data = data.slice(0, -1);
  // The file's last newline is not a row.
  else if (!sample.truncated && data.length > 0 && data.at(-1)!.length === 1 && data.at(-1)![0] === '')
    data = data.slice(0, -1);
  data.forEach((cells, i) => {
    if (i < PREVIEW_ROWS) rows.push({ row: i + 1, cells });
  });
  const layout = detectLayout(rows, options.headerRow);
  return { format, sheets: [], sheet: null, encoding: sample.encoding, delimiter, ...layout, rows, fileBytes };
}
