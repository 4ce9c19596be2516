// Callers' own ids of messages (version 1's `localid`, migration 0013): a local id names one message
// of the account for good. The same local id again does not send again: it answers with the message
// it named the first time (no second message, no second charge), and statuses can be read by it.
// The acceptance path records them with the messages, in the same transaction (accept.ts).
import type { Db } from '../db/database';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import type { MessageStatus } from '../../../shared/lifecycle';
import { messageTextSql } from './message-text';

/** Longer ids are refused (400): a caller's row id or UUID fits many times over. */
export const MAX_LOCAL_ID_LENGTH = 200;

/** The message a local id named, as it is now. */
export interface EarlierMessage {
  localId: string;
  id: number;
  receptor: string;
  sender: string;
  /** The final text, as sent. */
  text: string;
  status: MessageStatus;
  cost_rials: number;
  created_at: number;
}

/** Submitted items split by their local ids: those naming an earlier message, and the new ones. */
export interface LocalIdSplit {
  /** Per submitted item: the earlier message its local id names, else undefined. */
  earlier: (EarlierMessage | undefined)[];
  /** Indexes of the items to send (no local id, or one not used yet), in submitted order. */
  fresh: number[];
}

export class LocalIds {
  private readonly earlierStmt;
  private readonly insertStmt;

  constructor(db: Db) {
    this.earlierStmt = db.prepare<[number, string], EarlierMessage>(
      `SELECT l.local_id AS localId, m.id, m.receptor, s.sender, ${messageTextSql()} AS text, m.status,
         m.cost_rials, m.created_at
       FROM local_ids l JOIN messages m ON m.id = l.message_id JOIN sends s ON s.id = m.send_id
       WHERE l.account_id = ? AND l.local_id IN (SELECT value FROM json_each(?))`,
    );
    this.insertStmt = db.prepare('INSERT INTO local_ids (account_id, local_id, message_id) VALUES (?, ?, ?)');
  }

  /** The account's earlier messages by local id (those it has). */
  earlier(accountId: number, localIds: readonly string[]): Map<string, EarlierMessage> {
    const found = new Map<string, EarlierMessage>();
    if (localIds.length === 0) return found;
    for (const row of this.earlierStmt.all(accountId, JSON.stringify(localIds))) found.set(row.localId, row);
    return found;
  }

  /**
   * The rule of local ids, for a call whose items carry them (parallel; undefined = none): an item
   * whose local id named a message before is answered with that message and not sent again. One
   * local id twice in the same call names no single message: 400, as is an id too long.
   */
  split(accountId: number, localIds: readonly (string | undefined)[]): LocalIdSplit {
    const given = this.check(localIds);
    const known = this.earlier(accountId, given);
    const earlier = localIds.map((id) => (id === undefined ? undefined : known.get(id)));
    const fresh: number[] = [];
    earlier.forEach((message, i) => {
      if (message === undefined) fresh.push(i);
    });
    return { earlier, fresh };
  }

  /** A call's local ids (undefined = none), checked: none repeated, none too long (400). The ids given. */
  check(localIds: readonly (string | undefined)[]): string[] {
    const given = localIds.filter((id): id is string => id !== undefined);
    assertUsable(given);
    return given;
  }

  /**
   * Records the local ids of a send's accepted messages; inside the acceptance's transaction. A
   * local id that named a message before is refused (400), so no path can give one two messages.
   */
  record(accountId: number, pairs: readonly (readonly [localId: string, messageId: number])[]): void {
    if (pairs.length === 0) return;
    const localIds = pairs.map(([localId]) => localId);
    assertUsable(localIds);
    if (this.earlier(accountId, localIds).size > 0)
      throw new ServiceError(ApiCode.BadRequest, 'a local id names an earlier message');
    for (const [localId, messageId] of pairs) this.insertStmt.run(accountId, localId, messageId);
  }
}

function assertUsable(localIds: readonly string[]): void {
  if (new Set(localIds).size !== localIds.length)
    throw new ServiceError(ApiCode.BadRequest, 'a local id is repeated in one call');
  if (localIds.some((id) => id.length > MAX_LOCAL_ID_LENGTH))
    throw new ServiceError(ApiCode.BadRequest, `a local id is longer than ${MAX_LOCAL_ID_LENGTH} characters`);
}
