// Persisted jobs: background work of any domain (imports, campaign executions, email retries,
// upstream hand-overs) kept in the `jobs` table, run by one worker on the scheduler loop. The
// runner claims due jobs atomically, keeps each type to its concurrency, retries a job that threw
// with exponential backoff and jitter up to its type's attempts, aborts running jobs on cancel and
// stop, and on start puts jobs a crash left 'running' back in the queue (the attempt counted).
// Runs are at least once: a job must make its own effects idempotent (see README.md "Jobs").
//
// Public API (core.jobs):
//   register(type)                         a JobType: {type, payload (zod), concurrency, maxAttempts, backoff, run,
//                                          failed?, cancelled?}
//   enqueue(type, payload, {runAfter?})    -> job id; validated by the type's schema; joins the caller's transaction
//   get(id) / open(type)                   -> Job | null / the type's queued and running jobs
//   cancel(id)                             -> boolean (false when unknown or final)
//   waitFor(id)                            -> Promise<Job> once final; waitForIdle() -> nothing due or running
//   recover(type?)                         jobs left 'running' go back to 'queued' (or fail after max attempts)
//   pause(type?) / resume(type?)           running jobs aborted, left 'running', none claimed / recovered, claimed again
//   stop()                                 running jobs aborted and awaited, left 'running' for the next start
//   events: 'progress' {id, type, progress}, 'finished' (Job, final)
import { EventEmitter } from 'node:events';
import type { z } from 'zod';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Scheduler } from './scheduler';

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface Job<P = unknown> {
  id: number;
  type: string;
  payload: P;
  state: JobState;
  /** Runs started so far (the one running included). */
  attempts: number;
  maxAttempts: number;
  /** A queued job is not claimed before this time (ms). */
  runAfter: number;
  /** The message of the last failed attempt (kept after a later success). */
  lastError: string | null;
  /** The last value given to ctx.progress() (JSON), null before any. */
  progress: unknown;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

export interface JobContext {
  /** Aborted when the job is cancelled or the runner stops: end between two commits, then throw. */
  readonly signal: AbortSignal;
  /** 1 on the first run; a run after a crash or a failure sees the count so far. */
  readonly attempt: number;
  /**
   * Persists `value` (JSON) as the job's progress and emits it. Called inside the job's own
   * transaction, it commits with that transaction's writes: the next attempt reads it from
   * `job.progress` and knows what was done.
   */
  progress(value: unknown): void;
}

export interface JobType<P> {
  /** Unique name, by domain: 'contacts.import'. */
  type: string;
  payload: z.ZodType<P>;
  /** Jobs of this type running at once in this process. */
  concurrency: number;
  /** Runs before a job ends 'failed' (crashes and stops count). */
  maxAttempts: number;
  /** Retry delay after attempt n: min(maxMs, baseMs * 2^(n-1)) times a random factor in [0.5, 1]. */
  backoff: { baseMs: number; maxMs: number };
  run(job: Job<P>, ctx: JobContext): Promise<void>;
  /** In the transaction that ends the job 'failed': the domain's record of the work ends with it. */
  failed?(job: Job<P>, error: string): void;
  /** In the transaction that ends the job 'cancelled'. */
  cancelled?(job: Job<P>): void;
}

/** Thrown by a run: the job fails at once, no retry (a bad file will be as bad next time). */
export class PermanentJobError extends Error {}

export interface JobsOptions {
  db: Db;
  clock: Clock;
  /** The loop the runner registers on; poked when something becomes due. */
  scheduler: Scheduler;
  /** The jitter's source, in [0, 1) (tests pass a fixed one). */
  random?: () => number;
  /** An error of the runner's own bookkeeping (a failed write at a job's end). */
  onError?: (error: unknown) => void;
}

export interface JobsEvents {
  progress: [{ id: number; type: string; progress: unknown }];
  finished: [Job];
}

interface JobRow {
  id: number;
  type: string;
  payload: string;
  state: JobState;
  attempts: number;
  max_attempts: number;
  run_after: number;
  last_error: string | null;
  progress: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

interface Registered {
  definition: JobType<unknown>;
  running: number;
  paused: boolean;
}

interface Running {
  type: string;
  controller: AbortController;
  /** Set by stop() / pause(): whatever the run throws now is an interruption, not a failure. */
  interrupted: boolean;
  /** Set by cancel(): the row is final already, the run's end changes nothing. */
  cancelled: boolean;
  settled: Promise<void>;
}

const INTERRUPTED = 'interrupted too many times';

export function backoffDelay(
  attempt: number,
  backoff: { baseMs: number; maxMs: number },
  random: () => number,
): number {
  const base = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.5 + 0.5 * random()));
}

