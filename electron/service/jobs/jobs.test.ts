// The job runner over the real migrations and a manual clock: retries with growing, jittered
// delays up to the type's attempts; per-type concurrency; exactly one end per job; cancel and stop
// abort the run; recovery queues again what a crash left running. No test sleeps: the clock moves.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase, type Db } from '../db/database';
import { ManualClock } from '../clock';
import { Scheduler } from './scheduler';
import { backoffDelay, Jobs, PermanentJobError, type Job, type JobContext } from './jobs';

interface Runner {
  file: string;
  db: Db;
  clock: ManualClock;
  scheduler: Scheduler;
  jobs: Jobs;
  close(): Promise<void>;
}

const dirs: string[] = [];
const runners: Runner[] = [];
const errors: unknown[] = [];

afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  expect(errors.splice(0)).toEqual([]);
});

function newFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chapar-jobs-'));
  dirs.push(dir);
  return path.join(dir, 'chapar.db');
}

/** A runner on `file` (a new database by default), as the core builds one; a second one on the same file is a restart. */
function runner(options: { file?: string; random?: () => number; clock?: ManualClock } = {}): Runner {
  const file = options.file ?? newFile();
  const db = openDatabase({ file });
  const clock = options.clock ?? new ManualClock();
  const scheduler = new Scheduler(clock, (_worker, error) => errors.push(error));
  const stopPoking = clock.onAdvance(() => scheduler.poke());
  const jobs = new Jobs({ db, clock, scheduler, random: options.random, onError: (error) => errors.push(error) });
  let closed = false;
  const created: Runner = {
    file,
    db,
    clock,
    scheduler,
    jobs,
    close: async () => {
      if (closed) return;
      closed = true;
      stopPoking();
      await jobs.stop();
      await scheduler.stop();
      db.close();
    },
  };
  runners.push(created);
  return created;
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A run that waits for its signal, then throws its reason (as a run that honours abort does). */
function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}

const Payload = z.object({ n: z.number().int() });
const base = { payload: Payload, concurrency: 1, maxAttempts: 3, backoff: { baseMs: 1_000, maxMs: 60_000 } };

function row(db: Db, id: number): { state: string; attempts: number; run_after: number; last_error: string | null } {
  return db.prepare('SELECT state, attempts, run_after, last_error FROM jobs WHERE id = ?').get(id) as never;
}

describe('backoffDelay', () => {
  it('doubles from baseMs up to maxMs, times a factor in [0.5, 1]', () => {
    const backoff = { baseMs: 100, maxMs: 1_000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, backoff, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, backoff, () => 0.999_999))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
  });
});

