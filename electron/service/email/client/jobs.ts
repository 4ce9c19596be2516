// The jobs of an email send, on core.jobs:
// - email.send hands the recipients to the transport in batches of 500, in order. Through a
//   provider (the sandbox or one over HTTP) each batch is one request with the Idempotency-Key
//   chapar-<uuid>-<batch>: a retry after a reset that came after the provider accepted is answered
//   by replay, never sent twice. Its results are recorded in the transaction that moves the send to
//   the next batch (and the job's progress), so a crash resumes at the batch in flight and the
//   replay covers it. 5xx, 429 (Retry-After honoured), 409 and requests without an answer are
//   retried by the jobs runner's backoff; 400 and other 4xx end that batch's recipients 'error' and
//   the send goes on; 401/403 fail the send; 412 (the key's first request failed) sends the batch
//   again under the key's next generation. Attempts count per batch: a batch that got through
//   after retries leaves the rest to a fresh job. Through SMTP each recipient is one message,
//   recorded as it goes (a crash re-sends at most the one in flight).
// - email.poll reads the statuses of messages not final yet and records what changed, one
//   transaction per page, again after a delay growing from 1 s to 60 s while nothing changes
//   (back to 1 s after a round that saw changes) until all are final.
// - email.cancel asks the provider to cancel messages still queued or scheduled.
// A send's row names the job in charge of it (job_id): a leftover job of the send that wakes does nothing.
import { z } from 'zod';
import { isKeyRefused, isSuccess } from '../http-status';
import type { Db } from '../../db/database';
import type { Clock } from '../../clock';
import type { Job, JobContext, Jobs } from '../../jobs/jobs';
import type { EmailRecipientStatus } from '../../../../shared/email';
import type { EmailConfigStore } from './config';
import { EmailStore, type RecipientRow, type SendRow } from './store';
import type { ProgressThrottle } from './progress';
import { sandboxConnection, type InProcessRelay } from './transports/sandbox';
import { providerConnection } from './transports/provider';
import { smtpConnection } from './transports/smtp';
import {
  NetworkError,
  answerMessage,
  readSendAnswer,
  readStatus,
  type MessagesRequest,
  type RelayAnswer,
  type RelayConnection,
} from './transports/relay-api';

export const SEND_JOB = 'email.send';
export const POLL_JOB = 'email.poll';
export const CANCEL_JOB = 'email.cancel';
/** Recipients per request to the provider. */
export const BATCH_SIZE = 500;
/** Polls: about 1 s after the last batch, growing by half each round up to a minute. */
const POLL_FIRST_MS = 1_000;
const POLL_MAX_MS = 60_000;
/** Few enough messages left to read each by id rather than list the send's pages. */
const FEW = 10;
const LIST_PAGE = 100;
/** Cancel requests in flight at once, and the longest Retry-After a job waits for. */
const CANCEL_PARALLEL = 8;
const MAX_RETRY_AFTER_MS = 10 * 60_000;
/** New keys for one batch after 412s before the batch counts as failing. */
const MAX_KEY_GENERATIONS = 5;

const Payload = z.object({ sendId: z.number().int().positive() });
type PayloadOf = z.infer<typeof Payload>;

export interface EmailJobsDeps {
  db: Db;
  clock: Clock;
  jobs: Jobs;
  store: EmailStore;
  config: EmailConfigStore;
  relay: InProcessRelay;
  progress: ProgressThrottle;
}

export function idempotencyKey(uuid: string, batch: number, generation: number): string {
  return generation === 0 ? `chapar-${uuid}-${batch}` : `chapar-${uuid}-${batch}-g${generation}`;
}

export function sendTag(uuid: string): string {
  return `chapar-send-${uuid}`;
}

/** Stops a run quietly: the send ended (failed, cancelled) or another job is in charge. */
class Stop extends Error {}

export class EmailJobs {
  private readonly db: Db;
  private readonly store: EmailStore;