export class Jobs {
  readonly events = new EventEmitter<JobsEvents>();
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly scheduler: Scheduler;
  private readonly random: () => number;
  private readonly onError: (error: unknown) => void;
  private readonly types = new Map<string, Registered>();
  private readonly running = new Map<number, Running>();
  private readonly waiters = new Map<number, Array<(job: Job) => void>>();
  private idleWaiters: Array<() => void> = [];
  private stopped = false;
  private readonly stmt;

  constructor(options: JobsOptions) {
    this.db = options.db;
    this.clock = options.clock;
    this.scheduler = options.scheduler;
    this.random = options.random ?? Math.random;
    this.onError = options.onError ?? (() => {});
    const db = this.db;
    // `types` is a JSON array of the types that may start a job now (registered, not paused, a slot free).
    this.stmt = {
      insert: db.prepare<{ type: string; payload: string; max_attempts: number; run_after: number; now: number }>(
        `INSERT INTO jobs (type, payload, state, max_attempts, run_after, created_at, updated_at)
         VALUES (@type, @payload, 'queued', @max_attempts, @run_after, @now, @now)`,
      ),
      byId: db.prepare<[number], JobRow>('SELECT * FROM jobs WHERE id = ?'),
      open: db.prepare<[string], JobRow>(
        "SELECT * FROM jobs WHERE state IN ('queued', 'running') AND type = ? ORDER BY id",
      ),
      nextDue: db
        .prepare<{ types: string }, number>(
          `SELECT run_after FROM jobs WHERE state = 'queued' AND type IN (SELECT value FROM json_each(@types))
           ORDER BY run_after LIMIT 1`,
        )
        .pluck(),
      claim: db.prepare<{ now: number; types: string }, JobRow>(
        `UPDATE jobs SET state = 'running', attempts = attempts + 1, updated_at = @now
         WHERE id = (SELECT id FROM jobs WHERE state = 'queued' AND run_after <= @now
                       AND type IN (SELECT value FROM json_each(@types)) ORDER BY run_after, id LIMIT 1)
         RETURNING *`,
      ),
      done: db.prepare<{ id: number; now: number }, JobRow>(
        `UPDATE jobs SET state = 'done', updated_at = @now, finished_at = @now WHERE id = @id AND state = 'running'
         RETURNING *`,
      ),
      retry: db.prepare<{ id: number; now: number; run_after: number; error: string }>(
        `UPDATE jobs SET state = 'queued', run_after = @run_after, last_error = @error, updated_at = @now
         WHERE id = @id AND state = 'running'`,
      ),
      fail: db.prepare<{ id: number; now: number; error: string }, JobRow>(
        `UPDATE jobs SET state = 'failed', last_error = @error, updated_at = @now, finished_at = @now
         WHERE id = @id AND state IN ('queued', 'running') RETURNING *`,
      ),
      cancel: db.prepare<{ id: number; now: number }, JobRow>(
        `UPDATE jobs SET state = 'cancelled', updated_at = @now, finished_at = @now
         WHERE id = @id AND state IN ('queued', 'running') RETURNING *`,
      ),
      requeue: db.prepare<{ id: number; now: number }>(
        "UPDATE jobs SET state = 'queued', run_after = @now, updated_at = @now WHERE id = @id AND state = 'running'",
      ),
      leftRunning: db.prepare<[], JobRow>("SELECT * FROM jobs WHERE state = 'running' ORDER BY id"),
      progress: db.prepare<{ id: number; now: number; progress: string }>(
        "UPDATE jobs SET progress = @progress, updated_at = @now WHERE id = @id AND state = 'running'",
      ),
    };
    this.scheduler.register({
      name: 'jobs',
      runDue: () => this.runDue(),
      nextDueAt: () => this.nextDueAt(),
    });
  }

  register<P>(definition: JobType<P>): void {
    if (this.types.has(definition.type)) throw new Error(`job type ${definition.type} is registered already`);
    if (!(definition.concurrency >= 1) || !(definition.maxAttempts >= 1))
      throw new Error(`job type ${definition.type}: concurrency and maxAttempts must be at least 1`);
    // Payloads are checked by the type's own schema at enqueue and at run, so the runner may hold
    // every type as JobType<unknown>.
    this.types.set(definition.type, {
      definition: definition as unknown as JobType<unknown>,
      running: 0,
      paused: false,
    });
  }

