// Messages are numbered in the order they are created (a send takes the next ids in its own
// transaction), so created_at never decreases along ids. The ids that bound a time range are found
// by a binary search over the rowid, about 20 lookups at a million messages, instead of an index on
// created_at that every send would write 10,000 entries into (migration 0005).
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';

export class CreatedOrder {
  private readonly boundsStmt: Statement<[], { lo: number | null; hi: number | null }>;
  private readonly atOrAfterStmt: Statement<[number], { id: number; created_at: number }>;
  private readonly beforeStmt: Statement<[number], { id: number | null }>;

  constructor(db: Db) {
    // Two subqueries: each is one step down the primary key. (MIN and MAX in one SELECT lose SQLite's
    // shortcut and scan every message: 650 ms at ten million.)
    this.boundsStmt = db.prepare('SELECT (SELECT MIN(id) FROM messages) AS lo, (SELECT MAX(id) FROM messages) AS hi');
    this.atOrAfterStmt = db.prepare('SELECT id, created_at FROM messages WHERE id >= ? ORDER BY id LIMIT 1');
    this.beforeStmt = db.prepare('SELECT MAX(id) AS id FROM messages WHERE id < ?');
  }

  /** The first message id created at or after `at` (ms), or null when there is none. */
  firstIdFrom(at: number): number | null {
    const { lo: min, hi: max } = this.boundsStmt.get()!;
    if (min === null || max === null) return null;
    let lo = min;
    let hi = max;
    let found: number | null = null;
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      // The first existing id from mid on: ids may have gaps, and mid <= max keeps one in reach.
      const row = this.atOrAfterStmt.get(mid)!;
      if (row.created_at >= at) {
        found = row.id;
        hi = mid - 1;
      } else lo = row.id + 1;
    }
    return found;
  }

  /** The last message id created before `at` (ms), or null when there is none. */
  lastIdBefore(at: number): number | null {
    const first = this.firstIdFrom(at);
    return first === null ? (this.boundsStmt.get()!.hi ?? null) : this.beforeStmt.get(first)!.id;
  }
}
