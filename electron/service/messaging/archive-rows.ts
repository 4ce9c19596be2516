// What a retention archive holds of messaging's tables (workspace/archive-file.ts writes the file):
// the messages of a range, their sends and their callers' local ids. The archive file is attached
// to the writer's connection under `schema`, with tables of these names and keys; the copies are
// messaging's, as only messaging names its tables.
import type { Db } from '../db/database';

/** The tables copied, each with its key in the archive. */
export const ARCHIVED_TABLES = [
  { name: 'sends', key: ['id'] },
  { name: 'messages', key: ['id'] },
  { name: 'local_ids', key: ['account_id', 'local_id'] },
] as const;

/**
 * The copy of messages firstId..lastId with their sends and local ids into the attached `schema`'s
 * tables (an earlier copy of the same rows replaced), each table's columns as `columns(table)`
 * lists them (the live schema's, quoted): inside the caller's transaction.
 */
export function archiveCopy(
  db: Db,
  schema: string,
  columns: (table: (typeof ARCHIVED_TABLES)[number]['name']) => string,
): (firstId: number, lastId: number) => void {
  const m = columns('messages');
  const s = columns('sends');
  const l = columns('local_ids');
  const messages = db.prepare<[number, number]>(
    `INSERT OR REPLACE INTO ${schema}.messages (${m}) SELECT ${m} FROM main.messages WHERE id BETWEEN ? AND ?`,
  );
  const sends = db.prepare<[number, number]>(
    `INSERT OR REPLACE INTO ${schema}.sends (${s}) SELECT ${s} FROM main.sends
     WHERE id IN (SELECT DISTINCT send_id FROM main.messages WHERE id BETWEEN ? AND ?)`,
  );
  const localIds = db.prepare<[number, number]>(
    `INSERT OR REPLACE INTO ${schema}.local_ids (${l}) SELECT ${l} FROM main.local_ids WHERE message_id BETWEEN ? AND ?`,
  );
  return (firstId, lastId) => {
    sends.run(firstId, lastId);
    messages.run(firstId, lastId);
    localIds.run(firstId, lastId);
  };
}