  constructor(private readonly deps: EmailJobsDeps) {
    this.db = deps.db;
    this.store = deps.store;
    deps.jobs.register<PayloadOf>({
      type: SEND_JOB,
      payload: Payload,
      concurrency: 2,
      // Per batch (a batch through after retries hands the rest to a fresh job): about two
      // minutes of a provider that does not answer before the send fails.
      maxAttempts: 8,
      backoff: { baseMs: 1_000, maxMs: 60_000 },
      run: (job, ctx) => this.guard(job.payload.sendId, () => this.runSend(job, ctx)),
      failed: (job, error) => this.failInTransaction(job.payload.sendId, job.id, error),
    });
    deps.jobs.register<PayloadOf>({
      type: POLL_JOB,
      payload: Payload,
      concurrency: 4,
      maxAttempts: 10,
      backoff: { baseMs: 2_000, maxMs: 60_000 },
      run: (job, ctx) => this.guard(job.payload.sendId, () => this.runPoll(job, ctx)),
      failed: (job, error) =>
        this.failInTransaction(job.payload.sendId, job.id, `statuses could not be read: ${error}`),
    });
    deps.jobs.register<PayloadOf>({
      type: CANCEL_JOB,
      payload: Payload,
      concurrency: 2,
      maxAttempts: 5,
      backoff: { baseMs: 2_000, maxMs: 30_000 },
      run: (job, ctx) => this.guard(job.payload.sendId, () => this.runCancel(job, ctx)),
    });
  }

  /** In the caller's transaction: the send's first job. */
  startSend(sendId: number): void {
    this.handOver(SEND_JOB, sendId, this.deps.clock.now());
  }

  /** In the caller's transaction: cancel at the provider what it still holds (not for SMTP). */
  startCancel(send: SendRow): void {
    if (send.transport === 'smtp') return;
    this.deps.jobs.enqueue(CANCEL_JOB, { sendId: send.id });
  }

  /** The queued job in charge of the send is not needed any more (the send was cancelled). */
  dropQueued(send: SendRow): void {
    if (send.job_id === null) return;
    const job = this.deps.jobs.get(send.job_id);
    if (job?.state === 'queued') this.deps.jobs.cancel(job.id);
  }

  // ---- email.send

  private async runSend(job: Job<PayloadOf>, ctx: JobContext): Promise<void> {
    const id = job.payload.sendId;
    let send = this.owned(id, job.id);
    if (send.state !== 'sending') return;
    await this.waitUntil(send.not_before, ctx.signal);
    if (send.transport === 'smtp') return await this.runSmtp(job, ctx);
    const connection = this.connection(send.transport);
    for (;;) {
      send = this.owned(id, job.id);
      if (send.state !== 'sending') return;
      const batch = send.next_batch;
      const rows = this.store.stmt.batch.all(id, batch * BATCH_SIZE, (batch + 1) * BATCH_SIZE);
      if (rows.length === 0) break;
      const key = idempotencyKey(send.uuid, batch, send.key_generation);
      let answer: RelayAnswer;
      try {
        answer = await connection.send(batchBody(send, rows), key, ctx.signal);
      } catch (error) {
        if (error instanceof NetworkError) throw new Error(`batch ${batch + 1}: ${error.message}`);
        throw error;
      }
      const now = this.deps.clock.now();
      const outcome = readSendAnswer(answer, rows.length, now);
      switch (outcome.kind) {
        case 'accepted':
          this.recordBatch(send, batch, ctx, () => {
            outcome.items.forEach((item, i) =>
              this.store.stmt.setResult.run({
                send_id: id,
                seq: rows[i]!.seq,
                status: item.status,
                message_id: item.id,
                error: item.error,
                now,
              }),
            );
          });
          break;
        case 'refused':
          this.recordBatch(send, batch, ctx, () => {
            for (const row of rows)
              this.store.stmt.setResult.run({
                send_id: id,
                seq: row.seq,
                status: 'error',
                message_id: null,
                error: outcome.message,
                now,
              });
          });
          break;
        case 'unauthorized':
          this.db.transaction(() => this.end(id, 'failed', `the provider refused the key (${outcome.message})`))();
          this.deps.progress.changed(id, true);
          return;
        case 'key-failed':
          if (send.key_generation >= MAX_KEY_GENERATIONS) throw new Error(`batch ${batch + 1}: ${outcome.message}`);
          this.store.stmt.setKeyGeneration.run(send.key_generation + 1, now, id);
          continue;
        case 'retry':
          if (outcome.retryAfterMs !== null)
            this.store.stmt.setNotBefore.run(now + Math.min(outcome.retryAfterMs, MAX_RETRY_AFTER_MS), now, id);
          throw new Error(`batch ${batch + 1}: ${outcome.message}`);
      }
      this.deps.progress.changed(id);
      // Cancelled while the batch was in flight: what the provider took is cancelled there.
      if (this.store.send(id)!.state === 'cancelled') {
        this.db.transaction(() => this.startCancel(send))();
        return;
      }
      // Attempts count per batch: after retries, the rest goes on in a fresh job.
      if (ctx.attempt > 1) {
        this.db.transaction(() => this.handOver(SEND_JOB, id, this.deps.clock.now()))();
        return;
      }
    }
    this.db.transaction(() => this.afterBatches(id))();
    this.deps.progress.changed(id, this.store.send(id)!.state !== 'sending');
  }

