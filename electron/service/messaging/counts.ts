// Messages counted as they are written (migration 0017), so counts and the dashboard read a few
// hundred aggregate rows instead of scanning millions of messages. The two writers of messages call
// in here inside their own transactions: Accept when a send adds its messages, the Lifecycle when a
// message moves (and is refunded). A move is accumulated in memory and written once per group at
// the end of the outermost batch (a lifecycle step moves 500 messages of one send: two upserts, not
// a thousand).
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';
import { PendingBatch } from './pending-batch';
import { refundOfMessageSql } from '../accounts/credit';

/** Aggregates are kept per 15 minutes of creation: every time zone's hours and midnights fall on a slot boundary. */
export const SLOT_MS = 900_000;

export function slotOf(at: number): number {
  return Math.floor(at / SLOT_MS);
}

/** What aggregates are kept by: the message's account, creation slot, status, sender line and origin. */
export interface CountKey {
  account_id: number;
  created_at: number;
  status: number;
  sender: string;
  origin: string;
}

interface Delta {
  account_id: number;
  slot: number;
  status: number;
  sender: string;
  origin: string;
  n: number;
  cost: number;
  refunded: number;
}

export class MessageCounts {
  private pending = new Map<string, Delta>();
  private readonly batches = new PendingBatch(
    () => this.flush(),
    () => this.pending.clear(),
    () => copyDeltas(this.pending),
    (mark) => (this.pending = copyDeltas(mark)),
  );
  private readonly upsertSlot: Statement<
    [number, number, number, string, string, number, number, number],
    { n: number }
  >;
  private readonly upsertTotal: Statement<[number, number, string, string, number, number, number], { n: number }>;
  private readonly dropSlot: Statement<[number, number, number, string, string]>;
  private readonly dropTotal: Statement<[number, number, string, string]>;
  private readonly groupsStmt: Statement<[number, number], CountKey & { n: number; cost: number; refunded: number }>;

  constructor(private readonly db: Db) {
    this.upsertSlot = db.prepare(
      `INSERT INTO message_counts (account_id, slot, status, sender, origin, n, cost_rials, refunded_rials)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET n = n + excluded.n, cost_rials = cost_rials + excluded.cost_rials,
         refunded_rials = refunded_rials + excluded.refunded_rials
       RETURNING n`,
    );
    this.upsertTotal = db.prepare(
      `INSERT INTO message_totals (account_id, status, sender, origin, n, cost_rials, refunded_rials)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET n = n + excluded.n, cost_rials = cost_rials + excluded.cost_rials,
         refunded_rials = refunded_rials + excluded.refunded_rials
       RETURNING n`,
    );
    // A status nothing is in any more leaves no row behind (a full scan would show none).
    this.dropSlot = db.prepare(
      'DELETE FROM message_counts WHERE account_id = ? AND slot = ? AND status = ? AND sender = ? AND origin = ? AND n = 0',
    );
    this.dropTotal = db.prepare(
      'DELETE FROM message_totals WHERE account_id = ? AND status = ? AND sender = ? AND origin = ? AND n = 0',
    );
    // A range's messages by what they are counted by (created_at: any of the slot's times will do).
    this.groupsStmt = db.prepare(
      `SELECT m.account_id, MIN(m.created_at) AS created_at, m.status, s.sender, s.origin, COUNT(*) AS n,
         SUM(m.cost_rials) AS cost,
         SUM(COALESCE(${refundOfMessageSql('m.id')}, 0)) AS refunded
       FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.id BETWEEN ? AND ?
       GROUP BY m.account_id, m.created_at / ${SLOT_MS}, m.status, s.sender, s.origin`,
    );
  }

  /**
   * Runs `work` (inside the caller's transaction) and writes the moves it recorded at the end of
   * the outermost batch; a batch that throws writes nothing (its transaction rolls back).
   */
  batch<T>(work: () => T): T {
    return this.batches.run(work);
  }

  /** A send's `n` new messages, all of one key, costing `costRials` together. Inside the send's transaction. */
  added(key: CountKey, n: number, costRials: number): void {
    this.record(key, key.status, n, costRials, 0);
    this.batches.recorded();
  }

  /**
   * One message moved from `key.status` to `to`, `refunded` rials refunded by the move. Inside a
   * batch. Refunds are made only by moves into final statuses, which never move again: the status
   * a message leaves holds no refund of it.
   */
  moved(key: CountKey, costRials: number, to: number, refunded: number): void {
    this.record(key, key.status, -1, -costRials, 0);
    this.record(key, to, 1, costRials, refunded);
    this.batches.recorded();
  }

  /** One message's cost changed by `delta` rials (the provider charged otherwise than our price). Inside a batch. */
  recosted(key: CountKey, delta: number): void {
    this.record(key, key.status, 0, delta, 0);
    this.batches.recorded();
  }

  /**
   * Forgets messages firstId..lastId before they are removed (retention): what they counted is
   * taken off their slots and totals. Inside the removal's transaction, before the delete.
   */
  forgetMessages(firstId: number, lastId: number): void {
    for (const group of this.groupsStmt.all(firstId, lastId))
      this.record(group, group.status, -group.n, -group.cost, -group.refunded);
    this.batches.recorded();
  }

  private record(key: CountKey, status: number, n: number, cost: number, refunded: number): void {
    const slot = slotOf(key.created_at);
    const id = `${key.account_id}\u0000${slot}\u0000${status}\u0000${key.sender}\u0000${key.origin}`;
    const delta = this.pending.get(id);
    if (delta) {
      delta.n += n;
      delta.cost += cost;
      delta.refunded += refunded;
    } else
      this.pending.set(id, {
        account_id: key.account_id,
        slot,
        status,
        sender: key.sender,
        origin: key.origin,
        n,
        cost,
        refunded,
      });
  }

  private flush(): void {
    for (const d of this.pending.values()) {
      if (d.n === 0 && d.cost === 0 && d.refunded === 0) continue;
      const slot = this.upsertSlot.get(d.account_id, d.slot, d.status, d.sender, d.origin, d.n, d.cost, d.refunded)!;
      if (slot.n === 0) this.dropSlot.run(d.account_id, d.slot, d.status, d.sender, d.origin);
      const total = this.upsertTotal.get(d.account_id, d.status, d.sender, d.origin, d.n, d.cost, d.refunded)!;
      if (total.n === 0) this.dropTotal.run(d.account_id, d.status, d.sender, d.origin);
    }
    this.pending.clear();
  }
}

/** Deltas are changed in place as moves add up: a mark holds copies. */
function copyDeltas(deltas: ReadonlyMap<string, Delta>): Map<string, Delta> {
  const copy = new Map<string, Delta>();
  for (const [id, delta] of deltas) copy.set(id, { ...delta });
  return copy;
}
