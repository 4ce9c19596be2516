// Messages are numbered in the order they are created (a send takes the next ids in its own
// transaction), so created_at never decreases along ids. The ids that bound a time range are found
// by a binary search over the rowid, about 20 lookups at a million messages, instead of an index on
// created_at that every send would write 10,000 entries into (migration 0005).
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';

/** Ids a caller already knows to bound the search (retention: the range it is removing). */
export interface IdBounds {
  lo: number;
  hi: number;
}

export class CreatedOrder {
  private readonly boundsStmt: Statement<[], { lo: number | null; hi: number | null }>;
  private readonly atOrAfterStmt: Statement<[number], { id: number; created_at: number }>;
  private readonly lastBelowStmt: Statement<[number, number], { id: number | null }>;

  constructor(db: Db) {
    // Two subqueries: each is one step down the primary key. (MIN and MAX in one SELECT lose SQLite's
    // shortcut and scan every message: 650 ms at ten million.)
    this.boundsStmt = db.prepare('SELECT (SELECT MIN(id) FROM messages) AS lo, (SELECT MAX(id) FROM messages) AS hi');
    this.atOrAfterStmt = db.prepare('SELECT id, created_at FROM messages WHERE id >= ? ORDER BY id LIMIT 1');
    this.lastBelowStmt = db.prepare('SELECT MAX(id) AS id FROM messages WHERE id >= ? AND id < ?');
  }

  /** The first message id (within `bounds`, else all) created at or after `at` (ms), or null when there is none. */
  firstIdFrom(at: number, bounds?: IdBounds): number | null {
    const within = bounds ?? this.bounds();
    if (within === null) return null;
    let { lo, hi } = within;
    let found: number | null = null;
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      // The first existing id from mid on: ids may have gaps (messages removed before).
      const row = this.atOrAfterStmt.get(mid);
      if (!row || row.id > hi) hi = mid - 1;
      else if (row.created_at >= at) {
        found = row.id;
        hi = mid - 1;
      } else lo = row.id + 1;
    }
    return found;
  }

  /** The last message id (within `bounds`, else all) created before `at` (ms), or null when there is none. */
  lastIdBefore(at: number, bounds?: IdBounds): number | null {
    const within = bounds ?? this.bounds();
    if (within === null) return null;
    const first = this.firstIdFrom(at, within);
    return this.lastBelowStmt.get(within.lo, first === null ? within.hi + 1 : first)!.id;
  }

  private bounds(): IdBounds | null {
    const { lo, hi } = this.boundsStmt.get()!;
    return lo === null || hi === null ? null : { lo, hi };
  }
}