  /**
   * Queues a job; returns its id. One INSERT on the core's connection: called inside the
   * caller's transaction, the job exists exactly when the caller's records do.
   */
  enqueue(type: string, payload: unknown, options: { runAfter?: number } = {}): number {
    const registered = this.types.get(type);
    if (!registered) throw new Error(`unknown job type ${type}`);
    registered.definition.payload.parse(payload);
    const now = this.clock.now();
    const id = Number(
      this.stmt.insert.run({
        type,
        payload: JSON.stringify(payload),
        max_attempts: registered.definition.maxAttempts,
        run_after: options.runAfter ?? now,
        now,
      }).lastInsertRowid,
    );
    this.scheduler.poke();
    return id;
  }

  get(id: number): Job | null {
    const row = this.stmt.byId.get(id);
    return row ? toJob(row) : null;
  }

  /** The type's jobs not final yet (queued or running), oldest first. */
  open(type: string): Job[] {
    return this.stmt.open.all(type).map(toJob);
  }

  /** Ends a queued or running job 'cancelled' at once; a running one has its signal aborted. */
  cancel(id: number): boolean {
    const now = this.clock.now();
    const job = this.db.transaction(() => {
      const row = this.stmt.cancel.get({ id, now });
      if (!row) return null;
      const job = toJob(row);
      const definition = this.types.get(row.type)?.definition;
      const parsed = definition?.payload.safeParse(job.payload);
      if (definition?.cancelled && parsed?.success) definition.cancelled({ ...job, payload: parsed.data });
      return job;
    })();
    if (!job) return false;
    const running = this.running.get(id);
    if (running) {
      running.cancelled = true;
      running.controller.abort(new Error('cancelled'));
    }
    this.finished(job);
    return true;
  }

  /** Resolves with the job once it is final (done, failed or cancelled). */
  waitFor(id: number): Promise<Job> {
    const row = this.stmt.byId.get(id);
    if (!row) return Promise.reject(new Error(`job ${id} not found`));
    if (isFinal(row.state)) return Promise.resolve(toJob(row));
    return new Promise((resolve) => {
      const list = this.waiters.get(id) ?? [];
      list.push(resolve);
      this.waiters.set(id, list);
    });
  }

