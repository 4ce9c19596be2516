// The scheduler: one loop that runs every worker's due work in small batches, sleeps until the
// earliest due time (capped, so a moved system clock is noticed), and wakes early when poked.
// Work lives in SQLite, so a restart picks up whatever was left; `waitForIdle()` lets tests wait
// for "nothing due now" instead of sleeping.
//
// Answers come first: while programs' requests keep arriving (a flood of one-message sends), the
// work that only follows them (hand-overs, indexes) gives way, and runs when the requests pause or
// after HOLD_MS, whichever is first, as one bigger batch. The process is single-threaded: every
// batch run mid-flood is time the waiting programs do not get.
import type { Clock } from '../clock';

export interface Worker {
  readonly name: string;
  /** Runs one batch of work due now; returns false when there was nothing due. */
  runDue(): boolean | Promise<boolean>;
  /** The earliest due time (ms) of this worker's work, or null when it has none. */
  nextDueAt(): number | null;
  /**
   * Its future work may wait to be gathered (GATHER_MS): many small pieces due at nearby times
   * (the lifecycle's one-message sends) run as one batch. Work paced to a rate (a provider's
   * calls) must not: it wakes when due.
   */
  readonly gathers?: boolean;
  /**
   * Its due work gives way to a flood of requests (see the header): it may wait while requests
   * keep arriving, HOLD_MS at most. Work whose timing is promised (a provider's pace, a scheduled
   * campaign, a job's retry) must not.
   */
  readonly givesWay?: boolean;
}

const MAX_SLEEP_MS = 1000;

/**
 * A gathering worker's wake-up for future work is put off to the next multiple of this: work due at
 * nearby times (a program's one-message sends, each its own due range a few ms apart) then runs as
 * one batch, one transaction, instead of a batch a message. 20 ms is nothing on a message's way to
 * its final status, and much against a batch's fixed cost.
 */
export const GATHER_MS = 20;

/**
 * Requests arriving closer than this are a flood (a dozen clients of a busy program arrive a
 * millisecond apart); a shop's program sending a message now and then never makes one.
 */
export const QUIET_MS = 5;

/**
 * How long work that gives way may wait on a flood that goes on: then it runs all it has due
 * (its batches catch up) before it gives way again. A message's way to its carrier is a quarter
 * of a second later at most, and only while a flood lasts.
 */
export const HOLD_MS = 250;

/** QUIET_MS and HOLD_MS of one scheduler (tests make them long). */
export interface GiveWay {
  quietMs?: number;
  holdMs?: number;
}

