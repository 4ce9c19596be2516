// import1m: a 1,000,000-row CSV (phone plus three columns) imported into a segment through the
// real path (Core.imports.start: preview, queued job, scheduler, worker thread, batched commits
// with checkpoints), each run in a fresh child process so its peak RSS is the import's own. Next
// to the floor measured in the same run: papaparse's streaming parse of the same file plus a raw
// prepared insert of the same rows into the same members table, in one transaction.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { openDatabase } from '../../electron/service/db/database';
import { importInChild } from '../support/import-run';
import { median, type BenchCase } from '../case';

const ROWS = 1_000_000;
const RUNS = 3;

function writeCsv(file: string): void {
  const fd = fs.openSync(file, 'w');
  let chunk = 'phone,NAME,CITY,CODE\n';
  for (let i = 0; i < ROWS; i++) {
    // Distinct numbers in scattered order, as a real customer list is.
    const phone = '09' + String(100_000_000 + ((i * 7_919) % 900_000_000)).padStart(9, '0');
    chunk += `${phone},customer ${i},city ${i % 97},${100_000 + i}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(fd, chunk);
      chunk = '';
    }
  }
  fs.writeSync(fd, chunk);
  fs.closeSync(fd);
}

/** The unavoidable work, done the rawest way: streaming parse + one-transaction prepared insert. */
async function floorOnce(dir: string, file: string): Promise<number> {
  const db = openDatabase({ file: path.join(dir, 'floor.db') });
  db.pragma('cache_size = -131072');
  const insert = db.prepare('INSERT INTO segment_members (segment_id, phone, fields) VALUES (?, ?, ?)');
  const start = performance.now();
  db.exec('BEGIN');
  let header = true;
  await new Promise<void>((resolve, reject) => {
    Papa.parse(fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 }) as unknown as File, {
      chunk(results: Papa.ParseResult<string[]>) {
        for (const row of results.data) {
          if (header) {
            header = false;
            continue;
          }
          if (row.length < 4) continue;
          insert.run(1, row[0], row[1] + '\u001f' + row[2] + '\u001f' + row[3]);
        }
      },
      complete: () => resolve(),
      error: (error: Error) => reject(error),
    });
  });
  db.exec('COMMIT');
  const elapsed = performance.now() - start;
  db.close();
  fs.rmSync(path.join(dir, 'floor.db'), { force: true });
  fs.rmSync(path.join(dir, 'floor.db-wal'), { force: true });
  fs.rmSync(path.join(dir, 'floor.db-shm'), { force: true });
  return elapsed;
}

const import1m: BenchCase = {
  name: 'import1m',
  async run() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chapar-bench-import-'));
    const file = path.join(dir, 'contacts.csv');
    try {
      writeCsv(file);
      const times: number[] = [];
      const floors: number[] = [];
      const peaks: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const dataDir = path.join(dir, `data-${run}`);
        const result = await importInChild(dataDir, file);
        if (result.status !== 'done' || result.valid !== ROWS)
          throw new Error(`import ended ${result.status} with ${result.valid} rows`);
        fs.rmSync(dataDir, { recursive: true, force: true });
        times.push(result.ms);
        peaks.push(Math.max(result.peakRssMb, result.maxRssMb));
        floors.push(await floorOnce(dir, file));
      }
      const ms = median(times);
      const floorMs = median(floors);
      return {
        name: 'import1m',
        ms,
        floorMs,
        ratio: ms / floorMs,
        target: 'ratio <= 1.5, >= 200,000 rows/s, peak RSS < 400 MB',
        extra: {
          'rows/s': Math.round(ROWS / (ms / 1000)),
          'floor rows/s': Math.round(ROWS / (floorMs / 1000)),
          'peak RSS MB': Math.round(Math.max(...peaks)),
          file: `${(fs.statSync(file).size / 2 ** 20).toFixed(1)} MB`,
        },
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default import1m;
