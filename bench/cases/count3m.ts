// count3m: issue 30's counts over dates. A workspace with 3,000,000 messages sent in the last hour
// (bench/support/busy-hour-workspace.ts), so a date range's partial 15-minute slots at its ends hold
// up to 750,000 messages each. RANGES seeded random counts (messages:count's own call), their ends
// within the last hour or up to two days back, with or without a status, an account, a line and an
// origin, each timed:
// - the case: MessageQueries.count as the core runs it (whole slots from the aggregates, the ends
//   from the message states and sources);
// - the floor: what such a count cannot do without, done raw: the whole slots' sum from the
//   aggregates and the two ends' rows of states and sources read whole (no per-message work);
// - in `extra`, the same counts with the ends scanned on a reader thread, as before (a
//   MessageQueries without the states), each compared with the case's: a difference throws.
import fs from 'node:fs';
import path from 'node:path';
import { Core } from '../../electron/service/core';
import { MessageQueries } from '../../electron/service/messaging/queries';
import { SLOT_MS } from '../../electron/service/messaging/counts';
import { STATES_CHUNK } from '../../electron/service/messaging/message-states';
import { CreatedOrder } from '../../electron/service/messaging/created-order';
import { mulberry32 } from '../../electron/service/seeded-random';
import { tempDir } from '../../test/helpers/server';
import type { MessageFilter } from '../../shared/ipc/schemas';
import { median, percentile, type BenchCase } from '../case';
import { buildBusyHourWorkspace, type BusyHourWorkspace } from '../support/busy-hour-workspace';

const RANGES = 100;
const WARMUP = 5;
const HOUR = 3_600_000;

function randomFilters(workspace: BusyHourWorkspace, count: number): MessageFilter[] {
  const random = mulberry32(30);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  return Array.from({ length: count }, () => {
    const a = workspace.now - (random() < 0.3 ? random() * 48 * HOUR : random() * HOUR);
    const b = workspace.now - random() * HOUR;
    const filter: MessageFilter = { from: Math.floor(Math.min(a, b)), to: Math.floor(Math.max(a, b)) };
    if (random() < 0.1) delete filter.to;
    const statuses = random();
    if (statuses < 0.3) filter.status = [pick([1, 2, 4, 6, 10, 11, 13, 14])];
    else if (statuses < 0.45) filter.status = [11, 13, 14];
    if (random() < 0.4) filter.account_id = pick(workspace.accounts);
    if (random() < 0.3) filter.sender = pick(workspace.lines);
    if (random() < 0.3) filter.origin = pick(['api', 'panel', 'campaign'] as const);
    return filter;
  });
}

/** The floor of one count: the whole slots' aggregate rows summed, the ends' rows read whole. */
function floorOnce(core: Core, order: CreatedOrder, filter: MessageFilter): number {
  const from = filter.from ?? 0;
  const to = filter.to ?? Number.MAX_SAFE_INTEGER;
  const firstSlot = Math.ceil(from / SLOT_MS);
  const endSlot = Math.max(firstSlot, Math.floor(to / SLOT_MS));
  const start = performance.now();
  core.db
    .prepare(
      'SELECT sum(n) FROM message_counts WHERE account_id IN (SELECT id FROM accounts) AND slot >= ? AND slot < ?',
    )
    .get(firstSlot, endSlot);
  // Read into buffers (SQLite answers length() from a row's header, without its bytes).
  const rows = core.db
    .prepare(
      'SELECT s.states, o.sources FROM message_states s JOIN message_sources o USING (chunk) WHERE chunk BETWEEN ? AND ?',
    )
    .raw();
  for (const [lo, hi] of [
    [from, Math.min(to, firstSlot * SLOT_MS)],
    [Math.max(from, endSlot * SLOT_MS), to],
  ] as const) {
    const first = order.firstIdFrom(lo);
    const last = order.lastIdBefore(hi);
    if (first !== null && last !== null && first <= last)
      rows.all(Math.floor(first / STATES_CHUNK), Math.floor(last / STATES_CHUNK));
  }
  return performance.now() - start;
}

const count3m: BenchCase = {
  name: 'count3m',
  async run() {
    const dir = tempDir('chapar-bench-');
    process.stdout.write('  building 3,000,000 messages in the last hour ...\n');
    const workspace = await buildBusyHourWorkspace(path.join(dir, 'data'));
    const core = new Core({ dataDir: workspace.dataDir, startScheduler: false });
    const scanning = new MessageQueries(core.db, core.readers);
    const order = new CreatedOrder(core.db);
    const cases: number[] = [];
    const floors: number[] = [];
    const scans: number[] = [];
    try {
      const filters = randomFilters(workspace, WARMUP + RANGES);
      for (const [i, filter] of filters.entries()) {
        let start = performance.now();
        const counted = await core.messaging.queries.count(filter);
        const ms = performance.now() - start;
        start = performance.now();
        const scanned = await scanning.count(filter);
        const scanMs = performance.now() - start;
        if (counted !== scanned) throw new Error(`${JSON.stringify(filter)}: ${counted}, scanned ${scanned}`);
        const floor = floorOnce(core, order, filter);
        if (i < WARMUP) continue;
        cases.push(ms);
        scans.push(scanMs);
        floors.push(floor);
      }
    } finally {
      await core.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const ms = median(cases);
    const floorMs = median(floors);
    const round = (value: number) => Math.round(value * 10) / 10;
    return {
      name: 'count3m',
      ms,
      floorMs,
      ratio: ms / floorMs,
      target: 'p99 < 100 ms at any period',
      extra: {
        p99_ms: round(percentile(cases, 99)),
        max_ms: round(Math.max(...cases)),
        floor_p99_ms: round(percentile(floors, 99)),
        ends_scanned_p50_ms: round(median(scans)),
        ends_scanned_p99_ms: round(percentile(scans, 99)),
        ranges: RANGES,
      },
    };
  },
};

export default count3m;