  /** The batch's results, the next batch and the job's progress, in one transaction. */
  private recordBatch(send: SendRow, batch: number, ctx: JobContext, results: () => void): void {
    this.db.transaction(() => {
      results();
      this.store.stmt.advance.run({ id: send.id, next_batch: batch + 1, now: this.deps.clock.now() });
      ctx.progress({ batch: batch + 1 });
    })();
  }

  /** Every batch handed over: done when every result is final, else the statuses are polled. */
  private afterBatches(id: number): void {
    if (this.store.stmt.inFlightCount.get(id) === 0) {
      this.finishIfSending(id);
      return;
    }
    this.store.stmt.setPollRound.run(0, id);
    this.handOver(POLL_JOB, id, this.deps.clock.now() + POLL_FIRST_MS);
  }

  private async runSmtp(job: Job<PayloadOf>, ctx: JobContext): Promise<void> {
    const id = job.payload.sendId;
    const smtp = smtpConnection(this.deps.config.transportSettings().smtp);
    try {
      for (;;) {
        const send = this.owned(id, job.id);
        if (send.state !== 'sending') return;
        const batch = send.next_batch;
        if (batch * BATCH_SIZE >= send.total) break;
        const rows = this.store.stmt.pendingIn.all(id, batch * BATCH_SIZE, (batch + 1) * BATCH_SIZE);
        let sentAfterRetry = false;
        for (const row of rows) {
          if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('aborted');
          if (this.owned(id, job.id).state !== 'sending') return;
          let outcome;
          try {
            outcome = await smtp.send({
              from: party(send.from_email, send.from_name)!,
              replyTo: party(send.reply_to_email, send.reply_to_name),
              to: { email: row.email, name: row.name },
              subject: send.subject,
              text: send.text,
              html: send.html,
              substitutions: JSON.parse(row.substitutions) as Record<string, string>,
              sendUuid: send.uuid,
            });
          } catch (error) {
            if (error instanceof NetworkError) throw new Error(`recipient ${row.row}: ${error.message}`);
            throw error;
          }
          const now = this.deps.clock.now();
          if (outcome.kind === 'unauthorized') {
            this.db.transaction(() => this.end(id, 'failed', outcome.message))();
            this.deps.progress.changed(id, true);
            return;
          }
          this.db.transaction(() => {
            this.store.stmt.setResult.run({
              send_id: id,
              seq: row.seq,
              status: outcome.kind === 'sent' ? 'sent' : 'error',
              message_id: null,
              error: outcome.kind === 'rejected' ? outcome.message : null,
              now,
            });
            ctx.progress({ batch, seq: row.seq });
          })();
          sentAfterRetry = ctx.attempt > 1;
          this.deps.progress.changed(id);
        }
        this.db.transaction(() => {
          this.store.stmt.advance.run({ id, next_batch: batch + 1, now: this.deps.clock.now() });
          ctx.progress({ batch: batch + 1 });
          if (sentAfterRetry) this.handOver(SEND_JOB, id, this.deps.clock.now());
        })();
        if (sentAfterRetry) return;
      }
      this.db.transaction(() => this.finishIfSending(id))();
      this.deps.progress.changed(id, true);
    } finally {
      smtp.close();
    }
  }

  // ---- email.poll

