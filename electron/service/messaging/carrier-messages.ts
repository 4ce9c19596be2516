// What a carrier reads of the messages (carriers/carrier.ts CarrierMessages): messaging owns these
// tables, so a carrier asks here instead of naming them. Each read is the statement the simulator
// ran itself before: a range of ids by the primary key, a message and its send by theirs.
import type { Db } from '../db/database';
import { MessageStatus } from '../../../shared/lifecycle';
import type { CarrierMessages } from './carriers/carrier';
import { messageTextSql } from './message-text';

export function carrierMessages(db: Db): CarrierMessages {
  const handedStmt = db
    .prepare<[number, number, number, number], number>(
      'SELECT id FROM messages WHERE id BETWEEN ? AND ? AND status = ? ORDER BY id LIMIT ?',
    )
    .pluck();
  const addressStmt = db.prepare<[number], { account_id: number; receptor: string; sender: string }>(
    'SELECT m.account_id, m.receptor, s.sender FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.id = ?',
  );
  const outgoingStmt = db.prepare<
    [string],
    { id: number; receptor: string; text: string; status: MessageStatus; cost_rials: number; file_id: string | null }
  >(
    `SELECT m.id, m.receptor, ${messageTextSql()} AS text, m.status, m.cost_rials, s.file_id
     FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.id IN (SELECT value FROM json_each(?)) ORDER BY m.id`,
  );
  return {
    outgoing: (ids) => (ids.length === 0 ? [] : outgoingStmt.all(JSON.stringify(ids))),
    handedOver: (firstId, lastId, limit) => handedStmt.all(firstId, lastId, MessageStatus.HandedToCarrier, limit),
    address: (id) => addressStmt.get(id),
  };
}
