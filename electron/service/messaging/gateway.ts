// The delivery gateway that moves accepted messages on (PRODUCT.md "Message lifecycle without a
// carrier"). The simulator: 1 -> 4 after handoff_ms, 4 -> one final status after delivery_ms, the
// outcome drawn from the configured shares by a hash of (seed, message id), so a seed always gives
// the same outcomes. Opted-out receivers end as 14 without reaching the carrier, refunded.
// Every move is guarded by the status it moves from, in one transaction per batch: a crash
// between batches loses nothing, and a restart never moves a message twice.
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

// Messages moved per step (one transaction). Kept small so a step is a few milliseconds: the
// scheduler yields between steps, and IPC/HTTP calls wait at most one step (test/responsiveness).
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
  private readonly dueStmt;
  private readonly nextDueStmt;
  private readonly optedOutStmt;
  private readonly handStmt;
  private readonly finishStmt;
  private readonly releaseStmt;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly credit: Credit,
    private readonly settings: Settings,
  ) {
    this.dueStmt = db.prepare<[number, number], DueRow>(
      `SELECT id, account_id, receptor, status, cost_rials FROM messages
       WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at, id LIMIT ?`,
    );
    this.nextDueStmt = db.prepare<[], { due: number | null }>(
      'SELECT MIN(due_at) AS due FROM messages WHERE due_at IS NOT NULL',
    );
    this.optedOutStmt = db.prepare<[number, string], { one: number }>(
      'SELECT 1 AS one FROM optouts WHERE account_id = ? AND phone = ?',
    );
    this.handStmt = db.prepare('UPDATE messages SET status = 4, handed_at = ?, due_at = ? WHERE id = ? AND status = 1');
    this.finishStmt = db.prepare(
      'UPDATE messages SET status = ?, final_at = ?, due_at = NULL WHERE id = ? AND status = ?',
    );
    this.releaseStmt = db.prepare('UPDATE messages SET status = 1, due_at = ? WHERE id = ? AND status = 2');
  }

  /** When the next message is due (ms), or null when none waits. */
  nextDueAt(): number | null {
    return this.nextDueStmt.get()?.due ?? null;
  }

  /** Moves one batch of due messages; returns the changes made (empty when nothing was due). */
  step(): StatusChange[] {
    const now = this.clock.now();
    const simulator = this.settings.simulator();
    const rows = this.dueStmt.all(now, BATCH);
    if (rows.length === 0) return [];
    return this.db.transaction(() => {
      const changes: StatusChange[] = [];
      for (const row of rows) {
        const next = this.move(row, now, simulator);
        if (next !== null) changes.push({ id: row.id, account_id: row.account_id, status: next });
      }
      return changes;
    })();
  }

  private move(row: DueRow, now: number, simulator: SimulatorSettings): Status | null {
    switch (row.status) {
      case MessageStatus.Scheduled:
        return this.releaseStmt.run(now + simulator.handoff_ms, row.id).changes ? MessageStatus.Queued : null;
      case MessageStatus.Queued:
        if (this.optedOutStmt.get(row.account_id, row.receptor)) return this.finish(row, MessageStatus.Blocked, now, true);
        return this.handStmt.run(now, now + simulator.delivery_ms, row.id).changes ? MessageStatus.HandedToCarrier : null;
      case MessageStatus.HandedToCarrier: {
        const outcome = outcomeFor(simulator, row.id);
        return this.finish(row, outcome, now, outcome === MessageStatus.Cancelled);
      }
      default:
        // A final or unknown status with a due time is a leftover: clear it, never move it.
        this.db.prepare('UPDATE messages SET due_at = NULL WHERE id = ?').run(row.id);
        return null;
    }
  }

  private finish(row: DueRow, status: Status, now: number, refund: boolean): Status | null {
    if (this.finishStmt.run(status, now, row.id, row.status).changes === 0) return null;
    if (refund) this.credit.refundMessage(row.account_id, row.id, row.cost_rials);
    return status;
  }
}
