// The scheduler: one loop that runs every worker's due work in small batches, sleeps until the
// earliest due time (capped, so a moved system clock is noticed), and wakes early when poked.
// Work lives in SQLite, so a restart picks up whatever was left; `waitForIdle()` lets tests wait
// for "nothing due now" instead of sleeping.
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
}

const MAX_SLEEP_MS = 1000;

/**
 * A gathering worker's wake-up for future work is put off to the next multiple of this: work due at
 * nearby times (a program's one-message sends, each its own due range a few ms apart) then runs as
 * one batch, one transaction, instead of a batch a message. 20 ms is nothing on a message's way to
 * its final status, and much against a batch's fixed cost.
 */
export const GATHER_MS = 20;

export class Scheduler {
  private readonly workers: Worker[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** When the timer fires (clock ms, MAX_SLEEP_MS at the latest); null without one. */
  private wakeAt: number | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private again = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly clock: Clock,
    private readonly onError: (worker: string, error: unknown) => void = () => {},
  ) {}

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
      // A running loop looks for the next due time when it ends; a timer due sooner stands.
      if (this.running || (this.wakeAt !== null && this.wakeAt <= gathered(at))) return;
      return this.setTimer(gathered(at), now);
    }
    if (this.running) {
      this.again = true;
      return;
    }
    this.setTimer(now, now);
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
          if (await this.runWorker(worker)) this.again = true;
          // Let I/O (HTTP requests, IPC) in between batches: the loop never hogs the process.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } while (this.again && !this.stopped);
    })();
    void this.running.finally(() => {
      this.running = null;
      if (!this.hasDueWork()) this.flushIdle();
      this.schedule();
    });
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
      let due = worker.nextDueAt();
      if (due !== null && due > now && worker.gathers) due = gathered(due);
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
