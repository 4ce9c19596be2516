// Status pushes and list reads travel on different channels, so a page read from the database can
// arrive after a push that is newer than it. The lifecycle only moves forward (its table,
// shared/lifecycle.ts), so of two statuses seen for one message the further one is the newer;
// recent pushes are kept for a while and merged into every page that arrives.
import { furtherStatus } from '../../../shared/lifecycle';

/** The newer of two statuses of one message. */
export const newerStatus = furtherStatus;

/** A read in flight lasts far less than this; older pushes are already in what the database answers. */
const KEEP_MS = 30_000;

export class RecentStatuses {
  private readonly seen = new Map<number, { status: number; at: number }>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  record(changes: ReadonlyArray<{ id: number; status: number }>): void {
    const at = this.now();
    for (const { id, status } of changes) {
      const previous = this.seen.get(id);
      // Delete first so the map's order stays the order of the last push (pruned from the front).
      this.seen.delete(id);
      this.seen.set(id, { status: previous ? newerStatus(previous.status, status) : status, at });
    }
    for (const [id, entry] of this.seen) {
      if (at - entry.at < KEEP_MS) break;
      this.seen.delete(id);
    }
  }

  /** Rows with any newer status a recent push carried. */
  merge<R extends { id: number; status: number }>(
    rows: R[],
    withStatus: (row: R, status: number) => R = (row, status) => ({ ...row, status }),
  ): R[] {
    if (this.seen.size === 0) return rows;
    return rows.map((row) => {
      const pushed = this.seen.get(row.id);
      if (!pushed) return row;
      const status = newerStatus(row.status, pushed.status);
      return status === row.status ? row : withStatus(row, status);
    });
  }

  clear(): void {
    this.seen.clear();
  }
}
