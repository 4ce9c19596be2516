// The delivery gateway that moves accepted messages on (PRODUCT.md "Message lifecycle without a
// carrier"). The simulator: 1 -> 4 after handoff_ms, 4 -> one final status after delivery_ms, the
// outcome drawn from the configured shares by a hash of (seed, message id), so a seed always gives
// the same outcomes. Opted-out receivers end as 14 without reaching the carrier, refunded.
// Every move is guarded by the status it moves from, in one transaction per batch: a crash
// between batches loses nothing, and a restart never moves a message twice.
// What is due when lives in message_due as ranges of consecutive ids (migration 0005): a send
// adds one range, each batch moved takes its ids off the front of a range and adds one range for
// their next move. A range may span messages that are final by now; they are passed over.
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Credit } from '../accounts/credit';
import type { Settings, SimulatorSettings } from '../settings/settings';
import { FINAL_STATUSES, MessageStatus, type MessageStatus as Status } from '../../../shared/status';

export interface StatusChange {
  id: number;
  account_id: number;
  status: Status;
}

interface DueRow {
  id: number;
  account_id: number;
  receptor: string;
  status: number;
  cost_rials: number;
}

// Messages moved per step (one transaction), all from one due range. Kept small so a step is a few
// milliseconds: the scheduler yields between steps, and IPC/HTTP calls wait at most one step
// (test/responsiveness).
const BATCH = 500;

/** A deterministic uniform number in [0, 1) from (seed, id): splitmix32-style mixing. */
export function draw(seed: number, id: number): number {
  let h = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(id | 0, 0x85ebca6b) ^ Math.floor(id / 0x100000000)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 0x100000000;
}

// The simulator ends every message in one of the final statuses.
const OUTCOMES = FINAL_STATUSES;

export function outcomeFor(simulator: SimulatorSettings, id: number): Status {
  const shares = OUTCOMES.map((status) => Math.max(0, simulator.outcomes[String(status) as '10'] ?? 0));
  const total = shares.reduce((a, b) => a + b, 0);
  let x = draw(simulator.seed, id) * total;
  for (let i = 0; i < OUTCOMES.length; i++) {
    x -= shares[i]!;
    if (x < 0) return OUTCOMES[i]!;
  }
  return MessageStatus.Delivered;
}

