// readers: the main thread stays free while a reader thread runs a slow query (the budget
// electron/service/db/readers.test.ts asserted before the suite kept only a generous bound: the
// longest gap between 5 ms ticks under 200 ms). RUNS slow queries (a 4,000,000-row recursive
// count) on the reader pool, each timed with a 5 ms ticker beside it:
// - the case: the query's wall time on the reader thread;
// - the floor: the same query run on the main thread's own connection (the work, without the pool);
// - in `extra`, the longest gap between the ticker's ticks during the pool's queries (p99 and max
//   of the runs' longest; the budget is max < 200 ms) and with the main thread idle.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../electron/service/db/database';
import { ReaderPool } from '../../electron/service/db/readers';
import { tempDir } from '../../test/helpers/server';
import { median, percentile, type BenchCase } from '../case';

const RUNS = Number(process.env.CHAPAR_BENCH_READERS_RUNS ?? 10);
const SLOW = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT count(*) AS n FROM c';
const SLOW_N = 4_000_000;
const TICK_MS = 5;

/** The longest gap between ticks (ms) while `work` runs, and the work's own time. */
async function ticked(work: () => Promise<unknown>): Promise<{ ms: number; longestGap: number }> {
  let last = performance.now();
  let longestGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
  }, TICK_MS);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(ticker);
  }
  return { ms: performance.now() - started, longestGap };
}

const readers: BenchCase = {
  name: 'readers',
  async run() {
    const dir = tempDir('chapar-bench-readers-');
    const file = path.join(dir, 'chapar.db');
    const db = openDatabase({ file });
    const pool = new ReaderPool({ file });
    try {
      await pool.get('SELECT 1');
      const idle = await ticked(() => new Promise((resolve) => setTimeout(resolve, 500)));
      const times: number[] = [];
      const gaps: number[] = [];
      const floors: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const slow = await ticked(() => pool.get(SLOW, [SLOW_N]));
        times.push(slow.ms);
        gaps.push(slow.longestGap);
        const started = performance.now();
        db.prepare(SLOW).get(SLOW_N);
        floors.push(performance.now() - started);
      }
      const ms = median(times);
      const floorMs = median(floors);
      return {
        name: 'readers',
        ms,
        floorMs,
        ratio: ms / floorMs,
        target: 'ratio about 1 (the thread adds no work); longest gap max < 200 ms',
        extra: {
          'longest gap p99 ms': Number(percentile(gaps, 99).toFixed(1)),
          'longest gap max ms': Number(Math.max(...gaps).toFixed(1)),
          'idle longest gap ms': Number(idle.longestGap.toFixed(1)),
        },
      };
    } finally {
      await pool.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default readers;
