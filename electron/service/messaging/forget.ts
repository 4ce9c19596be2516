// Forgetting old messages (retention, workspace/retention.ts): messaging owns the messages and
// everything kept beside them, so the deletion and the reads that plan it are its operations.
// forget() removes a range of ids in one transaction (the caller's, when it runs inside one): the
// messages, their local ids, what they counted (counts, states, receiver index, send texts), their
// sends when nothing needs them any more, and the due ranges lying wholly inside the range, both
// the lifecycle's and the carrier's (Carrier.forget). The caller passes whole 15-minute slots of
// final messages (or the pieces of one, the last of which forgets the slot's counts): the counts
// are kept per slot and a message not final yet still moves.
// A send another domain still names stays: such a domain registers a hold (a campaign's batch
// keeps its send for the report, campaigns/send-holds.ts), a condition embedded in the send's one
// DELETE as its own NOT EXISTS was before.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';
import type { ReaderPool } from '../db/readers';
import { PENDING_STATUSES, sqlList } from '../../../shared/lifecycle';
import { accountIdsSql } from '../accounts/accounts';
import { DueRanges } from './due-ranges';
import type { Carrier } from './carriers/carrier';

/** Consecutive message ids, both ends included. */
export interface IdRange {
  firstId: number;
  lastId: number;
}

/**
 * A reason of another domain to keep a send whose messages are forgotten: an SQL condition, true
 * when the send whose id is the expression `sendId` must stay (it names only its own tables).
 */
export type SendHold = (sendId: string) => string;

/** What forgetting the slots before a cut-off would remove, from the maintained counts. */
export interface Forgettable {
  messages: number;
  campaign_messages: number;
  /** Messages of those slots that stay: a message not final yet is in their slot, or it is kept whole. */
  held: number;
  first_slot: number | null;
  last_slot: number | null;
}

/** The parts that forget what the messages counted or queued, each in the removal's transaction. */
export interface ForgetParts {
  counts: { forgetMessages(firstId: number, lastId: number): void };
  receivers: { forget(firstId: number, lastId: number): void };
  states: { forget(firstId: number, lastId: number): void };
  sendTexts: { forgetSends(ids: readonly number[]): void };
  carrier: Pick<Carrier, 'forget'>;
}

export class MessageForgetting {
  private readonly stmt;
  private readonly due: DueRanges;
  private readonly holds: SendHold[] = [];
  /** Built at the first forget, when every hold is registered (again after a new one). */
  private deleteSendStmt: Statement<{ id: number }> | null = null;

  constructor(
    private readonly db: Db,
    private readonly readers: ReaderPool,
    private readonly parts: ForgetParts,
  ) {
    this.due = new DueRanges(db, 'message_due');
    const pending = sqlList(PENDING_STATUSES);
    // Per account on the counts' key (account_id, slot, ...): a range of slots, never the table.
    const everyAccount = `account_id IN ${accountIdsSql()}`;
    this.stmt = {
      firstFrom: db.prepare<[number], { id: number; created_at: number }>(
        'SELECT id, created_at FROM messages WHERE id >= ? ORDER BY id LIMIT 1',
      ),
      newest: db.prepare<[], { id: number; created_at: number }>(
        'SELECT id, created_at FROM messages ORDER BY id DESC LIMIT 1',
      ),
      oldest: db.prepare<[], { id: number }>('SELECT id FROM messages ORDER BY id LIMIT 1'),
      createdAt: db.prepare<[number], number>('SELECT created_at FROM messages WHERE id = ?').pluck(),
      pendingSlot: db
        .prepare<[number, number], number | null>(
          `SELECT MIN(slot) FROM message_counts WHERE ${everyAccount} AND slot >= ? AND slot < ? AND status IN (${pending})`,
        )
        .pluck(),
      slotMessages: db
        .prepare<[number, number], number>(
          `SELECT COALESCE(SUM(n), 0) FROM message_counts WHERE ${everyAccount} AND slot >= ? AND slot < ?`,
        )
        .pluck(),
      total: db.prepare<[], number>('SELECT COALESCE(SUM(n), 0) FROM message_totals').pluck(),
      sendsOf: db
        .prepare<[number, number], number>('SELECT DISTINCT send_id FROM messages WHERE id BETWEEN ? AND ?')
        .pluck(),
      deleteLocalIds: db.prepare<[number, number]>('DELETE FROM local_ids WHERE message_id BETWEEN ? AND ?'),
      deleteMessages: db.prepare<[number, number]>('DELETE FROM messages WHERE id BETWEEN ? AND ?'),
    };
  }

