// What a carrier reads of the messages (carriers/carrier.ts CarrierMessages): messaging owns these
// tables, so a carrier asks here instead of naming them. Each read is the statement the simulator
// ran itself before: ranges of ids by the primary key, a message and its send by theirs.
import type { Db } from '../db/database';
import { MessageStatus } from '../../../shared/lifecycle';
import type { CarrierMessages } from './carriers/carrier';
import { messageText } from './message-text';
import { RANGE_MESSAGES, type DueRangesJson } from './due-ranges';

export function carrierMessages(db: Db): CarrierMessages {
  const handedStmt = db
    .prepare<[DueRangesJson, number, number], [number, number]>(
      `SELECT m.id, r.key FROM ${RANGE_MESSAGES} WHERE m.status = ? LIMIT ?`,
    )
    .raw(true);
  const addressStmt = db.prepare<[number], { account_id: number; receptor: string; sender: string }>(
    'SELECT m.account_id, m.receptor, s.sender FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.id = ?',
  );
  // A message's own columns by id, its send's (shared text, file) once per send: a call's messages
  // are mostly one send's, and joining each to it copied the shared text for every one.
  // Read as arrays (better-sqlite3 builds an object a row at half the speed): [id, receptor, own
  // text, status, cost, send id].
  type Stored = [number, string, string | null, MessageStatus, number, number];
  const columns = 'SELECT id, receptor, text, status, cost_rials, send_id FROM messages';
  const listStmt = db
    .prepare<[string], Stored>(`${columns} WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`)
    .raw(true);
  // Consecutive ids (a run handed over together): a range of the primary key.
  const rangeStmt = db.prepare<[number, number], Stored>(`${columns} WHERE id BETWEEN ? AND ? ORDER BY id`).raw(true);
  const sendStmt = db.prepare<[number], { text: string; file_id: string | null }>(
    'SELECT text, file_id FROM sends WHERE id = ?',
  );
  const outgoing = (ids: readonly number[]) => {
    if (ids.length === 0) return [];
    const first = ids[0]!;
    const consecutive = ids.every((id, i) => id === first + i);
    const rows = consecutive ? rangeStmt.all(first, first + ids.length - 1) : listStmt.all(JSON.stringify(ids));
    const sends = new Map<number, { text: string; file_id: string | null } | undefined>();
    const found = [];
    for (const [id, receptor, text, status, cost_rials, sendId] of rows) {
      if (!sends.has(sendId)) sends.set(sendId, sendStmt.get(sendId));
      const send = sends.get(sendId);
      if (!send) continue;
      found.push({ id, receptor, text: messageText(text, send.text), status, cost_rials, file_id: send.file_id });
    }
    return found;
  };
  return {
    outgoing,
    handedOver: (ranges, limit) => handedStmt.all(ranges, MessageStatus.HandedToCarrier, limit),
    address: (id) => addressStmt.get(id),
  };
}
