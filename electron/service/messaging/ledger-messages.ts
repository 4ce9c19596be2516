// The messages as the credit ledger (accounts/credit.ts) reads them: a refund row names its
// message, a send's refunds are grouped by the range of its message ids, and a send names its
// charge on the bill. Accounts is below
// messaging and may not read its tables, so the core gives the ledger this at composition.
import type { Db } from '../db/database';
import type { LedgerMessages, LedgerSend } from '../accounts/credit';

export function ledgerMessages(db: Db): LedgerMessages {
  // Two index lookups on messages_send (its first and last entries for the send).
  const rangeStmt = db.prepare<[number, number], { first: number | null; last: number | null }>(
    `SELECT (SELECT min(id) FROM messages WHERE send_id = ?) AS first,
            (SELECT max(id) FROM messages WHERE send_id = ?) AS last`,
  );
  const sendStmt = db.prepare<[number], LedgerSend>(
    'SELECT origin, api_version, sender, text, message_count, total_rials, created_at FROM sends WHERE id = ?',
  );
  return {
    send: (sendId) => sendStmt.get(sendId),
    leftJoinMessageSql: (m, messageId, when) => `LEFT JOIN messages ${m} ON ${when} AND ${m}.id = ${messageId}`,
    idRange: (sendId) => rangeStmt.get(sendId, sendId)!,
  };
}
