// send10k: POST /v2/sms/send with 10,000 valid distinct receivers over loopback, against the
// headless server in its own process (as users run it), next to the floor measured in this run:
// JSON.parse of the same body + one prepared-statement transaction inserting 10,000 rows of the
// same width into a SQLite file set up as the product's (WAL, synchronous NORMAL), growing across
// runs as the real table does + JSON.stringify of the 10,000 response entries.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { spawnServe, tempDir, testSeed, KEY } from '../../test/helpers/server';
import { median, type BenchCase } from '../case';

const RECEIVERS = 10_000;
const WARMUP = 3;
const RUNS = 15;

function body(run: number): string {
  const receivers = Array.from({ length: RECEIVERS }, (_, i) => '0912' + String(run * 7 + i).padStart(7, '0'));
  return JSON.stringify({ message: 'Spring sale: 20% off everything this week', sender: '30001111', receivers });
}

/** The floor's store: a file with the product's own settings (WAL, synchronous NORMAL), no indexes. */
function floorDatabase(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE messages (id INTEGER PRIMARY KEY, send_id INTEGER NOT NULL, account_id INTEGER NOT NULL,
    receptor TEXT NOT NULL, status INTEGER NOT NULL, cost_rials INTEGER NOT NULL, created_at INTEGER NOT NULL) STRICT`);
  return db;
}

function floorOnce(db: Database.Database, text: string, entries: unknown[]): number {
  const insert = db.prepare(
    'INSERT INTO messages (send_id, account_id, receptor, status, cost_rials, created_at) VALUES (?, ?, ?, 1, ?, ?)',
  );
  const start = performance.now();
  const parsed = JSON.parse(text) as { receivers: string[] };
  db.transaction(() => {
    for (const receptor of parsed.receivers) insert.run(1, 1, receptor, 1500, 1_790_000_000);
  })();
  JSON.stringify(entries);
  return performance.now() - start;
}

const send10k: BenchCase = {
  name: 'send10k',
  async run() {
    const dir = tempDir('chapar-bench-');
    const seedFile = path.join(dir, 'seed.json');
    const seed = testSeed();
    seed.accounts![0]!.credit_rials = 1_000_000_000_000;
    // A long handoff keeps the gateway idle during the measurement: the case measures the send path.
    seed.simulator = { seed: 7, handoff_ms: 600_000, delivery_ms: 600_000, outcomes: { '10': 1 } };
    fs.writeFileSync(seedFile, JSON.stringify(seed));
    const server = await spawnServe({ dataDir: path.join(dir, 'data'), seedFile });
    const floorDb = floorDatabase(path.join(dir, 'floor.db'));
    const latencies: number[] = [];
    const floors: number[] = [];
    try {
      for (let run = 0; run < WARMUP + RUNS; run++) {
        const text = body(run);
        const start = performance.now();
        const response = await fetch(`${server.url}/v2/sms/send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
          body: text,
        });
        // Latency ends when the whole answer has arrived; checking it is not part of the case.
        const bytes = await response.arrayBuffer();
        const elapsed = performance.now() - start;
        const answer = JSON.parse(new TextDecoder().decode(bytes)) as { entries: unknown[] };
        if (response.status !== 200 || answer.entries.length !== RECEIVERS)
          throw new Error(`send failed: ${response.status}`);
        const floor = floorOnce(floorDb, text, answer.entries);
        if (run >= WARMUP) {
          latencies.push(elapsed);
          floors.push(floor);
        }
      }
    } finally {
      await server.stop();
      floorDb.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const ms = median(latencies);
    const floorMs = median(floors);
    return {
      name: 'send10k',
      ms,
      floorMs,
      ratio: ms / floorMs,
      target: 'ratio <= 2.0, >= 150,000 msg/s',
      extra: { messages_per_s: Math.round((RECEIVERS / ms) * 1000), runs: RUNS },
    };
  },
};

export default send10k;