describe('Jobs', () => {
  it('retries a job that throws after growing, jittered delays, then ends it failed with its error', async () => {
    let draws = 0;
    // A fixed sequence across the whole range of the jitter.
    const jitter = [0.9, 0.1, 0.6, 0.999, 0];
    const r = runner({ random: () => jitter[draws++ % jitter.length]! });
    const attempts: number[] = [];
    const failedHook: Array<[number, string]> = [];
    r.jobs.register({
      ...base,
      type: 'test.flaky',
      maxAttempts: 5,
      run: async (_job, ctx) => {
        attempts.push(ctx.attempt);
        throw new Error(`boom ${ctx.attempt}`);
      },
      failed: (job, error) => failedHook.push([job.payload.n, error]),
    });
    const id = r.jobs.enqueue('test.flaky', { n: 7 });
    r.scheduler.start();

    const gaps: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      await r.jobs.waitForIdle();
      expect(attempts).toEqual([1, 2, 3, 4].slice(0, attempt));
      const after = row(r.db, id);
      expect(after).toMatchObject({ state: 'queued', attempts: attempt, last_error: `boom ${attempt}` });
      const gap = after.run_after - r.clock.now();
      gaps.push(gap);
      // Within the jitter's bounds: half to all of 1 s, 2 s, 4 s, 8 s.
      const full = 1_000 * 2 ** (attempt - 1);
      expect(gap).toBeGreaterThanOrEqual(full / 2);
      expect(gap).toBeLessThanOrEqual(full);
      // Not due a millisecond early.
      r.clock.advance(gap - 1);
      await r.jobs.waitForIdle();
      expect(attempts.length).toBe(attempt);
      r.clock.advance(1);
    }
    expect(gaps.every((gap, i) => i === 0 || gap > gaps[i - 1]!)).toBe(true);

    const final = await r.jobs.waitFor(id);
    expect(attempts).toEqual([1, 2, 3, 4, 5]);
    expect(final).toMatchObject({ state: 'failed', attempts: 5, lastError: 'boom 5', finishedAt: r.clock.now() });
    expect(failedHook).toEqual([[7, 'boom 5']]);
    // Final: nothing runs it again.
    r.clock.advance(3_600_000);
    await r.jobs.waitForIdle();
    expect(attempts.length).toBe(5);
  });

  it('ends a job that throws PermanentJobError failed at once', async () => {
    const r = runner();
    let runs = 0;
    r.jobs.register({
      ...base,
      type: 'test.permanent',
      run: async () => {
        runs++;
        throw new PermanentJobError('bad file');
      },
    });
    const id = r.jobs.enqueue('test.permanent', { n: 1 });
    r.scheduler.start();
    expect(await r.jobs.waitFor(id)).toMatchObject({ state: 'failed', attempts: 1, lastError: 'bad file' });
    expect(runs).toBe(1);
  });

  it('fails a job whose stored payload its schema refuses, without running it', async () => {
    const r = runner();
    let runs = 0;
    r.jobs.register({ ...base, type: 'test.stored', run: async () => void runs++ });
    const bad = r.jobs.enqueue('test.stored', { n: 1 });
    const garbled = r.jobs.enqueue('test.stored', { n: 2 });
    r.db.prepare('UPDATE jobs SET payload = ? WHERE id = ?').run('{"n": "one"}', bad);
    r.db.prepare('UPDATE jobs SET payload = ? WHERE id = ?').run('not json', garbled);
    r.scheduler.start();
    expect(await r.jobs.waitFor(bad)).toMatchObject({ state: 'failed', attempts: 1 });
    expect(await r.jobs.waitFor(garbled)).toMatchObject({ state: 'failed', attempts: 1 });
    expect(r.jobs.get(bad)!.lastError).toMatch(/^invalid payload/);
    expect(runs).toBe(0);
  });

  it('runs no more jobs of a type at once than its concurrency, each type on its own', async () => {
    const r = runner();
    const gates = new Map<number, () => void>();
    const running = new Map<string, number>();
    const most = new Map<string, number>();
    const started: number[] = [];
    let released = false;
    let onStart = deferred();
    const run = async (job: Job<{ n: number }>) => {
      running.set(job.type, (running.get(job.type) ?? 0) + 1);
      most.set(job.type, Math.max(most.get(job.type) ?? 0, running.get(job.type)!));
      started.push(job.payload.n);
      onStart.resolve();
      if (!released) await new Promise<void>((resolve) => gates.set(job.payload.n, resolve));
      running.set(job.type, running.get(job.type)! - 1);
    };
    const waitStarted = async (count: number) => {
      while (started.length < count) {
        onStart = deferred();
        await onStart.promise;
      }
    };
    r.jobs.register({ ...base, type: 'test.wide', concurrency: 2, run });
    r.jobs.register({ ...base, type: 'test.narrow', concurrency: 1, run });
    const wide = [1, 2, 3, 4, 5].map((n) => r.jobs.enqueue('test.wide', { n }));
    const narrow = [100, 101].map((n) => r.jobs.enqueue('test.narrow', { n }));
    r.scheduler.start();
    await waitStarted(3);
    // All the loop can start has started: two of the wide type, and the narrow one beside them.
    await r.scheduler.drain();
    expect([...started].sort((a, b) => a - b)).toEqual([1, 2, 100]);
    expect(r.db.prepare("SELECT count(*) FROM jobs WHERE state = 'running'").pluck().get()).toBe(3);
    // A slot frees: the next job of that type takes it, and only that one.
    gates.get(1)!();
    await waitStarted(4);
    await r.scheduler.drain();
    expect(started).toEqual([...started.slice(0, 3), 3]);
    expect(r.db.prepare("SELECT count(*) FROM jobs WHERE state = 'running'").pluck().get()).toBe(3);
    released = true;
    for (const open of gates.values()) open();
    await r.jobs.waitForIdle();
    expect(Object.fromEntries(most)).toEqual({ 'test.wide': 2, 'test.narrow': 1 });
    for (const id of [...wide, ...narrow]) expect(r.jobs.get(id)).toMatchObject({ state: 'done', attempts: 1 });
  });

  it('ends a job that succeeds done exactly once, with its progress persisted and emitted', async () => {
    const r = runner();
    let runs = 0;
    r.jobs.register({
      ...base,
      type: 'test.once',
      run: async (_job, ctx) => {
        runs++;
        ctx.progress({ step: 1 });
        await Promise.resolve();
        ctx.progress({ step: 2 });
      },
    });
    const finished: Job[] = [];
    const progress: unknown[] = [];
    r.jobs.events.on('finished', (job) => finished.push(job));
    r.jobs.events.on('progress', (event) => progress.push(event.progress));
    const id = r.jobs.enqueue('test.once', { n: 1 });
    r.scheduler.start();
    const done = await r.jobs.waitFor(id);
    expect(done).toMatchObject({ state: 'done', attempts: 1, progress: { step: 2 }, lastError: null });
    r.clock.advance(3_600_000);
    await r.jobs.waitForIdle();
    await r.scheduler.waitForIdle();
    expect(runs).toBe(1);
    expect(finished.map((job) => [job.id, job.state])).toEqual([[id, 'done']]);
    expect(progress).toEqual([{ step: 1 }, { step: 2 }]);
    expect(await r.jobs.waitFor(id)).toMatchObject({ state: 'done' });
  });

  it('validates the payload with the type schema, and an enqueue rolls back with its transaction', () => {
    const r = runner();
    r.jobs.register({ ...base, type: 'test.valid', run: async () => {} });
    expect(() => r.jobs.enqueue('test.valid', { n: 'one' })).toThrow();
    expect(() => r.jobs.enqueue('test.unknown', { n: 1 })).toThrow(/unknown job type/);
    expect(() =>
      r.db.transaction(() => {
        r.jobs.enqueue('test.valid', { n: 1 });
        throw new Error('the caller changed its mind');
      })(),
    ).toThrow();
    expect(r.db.prepare('SELECT count(*) FROM jobs').pluck().get()).toBe(0);
    const later = r.jobs.enqueue('test.valid', { n: 2 }, { runAfter: r.clock.now() + 5_000 });
    expect(r.jobs.get(later)).toMatchObject({ state: 'queued', runAfter: r.clock.now() + 5_000, payload: { n: 2 } });
  });

  it('cancel aborts a running job and ends it cancelled, with no retry; a queued one never runs', async () => {
    const r = runner();
    const started = deferred<JobContext>();
    let runs = 0;
    const hook: number[] = [];
    r.jobs.register({
      ...base,
      type: 'test.cancel',
      run: async (_job, ctx) => {
        runs++;
        started.resolve(ctx);
        await untilAborted(ctx.signal);
      },
      cancelled: (job) => hook.push(job.payload.n),
    });
    const id = r.jobs.enqueue('test.cancel', { n: 1 });
    const later = r.jobs.enqueue('test.cancel', { n: 2 }, { runAfter: r.clock.now() + 1_000 });
    r.scheduler.start();
    const ctx = await started.promise;
    expect(r.jobs.cancel(id)).toBe(true);
    expect(ctx.signal.aborted).toBe(true);
    expect(r.jobs.get(id)).toMatchObject({ state: 'cancelled', finishedAt: r.clock.now() });
    expect(await r.jobs.waitFor(id)).toMatchObject({ state: 'cancelled' });
    expect(r.jobs.cancel(later)).toBe(true);
    expect(r.jobs.cancel(later)).toBe(false);
    expect(r.jobs.cancel(9_999)).toBe(false);
    r.clock.advance(3_600_000);
    await r.jobs.waitForIdle();
    expect(runs).toBe(1);
    expect(r.jobs.get(id)).toMatchObject({ state: 'cancelled', attempts: 1, lastError: null });
    expect(r.jobs.get(later)).toMatchObject({ state: 'cancelled', attempts: 0 });
    expect(hook).toEqual([1, 2]);
  });

  it('stop aborts running jobs and leaves them running; a restart recovers and finishes them', async () => {
    const first = runner();
    const started = deferred<AbortSignal>();
    first.jobs.register({
      ...base,
      type: 'test.resume',
      run: async (_job, ctx) => {
        started.resolve(ctx.signal);
        await untilAborted(ctx.signal);
      },
    });
    const id = first.jobs.enqueue('test.resume', { n: 1 });
    first.scheduler.start();
    const signal = await started.promise;
    await first.close();
    expect(signal.aborted).toBe(true);
    // As the file is on disk after the close.
    const disk = openDatabase({ file: first.file, readonly: true });
    expect(row(disk, id)).toMatchObject({ state: 'running', attempts: 1, last_error: null });
    disk.close();

    const second = runner({ file: first.file });
    const attempts: number[] = [];
    second.jobs.register({ ...base, type: 'test.resume', run: async (_job, ctx) => void attempts.push(ctx.attempt) });
    second.jobs.recover();
    expect(second.jobs.get(id)).toMatchObject({ state: 'queued', attempts: 1 });
    second.scheduler.start();
    expect(await second.jobs.waitFor(id)).toMatchObject({ state: 'done', attempts: 2 });
    expect(attempts).toEqual([2]);
  });

  it('recovery queues a job a crash left running, and fails one that used all its attempts', async () => {
    // The crash: a runner claims both jobs and is never stopped (its runs never end).
    const crashed = runner();
    let claimed = 0;
    const both = deferred();
    const hang = async () => {
      if (++claimed === 2) both.resolve();
      await new Promise(() => {});
    };
    crashed.jobs.register({ ...base, type: 'test.crash', concurrency: 2, run: hang });
    const again = crashed.jobs.enqueue('test.crash', { n: 1 });
    const spent = crashed.jobs.enqueue('test.crash', { n: 2 });
    crashed.db.prepare('UPDATE jobs SET attempts = max_attempts - 1 WHERE id = ?').run(spent);
    crashed.scheduler.start();
    await both.promise;
    await crashed.scheduler.stop();

    const restarted = runner({ file: crashed.file, clock: crashed.clock });
    const failed: Array<[number, string]> = [];
    const ran: number[] = [];
    restarted.jobs.register({
      ...base,
      type: 'test.crash',
      concurrency: 2,
      run: async (job) => void ran.push(job.payload.n),
      failed: (job, error) => failed.push([job.payload.n, error]),
    });
    const finished: number[] = [];
    restarted.jobs.events.on('finished', (job) => finished.push(job.id));
    restarted.jobs.recover();
    expect(restarted.jobs.get(again)).toMatchObject({ state: 'queued', attempts: 1, runAfter: restarted.clock.now() });
    expect(restarted.jobs.get(spent)).toMatchObject({
      state: 'failed',
      attempts: 3,
      lastError: 'interrupted too many times',
    });
    expect(failed).toEqual([[2, 'interrupted too many times']]);
    restarted.scheduler.start();
    expect(await restarted.jobs.waitFor(again)).toMatchObject({ state: 'done', attempts: 2 });
    expect(ran).toEqual([1]);
    expect(finished).toEqual([spent, again]);
    // The crashed runner's runs never end; its stop must not wait for them.
    runners.splice(runners.indexOf(crashed), 1);
    crashed.db.close();
  });

  it('pause aborts and holds a type; resume recovers and runs it again', async () => {
    const r = runner();
    const attempts: number[] = [];
    let first = deferred();
    r.jobs.register({
      ...base,
      type: 'test.pause',
      run: async (job, ctx) => {
        attempts.push(ctx.attempt);
        first.resolve();
        if (job.payload.n === 1 && ctx.attempt === 1) await untilAborted(ctx.signal);
      },
    });
    const id = r.jobs.enqueue('test.pause', { n: 1 });
    r.scheduler.start();
    await first.promise;
    await r.jobs.pause('test.pause');
    expect(r.jobs.get(id)).toMatchObject({ state: 'running', attempts: 1 });
    first = deferred();
    r.jobs.enqueue('test.pause', { n: 2 });
    await r.scheduler.drain();
    await r.jobs.waitForIdle();
    expect(attempts).toEqual([1]);
    r.jobs.resume('test.pause');
    expect(await r.jobs.waitFor(id)).toMatchObject({ state: 'done', attempts: 2 });
    await r.jobs.waitForIdle();
    expect(attempts).toEqual([1, 2, 1]);
  });
});
