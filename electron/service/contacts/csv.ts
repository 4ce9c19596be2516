// Writing CSV: RFC 4180 quoting, and a buffered file writer that waits for the disk, so a million
// lines go out in constant memory. Exports start with a BOM so Excel shows Persian text correctly.
import fs from 'node:fs';
import { discardPartial } from '../files/partial-file';

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvLine(values: readonly string[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i ? ',' : '') + csvField(values[i]!);
  return line + '\n';
}

export class CsvWriter {
  private readonly stream: fs.WriteStream;
  private buffer = '';

  constructor(
    private readonly file: string,
    { bom = true } = {},
  ) {
    this.stream = fs.createWriteStream(file);
    if (bom) this.buffer = '\ufeff';
  }

  async write(values: readonly string[]): Promise<void> {
    this.buffer += csvLine(values);
    if (this.buffer.length > 1 << 20) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.stream.write(chunk)) await new Promise<void>((resolve) => this.stream.once('drain', () => resolve()));
  }

  /** Closes the file without finishing it (no write lands after) and removes it. */
  discard(): Promise<void> {
    this.buffer = '';
    return discardPartial(this.stream, this.file);
  }

  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(() => resolve());
    });
  }
}

/** Writes a CSV synchronously (uploads, at most 100,000 rows, written while the request waits). */
export function writeCsvSync(file: string, header: readonly string[], rows: Iterable<readonly string[]>): void {
  const fd = fs.openSync(file, 'w');
  try {
    let chunk = csvLine(header);
    for (const row of rows) {
      chunk += csvLine(row);
      if (chunk.length > 1 << 20) {
        fs.writeSync(fd, chunk);
        chunk = '';
      }
    }
    fs.writeSync(fd, chunk);
  } finally {
    fs.closeSync(fd);
  }
}
