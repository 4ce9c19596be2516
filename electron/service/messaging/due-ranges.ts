// When messages are next due, kept as ranges of consecutive message ids sharing a due time
// (migration 0005): a send's messages have consecutive ids and one due time, and they move in
// batches of consecutive ids, so one row says what an indexed column said 10,000 times. A range
// may span messages that have moved on since; whoever reads it passes over those.
// The lifecycle keeps its moves in message_due; a carrier that reports later (the simulator) keeps
// its own in a table of the same shape.
import type { Db } from '../db/database';

export interface DueRange {
  due_at: number;
  first_id: number;
  last_id: number;
}

/** Due ranges as a JSON list of [first_id, last_id], in due order: what a takeDue read binds. */
export type DueRangesJson = string & { readonly dueRanges: unique symbol };

function dueRangesJson(ranges: readonly DueRange[]): DueRangesJson {
  return JSON.stringify(ranges.map((range) => [range.first_id, range.last_id])) as DueRangesJson;
}

/**
 * The FROM of a takeDue read over messages: each message `m` of the ranges bound as DueRangesJson,
 * with `r.key` its range's index. No ORDER BY, and a LIMIT: the ranges come first (CROSS JOIN fixes
 * the loop), in their order, and each is a range of the primary key, read in id order, so the rows
 * come earliest due range first, each range's in id order, and the LIMIT stops the read there. An
 * ORDER BY made SQLite sort every row of the ranges first: a range of 2,500 messages was read whole
 * at each step of 500 (bench handover100k, a third slower). takeDue checks the order it got.
 */
export const RANGE_MESSAGES = 'json_each(?) r CROSS JOIN messages m ON m.id BETWEEN r.value ->> 0 AND r.value ->> 1';

/** Rows read over `n` ranges, put in an array per range; throws when they did not come in range and id order. */
function byRange<T>(n: number, rows: readonly T[], rangeOf: (row: T) => number, idOf: (row: T) => number): T[][] {
  const ranges: T[][] = Array.from({ length: n }, () => []);
  let lastRange = -1;
  let lastId = -Infinity;
  for (const row of rows) {
    const range = rangeOf(row);
    const id = idOf(row);
    if (range < lastRange || (range === lastRange && id <= lastId))
      throw new Error('due messages were not read in the order of their ranges');
    lastRange = range;
    lastId = id;
    ranges[range]!.push(row);
  }
  return ranges;
}

export class DueRanges {
  private readonly dueStmt;
  private readonly dropThroughStmt;
  private readonly nextStmt;
  private readonly shrinkStmt;
  private readonly addStmt;
  private readonly withdrawStmt;

  constructor(db: Db, table: 'message_due' | 'simulator_due') {
    this.dueStmt = db.prepare<[number, number], DueRange>(
      `SELECT due_at, first_id, last_id FROM ${table} WHERE due_at <= ? ORDER BY due_at, first_id LIMIT ?`,
    );
    this.dropThroughStmt = db.prepare(`DELETE FROM ${table} WHERE (due_at, first_id) <= (?, ?)`);
    this.nextStmt = db.prepare<[], { due: number | null }>(`SELECT MIN(due_at) AS due FROM ${table}`);
    this.shrinkStmt = db.prepare(`UPDATE ${table} SET first_id = ? WHERE due_at = ? AND first_id = ?`);
    this.addStmt = db.prepare(`INSERT INTO ${table} (due_at, first_id, last_id) VALUES (?, ?, ?)`);
    this.withdrawStmt = db.prepare(`DELETE FROM ${table} WHERE first_id >= ? AND last_id <= ?`);
  }

  /**
   * One batch of due work: the ranges due at `now`, earliest first, with their rows read by `read`
   * (at most `limit`), each range taken off as far as its rows were taken, until `limit` rows are
   * taken. Many ranges, not one: a program sending one message per request leaves a range of one
   * message per request, and a batch per range would make a transaction per message. `read` reads
   * all the ranges in one statement (RANGE_MESSAGES), and `rangeOf` tells which range a row is of.
   * Returns each range's rows (in its own array: moves that go over a range at once must not reach
   * past it), or null when nothing was due. Inside the caller's transaction.
   */
  takeDue<T>(
    now: number,
    limit: number,
    read: (ranges: DueRangesJson, limit: number) => T[],
    idOf: (row: T) => number,
    rangeOf: (row: T) => number,
  ): T[][] | null {
    // Each range costs one of the budget at least: a range whose messages are all gone still ends.
    const ranges = this.dueStmt.all(now, limit);
    if (ranges.length === 0) return null;
    const perRange = byRange(ranges.length, read(dueRangesJson(ranges), limit), rangeOf, idOf);
    const taken: T[][] = [];
    let budget = limit;
    // The ranges read to their end, from the first: taken off together below.
    let whole = 0;
    for (const [i, range] of ranges.entries()) {
      if (budget <= 0) break;
      // What a read of this range alone, limited to the budget left, would have given: the one read
      // holds at least that much of it, since the ranges before took no more than their rows.
      const rows = perRange[i]!.slice(0, budget);
      if (rows.length > 0) taken.push(rows);
      if (rows.length < budget) {
        whole++;
        budget -= Math.max(1, rows.length);
      } else {
        // The budget ends in this range: the rest of it stays due as it was.
        const through = idOf(rows[rows.length - 1]!);
        if (through >= range.last_id) whole++;
        else this.shrinkStmt.run(through + 1, range.due_at, range.first_id);
        budget = 0;
      }
    }
    // They were the first in (due_at, first_id) order: every range up to the last of them goes.
    if (whole > 0) this.dropThroughStmt.run(ranges[whole - 1]!.due_at, ranges[whole - 1]!.first_id);
    return taken;
  }

  /** When the next range is due (ms), or null when none waits. */
  nextDueAt(): number | null {
    return this.nextStmt.get()?.due ?? null;
  }

  add(dueAt: number, firstId: number, lastId: number): void {
    this.addStmt.run(dueAt, firstId, lastId);
  }

  /** Removes the ranges lying inside firstId..lastId (a whole send's, or what is left of it); returns how many. */
  withdraw(firstId: number, lastId: number): number {
    return this.withdrawStmt.run(firstId, lastId).changes;
  }
}

/**
 * Collects ids moved in ascending order into runs that share their next due time, and adds each
 * run as one range. With `acrossGaps`, an id that does not wait (final) between two of a run stays
 * inside it: passing over it later costs less than a range per gap. That holds only where every id
 * between is known to be one of the same moves (one due range of one send): ids gathered from
 * several ranges break a run at each gap, since the id between may be another send's.
 */
export class DueRuns {
  private run: DueRange | null = null;

  constructor(
    private readonly ranges: DueRanges,
    private readonly acrossGaps = true,
  ) {}

  push(id: number, dueAt: number): void {
    if (this.run !== null && this.run.due_at === dueAt && (this.acrossGaps || id === this.run.last_id + 1))
      this.run.last_id = id;
    else {
      this.flush();
      this.run = { due_at: dueAt, first_id: id, last_id: id };
    }
  }

  flush(): void {
    if (this.run !== null) this.ranges.add(this.run.due_at, this.run.first_id, this.run.last_id);
    this.run = null;
  }
}
