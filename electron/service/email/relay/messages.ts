// The provider's messages: one per recipient of an accepted request, with that recipient's own
// subject and bodies rendered once (shared/email-template.ts: its substitutions over the global
// ones) and stored, so what GET shows is exactly what that recipient got. A request of 1,000
// recipients is written a chunk at a time, shown whole at once (accept). Also the message as the API shows it (a list
// summary, the whole message) and its moves (delivery_attempts).
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import type { Clock } from '../../clock';
import type { RelayStatus, SandboxResult } from '../../../../shared/email';
import { compileEmailTemplate, type Substitutions } from '../../../../shared/email-template';
import { iso, jsonAnswer, refusal, SEND_ACCEPTED, type RelayAnswer } from './answers';
import type { Pace } from './pace';
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

/** Messages written per transaction: a few milliseconds each, the event loop running between. */
export const WRITE_CHUNK = 500;

/** A recipient's subject and bodies, from the request's templates read once. */
function messageRenderer(request: AcceptedRequest) {
  const compile = (template: string | null | undefined, html: boolean) =>
    template ? compileEmailTemplate(template, { html }) : () => null;
  const subject = compile(request.subject, false);
  const text = compile(request.text_content, false);
  const html = compile(request.html_content, true);
  const amp = compile(request.amp_content, true);
  return (values: { global: Substitutions | null; recipient: Substitutions | null }) => ({
    // A value holding a line break cannot end a header line early.
    subject: subject(values)!.replace(/[\r\n]+/g, ' '),
    text: text(values),
    html: html(values),
    amp: amp(values),
  });
}

/** The 202 of a send, its list given as JSON text a chunk at a time. */
function listAnswer(items: string[]): RelayAnswer {
  return jsonAnswer(SEND_ACCEPTED, `{"object":"list","data":[${items.join(',')}]}`);
}

export class RelayMessages {
  private readonly insertRequest;
  private readonly insertMessage;
  private readonly insertTag;
  private readonly insertAttempt;
  private readonly byId;
  private readonly attemptsOf;
  private readonly markCancelled;
  private readonly showRequest;
  private readonly dropRequest;
  private writing = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.insertRequest = db.prepare(
      `INSERT INTO email_relay_requests (account_id, from_email, from_name, reply_to_email, reply_to_name, headers,
         attachments, tags, sandbox_result, created_at, pending) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
       WHERE m.id = ? AND m.account_id = ? AND r.pending = 0`,
    );
    this.attemptsOf = db.prepare<[number], { time: number; status: RelayStatus; log: string }>(
      'SELECT time, status, log FROM email_relay_attempts WHERE message_seq = ? ORDER BY id',
    );
    this.markCancelled = db.prepare(
      `UPDATE email_relay_messages SET status = 'cancelled', due_at = NULL, updated_at = ?
       WHERE seq = ? AND status IN ('queued', 'scheduled')`,
    );
    this.showRequest = db.prepare('UPDATE email_relay_requests SET pending = 0 WHERE id = ?');
    this.dropRequest = db.prepare('DELETE FROM email_relay_requests WHERE id = ?');
  }

  /**
   * One message per recipient; the 202's list in recipient order, already as JSON text (a list of
   * 100,000 is 20 MB: serialized a chunk at a time, and replayed as it is). Made and written a
   * chunk at a time, the event loop running between chunks. A request of more than one chunk is
   * written pending (invisible to every reader; the sandbox waits while one is being written) and
   * shown whole by one last statement, together with `onCommit` (the Idempotency-Key's outcome);
   * one a kill cut off is discarded at the next start (discardPending).
   */
  async accept(
    accountId: string,
    request: AcceptedRequest,
    slices: Pace,
    onCommit: (answer: RelayAnswer) => void = () => {},
  ): Promise<RelayAnswer> {
    const now = this.clock.now();
    const { recipients } = request;
    const render = messageRenderer(request);
    const status: RelayStatus = request.scheduled ? 'scheduled' : 'queued';
    const tags = [...new Set(request.tags ?? [])];
    const schedule = { first_attempt: iso(request.firstAttempt), expires: iso(request.expires) };
    const pending = recipients.length > WRITE_CHUNK;
    const items: string[] = [];
    let requestId = 0;
    if (pending) this.writing++;
    let shown = false;
    try {
      for (let start = 0; start < recipients.length; start += WRITE_CHUNK) {
        const end = Math.min(start + WRITE_CHUNK, recipients.length);
        const last = end === recipients.length;
        const chunk: string[] = [];
        this.db.transaction(() => {
          if (start === 0) requestId = this.createRequest(accountId, request, tags, now, pending);
          for (let i = start; i < end; i++) {
            const recipient = recipients[i]!;
            const own: Substitutions | null = recipient.substitutions ?? null;
            const content = render({ global: request.substitutions ?? null, recipient: own });
            const id = randomUUID();
            const seq = this.insertMessage.run(
              id,
              accountId,
              requestId,
              request.from.email,
              recipient.email,
              recipient.name ?? null,
              own ? JSON.stringify(own) : null,
              content.subject,
              content.text,
              content.html,
              content.amp,
              status,
              request.firstAttempt,
              request.expires,
              request.firstAttempt,
              now,
              now,
            ).lastInsertRowid;
            for (const tag of tags) this.insertTag.run(accountId, tag, seq);
            chunk.push(
              JSON.stringify({
                object: 'message',
                id,
                recipient: { email: recipient.email, name: recipient.name ?? null, substitutions: own ?? {} },
                status,
                error: null,
                schedule,
              }),
            );
          }
          items.push(chunk.join(','));
          if (!last) return;
          if (pending) this.showRequest.run(requestId);
          onCommit(listAnswer(items));
        })();
        if (last) shown = true;
        else await slices.pause();
      }
    } finally {
      if (pending) this.writing--;
      // An error mid-way (the database full, say) leaves nothing half-written behind.
      if (!shown && requestId !== 0) this.dropRequest.run(requestId);
    }
    return listAnswer(items);
  }

  /** Whether a request is being written pending (the sandbox waits until none is). */
  isWriting(): boolean {
    return this.writing > 0;
  }

  /** Requests a kill cut off while they were being written: never shown, never answered. */
  discardPending(): void {
    this.db.prepare('DELETE FROM email_relay_requests WHERE pending = 1').run();
  }

  private createRequest(accountId: string, request: AcceptedRequest, tags: string[], now: number, pending: boolean) {
    return Number(
      this.insertRequest.run(
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
        pending ? 1 : 0,
      ).lastInsertRowid,
    );
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