export class Scheduler {
  private readonly workers: Worker[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** When the timer fires (clock ms, MAX_SLEEP_MS at the latest); null without one. */
  private wakeAt: number | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private again = false;
  private idleWaiters: Array<() => void> = [];
  /** When the last request arrived (performance.now(): the process's load, not the business clock). */
  private requestAt = -Infinity;
  /** Workers giving way with work due, since when (performance.now()). */
  private readonly held = new Map<Worker, number>();
  /**
   * Held workers whose HOLD_MS ran out, with the clock time then: they run what was due by then
   * (their catch-up), not what keeps coming due while the flood goes on, which is held again.
   */
  private readonly released = new Map<Worker, number>();

  private readonly quietMs: number;
  private readonly holdMs: number;

  constructor(
    private readonly clock: Clock,
    private readonly onError: (worker: string, error: unknown) => void = () => {},
    /** QUIET_MS and HOLD_MS unless given (tests make them long, so a slow machine's timers cannot pass for a pause). */
    giveWay: GiveWay = {},
  ) {
    this.quietMs = giveWay.quietMs ?? QUIET_MS;
    this.holdMs = giveWay.holdMs ?? HOLD_MS;
  }

  /** Started and not stopped: its loop runs due work. */
  isRunning(): boolean {
    return !this.stopped;
  }

  register(worker: Worker): void {
    this.workers.push(worker);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.poke();
  }

  /** Stops the loop after the batch in progress; no batch is cut in half. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer();
    await this.running;
    this.flushIdle();
  }

  /**
   * Something became due (a clock move, a setting): run soon. With `at`, gathering work that
   * becomes due at that time (a send's hand-over): the loop wakes by then, gathered with other work
   * due near it, and a wake-up already set earlier stands (a busy API pokes once a request: none
   * of them makes a round of every worker).
   */
  poke(at?: number): void {
    if (this.stopped) return;
    const now = this.clock.now();
    if (at !== undefined && at > now) {
      // A running loop looks for the next due time when it ends; a timer due sooner stands. Work
      // held on a flood wakes when its hold says (a request's poke is a flood's, while one is held).
      if (this.held.size > 0 && performance.now() - this.requestAt < this.quietMs) return;
      if (this.running || (this.wakeAt !== null && this.wakeAt <= gathered(at))) return;
      return this.setTimer(gathered(at), now);
    }
    if (this.running) {
      this.again = true;
      return;
    }
    this.setTimer(now, now);
  }

  /** A program's request is being accepted: work that gives way waits while they keep coming. */
  requestArrived(): void {
    this.requestAt = performance.now();
  }

  /** Resolves once no worker has work due at the current clock time. */
  waitForIdle(): Promise<void> {
    if (!this.running && !this.hasDueWork()) return Promise.resolve();
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.poke();
    });
  }

  /** Runs everything due now, synchronously from the caller's view (tests, shutdown). */
  async drain(): Promise<void> {
    while (this.hasDueWork()) for (const worker of this.workers) await this.runWorker(worker);
  }

  private hasDueWork(): boolean {
    const now = this.clock.now();
    return this.workers.some((worker) => {
      const due = worker.nextDueAt();
      return due !== null && due <= now;
    });
  }

  private loop(): void {
    this.timer = null;
    this.wakeAt = null;
    this.running = (async () => {
      do {
        this.again = false;
        for (const worker of this.workers) {
          if (this.stopped) break;
          if (this.givingWay(worker)) continue;
          if (await this.runWorker(worker)) this.again = true;
          // Let I/O (HTTP requests, IPC) in between batches: the loop never hogs the process.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } while (this.again && !this.stopped);
    })();
    void this.running.finally(() => {
      this.running = null;
      this.released.clear();
      if (!this.hasDueWork()) this.flushIdle();
      this.schedule();
    });
  }

  /** Whether `worker` waits on a flood of requests now (see the header); starts its hold if so. */
  private givingWay(worker: Worker): boolean {
    if (!worker.givesWay) return false;
    const now = performance.now();
    if (now - this.requestAt >= this.quietMs) {
      this.held.delete(worker);
      this.released.delete(worker);
      return false;
    }
    const releasedAt = this.released.get(worker);
    if (releasedAt !== undefined) {
      const due = worker.nextDueAt();
      if (due !== null && due <= releasedAt) return false;
      // Caught up: what is due now came due during the flood, and waits for a hold of its own.
      this.released.delete(worker);
      return this.holdIfDue(worker, due, now);
    }
    const since = this.held.get(worker);
    if (since === undefined) return this.holdIfDue(worker, worker.nextDueAt(), now);
    // Held already (its work was due then, and only runs can take it off): not asked again.
    if (now - since < this.holdMs) return true;
    this.held.delete(worker);
    this.released.set(worker, this.clock.now());
    return false;
  }

  /** Starts `worker`'s hold (performance.now() `now`) when its work is `due` by the clock now. */
  private holdIfDue(worker: Worker, due: number | null, now: number): boolean {
    if (due === null || due > this.clock.now()) return false;
    this.held.set(worker, now);
    return true;
  }

  /**
   * The clock time a held worker is looked at again: the flood's pause (looked for every
   * GATHER_MS, not at every request's QUIET_MS: each look asks every worker), or its hold's end.
   */
  private heldUntil(worker: Worker, now: number): number | null {
    const since = this.held.get(worker);
    if (since === undefined) return null;
    const real = performance.now();
    const at = Math.min(Math.max(this.requestAt + this.quietMs, real + GATHER_MS), since + this.holdMs);
    return now + Math.max(1, Math.ceil(at - real));
  }

  private async runWorker(worker: Worker): Promise<boolean> {
    try {
      return await worker.runDue();
    } catch (error) {
      this.onError(worker.name, error);
      return false;
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    const now = this.clock.now();
    let next: number | null = null;
    for (const worker of this.workers) {
      const held = this.heldUntil(worker, now);
      let due = held ?? worker.nextDueAt();
      if (held === null && due !== null && due > now && worker.gathers) due = gathered(due);
      if (due !== null && (next === null || due < next)) next = due;
    }
    this.setTimer(Math.max(now, Math.min(next ?? Infinity, now + MAX_SLEEP_MS)), now);
  }

  private setTimer(at: number, now: number): void {
    this.clearTimer();
    const delay = Math.min(MAX_SLEEP_MS, Math.max(0, at - now));
    this.wakeAt = now + delay;
    this.timer = setTimeout(() => this.loop(), delay);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.wakeAt = null;
  }

  private flushIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** The time work due at `at` runs: the next multiple of GATHER_MS. */
function gathered(at: number): number {
  return Math.ceil(at / GATHER_MS) * GATHER_MS;
}