export class Gateway {
  private readonly firstDueStmt;
  private readonly nextDueStmt;
  private readonly rangeStmt;
  private readonly optedOutStmt;
  private readonly handStmt;
  private readonly finishStmt;
  private readonly releaseStmt;
  private readonly dropRangeStmt;
  private readonly shrinkRangeStmt;
  private readonly addRangeStmt;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly credit: Credit,
    private readonly settings: Settings,
  ) {
    this.firstDueStmt = db.prepare<[number], DueRange>(
      'SELECT due_at, first_id, last_id FROM message_due WHERE due_at <= ? ORDER BY due_at, first_id LIMIT 1',
    );
    this.nextDueStmt = db.prepare<[], { due: number | null }>('SELECT MIN(due_at) AS due FROM message_due');
    this.rangeStmt = db.prepare<[number, number, number], DueRow>(
      'SELECT id, account_id, receptor, status, cost_rials FROM messages WHERE id BETWEEN ? AND ? ORDER BY id LIMIT ?',
    );
    this.optedOutStmt = db.prepare<[number, string], { one: number }>(
      'SELECT 1 AS one FROM optouts WHERE account_id = ? AND phone = ?',
    );
    this.handStmt = db.prepare('UPDATE messages SET status = 4, handed_at = ? WHERE id = ? AND status = 1');
    this.finishStmt = db.prepare('UPDATE messages SET status = ?, final_at = ? WHERE id = ? AND status = ?');
    this.releaseStmt = db.prepare('UPDATE messages SET status = 1 WHERE id = ? AND status = 2');
    this.dropRangeStmt = db.prepare('DELETE FROM message_due WHERE due_at = ? AND first_id = ?');
    this.shrinkRangeStmt = db.prepare('UPDATE message_due SET first_id = ? WHERE due_at = ? AND first_id = ?');
    this.addRangeStmt = db.prepare('INSERT INTO message_due (due_at, first_id, last_id) VALUES (?, ?, ?)');
  }

  /** When the next message is due (ms), or null when none waits. */
  nextDueAt(): number | null {
    return this.nextDueStmt.get()?.due ?? null;
  }

  /** Marks messages firstId..lastId as due at `dueAt` (ms) for their next move. Inside the caller's transaction. */
  schedule(dueAt: number, firstId: number, lastId: number): void {
    this.addRangeStmt.run(dueAt, firstId, lastId);
  }

  /**
   * Moves one batch of due messages: the first up to BATCH ids of the earliest due range. Returns
   * the changes made, and null when nothing was due (a batch of messages already final changes
   * nothing but still progresses).
   */
  step(): StatusChange[] | null {
    const now = this.clock.now();
    const simulator = this.settings.simulator();
    return this.db.transaction(() => {
      const range = this.firstDueStmt.get(now);
      if (!range) return null;
      const rows = this.rangeStmt.all(range.first_id, range.last_id, BATCH);
      // This batch covers first_id..through; the rest of the range stays due as it was.
      const through = rows.length < BATCH ? range.last_id : rows[rows.length - 1]!.id;
      if (through >= range.last_id) this.dropRangeStmt.run(range.due_at, range.first_id);
      else this.shrinkRangeStmt.run(through + 1, range.due_at, range.first_id);

      const changes: StatusChange[] = [];
      // Moved messages that wait for a next move, as runs of ids sharing their new due time.
      let run: DueRange | null = null;
      for (const row of rows) {
        const moved = this.move(row, now, simulator);
        if (moved === null) continue;
        changes.push({ id: row.id, account_id: row.account_id, status: moved.status });
        if (moved.nextDueAt === null) continue;
        // A final message between two of a run stays inside it: passing over it later costs less
        // than a range per gap.
        if (run !== null && run.due_at === moved.nextDueAt) run.last_id = row.id;
        else {
          if (run !== null) this.schedule(run.due_at, run.first_id, run.last_id);
          run = { due_at: moved.nextDueAt, first_id: row.id, last_id: row.id };
        }
      }
      if (run !== null) this.schedule(run.due_at, run.first_id, run.last_id);
      return changes;
    })();
  }

  /** One message's move, and when it is due again (null once final); null when it does not move. */
  private move(row: DueRow, now: number, simulator: SimulatorSettings): Move | null {
    switch (row.status) {
      case MessageStatus.Scheduled:
        if (!this.releaseStmt.run(row.id).changes) return null;
        return { status: MessageStatus.Queued, nextDueAt: now + simulator.handoff_ms };
      case MessageStatus.Queued:
        if (this.optedOutStmt.get(row.account_id, row.receptor))
          return this.finish(row, MessageStatus.Blocked, now, true);
        if (!this.handStmt.run(now, row.id).changes) return null;
        return { status: MessageStatus.HandedToCarrier, nextDueAt: now + simulator.delivery_ms };
      case MessageStatus.HandedToCarrier: {
        const outcome = outcomeFor(simulator, row.id);
        return this.finish(row, outcome, now, outcome === MessageStatus.Cancelled);
      }
      default:
        // Final (or unknown): never moved again.
        return null;
    }
  }

  private finish(row: DueRow, status: Status, now: number, refund: boolean): Move | null {
    if (this.finishStmt.run(status, now, row.id, row.status).changes === 0) return null;
    if (refund) this.credit.refundMessage(row.account_id, row.id, row.cost_rials);
    return { status, nextDueAt: null };
  }
}

interface DueRange {
  due_at: number;
  first_id: number;
  last_id: number;
}

interface Move {
  status: Status;
  nextDueAt: number | null;
}
