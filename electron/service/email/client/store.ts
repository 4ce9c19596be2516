// The email sends' tables (migration 0016) and their statements: a send's row, its recipients in
// order, counts by status, and the reads the results page, the send job and the poller make.
// Only email/client reads or writes these tables.
import type { Db } from '../../db/database';
import {
  EMAIL_RECIPIENT_FINAL,
  EMAIL_RECIPIENT_STATUSES,
  type EmailRecipientStatus,
  type EmailTransportKind,
} from '../../../../shared/email';
import type { EmailRecipient, EmailSend } from '../../../../shared/ipc/contracts/email';

export interface SendRow {
  id: number;
  account_id: number;
  segment_id: number;
  segment_name: string;
  uuid: string;
  request_id: string;
  from_email: string;
  from_name: string;
  reply_to_email: string | null;
  reply_to_name: string | null;
  subject: string;
  text: string | null;
  html: string | null;
  transport: EmailTransportKind;
  state: EmailSend['state'];
  error: string | null;
  total: number;
  next_batch: number;
  key_generation: number;
  not_before: number;
  poll_round: number;
  job_id: number | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface RecipientRow {
  send_id: number;
  seq: number;
  row: number;
  phone: string;
  email: string;
  name: string;
  substitutions: string;
  status: EmailRecipientStatus;
  message_id: string | null;
  error: string | null;
  updated_at: number;
}

/** Statuses that may still change (a handed-over message the provider has not finished with). */
export const IN_FLIGHT: readonly EmailRecipientStatus[] = EMAIL_RECIPIENT_STATUSES.filter(
  (status) => status !== 'pending' && !EMAIL_RECIPIENT_FINAL.includes(status),
);
/** Statuses in which the provider may still cancel a message. */
export const CANCELLABLE: readonly EmailRecipientStatus[] = ['queued', 'scheduled'];

const list = (statuses: readonly string[]) => statuses.map((status) => `'${status}'`).join(', ');

export class EmailStore {
  readonly stmt;