  // ---- forgetting

  /** Adds a domain's reason to keep a send (composition time, before any forget). */
  registerSendHold(hold: SendHold): void {
    this.holds.push(hold);
    this.deleteSendStmt = null;
  }

  /**
   * Removes messages firstId..lastId (whole slots of final messages, or pieces of one) with all
   * that is kept of them; returns how many messages went. One transaction, nested in the caller's.
   */
  forget(range: IdRange): number {
    const { firstId, lastId } = range;
    const parts = this.parts;
    const deleteSend = this.deleteSend();
    return this.db.transaction(() => {
      const sends = this.stmt.sendsOf.all(firstId, lastId);
      this.stmt.deleteLocalIds.run(firstId, lastId);
      parts.counts.forgetMessages(firstId, lastId);
      parts.receivers.forget(firstId, lastId);
      parts.states.forget(firstId, lastId);
      const removed = this.stmt.deleteMessages.run(firstId, lastId).changes;
      // (A send another domain holds, or with messages left, stays.)
      const gone = sends.filter((id) => deleteSend.run({ id }).changes > 0);
      parts.sendTexts.forgetSends(gone);
      this.due.withdraw(firstId, lastId);
      parts.carrier.forget?.(firstId, lastId);
      return removed;
    })();
  }

  private deleteSend(): Statement<{ id: number }> {
    const held = this.holds.map((hold) => ` AND NOT ${hold('@id')}`).join('');
    return (this.deleteSendStmt ??= this.db.prepare<{ id: number }>(
      `DELETE FROM sends WHERE id = @id AND NOT EXISTS (SELECT 1 FROM messages WHERE send_id = @id)${held}`,
    ));
  }

  // ---- what plans it (ids follow creation: messaging/created-order.ts)

  /** The first message with an id of at least `id`. */
  firstFrom(id: number): { id: number; created_at: number } | undefined {
    return this.stmt.firstFrom.get(id);
  }

  newest(): { id: number; created_at: number } | undefined {
    return this.stmt.newest.get();
  }

  oldest(): { id: number } | undefined {
    return this.stmt.oldest.get();
  }

  createdAt(id: number): number | undefined {
    return this.stmt.createdAt.get(id);
  }

  /** The first slot in from..to-1 (15-minute slots) counting a message not final yet, or null. */
  pendingSlot(fromSlot: number, toSlot: number): number | null {
    return this.stmt.pendingSlot.get(fromSlot, toSlot) ?? null;
  }

  /** How many messages the slots from..to-1 count. */
  slotMessages(fromSlot: number, toSlot: number): number {
    return this.stmt.slotMessages.get(fromSlot, toSlot) ?? 0;
  }

  /** How many messages the workspace holds (the maintained totals). */
  total(): number {
    return this.stmt.total.get() ?? 0;
  }

  /**
   * What forgetting the slots before `beforeSlot` would remove, the slots from `keptFromSlot` on
   * and any counting a message not final yet held whole (read on a reader connection).
   */
  async forgettable(beforeSlot: number, keptFromSlot: number): Promise<Forgettable> {
    const counted = await this.readers.get<Forgettable>(
      `WITH old AS (
         SELECT slot, status, origin, n FROM message_counts
         WHERE account_id IN ${accountIdsSql()} AND slot < ?),
       held AS (SELECT DISTINCT slot FROM old WHERE slot >= ? OR status IN (${sqlList(PENDING_STATUSES)}))
       SELECT COALESCE(SUM(CASE WHEN h.slot IS NULL THEN o.n END), 0) AS messages,
         COALESCE(SUM(CASE WHEN h.slot IS NULL AND o.origin = 'campaign' THEN o.n END), 0) AS campaign_messages,
         COALESCE(SUM(CASE WHEN h.slot IS NOT NULL THEN o.n END), 0) AS held,
         MIN(CASE WHEN h.slot IS NULL THEN o.slot END) AS first_slot,
         MAX(CASE WHEN h.slot IS NULL THEN o.slot END) AS last_slot
       FROM old o LEFT JOIN held h ON h.slot = o.slot`,
      [beforeSlot, keptFromSlot],
    );
    const { messages = 0, campaign_messages = 0, held = 0, first_slot = null, last_slot = null } = counted ?? {};
    return { messages, campaign_messages, held, first_slot, last_slot };
  }
}
