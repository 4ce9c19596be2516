// upload100k: POST /v2/sms/campaigns/contacts with 100,000 contacts (phone_number plus three
// columns) over loopback to the headless server in its own process, timed from the request to
// the moment GET .../contacts/{id} first reports COMPLETED (polled every 10 ms). Next to the floor
// measured in the same run: JSON.parse of the same body plus a raw prepared insert of the same
// rows into the members table in one transaction.
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../electron/service/db/database';
import { spawnServe, tempDir, testSeed, KEY } from '../../test/helpers/server';
import { median, type BenchCase } from '../case';

const CONTACTS = 100_000;
const WARMUP = 1;
const RUNS = 5;

function body(run: number): string {
  const contacts = Array.from({ length: CONTACTS }, (_, i) => ({
    phone_number: '09' + String(100_000_000 + ((i * 7_919 + run * 13) % 900_000_000)).padStart(9, '0'),
    NAME: `customer ${i}`,
    CITY: `city ${i % 97}`,
    CODE: String(100_000 + i),
  }));
  return JSON.stringify(contacts);
}

function floorOnce(dir: string, text: string): number {
  const file = path.join(dir, `floor-${process.pid}.db`);
  const db = openDatabase({ file });
  const insert = db.prepare('INSERT INTO segment_members (segment_id, phone, fields) VALUES (?, ?, ?)');
  const start = performance.now();
  const contacts = JSON.parse(text) as Array<Record<string, string>>;
  db.transaction(() => {
    for (const c of contacts) insert.run(1, c['phone_number'], c['NAME'] + '\u001f' + c['CITY'] + '\u001f' + c['CODE']);
  })();
  const elapsed = performance.now() - start;
  db.close();
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  return elapsed;
}

const upload100k: BenchCase = {
  name: 'upload100k',
  async run() {
    const dir = tempDir('chapar-bench-upload-');
    const seedFile = path.join(dir, 'seed.json');
    fs.writeFileSync(seedFile, JSON.stringify(testSeed()));
    const server = await spawnServe({ dataDir: path.join(dir, 'data'), seedFile });
    const times: number[] = [];
    const accepts: number[] = [];
    const floors: number[] = [];
    try {
      for (let run = 0; run < WARMUP + RUNS; run++) {
        const text = body(run);
        const headers = { 'content-type': 'application/json', authorization: `Bearer ${KEY}` };
        const start = performance.now();
        const response = await fetch(`${server.url}/v2/sms/campaigns/contacts`, {
          method: 'POST',
          headers,
          body: text,
        });
        const created = (await response.json()) as { entries: { upload_data_id: number } };
        const accepted = performance.now() - start;
        if (response.status !== 201) throw new Error(`upload failed: ${response.status}`);
        let status = 'PROCESSING';
        let valid = 0;
        while (status === 'PROCESSING') {
          await new Promise((resolve) => setTimeout(resolve, 10));
          const poll = await fetch(`${server.url}/v2/sms/campaigns/contacts/${created.entries.upload_data_id}`, {
            headers,
          });
          const entries = ((await poll.json()) as { entries: { status: string; valid: number } }).entries;
          status = entries.status;
          valid = entries.valid;
        }
        const elapsed = performance.now() - start;
        if (status !== 'COMPLETED' || valid !== CONTACTS) throw new Error(`upload ended ${status} with ${valid} valid`);
        const floor = floorOnce(dir, text);
        if (run >= WARMUP) {
          times.push(elapsed);
          accepts.push(accepted);
          floors.push(floor);
        }
      }
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const ms = median(times);
    const floorMs = median(floors);
    return {
      name: 'upload100k',
      ms,
      floorMs,
      ratio: ms / floorMs,
      target: 'request to COMPLETED; the 201 answer at once',
      extra: { '201 answer ms': Math.round(median(accepts)), 'contacts/s': Math.round(CONTACTS / (ms / 1000)) },
    };
  },
};

export default upload100k;
