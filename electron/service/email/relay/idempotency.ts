// Idempotency-Key of the provider's POST: scoped to account, method and path, kept 24 hours. The
// same key with the same body answers the first answer again (`Idempotent-Replayed: true`); with
// another body, or while the first request with it is still being processed, 409; after the first
// failed (400, 413, 5xx), 412. "Still being processed" lives in memory: an HTTP request claims its
// key before its body is read and releases it once answered or aborted. Outcomes live in SQLite,
// so a restart forgets only the requests it cut off.
import { createHash } from 'node:crypto';
import type { Db } from '../../db/database';
import type { Clock } from '../../clock';
import type { Worker } from '../../jobs/scheduler';
import { jsonAnswer, refusal, type RelayAnswer } from './answers';
import type { Pace } from './pace';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** The scope of the provider's send: what the same key means is per account, method and path. */
export const SEND_SCOPE = 'POST /v2/accounts/{account_id}/messages';
/** A claim nobody released (a lost request) stops blocking its key after this long. */
const STALE_CLAIM_MS = 5 * 60 * 1000;
const PURGE_BATCH = 5000;

/** Held by a request being processed; release it once the request is answered or gone. */
export interface IdempotencyClaim {
  readonly accountId: string;
  readonly scope: string;
  readonly key: string;
  /** `status`: what the request was answered; a failure nobody recorded yet is recorded (412 later). */
  release(status?: number): void;
}

interface Outcome {
  body_hash: string | null;
  outcome: 'answered' | 'failed';
  status: number;
  answer: string | null;
}

/** What "the same body" means: the JSON of its fields, its recipients hashed a slice at a time. */
export async function bodyHash(body: unknown, slices: Pace): Promise<string> {
  const hash = createHash('sha256');
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { recipients?: unknown }).recipients))
    return hash.update(JSON.stringify(body) ?? '').digest('hex');
  const { recipients, ...rest } = body as { recipients: unknown[] };
  hash.update(JSON.stringify(rest));
  let pending = '';
  for (let i = 0; i < recipients.length; i++) {
    pending += `${JSON.stringify(recipients[i]) ?? 'null'},`;
    if ((i & 255) !== 255) continue;
    hash.update(pending);
    pending = '';
    const paused = slices.step();
    if (paused) await paused;
  }
  return hash.update(pending).digest('hex');
}

/** Answers that say nothing about the request itself: they neither use up nor poison a key. */
const NOT_AN_OUTCOME = new Set([401, 403, 409, 412]);

export class Idempotency {
  private readonly inFlight = new Map<string, number>();
  private readonly find;
  private readonly insert;
  private readonly purgeOld;
  private readonly oldest;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.find = db.prepare<[string, string, string, number], Outcome>(
      `SELECT body_hash, outcome, status, answer FROM email_relay_idempotency
       WHERE account_id = ? AND scope = ? AND key = ? AND created_at > ?`,
    );
    this.insert = db.prepare(
      `INSERT OR REPLACE INTO email_relay_idempotency
       (account_id, scope, key, body_hash, outcome, status, answer, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.purgeOld = db.prepare(
      `DELETE FROM email_relay_idempotency WHERE rowid IN
       (SELECT rowid FROM email_relay_idempotency WHERE created_at <= ? LIMIT ${PURGE_BATCH})`,
    );
    this.oldest = db.prepare<[], { created_at: number }>(
      'SELECT created_at FROM email_relay_idempotency ORDER BY created_at LIMIT 1',
    );
  }

  /** Claims the key for a request about to be processed, or the 409 when one already holds it. */
  claim(accountId: string, scope: string, key: string): IdempotencyClaim | RelayAnswer {
    const id = `${accountId}\n${scope}\n${key}`;
    const since = this.inFlight.get(id);
    if (since !== undefined && Date.now() - since < STALE_CLAIM_MS)
      return refusal(409, 'a request with this Idempotency-Key is still being processed; retry once it is answered');
    const claimedAt = Date.now();
    this.inFlight.set(id, claimedAt);
    let released = false;
    return {
      accountId,
      scope,
      key,
      release: (status?: number) => {
        if (released) return;
        released = true;
        if (this.inFlight.get(id) === claimedAt) this.inFlight.delete(id);
        if (status !== undefined && status >= 400 && !NOT_AN_OUTCOME.has(status) && !this.lookup(accountId, scope, key))
          this.recordFailure(accountId, scope, key, status);
      },
    };
  }

  isClaim(value: IdempotencyClaim | RelayAnswer): value is IdempotencyClaim {
    return 'release' in value;
  }

  private lookup(accountId: string, scope: string, key: string): Outcome | undefined {
    return this.find.get(accountId, scope, key, this.clock.now() - IDEMPOTENCY_TTL_MS);
  }

  /** What an earlier request with this key decides for this one: a replay, a 409 or 412; null: none. */
  earlier(accountId: string, scope: string, key: string, hash: string): RelayAnswer | null {
    const outcome = this.lookup(accountId, scope, key);
    if (!outcome) return null;
    if (outcome.outcome === 'failed')
      return refusal(
        412,
        `the first request with this Idempotency-Key failed (HTTP ${outcome.status}); send the corrected request with a new key`,
      );
    if (outcome.body_hash !== hash)
      return refusal(409, 'this Idempotency-Key was already used with another body; use a new key for a new request');
    // The answer's JSON as it was sent (a list of 100,000 is 20 MB: never parsed again here).
    return jsonAnswer(outcome.status, outcome.answer ?? 'null', { 'Idempotent-Replayed': 'true' });
  }

  record(accountId: string, scope: string, key: string, hash: string, answer: RelayAnswer): void {
    if (NOT_AN_OUTCOME.has(answer.status)) return;
    if (answer.status >= 400) return this.recordFailure(accountId, scope, key, answer.status);
    this.insert.run(
      accountId,
      scope,
      key,
      hash,
      'answered',
      answer.status,
      answer.json ?? JSON.stringify(answer.body),
      this.clock.now(),
    );
  }

  recordFailure(accountId: string, scope: string, key: string, status: number): void {
    this.insert.run(accountId, scope, key, null, 'failed', status, null, this.clock.now());
  }

  /** Forgets keys older than 24 hours, a batch at a time (a scheduler worker). */
  readonly worker: Worker = {
    name: 'email-relay-idempotency',
    runDue: () => this.purgeOld.run(this.clock.now() - IDEMPOTENCY_TTL_MS).changes > 0,
    nextDueAt: () => {
      const row = this.oldest.get();
      return row ? row.created_at + IDEMPOTENCY_TTL_MS : null;
    },
  };
}
