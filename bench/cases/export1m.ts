// export1m: the per-recipient report of one campaign execution of 1,000,000 messages (100 batches
// of 10,000, personalized texts with a short link, a status mix, 50,000 clicks), in a store built
// by the real migrations, exported to CSV and to XLSX by campaigns/export.ts (keyset pages, a turn
// of the event loop between pages, `.part` then rename). Next to the floor measured in the same
// run: one raw SELECT of the same rows (no paging, no yielding) written in the same line format to
// a file in large synchronous writes; the two files must be byte for byte the same. XLSX: its time
// and the growth of the process's RSS while it runs (sampled), which stays flat when it streams.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../../electron/service/db/database';
import {
  exportExecution,
  reportDateCells,
  reportHeaders,
  reportStatusText,
  CSV_PIECE,
} from '../../electron/service/campaigns/export';
import { csvField } from '../../electron/service/contacts/csv';
import { median, type BenchCase } from '../case';

const MESSAGES = 1_000_000;
const BATCH = 10_000;
const CLICK_EVERY = 20;
const RUNS = 3;
const LANGUAGE = 'en';

export function build(db: Db): number {
  const now = Date.UTC(2026, 10, 20, 6, 30);
  db.transaction(() => {
    db.prepare(`INSERT INTO accounts (id, name, credit_rials, created_at) VALUES (1, 'bench', 0, ?)`).run(now);
    db.prepare(
      `INSERT INTO lines (id, account_id, number, provider, can_send_panel_campaign, created_at)
       VALUES (1, 1, '30001111', 'sms', 1, ?)`,
    ).run(now);
    db.prepare(
      `INSERT INTO campaigns (id, account_id, name, sender, template_body, utm_source, utm_medium, utm_campaign, created_at)
       VALUES (1, 1, 'bench', '30001111', 'سلام {{NAME}}، تخفیف این هفته: https://example.com/sale', 'chapar', 'sms', '1', ?)`,
    ).run(now);
    db.prepare(
      `INSERT INTO campaign_executions (id, campaign_id, account_id, status, send_datetime, send_at, frozen, audience,
         recorded, created_at, started_at, finished_at)
       VALUES (1, 1, 1, 'COMPLETED', '2026-11-20T10:00:00+03:30', ?, ?, ?, ?, ?, ?, ?)`,
    ).run(now, MESSAGES, MESSAGES, MESSAGES, now, now, now + 3_600_000);
    const batches = MESSAGES / BATCH;
    const send = db.prepare(
      `INSERT INTO sends (id, account_id, line_id, sender, provider, text, pages, origin, message_count, total_rials, created_at)
       VALUES (?, 1, 1, '30001111', 'sms', 'سلام {{NAME}}، تخفیف این هفته: https://example.com/sale', 1, 'campaign', ?, ?, ?)`,
    );
    const batch = db.prepare(
      `INSERT INTO campaign_batches (execution_id, first_seq, count, send_id, first_message_id, due_at)
       VALUES (1, ?, ?, ?, ?, ?)`,
    );
    for (let b = 0; b < batches; b++) {
      send.run(b + 1, BATCH, BATCH * 1500, now + b * 36_000);
      batch.run(b * BATCH, BATCH, b + 1, b * BATCH + 1, now + b * 36_000);
    }
    // Statuses as a simulator run leaves them: mostly delivered, some failed, cancelled, blocked.
    // One text in ten carries an ASCII comma (quoted in CSV), the rest a Persian one.
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${MESSAGES - 1})
       INSERT INTO messages (id, send_id, account_id, receptor, status, cost_rials, created_at, handed_at, final_at, text)
       SELECT i + 1, i / ${BATCH} + 1, 1, '98912' || printf('%07d', (i * 7919) % 10000000),
         CASE WHEN i % 100 < 85 THEN 10 WHEN i % 100 < 93 THEN 11 WHEN i % 100 < 96 THEN 13 WHEN i % 100 < 98 THEN 14 ELSE 6 END,
         1500, ? + (i / ${BATCH}) * 36000, ? + (i / ${BATCH}) * 36000 + 300, ? + (i / ${BATCH}) * 36000 + 1800,
         'سلام مشتری ' || i || CASE WHEN i % 10 = 0 THEN ', ' ELSE '، ' END ||
           'تخفیف این هفته: https://l.chapar.local/l/' || substr(hex(randomblob(4)), 1, 7)
       FROM n`,
    ).run(now, now, now);
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + ${CLICK_EVERY} FROM n WHERE i < ${MESSAGES - CLICK_EVERY})
       INSERT INTO campaign_clicks (execution_id, message_id, link_idx, clicked_at, user_agent)
       SELECT 1, i + 1, 0, ? + i, 'Mozilla/5.0' FROM n`,
    ).run(now + 7_200_000);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  return MESSAGES;
}

/**
 * The floor: the same rows by one SELECT, iterated without paging, each line built as the export
 * builds it (same status cells, dates, quoting), written in 2 MB synchronous writes.
 */
