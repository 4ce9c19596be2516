// Status lookup (spec 4.2): each requested id answered in order; an unknown id, or one of another
// account, is status 100 and nothing more (no hint that the id exists).
import type { Db } from '../db/database';
import { MessageStatus, messageStatusText, type MessageStatus as Status } from '../../../shared/status';
import type { StatusEntry } from '../../../shared/api';

export class StatusLookup {
  private readonly statusesStmt;

  constructor(db: Db) {
    // The ids go in as one JSON array: one prepared statement for any number of them.
    this.statusesStmt = db.prepare<[number, string], { id: number; status: number }>(
      'SELECT id, status FROM messages WHERE account_id = ? AND id IN (SELECT value FROM json_each(?))',
    );
  }

  lookup(accountId: number, messageids: readonly number[]): StatusEntry[] {
    const wanted = messageids.filter((id) => Number.isSafeInteger(id) && id > 0);
    const found = new Map<number, number>();
    for (const row of this.statusesStmt.all(accountId, JSON.stringify(wanted))) found.set(row.id, row.status);
    return messageids.map((messageid) => {
      const status = (found.get(messageid) ?? MessageStatus.UnknownId) as Status;
      return { messageid, status, statustext: messageStatusText[status] };
    });
  }
}
