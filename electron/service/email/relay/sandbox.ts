// The sandbox's delivery: nothing leaves the machine; a scheduler worker moves each message when it
// is due. At its first attempt time a queued or scheduled message is processed; a moment later
// (PROCESSING_DELAY_MS) the attempt ends as its request's sandbox_result says: delivered, bounced,
// failed, suppressed, or deferred and tried again DEFER_RETRY_MS later (delivered if that is
// before it expires, else failed). An attempt after the message expired fails it. Every move is
// recorded as a delivery attempt. The state is in SQLite, so a restart picks up where it stopped.
import type { Db } from '../../db/database';
import type { Clock } from '../../clock';
import type { Worker } from '../../jobs/scheduler';
import type { RelayStatus, SandboxResult } from '../../../../shared/email';
import type { RelayMessages } from './messages';

/** Between being picked up and the outcome of the attempt. */
export const PROCESSING_DELAY_MS = 1000;
/** A deferred message is tried again this long after. */
export const DEFER_RETRY_MS = 60_000;
const BATCH = 500;

interface Due {
  seq: number;
  status: RelayStatus;
  expires: number;
  sandbox_result: SandboxResult;
}

interface Move {
  status: RelayStatus;
  log: string;
  /** Next move's time; null when final. */
  dueAt: number | null;
  attempt: boolean;
}

const OUTCOMES: Record<Exclude<SandboxResult, 'defer'>, { status: RelayStatus; log: string }> = {
  deliver: { status: 'delivered', log: '250 2.0.0 OK: delivered (sandbox: nothing left this machine)' },
  bounce: { status: 'bounced', log: '550 5.1.1 mailbox unavailable (sandbox_result bounce)' },
  fail: { status: 'failed', log: '554 5.0.0 delivery failed (sandbox_result fail)' },
  suppress: { status: 'suppressed', log: 'Recipient is on the suppression list (sandbox_result suppress)' },
};

const EXPIRED = { status: 'failed' as const, log: 'Expired before it could be delivered' };

/** What happens to a due message now. */
export function nextMove(message: Due, now: number): Move {
  switch (message.status) {
    case 'queued':
    case 'scheduled':
      return {
        status: 'processed',
        log: 'Picked up for sending (sandbox)',
        dueAt: now + PROCESSING_DELAY_MS,
        attempt: false,
      };
    case 'processed': {
      if (now > message.expires) return { ...EXPIRED, dueAt: null, attempt: true };
      if (message.sandbox_result === 'defer')
        return {
          status: 'deferred',
          log: `451 4.7.1 try again later (sandbox_result defer); next attempt in ${DEFER_RETRY_MS / 1000} s`,
          dueAt: now + DEFER_RETRY_MS,
          attempt: true,
        };
      return { ...OUTCOMES[message.sandbox_result], dueAt: null, attempt: true };
    }
    case 'deferred':
      if (now > message.expires) return { ...EXPIRED, dueAt: null, attempt: true };
      return { ...OUTCOMES.deliver, dueAt: null, attempt: true };
    case 'delivered':
    case 'bounced':
    case 'failed':
    case 'suppressed':
    case 'cancelled':
      // Final: nothing is due (a row left due by mistake is taken off the scan).
      return { status: message.status, log: '', dueAt: null, attempt: false };
  }
}

export class Sandbox implements Worker {
  readonly name = 'email-relay-sandbox';
  private readonly due;
  private readonly earliest;
  private readonly update;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly messages: RelayMessages,
  ) {
    this.due = db.prepare<[number], Due>(
      `SELECT m.seq, m.status, m.expires, r.sandbox_result FROM email_relay_messages m
       JOIN email_relay_requests r ON r.id = m.request_id
       WHERE m.due_at IS NOT NULL AND m.due_at <= ? ORDER BY m.due_at LIMIT ${BATCH}`,
    );
    this.earliest = db.prepare<[], { due: number | null }>(
      'SELECT MIN(due_at) AS due FROM email_relay_messages WHERE due_at IS NOT NULL',
    );
    this.update = db.prepare(
      `UPDATE email_relay_messages SET status = ?, due_at = ?, updated_at = ?, num_attempts = num_attempts + ?,
         sent_at = CASE WHEN ? = 'processed' AND sent_at IS NULL THEN ? ELSE sent_at END,
         delivered_at = CASE WHEN ? = 'delivered' THEN ? ELSE delivered_at END
       WHERE seq = ?`,
    );
  }

  runDue(): boolean {
    // Messages of a request being written are not shown yet; they are due once it is (accept pokes).
    if (this.messages.isWriting()) return false;
    const now = this.clock.now();
    return this.db.transaction(() => {
      const due = this.due.all(now);
      for (const message of due) {
        const move = nextMove(message, now);
        this.update.run(
          move.status,
          move.dueAt,
          now,
          move.attempt ? 1 : 0,
          move.status,
          now,
          move.status,
          now,
          message.seq,
        );
        if (move.log) this.messages.recordAttempt(message.seq, now, move.status, move.log);
      }
      return due.length > 0;
    })();
  }

  nextDueAt(): number | null {
    if (this.messages.isWriting()) return null;
    return this.earliest.get()?.due ?? null;
  }
}