  constructor(readonly db: Db) {
    this.stmt = {
      insertSend: db.prepare<
        Omit<
          SendRow,
          'id' | 'error' | 'next_batch' | 'key_generation' | 'not_before' | 'poll_round' | 'job_id' | 'finished_at'
        >
      >(
        `INSERT INTO email_sends (account_id, segment_id, segment_name, uuid, request_id, from_email, from_name,
           reply_to_email, reply_to_name, subject, text, html, transport, state, total, created_at, updated_at)
         VALUES (@account_id, @segment_id, @segment_name, @uuid, @request_id, @from_email, @from_name,
           @reply_to_email, @reply_to_name, @subject, @text, @html, @transport, @state, @total, @created_at, @updated_at)`,
      ),
      insertRecipient: db.prepare<[number, number, number, string, string, string, string, number]>(
        `INSERT INTO email_recipients (send_id, seq, row, phone, email, name, substitutions, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      send: db.prepare<[number], SendRow>('SELECT * FROM email_sends WHERE id = ?'),
      byRequest: db.prepare<[number, string], SendRow>(
        'SELECT * FROM email_sends WHERE account_id = ? AND request_id = ?',
      ),
      sends: db.prepare<[number], SendRow>('SELECT * FROM email_sends WHERE account_id = ? ORDER BY id DESC'),
      counts: db
        .prepare<[number], [EmailRecipientStatus, number]>(
          'SELECT status, count(*) FROM email_recipients WHERE send_id = ? GROUP BY status',
        )
        .raw(),
      batch: db.prepare<[number, number, number], RecipientRow>(
        'SELECT * FROM email_recipients WHERE send_id = ? AND seq >= ? AND seq < ? ORDER BY seq',
      ),
      pendingIn: db.prepare<[number, number, number], RecipientRow>(
        `SELECT * FROM email_recipients WHERE send_id = ? AND seq >= ? AND seq < ? AND status = 'pending' ORDER BY seq`,
      ),
      setResult: db.prepare<{
        send_id: number;
        seq: number;
        status: EmailRecipientStatus;
        message_id: string | null;
        error: string | null;
        now: number;
      }>(
        `UPDATE email_recipients SET status = @status, message_id = coalesce(@message_id, message_id), error = @error,
           updated_at = @now WHERE send_id = @send_id AND seq = @seq`,
      ),
      /** A polled status, recorded only while the row may still change and when it did. */
      setPolled: db.prepare<{
        send_id: number;
        seq: number;
        message_id: string;
        status: string;
        error: string | null;
        now: number;
      }>(
        `UPDATE email_recipients SET status = @status, error = coalesce(@error, error), updated_at = @now
         WHERE send_id = @send_id AND seq = @seq AND message_id = @message_id AND status <> @status
           AND status IN (${list(IN_FLIGHT)})`,
      ),
      endPending: db.prepare<{ send_id: number; status: EmailRecipientStatus; error: string | null; now: number }>(
        `UPDATE email_recipients SET status = @status, error = @error, updated_at = @now
         WHERE send_id = @send_id AND status = 'pending'`,
      ),
      inFlight: db.prepare<[number, number], { seq: number; message_id: string; status: EmailRecipientStatus }>(
        `SELECT seq, message_id, status FROM email_recipients
         WHERE send_id = ? AND status IN (${list(IN_FLIGHT)}) AND message_id IS NOT NULL ORDER BY seq LIMIT ?`,
      ),
      inFlightCount: db
        .prepare<[number], number>(
          `SELECT count(*) FROM email_recipients WHERE send_id = ? AND status IN (${list(IN_FLIGHT)})`,
        )
        .pluck(),
      cancellable: db.prepare<[number, number, number], { seq: number; message_id: string }>(
        `SELECT seq, message_id FROM email_recipients
         WHERE send_id = ? AND status IN (${list(CANCELLABLE)}) AND message_id IS NOT NULL AND seq > ?
         ORDER BY seq LIMIT ?`,
      ),
      setState: db.prepare<{ id: number; state: EmailSend['state']; error: string | null; now: number }>(
        `UPDATE email_sends SET state = @state, error = coalesce(@error, error), updated_at = @now,
           finished_at = CASE WHEN @state = 'sending' THEN NULL ELSE coalesce(finished_at, @now) END
         WHERE id = @id`,
      ),
      advance: db.prepare<{ id: number; next_batch: number; now: number }>(
        `UPDATE email_sends SET next_batch = @next_batch, key_generation = 0, not_before = 0, updated_at = @now
         WHERE id = @id`,
      ),
      setKeyGeneration: db.prepare<[number, number, number]>(
        'UPDATE email_sends SET key_generation = ?, updated_at = ? WHERE id = ?',
      ),
      setNotBefore: db.prepare<[number, number, number]>(
        'UPDATE email_sends SET not_before = ?, updated_at = ? WHERE id = ?',
      ),
      setJob: db.prepare<[number, number]>('UPDATE email_sends SET job_id = ? WHERE id = ?'),
      setPollRound: db.prepare<[number, number]>('UPDATE email_sends SET poll_round = ? WHERE id = ?'),
    };
  }

  send(id: number): SendRow | null {
    return this.stmt.send.get(id) ?? null;
  }

  counts(sendId: number): Record<EmailRecipientStatus, number> {
    const counts = Object.fromEntries(EMAIL_RECIPIENT_STATUSES.map((status) => [status, 0])) as Record<
      EmailRecipientStatus,
      number
    >;
    for (const [status, count] of this.stmt.counts.all(sendId)) counts[status] = count;
    return counts;
  }

  toEmailSend(row: SendRow): EmailSend {
    return {
      id: row.id,
      account_id: row.account_id,
      segment_id: row.segment_id,
      segment_name: row.segment_name,
      from: row.from_name ? { email: row.from_email, name: row.from_name } : { email: row.from_email },
      reply_to:
        row.reply_to_email === null
          ? null
          : row.reply_to_name
            ? { email: row.reply_to_email, name: row.reply_to_name }
            : { email: row.reply_to_email },
      subject: row.subject,
      text: row.text,
      html: row.html,
      transport: row.transport,
      state: row.state,
      error: row.error,
      total: row.total,
      counts: this.counts(row.id),
      created_at: row.created_at,
      finished_at: row.finished_at,
    };
  }
}

export function toRecipient(row: RecipientRow): EmailRecipient {
  return {
    row: row.row,
    email: row.email,
    name: row.name,
    status: row.status,
    message_id: row.message_id,
    error: row.error,
    updated_at: row.updated_at,
  };
}
