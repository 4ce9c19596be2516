// The email provider of spec 4.6, embedded as a sandbox (reference/email-relay-provider.md). Each
// method answers what the provider's HTTP API answers, as data (status, JSON body, headers), so the
// HTTP routes (http/email/) and the app's in-process 'sandbox' transport share one behaviour.
// Accounts and keys: accounts.ts; the body and its 400s: request.ts; messages: messages.ts; the
// list: list.ts; Idempotency-Key: idempotency.ts; moving messages: sandbox.ts; raw content: rfc822.ts.
import type { Db } from '../../db/database';
import type { Clock } from '../../clock';
import type { Scheduler } from '../../jobs/scheduler';
import { ok, refusal, SEND_ACCEPTED, type RelayAnswer } from './answers';
import { LOCAL_ACCOUNT_ID, RelayAccounts, type RelayKeySpec, type RelayOperation } from './accounts';
import { bodyHash, Idempotency, SEND_SCOPE, type IdempotencyClaim } from './idempotency';
import { notFound, RelayMessages, messageSummary, type MessageRow } from './messages';
import { RelayList } from './list';
import { Sandbox } from './sandbox';
import { rawMessage } from './rfc822';
import { idempotencyKeyProblem, parseSendRequest } from './request';
import { pace, type Pace } from './pace';

export type { RelayAnswer } from './answers';
export type { RelayOperation, RelayKeySpec } from './accounts';
export type { IdempotencyClaim } from './idempotency';

export interface EmailRelayOptions {
  db: Db;
  clock: Clock;
  scheduler: Scheduler;
  /** The stored form of a key given in clear (the same keyed hash as the SMS API's keys). */
  hashKey: (key: string) => string;
}

export interface SendOptions {
  idempotencyKey?: string;
  /** The claim an HTTP request took on its key before its body was read (see claimIdempotency). */
  claim?: IdempotencyClaim;
}

export class EmailRelay {
  private readonly accounts: RelayAccounts;
  private readonly messages: RelayMessages;
  private readonly listing: RelayList;
  private readonly idempotency: Idempotency;
  private readonly sandbox: Sandbox;

  constructor(readonly options: EmailRelayOptions) {
    const { db, clock, scheduler, hashKey } = options;
    this.accounts = new RelayAccounts(db, clock, hashKey);
    this.messages = new RelayMessages(db, clock);
    this.listing = new RelayList(db);
    this.idempotency = new Idempotency(db, clock);
    this.messages.discardPending();
    this.sandbox = new Sandbox(db, clock, this.messages);
    scheduler.register(this.sandbox);
    scheduler.register(this.idempotency.worker);
  }

  /** The app's own sandbox account ('local'), created on first use: no keys, sandbox on. */
  localAccountId(): string {
    return this.accounts.local();
  }

  /** The seed's email account; keys in clear (stored hashed), each with all operations unless it says. */
  upsertAccount(spec: { accountId: string; sandbox: boolean; keys: ReadonlyArray<string | RelayKeySpec> }): void {
    this.accounts.upsert(spec);
  }

  /** null: allowed; else the 401 (missing or unknown key) or 403 (another account, or not this operation). */
  authenticate(accountId: string, authorization: string | undefined, operation: RelayOperation): RelayAnswer | null {
    return this.accounts.authenticate(accountId, authorization, operation);
  }

  /**
   * Claims an Idempotency-Key for a request about to be processed (before its body is read): the
   * claim, to pass to send() and release once answered or aborted; or the answer to give at once
   * (400 for a bad key, 409 while another request holds it).
   */
  claimIdempotency(accountId: string, key: string): IdempotencyClaim | RelayAnswer {
    const problem = idempotencyKeyProblem(key);
    if (problem) return refusal(400, problem);
    return this.idempotency.claim(accountId, SEND_SCOPE, key);
  }

  isClaim(value: IdempotencyClaim | RelayAnswer): value is IdempotencyClaim {
    return this.idempotency.isClaim(value);
  }

  /**
   * POST …/messages: 202 with one message per recipient; 400, 403, 409, 412 as the provider. A
   * large request is checked, rendered and written a slice at a time (pace.ts), so other requests
   * and the scheduler go on meanwhile; it is shown, and its key's outcome recorded, all at once.
   */
  async send(accountId: string, body: unknown, options: SendOptions = {}): Promise<RelayAnswer> {
    const slices = pace();
    const key = options.claim?.key ?? options.idempotencyKey;
    if (key === undefined) return this.accept(accountId, body, slices);
    let claim = options.claim;
    if (!claim) {
      const claimed = this.claimIdempotency(accountId, key);
      if (!this.isClaim(claimed)) return claimed;
      claim = claimed;
    }
    let answer: RelayAnswer | undefined;
    try {
      const hash = await bodyHash(body, slices);
      const earlier = this.idempotency.earlier(accountId, SEND_SCOPE, key, hash);
      if (earlier) return (answer = earlier);
      // The messages and the key's outcome are shown together: a crash between the two would leave
      // messages a retry with the same key could not find, and it would send them again.
      answer = await this.accept(accountId, body, slices, (accepted) =>
        this.idempotency.record(accountId, SEND_SCOPE, key, hash, accepted),
      );
      // A refusal is recorded here; a send taken was recorded with its messages.
      if (answer.status !== SEND_ACCEPTED) this.idempotency.record(accountId, SEND_SCOPE, key, hash, answer);
      return answer;
    } finally {
      // In process the request ends here; over HTTP the route releases once the answer is written.
      if (!options.claim) claim.release(answer?.status ?? 500);
    }
  }

  private async accept(
    accountId: string,
    body: unknown,
    slices: Pace,
    onCommit?: (answer: RelayAnswer) => void,
  ): Promise<RelayAnswer> {
    if (accountId === LOCAL_ACCOUNT_ID) this.accounts.local();
    else if (!this.accounts.has(accountId)) return refusal(403, `no access to account ${JSON.stringify(accountId)}`);
    const parsed = await parseSendRequest(body, this.options.clock.now(), slices);
    if (!parsed.ok) return refusal(400, parsed.message);
    const answer = await this.messages.accept(accountId, parsed.request, slices, onCommit);
    this.options.scheduler.poke();
    return answer;
  }

  /** GET …/messages: summaries newest first, filtered and paged (list.ts). */
  list(accountId: string, query: Record<string, string | undefined>): RelayAnswer {
    return this.listing.list(accountId, query);
  }

  /** GET …/messages/{id}: the whole message with its moves and raw RFC 822 content (built async). */
  async get(accountId: string, messageId: string): Promise<RelayAnswer> {
    const row = this.messages.find(accountId, messageId);
    if (!row) return notFound(messageId);
    return ok(await this.detail(row));
  }

  /** POST …/messages/{id}/cancel: a queued or scheduled message is cancelled (200, the message); else 409 or 404. */
  async cancel(accountId: string, messageId: string): Promise<RelayAnswer> {
    const refused = this.messages.cancel(accountId, messageId);
    if (refused) return refused;
    return this.get(accountId, messageId);
  }

  /** The query plan of a list query (the relay client's poll must walk an index). */
  listPlan(accountId: string, query: Record<string, string | undefined>): string[] {
    return this.listing.plan(accountId, query);
  }

  private async detail(row: MessageRow) {
    const { schedule, ...summary } = messageSummary(row);
    return {
      ...summary,
      delivery_attempts: this.messages.attempts(row.seq),
      schedule,
      content: await rawMessage(row),
    };
  }
}
