// How the messages of id ranges ended: recorded, delivered, failed and still on the way (the
// partition of shared/campaigns.ts: sent = delivered + failed + pending). A send's messages, and a
// campaign execution's batches, have consecutive ids, so each status is counted over the ranges on
// the (account, status, id) index alone, without reading the rows (their texts are wide). That
// index leaves delivered messages out (migration 0017): they are all the others of the ranges.
import type { Db } from '../db/database';
import { MessageStatus, STORED_STATUSES } from '../../../shared/lifecycle';
import { FAILED_RESULT_STATUSES, PENDING_RESULT_STATUSES } from '../../../shared/campaigns';

export interface Outcomes {
  sent: number;
  delivered: number;
  failed: number;
  pending: number;
}

export class OutcomeCounter {
  private readonly countIn;
  private readonly countAll;

  constructor(db: Db) {
    this.countIn = db
      .prepare<[number, number, number, number], number>(
        `SELECT count(*) FROM messages WHERE account_id = ? AND status = ? AND id BETWEEN ? AND ?
           AND status <> ${MessageStatus.Delivered}`,
      )
      .pluck();
    // All messages of a range, on the send index (a quarter of the bytes of the rows): the sends
    // from the range's first message's to its last's, their entries whose ids lie in the range.
    this.countAll = db
      .prepare<{ first: number; last: number }, number>(
        `SELECT count(*) FROM messages INDEXED BY messages_send
         WHERE send_id BETWEEN (SELECT send_id FROM messages WHERE id >= @first ORDER BY id LIMIT 1)
           AND (SELECT send_id FROM messages WHERE id <= @last ORDER BY id DESC LIMIT 1)
           AND id BETWEEN @first AND @last`,
      )
      .pluck();
  }

  /**
   * The outcomes of the account's messages whose ids lie in `ranges` ([first, last], inclusive):
   * ranges of the account's own sends (every message in them is the account's).
   */
  count(accountId: number, ranges: ReadonlyArray<readonly [number, number]>): Outcomes {
    const counts = new Map<number, number>();
    const inRanges = (count: (first: number, last: number) => number) =>
      ranges.reduce((n, [first, last]) => n + count(first, last), 0);
    for (const status of STORED_STATUSES)
      if (status !== MessageStatus.Delivered)
        counts.set(
          status,
          inRanges((first, last) => this.countIn.get(accountId, status, first, last)!),
        );
    const others = [...counts.values()].reduce((a, b) => a + b, 0);
    counts.set(MessageStatus.Delivered, inRanges((first, last) => this.countAll.get({ first, last })!) - others);
    const sum = (statuses: readonly number[]) => statuses.reduce((n, s) => n + counts.get(s)!, 0);
    return {
      sent: sum(STORED_STATUSES),
      delivered: sum([MessageStatus.Delivered]),
      failed: sum(FAILED_RESULT_STATUSES),
      pending: sum(PENDING_RESULT_STATUSES),
    };
  }
}
