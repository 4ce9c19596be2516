// Delivery report exports (CSV, XLSX): the filtered messages are read in keyset pages and streamed
// to a file, yielding to the event loop between pages so IPC and HTTP stay responsive however
// large the report; progress goes out as export:progress events.
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import Papa from 'papaparse';
import ExcelJS from 'exceljs';
import type { MessageFilter, MessageRow } from '../../../shared/ipc/schemas';
import type { MessageQueries } from './queries';
import type { PayloadOf } from '../../../shared/ipc/contracts';

export type ExportFormat = 'csv' | 'xlsx';

/** The `export:progress` event's payload. */
export type ExportProgress = PayloadOf<'export:progress'>;

const COLUMNS: Array<{ header: string; value: (row: MessageRow) => string | number }> = [
  { header: 'messageid', value: (r) => r.id },
  { header: 'send_id', value: (r) => r.send_id },
  { header: 'sender', value: (r) => r.sender },
  { header: 'receptor', value: (r) => r.receptor },
  { header: 'status', value: (r) => r.status },
  { header: 'statustext', value: (r) => r.status_text },
  { header: 'cost_rials', value: (r) => r.cost_rials },
  { header: 'pages', value: (r) => r.pages },
  { header: 'created_at', value: (r) => new Date(r.created_at).toISOString() },
  { header: 'handed_at', value: (r) => (r.handed_at === null ? '' : new Date(r.handed_at).toISOString()) },
  { header: 'final_at', value: (r) => (r.final_at === null ? '' : new Date(r.final_at).toISOString()) },
  { header: 'message', value: (r) => r.text },
];

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class Exporter {
  constructor(
    private readonly queries: MessageQueries,
    private readonly dir: string,
    private readonly onProgress: (progress: ExportProgress) => void,
    private readonly now: () => number,
  ) {}

  async run(
    filter: MessageFilter,
    format: ExportFormat,
    exportId: string = randomUUID(),
  ): Promise<{
    export_id: string;
    rows: number;
    path: string;
    file_name: string;
  }> {
    fs.mkdirSync(this.dir, { recursive: true });
    const stamp = new Date(this.now()).toISOString().replace(/[:.]/g, '-').slice(0, 19);
    const fileName = `messages-${stamp}-${exportId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 12) || 'x'}.${format}`;
    const file = path.join(this.dir, fileName);
    const partial = file + '.part';
    const total = this.queries.count(filter);
    let done = 0;
    this.onProgress({ export_id: exportId, state: 'running', done, total });
    try {
      const writer = format === 'csv' ? await csvWriter(partial) : xlsxWriter(partial);
      let lastReport = 0;
      for (const page of this.queries.pages(filter)) {
        await writer.write(page);
        done += page.length;
        if (done - lastReport >= 10_000) {
          lastReport = done;
          this.onProgress({ export_id: exportId, state: 'running', done, total });
        }
        await yieldToLoop();
      }
      await writer.close();
      // Only a finished report gets its name: a crash never leaves a truncated file that looks whole.
      fs.renameSync(partial, file);
      this.onProgress({ export_id: exportId, state: 'done', done, total: Math.max(total, done) });
      return { export_id: exportId, rows: done, path: file, file_name: fileName };
    } catch (error) {
      fs.rmSync(partial, { force: true });
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
}

async function csvWriter(file: string): Promise<RowWriter> {
  const stream = fs.createWriteStream(file);
  await once(stream, 'open');
  const put = async (text: string) => {
    if (!stream.write(text)) await once(stream, 'drain');
  };
  // A byte-order mark so spreadsheet programs read the Persian text as UTF-8.
  await put('\ufeff' + Papa.unparse([COLUMNS.map((c) => c.header)]) + '\r\n');
  return {
    write: (rows) => put(Papa.unparse(rows.map((row) => COLUMNS.map((c) => c.value(row)))) + '\r\n'),
    close: () =>
      new Promise<void>((resolve, reject) => {
        stream.once('error', reject);
        stream.end(() => resolve());
      }),
  };
}

function xlsxWriter(file: string): RowWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useSharedStrings: false,
    useStyles: false,
  });
  const sheet = workbook.addWorksheet('messages', { views: [{ rightToLeft: false }] });
  sheet.addRow(COLUMNS.map((c) => c.header)).commit();
  return {
    async write(rows) {
      for (const row of rows) sheet.addRow(COLUMNS.map((c) => c.value(row))).commit();
    },
    async close() {
      sheet.commit();
      await workbook.commit();
    },
  };
}
