// The messages of id ranges as the domains above read them. A send's messages have consecutive
// ids, so a domain that keeps ranges of them (a campaign execution's batches) reads its messages
// by range, as outcomes.ts counts them: through the SQL fragments here when the read is one
// statement that also joins that domain's own rows (its clicks, its recipients), so it keeps its
// plan on messaging's keys; through RangeMessages when it reads messages alone. Aliases are the
// caller's; the columns a fragment's alias offers are those of `messages` and `sends`.
import type { Db } from '../db/database';
import { MessageStatus, sqlList } from '../../../shared/lifecycle';
import { FAILED_RESULT_STATUSES } from '../../../shared/campaigns';
import { messageTextSql } from './message-text';

/** `messages` as the FROM item `m` of a read whose conditions choose an id range (m.id first, on the primary key). */
export function messagesSql(m = 'm'): string {
  return `messages ${m}`;
}

/** Joins, as `m`, the messages whose ids lie in [first, last] (SQL expressions over the outer row). */
export function joinRangeMessagesSql(m: string, first: string, last: string): string {
  return `JOIN messages ${m} ON ${m}.id BETWEEN ${first} AND ${last}`;
}

/** Joins, as `s`, the send whose id is `sendId` (an SQL expression): its shared text, its total_rials. */
export function joinSendSql(s: string, sendId: string): string {
  return `JOIN sends ${s} ON ${s}.id = ${sendId}`;
}

/** A message as a test send reports it: its text as sent. */
export interface SentMessage {
  id: number;
  receptor: string;
  text: string;
  cost_rials: number;
}

/** Messages that reached delivered, and a failure, in one minute (final_at / 60,000). */
export interface FinalsInMinute {
  minute: number;
  delivered: number;
  failed: number;
}

export class RangeMessages {
  private readonly firstOfSendStmt;
  private readonly finalsStmt;
  private readonly waitingStmt;
  private readonly sendTextStmt;

  constructor(db: Db) {
    this.firstOfSendStmt = db.prepare<[number], SentMessage>(
      `SELECT m.id, m.receptor, ${messageTextSql('m', 's')} AS text, m.cost_rials
       FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.send_id = ? ORDER BY m.id LIMIT 1`,
    );
    this.finalsStmt = db.prepare<[number, number], FinalsInMinute>(
      `SELECT CAST(final_at / 60000 AS INTEGER) AS minute, sum(status = ${MessageStatus.Delivered}) AS delivered,
         sum(status IN (${sqlList(FAILED_RESULT_STATUSES as MessageStatus[])})) AS failed
       FROM messages WHERE id BETWEEN ? AND ? AND final_at IS NOT NULL GROUP BY minute`,
    );
    this.waitingStmt = db
      .prepare<[number, number], number>(
        `SELECT 1 FROM messages WHERE id BETWEEN ? AND ? AND status IN (${MessageStatus.Queued}, ${MessageStatus.Scheduled}) LIMIT 1`,
      )
      .pluck();
    this.sendTextStmt = db.prepare<[number], string>('SELECT text FROM sends WHERE id = ?').pluck();
  }

  /** The send's first message (the one of a send to one receiver). */
  firstOfSend(sendId: number): SentMessage | undefined {
    return this.firstOfSendStmt.get(sendId);
  }

  /** Per minute of their final time, the messages of [first, last] that were delivered or failed. */
  finalsPerMinute(first: number, last: number): FinalsInMinute[] {
    return this.finalsStmt.all(first, last);
  }

  /** Whether a message of [first, last] still waits in 1 or 2 (not handed to the carrier yet). */
  anyWaiting(first: number, last: number): boolean {
    return this.waitingStmt.get(first, last) !== undefined;
  }

  /** The send's shared text (its messages' own texts are NULL when they have none). */
  sendText(sendId: number): string | undefined {
    return this.sendTextStmt.get(sendId);
  }
}
