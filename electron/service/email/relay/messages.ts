// The provider's messages: one per recipient of an accepted request, with that recipient's own
// subject and bodies rendered once (shared/email-template.ts: its substitutions over the global
// ones) and stored, so what GET shows is exactly what that recipient got. A request of 1,000
// recipients is one transaction of prepared inserts. Also the message as the API shows it (a list
// summary, the whole message) and its moves (delivery_attempts).
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import type { Clock } from '../../clock';
import type { RelayStatus, SandboxResult } from '../../../../shared/email';
import { renderEmailTemplate, type Substitutions } from '../../../../shared/email-template';
import { iso, ok, refusal, type RelayAnswer } from './answers';
import type { AcceptedRequest } from './request';

/** A message's row with what it shares with its request. */
export interface MessageRow {
  seq: number;
  id: string;
  account_id: string;
  request_id: number;
  sender: string;
  recipient: string;
  recipient_name: string | null;
  substitutions: string | null;
  subject: string;
  text_content: string | null;
  html_content: string | null;
  amp_content: string | null;
  status: RelayStatus;
  num_attempts: number;
  first_attempt: number;
  expires: number;
  due_at: number | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
  delivered_at: number | null;
  from_name: string | null;
  reply_to_email: string | null;
  reply_to_name: string | null;
  headers: string;
  attachments: string;
  tags: string;
  sandbox_result: SandboxResult;
}

/** The columns of MessageRow, for every query that reads one (m: messages, r: requests). */
export const MESSAGE_COLUMNS = `m.seq, m.id, m.account_id, m.request_id, m.sender, m.recipient, m.recipient_name,
  m.substitutions, m.subject, m.text_content, m.html_content, m.amp_content, m.status, m.num_attempts,
  m.first_attempt, m.expires, m.due_at, m.created_at, m.updated_at, m.sent_at, m.delivered_at,
  r.from_name, r.reply_to_email, r.reply_to_name, r.headers, r.attachments, r.tags, r.sandbox_result`;

export interface Attempt {
  time: string;
  log: string;
  status: RelayStatus;
}

/** A message as the list shows it: everything but its moves and its raw content. */
export function messageSummary(row: MessageRow) {
  return {
    object: 'message' as const,
    id: row.id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    sent_at: iso(row.sent_at),
    delivered_at: iso(row.delivered_at),
    direction: 'outgoing' as const,
    sender: row.sender,
    recipient: row.recipient,
    subject: row.subject,
    tags: JSON.parse(row.tags) as string[],
    status: row.status,
    num_attempts: row.num_attempts,
    click_count: 0,
    open_count: 0,
    account_id: row.account_id,
    schedule: { first_attempt: iso(row.first_attempt), expires: iso(row.expires) },
  };
}

export type MessageSummary = ReturnType<typeof messageSummary>;

const CANCELLABLE: readonly RelayStatus[] = ['queued', 'scheduled'];

