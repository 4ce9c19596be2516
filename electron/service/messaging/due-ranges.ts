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

export class DueRanges {
  private readonly firstStmt;
  private readonly nextStmt;
  private readonly dropStmt;
  private readonly shrinkStmt;
  private readonly addStmt;
  private readonly withdrawStmt;

  constructor(db: Db, table: 'message_due' | 'simulator_due') {
    this.firstStmt = db.prepare<[number], DueRange>(
      `SELECT due_at, first_id, last_id FROM ${table} WHERE due_at <= ? ORDER BY due_at, first_id LIMIT 1`,
    );
    this.nextStmt = db.prepare<[], { due: number | null }>(`SELECT MIN(due_at) AS due FROM ${table}`);
    this.dropStmt = db.prepare(`DELETE FROM ${table} WHERE due_at = ? AND first_id = ?`);
    this.shrinkStmt = db.prepare(`UPDATE ${table} SET first_id = ? WHERE due_at = ? AND first_id = ?`);
    this.addStmt = db.prepare(`INSERT INTO ${table} (due_at, first_id, last_id) VALUES (?, ?, ?)`);
    this.withdrawStmt = db.prepare(`DELETE FROM ${table} WHERE first_id >= ? AND last_id <= ?`);
  }

  /** The earliest range due at `now`, or undefined. */
  firstDue(now: number): DueRange | undefined {
    return this.firstStmt.get(now);
  }

  /**
   * One batch of due work: the ranges due at `now`, earliest first, read with `read` (rows of
   * first..last, at most `limit`) until `limit` rows are taken, each range taken off as far as its
   * rows were read. Many ranges, not one: a program sending one message per request leaves a range
   * of one message per request, and a batch per range would make a transaction per message.
   * Returns each range's rows (in its own array: moves that go over a range at once, as the
   * lifecycle's hand-over, must not reach past it), or null when nothing was due. Inside the
   * caller's transaction.
   */
  takeDue<T>(
    now: number,
    limit: number,
    read: (firstId: number, lastId: number, limit: number) => T[],
    idOf: (row: T) => number,
  ): T[][] | null {
    const taken: T[][] = [];
    let due = false;
    // Each range costs one of the budget at least: a range whose messages are all gone still ends.
    for (let budget = limit; budget > 0;) {
      const range = this.firstStmt.get(now);
      if (!range) break;
      due = true;
      const rows = read(range.first_id, range.last_id, budget);
      this.consume(range, rows.length < budget ? range.last_id : idOf(rows[rows.length - 1]!));
      if (rows.length > 0) taken.push(rows);
      budget -= Math.max(1, rows.length);
    }
    return due ? taken : null;
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

  /** Takes first_id..through off the front of a range (the whole range when through reaches its end). */
  consume(range: DueRange, through: number): void {
    if (through >= range.last_id) this.dropStmt.run(range.due_at, range.first_id);
    else this.shrinkStmt.run(through + 1, range.due_at, range.first_id);
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
