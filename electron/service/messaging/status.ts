// Status lookup (spec 4.2): each requested id answered in order; an unknown id, or one of another
// account, is status 100 and nothing more (no hint that the id exists).
import type { Db } from '../db/database';
import { MessageStatus, messageStatusText, type MessageStatus as Status } from '../../../shared/status';
import type { StatusEntry } from '../../../shared/api';

const CHUNK = 500;

export class StatusLookup {
  constructor(private readonly db: Db) {}

  lookup(accountId: number, messageids: readonly number[]): StatusEntry[] {
    const found = new Map<number, number>();
    const wanted = [...new Set(messageids.filter((id) => Number.isSafeInteger(id) && id > 0))];
    for (let start = 0; start < wanted.length; start += CHUNK) {
      const chunk = wanted.slice(start, start + CHUNK);
      const rows = this.db
        .prepare<number[], { id: number; status: number }>(
          `SELECT id, status FROM messages WHERE account_id = ? AND id IN (${chunk.map(() => '?').join(',')})`,
        )
        .all(accountId, ...chunk);
      for (const row of rows) found.set(row.id, row.status);
    }
    return messageids.map((messageid) => {
      const status = (found.get(messageid) ?? MessageStatus.UnknownId) as Status;
      return { messageid, status, statustext: messageStatusText[status] };
    });
  }
}
