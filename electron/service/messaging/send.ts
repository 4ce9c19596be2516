// The shared-text send (spec 4.1): receivers checked and normalized in submitted order, duplicates
// and invalid numbers reported but not sent, the opt-out phrase on SMS lines, the cost from the
// final text's pages, and the credit checked against the total before anything is recorded.
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import { unixSeconds } from '../clock';
import type { Accounts } from '../accounts/accounts';
import type { Credit } from '../accounts/credit';
import type { Files } from '../files/files';
import type { Settings } from '../settings/settings';
import type { Gateway } from './gateway';
import { ServiceError } from '../errors';
import { normalizeReceiver } from '../../../shared/phone';
import { finalText } from '../../../shared/optout';
import { countPages, messageCostRials } from '../../../shared/pages';
import { ApiCode, MessageStatus, isMessengerProvider, messageStatusText } from '../../../shared/status';
import { MAX_RECEIVERS, type MessageInfo, type SendRequest } from '../../../shared/api';

export type SendOrigin = 'api' | 'panel';

export interface SendResult {
  sendId: number;
  accepted: number;
  totalRials: number;
  entries: MessageInfo[];
}

export class Sending {
  private readonly insertSend;
  private readonly insertMessages;
  private readonly nextMessageId;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly accounts: Accounts,
    private readonly credit: Credit,
    private readonly files: Files,
    private readonly settings: Settings,
    /** Where a send's messages are marked due for their handoff. */
    private readonly gateway: Pick<Gateway, 'schedule'>,
    /** Told after each accepted send, so the gateway wakes up for the new messages. */
    private readonly onAccepted: () => void,
  ) {
    this.insertSend = db.prepare(
      `INSERT INTO sends (account_id, line_id, sender, provider, text, pages, origin, file_id, message_count, total_rials, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // One statement for all of a send's messages: the receivers go in as one JSON array and SQLite
    // makes the rows. Binding 6 values per row from JS cost more than the inserts themselves
    // (measured: a third less time than 500-row multi-row statements).
    this.insertMessages = db.prepare(
      `INSERT INTO messages (id, send_id, account_id, receptor, status, cost_rials, created_at)
       SELECT ? + key, ?, ?, value, 1, ?, ? FROM json_each(?)`,
    );
    this.nextMessageId = db.prepare<[], { next: number }>('SELECT COALESCE(MAX(id), 0) + 1 AS next FROM messages');
  }

  send(accountId: number, request: SendRequest, origin: SendOrigin = 'api'): SendResult {
    const { receivers } = request;
    if (receivers.length > MAX_RECEIVERS)
      throw new ServiceError(ApiCode.TooLarge, `more than ${MAX_RECEIVERS} receivers`);
    // The API needs can_send_api_campaign (spec 4.1); the app's own composer is the panel.
    const permission = origin === 'api' ? 'can_send_api_campaign' : 'can_send_panel_campaign';
    const line = this.accounts.senderLine(accountId, request.sender, permission);
    const fileId = request.file_id ? this.files.forSend(accountId, request.file_id, line.provider).id : null;

    // Classify every receiver in submitted order; `accepted` holds the entry indexes to record.
    const entries: MessageInfo[] = new Array(receivers.length);
    const accepted: number[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < receivers.length; i++) {
      const raw = receivers[i]!;
      const receptor = normalizeReceiver(raw);
      if (receptor === null) entries[i] = rejected(MessageStatus.Invalid, raw);
      else if (seen.has(receptor)) entries[i] = rejected(MessageStatus.Duplicate, receptor);
      else {
        seen.add(receptor);
        accepted.push(i);
        entries[i] = rejected(MessageStatus.Queued, receptor); // filled in below once recorded
      }
    }
    if (accepted.length === 0) throw new ServiceError(ApiCode.InvalidReceiver);

    const messenger = isMessengerProvider(line.provider);
    const text = finalText(wellFormed(request.message), messenger);
    const cost = messageCostRials(text, messenger, this.settings.pricing());
    const total = cost * accepted.length;
    if (this.credit.balance(accountId) < total) throw new ServiceError(ApiCode.NoCredit);

    const now = this.clock.now();
    const date = unixSeconds(now);
    const dueAt = now + this.settings.simulator().handoff_ms;
    const queuedText = messageStatusText[MessageStatus.Queued];

    const sendId = this.db.transaction(() => {
      const id = Number(
        this.insertSend.run(
          accountId,
          line.id,
          line.number,
          line.provider,
          text,
          countPages(text),
          origin,
          fileId,
          accepted.length,
          total,
          now,
        ).lastInsertRowid,
      );
      // Inside the transaction again: the balance read and the debit are one atomic step.
      this.credit.debitSend(accountId, id, total);
      // Ids are given here, not by SQLite: the transaction is the only writer, so they are the next
      // consecutive ones, the n-th accepted receiver's being firstId + n.
      const firstId = this.nextMessageId.get()!.next;
      const receptors: string[] = new Array(accepted.length);
      for (let n = 0; n < accepted.length; n++) {
        const entry = entries[accepted[n]!]!;
        const messageid = firstId + n;
        receptors[n] = entry.receptor;
        entries[accepted[n]!] = {
          messageid,
          message: text,
          status: MessageStatus.Queued,
          statustext: queuedText,
          sender: line.number,
          receptor: entry.receptor,
          date,
          cost,
        };
      }
      this.insertMessages.run(firstId, id, accountId, cost, date, JSON.stringify(receptors));
      this.gateway.schedule(dueAt, firstId, firstId + accepted.length - 1);
      return id;
    })();
    this.onAccepted();
    return { sendId, accepted: accepted.length, totalRials: total, entries };
  }
}

/**
 * Texts are stored as UTF-8, where a lone surrogate (valid in a JSON string) cannot exist: SQLite
 * got invalid bytes and the recorded text differed from the one answered. It becomes U+FFFD
 * first, so the answer, the pages and the record agree.
 */
function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** An entry for a receiver that is not (yet) recorded: messageid 0, empty text/sender, date and cost 0. */
function rejected(status: MessageStatus, receptor: string): MessageInfo {
  return {
    messageid: 0,
    message: '',
    status,
    statustext: messageStatusText[status],
    sender: '',
    receptor,
    date: 0,
    cost: 0,
  };
}