  private async runPoll(job: Job<PayloadOf>, ctx: JobContext): Promise<void> {
    const id = job.payload.sendId;
    const send = this.owned(id, job.id);
    if (send.state === 'failed' || send.transport === 'smtp') return;
    const connection = this.connection(send.transport);
    // The messages still in flight, by the provider's id (results are written by seq).
    const waiting = new Map(
      this.store.stmt.inFlight.all(id, Number.MAX_SAFE_INTEGER).map((row) => [row.message_id, row.seq] as const),
    );
    let changed = 0;
    if (waiting.size <= FEW) {
      const answers = await Promise.all(
        [...waiting.keys()].map((messageId) => this.request(() => connection.get(messageId, ctx.signal))),
      );
      changed += this.recordPolled(
        id,
        waiting,
        answers.map((answer) => answer.body),
      );
    } else {
      // The send's messages by its tag, page by page, until every message still in flight was seen:
      // a list filtered to the statuses in flight could not tell which final status the others reached.
      const unseen = new Set(waiting.keys());
      let after: string | undefined;
      for (;;) {
        const query: Record<string, string> = { tags: sendTag(send.uuid), limit: String(LIST_PAGE) };
        if (after !== undefined) query.after = after;
        const answer = await this.request(() => connection.list(query, ctx.signal));
        const body = answer.body as { data?: unknown; pagination?: { has_more?: unknown; next_cursor?: unknown } };
        const items = Array.isArray(body?.data) ? body.data : [];
        const page = this.recordPolled(id, waiting, items);
        changed += page;
        if (page > 0) this.deps.progress.changed(id);
        for (const item of items) unseen.delete(String((item as { id?: unknown }).id));
        const next = body?.pagination?.next_cursor;
        if (unseen.size === 0 || body?.pagination?.has_more !== true || typeof next !== 'string' || next === '') break;
        after = next;
      }
    }
    this.db.transaction(() => {
      if (this.store.stmt.inFlightCount.get(id) === 0) {
        this.finishIfSending(id);
        return;
      }
      // The delay grows while nothing changes; a round that saw changes polls again soon.
      const round = changed > 0 ? 0 : this.store.send(id)!.poll_round + 1;
      this.store.stmt.setPollRound.run(round, id);
      const delay = Math.min(POLL_MAX_MS, Math.round(POLL_FIRST_MS * 1.5 ** round));
      this.handOver(POLL_JOB, id, this.deps.clock.now() + delay);
    })();
    if (changed > 0 || this.store.send(id)!.state !== send.state) this.deps.progress.changed(id, true);
  }

  /** Records the messages' statuses (provider items: {id, status, error?}); returns the rows changed. */
  private recordPolled(id: number, waiting: ReadonlyMap<string, number>, items: unknown[]): number {
    const now = this.deps.clock.now();
    return this.db.transaction(() => {
      let changed = 0;
      for (const item of items) {
        const entry = (item ?? {}) as { id?: unknown; status?: unknown; error?: unknown };
        const status = readStatus(entry.status);
        const seq = typeof entry.id === 'string' ? waiting.get(entry.id) : undefined;
        if (seq === undefined || status === null) continue;
        changed += this.store.stmt.setPolled.run({
          send_id: id,
          seq,
          message_id: entry.id as string,
          status,
          error: typeof entry.error === 'string' ? entry.error : null,
          now,
        }).changes;
      }
      return changed;
    })();
  }

  // ---- email.cancel

  private async runCancel(job: Job<PayloadOf>, ctx: JobContext): Promise<void> {
    const id = job.payload.sendId;
    const send = this.store.send(id);
    if (!send || send.transport === 'smtp') return;
    const connection = this.connection(send.transport);
    let after = -1;
    for (;;) {
      const rows = this.store.stmt.cancellable.all(id, after, CANCEL_PARALLEL);
      if (rows.length === 0) break;
      const answers = await Promise.all(
        rows.map((row) => this.request(() => connection.cancel(row.message_id, ctx.signal), [400, 404, 409, 422])),
      );
      const now = this.deps.clock.now();
      this.db.transaction(() => {
        answers.forEach((answer, i) => {
          if (answer.status >= 300) return; // Too late to cancel: the poller learns its end.
          const status = readStatus((answer.body as { status?: unknown } | null)?.status) ?? 'cancelled';
          this.store.stmt.setResult.run({ send_id: id, seq: rows[i]!.seq, status, message_id: null, error: null, now });
        });
      })();
      after = rows[rows.length - 1]!.seq;
      this.deps.progress.changed(id);
    }
    // What was handed over before the cancel still ends somewhere: keep reading its statuses.
    this.db.transaction(() => {
      if ((this.store.stmt.inFlightCount.get(id) ?? 0) > 0)
        this.handOver(POLL_JOB, id, this.deps.clock.now() + POLL_FIRST_MS);
    })();
    this.deps.progress.changed(id, true);
  }

