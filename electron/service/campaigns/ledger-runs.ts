// The campaign runs as the credit ledger groups their charges on the bill (accounts/credit.ts): a
// run's batches are each a send (campaign_batches, migration 0008), summed as its report sums them.
// Accounts is below campaigns and may not read these tables; the core registers this at composition.
import type { Db } from '../db/database';
import type { LedgerRun, LedgerRuns } from '../accounts/credit';
import { joinRefundsSql } from '../accounts/credit';
import { joinSendSql } from '../messaging/id-ranges';

export function ledgerRuns(db: Db): LedgerRuns {
  const runOfSendStmt = db
    .prepare<[number], number>('SELECT execution_id FROM campaign_batches WHERE send_id = ? LIMIT 1')
    .pluck();
  // On the batches' primary key (execution_id, first_seq); each batch's send by its primary key.
  const runStmt = db.prepare<[number], Omit<LedgerRun, 'refunded_rials' | 'refund_count'>>(
    `SELECT e.account_id, c.id AS campaign_id, c.name, c.sender,
            (SELECT min(b.send_id) FROM campaign_batches b WHERE b.execution_id = e.id) AS first_send_id,
            (SELECT count(*) FROM campaign_batches b WHERE b.execution_id = e.id) AS sends,
            (SELECT total(b.count) FROM campaign_batches b WHERE b.execution_id = e.id) AS messages,
            (SELECT total(s.total_rials) FROM campaign_batches b ${joinSendSql('s', 'b.send_id')}
              WHERE b.execution_id = e.id) AS charged_rials
     FROM campaign_executions e JOIN campaigns c ON c.id = e.campaign_id WHERE e.id = ?`,
  );
  // Each batch's refunds are one range of the refund index.
  const refundsStmt = db.prepare<[number], { refunded_rials: number; refund_count: number }>(
    `SELECT total(l.amount_rials) AS refunded_rials, count(l.id) AS refund_count FROM campaign_batches b
       ${joinRefundsSql('l', 'b.first_message_id', 'b.first_message_id + b.count - 1')}
     WHERE b.execution_id = ?`,
  );
  const sendsStmt = db
    .prepare<[number, number, number], number>(
      'SELECT send_id FROM campaign_batches WHERE execution_id = ? AND send_id < ? ORDER BY send_id DESC LIMIT ?',
    )
    .pluck();
  return {
    runOfSend: (sendId) => runOfSendStmt.get(sendId) ?? null,
    run(executionId) {
      const run = runStmt.get(executionId);
      if (!run || run.first_send_id === null) return undefined;
      return { ...run, ...refundsStmt.get(executionId)! };
    },
    sendsOf: (executionId, beforeSendId, limit) => sendsStmt.all(executionId, beforeSendId, limit),
  };
}