export function floorOnce(db: Db, file: string): number {
  const start = performance.now();
  const statusCell = new Map<number, string>();
  const date = reportDateCells(LANGUAGE, 'Asia/Tehran');
  const delivered = reportDateCells(LANGUAGE, 'Asia/Tehran');
  const fd = fs.openSync(file, 'w');
  let out = '\ufeff' + reportHeaders(LANGUAGE).map(csvField).join(',') + '\n';
  const rows = db
    .prepare<[number], [number, string, number, number, number, string, number, number | null]>(
      `SELECT m.id, m.receptor, m.status, m.cost_rials, m.created_at, COALESCE(m.text, s.text),
         (SELECT count(*) FROM campaign_clicks c WHERE c.message_id = m.id),
         CASE WHEN m.status = 10 THEN m.final_at END
       FROM campaign_batches b
       JOIN messages m ON m.id BETWEEN b.first_message_id AND b.first_message_id + b.count - 1 AND m.send_id = b.send_id
       JOIN sends s ON s.id = b.send_id
       WHERE b.execution_id = ? ORDER BY b.first_seq, m.id`,
    )
    .raw()
    .iterate(1);
  for (const [id, receptor, status, cost, createdAt, text, clicks, deliveredAt] of rows) {
    let cell = statusCell.get(status);
    if (cell === undefined)
      statusCell.set(status, (cell = status + ',' + csvField(reportStatusText(status, LANGUAGE))));
    out +=
      id +
      ',' +
      csvField(receptor) +
      ',' +
      cell +
      ',' +
      cost +
      ',' +
      date(createdAt) +
      ',' +
      (deliveredAt === null ? ',' : delivered(deliveredAt)) +
      ',' +
      clicks +
      ',' +
      csvField(text) +
      '\n';
    if (out.length >= CSV_PIECE) {
      fs.writeSync(fd, out);
      out = '';
    }
  }
  fs.writeSync(fd, out);
  fs.closeSync(fd);
  return performance.now() - start;
}

/** Runs `work` while sampling RSS and the event loop's longest stall. */
async function observed<T>(
  work: () => Promise<T>,
): Promise<{ value: T; ms: number; rssGrowthMb: number; peakRssMb: number; maxStallMs: number }> {
  const base = process.memoryUsage.rss();
  let peak = base;
  let last = performance.now();
  let maxStall = 0;
  const sampler = setInterval(() => {
    const t = performance.now();
    maxStall = Math.max(maxStall, t - last);
    last = t;
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const start = performance.now();
  try {
    const value = await work();
    return {
      value,
      ms: performance.now() - start,
      rssGrowthMb: (peak - base) / 2 ** 20,
      peakRssMb: peak / 2 ** 20,
      maxStallMs: maxStall,
    };
  } finally {
    clearInterval(sampler);
  }
}

const export1m: BenchCase = {
  name: 'export1m',
  async run() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chapar-bench-export-'));
    const db = openDatabase({ file: path.join(dir, 'chapar.db') });
    try {
      build(db);
      const csvFile = path.join(dir, 'report.csv');
      const floorFile = path.join(dir, 'floor.csv');
      const times: number[] = [];
      const floors: number[] = [];
      const stalls: number[] = [];
      // One warm-up of each (page cache, JIT), then alternate so drift hits both alike.
      floorOnce(db, floorFile);
      await exportExecution(db, { executionId: 1, format: 'csv', file: csvFile, language: LANGUAGE });
      for (let run = 0; run < RUNS; run++) {
        floors.push(floorOnce(db, floorFile));
        const csv = await observed(() =>
          exportExecution(db, { executionId: 1, format: 'csv', file: csvFile, language: LANGUAGE }),
        );
        if (csv.value.rows !== MESSAGES) throw new Error(`CSV export wrote ${csv.value.rows} rows`);
        times.push(csv.ms);
        stalls.push(csv.maxStallMs);
      }
      if (!fs.readFileSync(csvFile).equals(fs.readFileSync(floorFile)))
        throw new Error('the export and the floor wrote different files');
      const csvBytes = fs.statSync(csvFile).size;
      fs.rmSync(floorFile);

      const xlsxFile = path.join(dir, 'report.xlsx');
      const xlsx = await observed(() =>
        exportExecution(db, { executionId: 1, format: 'xlsx', file: xlsxFile, language: 'fa' }),
      );
      if (xlsx.value.rows !== MESSAGES) throw new Error(`XLSX export wrote ${xlsx.value.rows} rows`);

      const ms = median(times);
      const floorMs = median(floors);
      return {
        name: 'export1m',
        ms,
        floorMs,
        ratio: ms / floorMs,
        target: 'CSV ratio <= 1.5; XLSX streamed (flat RSS)',
        extra: {
          'csv rows/s': Math.round(MESSAGES / (ms / 1000)),
          'csv MB': (csvBytes / 2 ** 20).toFixed(1),
          'csv max stall ms': Math.round(Math.max(...stalls)),
          'xlsx ms': Math.round(xlsx.ms),
          'xlsx rows/s': Math.round(MESSAGES / (xlsx.ms / 1000)),
          'xlsx MB': (fs.statSync(xlsxFile).size / 2 ** 20).toFixed(1),
          'xlsx RSS growth MB': Math.round(xlsx.rssGrowthMb),
          'xlsx peak RSS MB': Math.round(xlsx.peakRssMb),
          'xlsx max stall ms': Math.round(xlsx.maxStallMs),
        },
      };
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default export1m;
