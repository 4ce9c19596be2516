// Status lookup (spec 4.2): each requested id answered in order; an unknown id, or one of another
// account, is status 100 and nothing more (no hint that the id exists). The same by the callers'
// own ids (local-ids.ts) for version 1.
import type { Db } from '../db/database';
import { MessageStatus, messageStatusText, type MessageStatus as Status } from '../../../shared/status';
import type { StatusEntry } from '../../../shared/api';
import type { MessageStates } from './message-states';

/** A status read by the caller's own id (version 1's sms/statuslocalmessageid). */
export interface LocalStatusEntry {
  /** 0 when the local id names no message of the account. */
  messageid: number;
  localid: string;
  status: Status;
  statustext: string;
}

export class StatusLookup {
  private readonly byLocalIdStmt;

  constructor(
    db: Db,
    /** Each message's status and account, compact (message-states.ts): what a lookup by id reads. */
    private readonly states: MessageStates,
  ) {
    this.byLocalIdStmt = db.prepare<[number, string], { local_id: string; id: number; status: number }>(
      `SELECT l.local_id, m.id, m.status FROM local_ids l JOIN messages m ON m.id = l.message_id
       WHERE l.account_id = ? AND m.account_id = l.account_id AND l.local_id IN (SELECT value FROM json_each(?))`,
    );
  }

  /** Each requested local id answered in order; one the account never used is status 100, message id 0. */
  byLocalIds(accountId: number, localIds: readonly string[]): LocalStatusEntry[] {
    const found = new Map<string, { id: number; status: number }>();
    for (const row of this.byLocalIdStmt.all(accountId, JSON.stringify(localIds))) found.set(row.local_id, row);
    return localIds.map((localid) => {
      const row = found.get(localid);
      const status = (row?.status ?? MessageStatus.UnknownId) as Status;
      return { messageid: row?.id ?? 0, localid, status, statustext: messageStatusText[status] };
    });
  }

  lookup(accountId: number, messageids: readonly number[]): StatusEntry[] {
    const wanted = messageids.filter((id) => Number.isSafeInteger(id) && id > 0);
    const found = this.states.lookup(accountId, wanted);
    return messageids.map((messageid) => {
      const status = (found.get(messageid) ?? MessageStatus.UnknownId) as Status;
      return { messageid, status, statustext: messageStatusText[status] };
    });
  }
}