  /** Resolves once no job runs and none is queued and due (of a registered, unpaused type). */
  waitForIdle(): Promise<void> {
    if (this.idle()) return Promise.resolve();
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.scheduler.poke();
    });
  }

  /**
   * On start (and after a restore): jobs left 'running' that this runner is not running (a crash,
   * a close) are queued again, due now; their attempt was counted when they started, so one that
   * keeps killing the process ends 'failed' after its type's attempts.
   */
  recover(type?: string): void {
    const now = this.clock.now();
    const ended = this.db.transaction(() => {
      const failed: Job[] = [];
      for (const row of this.stmt.leftRunning.all()) {
        if (this.running.has(row.id) || (type !== undefined && row.type !== type)) continue;
        if (row.attempts >= row.max_attempts) {
          const job = this.failInTransaction(row.id, INTERRUPTED, now);
          if (job) failed.push(job);
        } else this.stmt.requeue.run({ id: row.id, now });
      }
      return failed;
    })();
    for (const job of ended) this.finished(job);
    this.scheduler.poke();
  }

  /** Aborts the running jobs of `type` (all types without one) and starts none until resume(). */
  async pause(type?: string): Promise<void> {
    for (const [name, registered] of this.types) if (type === undefined || name === type) registered.paused = true;
    await this.interrupt((running) => type === undefined || running.type === type);
  }

  /** Recovers what pause() left 'running' (or what a restored database holds) and runs again. */
  resume(type?: string): void {
    for (const [name, registered] of this.types) if (type === undefined || name === type) registered.paused = false;
    this.recover(type);
  }

  /** Core.close: running jobs are aborted and awaited; they stay 'running' and resume on the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.interrupt(() => true);
    this.flushIdle();
  }

  // -------------------------------------------------------------------------------------------

  private async interrupt(which: (running: Running) => boolean): Promise<void> {
    const settling: Array<Promise<void>> = [];
    for (const running of this.running.values()) {
      if (!which(running)) continue;
      running.interrupted = true;
      running.controller.abort(new Error('stopped'));
      settling.push(running.settled);
    }
    await Promise.all(settling);
  }

  /** Types that may start a job now, as the JSON array the statements take. */
  private startable(): string | null {
    if (this.stopped) return null;
    const names: string[] = [];
    for (const [name, registered] of this.types)
      if (!registered.paused && registered.running < registered.definition.concurrency) names.push(name);
    return names.length > 0 ? JSON.stringify(names) : null;
  }

  private nextDueAt(): number | null {
    const types = this.startable();
    return types === null ? null : (this.stmt.nextDue.get({ types }) ?? null);
  }

  /** Claims the next due job of a type with a free slot and starts it (its run goes on after). */
  private runDue(): boolean {
    const types = this.startable();
    const row = types === null ? undefined : this.stmt.claim.get({ now: this.clock.now(), types });
    if (!row) {
      if (this.idle()) this.flushIdle();
      return false;
    }
    this.start(row);
    return true;
  }

  private start(row: JobRow): void {
    const registered = this.types.get(row.type)!;
    const { definition } = registered;
    const controller = new AbortController();
    const running: Running = {
      type: row.type,
      controller,
      interrupted: false,
      cancelled: false,
      settled: Promise.resolve(),
    };
    const context: JobContext = {
      signal: controller.signal,
      attempt: row.attempts,
      progress: (value) => {
        if (running.cancelled) return;
        this.stmt.progress.run({ id: row.id, now: this.clock.now(), progress: JSON.stringify(value ?? null) });
        this.events.emit('progress', { id: row.id, type: row.type, progress: value });
      },
    };
    const run = async () => {
      const job = toJob(row);
      const parsed = definition.payload.safeParse(job.payload);
      if (!parsed.success) throw new PermanentJobError(`invalid payload: ${parsed.error.message}`);
      await definition.run({ ...job, payload: parsed.data }, context);
    };
    registered.running++;
    this.running.set(row.id, running);
    running.settled = run()
      .then(
        () => this.succeeded(running, row.id),
        (error: unknown) => this.threw(running, row, error),
      )
      .catch((error: unknown) => this.onError(error))
      .finally(() => {
        registered.running--;
        this.running.delete(row.id);
        this.scheduler.poke();
        if (this.idle()) this.flushIdle();
      });
  }

  private succeeded(running: Running, id: number): void {
    // A run that returned has done its work, even if a stop raced its end.
    if (running.cancelled) return;
    const row = this.stmt.done.get({ id, now: this.clock.now() });
    if (row) this.finished(toJob(row));
  }

  private threw(running: Running, row: JobRow, error: unknown): void {
    if (running.cancelled || running.interrupted) return;
    const message = error instanceof Error ? error.message : String(error);
    const now = this.clock.now();
    if (error instanceof PermanentJobError || row.attempts >= row.max_attempts) {
      const job = this.db.transaction(() => this.failInTransaction(row.id, message, now))();
      if (job) this.finished(job);
      return;
    }
    const { backoff } = this.types.get(row.type)!.definition;
    const runAfter = now + backoffDelay(row.attempts, backoff, this.random);
    this.stmt.retry.run({ id: row.id, now, run_after: runAfter, error: message });
  }

  /** Marks the job failed and lets its type end its own record, in the caller's transaction. */
  private failInTransaction(id: number, error: string, now: number): Job | null {
    const row = this.stmt.fail.get({ id, now, error });
    if (!row) return null;
    const job = toJob(row);
    const definition = this.types.get(row.type)?.definition;
    const parsed = definition?.payload.safeParse(job.payload);
    if (definition?.failed && parsed?.success) definition.failed({ ...job, payload: parsed.data }, error);
    return job;
  }

  private finished(job: Job): void {
    const waiters = this.waiters.get(job.id) ?? [];
    this.waiters.delete(job.id);
    for (const resolve of waiters) resolve(job);
    this.events.emit('finished', job);
  }

  private idle(): boolean {
    if (this.running.size > 0) return false;
    const types = this.startable();
    if (types === null) return true;
    const next = this.stmt.nextDue.get({ types });
    return next === undefined || next > this.clock.now();
  }

  private flushIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function isFinal(state: JobState): boolean {
  return state === 'done' || state === 'failed' || state === 'cancelled';
}

/** A stored text that is not JSON reads as undefined: the type's schema then refuses the payload. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function toJob(row: JobRow): Job {
  return {
    id: row.id,
    type: row.type,
    payload: parseJson(row.payload),
    state: row.state,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAfter: row.run_after,
    lastError: row.last_error,
    progress: row.progress === null ? null : parseJson(row.progress),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}