  // ---- shared

  /**
   * A read or cancel request: 2xx (and the statuses `accept`ed) come back; 401/403 fail the send;
   * anything else (5xx, 429, no answer) is thrown for the job's retry.
   */
  private async request(call: () => Promise<RelayAnswer>, accept: number[] = []): Promise<RelayAnswer> {
    let answer: RelayAnswer;
    try {
      answer = await call();
    } catch (error) {
      if (error instanceof NetworkError) throw new Error(error.message);
      throw error;
    }
    if (isSuccess(answer.status)) return answer;
    if (accept.includes(answer.status)) return answer;
    if (isKeyRefused(answer.status)) throw new KeyRefused(answerMessage(answer));
    throw new Error(answerMessage(answer));
  }

  private connection(transport: SendRow['transport']): RelayConnection {
    if (transport === 'sandbox') return sandboxConnection(this.deps.relay);
    const { provider } = this.deps.config.transportSettings();
    return providerConnection(provider);
  }

  /** Hands the send to a new job of `type` due at `runAfter` (in the caller's transaction). */
  private handOver(type: string, sendId: number, runAfter: number): void {
    const jobId = this.deps.jobs.enqueue(type, { sendId }, { runAfter });
    this.store.stmt.setJob.run(jobId, sendId);
  }

  /** The send, when this job is in charge of it (else Stop). */
  private owned(id: number, jobId: number): SendRow {
    const send = this.store.send(id);
    if (!send || send.job_id !== jobId) throw new Stop();
    return send;
  }

  private finishIfSending(id: number): void {
    if (this.store.send(id)?.state === 'sending')
      this.store.stmt.setState.run({ id, state: 'done', error: null, now: this.deps.clock.now() });
  }

  /** The send ends (failed): recipients not handed over end 'error' with the reason. */
  private end(id: number, state: 'failed', error: string): void {
    const now = this.deps.clock.now();
    this.store.stmt.endPending.run({ send_id: id, status: 'error' satisfies EmailRecipientStatus, error, now });
    this.store.stmt.setState.run({ id, state, error, now });
  }

  /** The jobs runner gave up on the send's job (attempts spent), in its transaction. */
  private failInTransaction(sendId: number, jobId: number, error: string): void {
    const send = this.store.send(sendId);
    if (!send || send.job_id !== jobId || send.state !== 'sending') return;
    this.end(sendId, 'failed', error);
    // After the runner's transaction: the window learns at once.
    setImmediate(() => this.deps.progress.changed(sendId, true));
  }

  private async guard(sendId: number, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      if (error instanceof Stop) return;
      if (!(error instanceof KeyRefused)) throw error;
      // Reading statuses or cancelling with a key the provider now refuses: nothing more to learn.
      const now = this.deps.clock.now();
      const message = `the provider refused the key (${error.message})`;
      if (this.store.send(sendId)?.state === 'sending')
        this.store.stmt.setState.run({ id: sendId, state: 'failed', error: message, now });
      this.deps.progress.changed(sendId, true);
    }
  }

  private async waitUntil(at: number, signal: AbortSignal): Promise<void> {
    const ms = Math.min(at - this.deps.clock.now(), MAX_RETRY_AFTER_MS);
    if (!(ms > 0)) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        },
        { once: true },
      );
    });
  }
}

class KeyRefused extends Error {}

function party(email: string | null, name: string | null): { email: string; name?: string } | null {
  if (email === null) return null;
  return name ? { email, name } : { email };
}

/** The request of one batch: the template once, each recipient with their own substitutions. */
export function batchBody(send: SendRow, rows: RecipientRow[]): MessagesRequest {
  const body: MessagesRequest = {
    from: party(send.from_email, send.from_name)!,
    recipients: rows.map((row) => ({
      email: row.email,
      ...(row.name ? { name: row.name } : {}),
      substitutions: JSON.parse(row.substitutions) as Record<string, string>,
    })),
    subject: send.subject,
    tags: [sendTag(send.uuid)],
  };
  const replyTo = party(send.reply_to_email, send.reply_to_name);
  if (replyTo) body.reply_to = replyTo;
  if (send.text !== null) body.text_content = send.text;
  if (send.html !== null) body.html_content = send.html;
  return body;
}
