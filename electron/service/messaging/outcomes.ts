// How the messages of id ranges ended: recorded, delivered, failed and still on the way (the
// partition of shared/campaigns.ts: sent = delivered + failed + pending). A send's messages, and a
// campaign execution's batches, have consecutive ids, so each status is counted over the ranges on
// the (account, status, id) index alone, without reading the rows (their texts are wide).
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

  constructor(db: Db) {
    this.countIn = db
      .prepare<[number, number, number, number], number>(
        'SELECT count(*) FROM messages WHERE account_id = ? AND status = ? AND id BETWEEN ? AND ?',
      )
      .pluck();
  }

  /** The outcomes of the account's messages whose ids lie in `ranges` ([first, last], inclusive). */
  count(accountId: number, ranges: ReadonlyArray<readonly [number, number]>): Outcomes {
    const counts = new Map<number, number>();
    for (const status of STORED_STATUSES)
      counts.set(
        status,
        ranges.reduce((n, [first, last]) => n + this.countIn.get(accountId, status, first, last)!, 0),
      );
    const sum = (statuses: readonly number[]) => statuses.reduce((n, s) => n + counts.get(s)!, 0);
    return {
      sent: sum(STORED_STATUSES),
      delivered: sum([MessageStatus.Delivered]),
      failed: sum(FAILED_RESULT_STATUSES),
      pending: sum(PENDING_RESULT_STATUSES),
    };
  }
}