export class RelayMessages {
  private readonly insertRequest;
  private readonly insertMessage;
  private readonly insertTag;
  private readonly insertAttempt;
  private readonly byId;
  private readonly attemptsOf;
  private readonly markCancelled;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.insertRequest = db.prepare(
      `INSERT INTO email_relay_requests (account_id, from_email, from_name, reply_to_email, reply_to_name, headers,
         attachments, tags, sandbox_result, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertMessage = db.prepare(
      `INSERT INTO email_relay_messages (id, account_id, request_id, sender, recipient, recipient_name, substitutions,
         subject, text_content, html_content, amp_content, status, first_attempt, expires, due_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertTag = db.prepare(
      'INSERT OR IGNORE INTO email_relay_message_tags (account_id, tag, message_seq) VALUES (?, ?, ?)',
    );
    this.insertAttempt = db.prepare(
      'INSERT INTO email_relay_attempts (message_seq, time, status, log) VALUES (?, ?, ?, ?)',
    );
    this.byId = db.prepare<[string, string], MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM email_relay_messages m JOIN email_relay_requests r ON r.id = m.request_id
       WHERE m.id = ? AND m.account_id = ?`,
    );
    this.attemptsOf = db.prepare<[number], { time: number; status: RelayStatus; log: string }>(
      'SELECT time, status, log FROM email_relay_attempts WHERE message_seq = ? ORDER BY id',
    );
    this.markCancelled = db.prepare(
      `UPDATE email_relay_messages SET status = 'cancelled', due_at = NULL, updated_at = ?
       WHERE seq = ? AND status IN ('queued', 'scheduled')`,
    );
  }

  /** One message per recipient, in one transaction; the 202's list in recipient order. */
  accept(accountId: string, request: AcceptedRequest): RelayAnswer {
    const now = this.clock.now();
    const status: RelayStatus = request.scheduled ? 'scheduled' : 'queued';
    const tags = [...new Set(request.tags ?? [])];
    const global = request.substitutions ?? null;
    const schedule = { first_attempt: iso(request.firstAttempt), expires: iso(request.expires) };
    const data = this.db.transaction(() => {
      const requestId = this.insertRequest.run(
        accountId,
        request.from.email,
        request.from.name ?? null,
        request.reply_to?.email ?? null,
        request.reply_to?.name ?? null,
        JSON.stringify(request.headers ?? {}),
        JSON.stringify(request.attachments ?? []),
        JSON.stringify(tags),
        request.sandbox_result ?? 'deliver',
        now,
      ).lastInsertRowid;
      return request.recipients.map((recipient) => {
        const own: Substitutions | null = recipient.substitutions ?? null;
        const values = { global, recipient: own };
        const text = (template: string | null | undefined) => (template ? renderEmailTemplate(template, values) : null);
        const html = (template: string | null | undefined) =>
          template ? renderEmailTemplate(template, values, { html: true }) : null;
        const id = randomUUID();
        const seq = this.insertMessage.run(
          id,
          accountId,
          requestId,
          request.from.email,
          recipient.email,
          recipient.name ?? null,
          own ? JSON.stringify(own) : null,
          // A value holding a line break cannot end a header line early.
          text(request.subject)!.replace(/[\r\n]+/g, ' '),
          text(request.text_content),
          html(request.html_content),
          html(request.amp_content),
          status,
          request.firstAttempt,
          request.expires,
          request.firstAttempt,
          now,
          now,
        ).lastInsertRowid;
        for (const tag of tags) this.insertTag.run(accountId, tag, seq);
        return {
          object: 'message' as const,
          id,
          recipient: { email: recipient.email, name: recipient.name ?? null, substitutions: own ?? {} },
          status,
          error: null,
          schedule,
        };
      });
    })();
    return ok({ object: 'list', data }, 202);
  }

  find(accountId: string, id: string): MessageRow | undefined {
    return this.byId.get(id, accountId);
  }

  attempts(seq: number): Attempt[] {
    return this.attemptsOf
      .all(seq)
      .map((attempt) => ({ time: iso(attempt.time)!, log: attempt.log, status: attempt.status }));
  }

  /** Records one move of a message (inside the caller's transaction). */
  recordAttempt(seq: number, time: number, status: RelayStatus, log: string): void {
    this.insertAttempt.run(seq, time, status, log);
  }

  /** A queued or scheduled message becomes cancelled; else the 404 or 409 to answer (null: done). */
  cancel(accountId: string, id: string): RelayAnswer | null {
    const row = this.find(accountId, id);
    if (!row) return notFound(id);
    if (!CANCELLABLE.includes(row.status))
      return refusal(409, `message ${id} is ${row.status}: only a queued or scheduled message can be cancelled`);
    const now = this.clock.now();
    this.db.transaction(() => {
      this.markCancelled.run(now, row.seq);
      this.recordAttempt(row.seq, now, 'cancelled', 'Cancelled through the API before it was sent');
    })();
    return null;
  }
}

export function notFound(id: string): RelayAnswer {
  return refusal(404, `no message ${JSON.stringify(id)} in this account`);
}
