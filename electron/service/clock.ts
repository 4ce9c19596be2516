// Time as the core sees it. Production reads the system clock; tests move a manual clock so no
// test sleeps to wait for a scheduled time.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  private current: number;
  private readonly listeners = new Set<() => void>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
    for (const listener of this.listeners) listener();
  }

  /** Called after every advance (the scheduler wakes up on it). */
  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * The system clock moved ahead by hand (`npm run serve` with CHAPAR_TEST_CLOCK=1, for end-to-end
 * tests of a served app: "schedule a minute ahead", then move time instead of waiting).
 */
export class OffsetClock implements Clock {
  private offset = 0;
  private readonly listeners = new Set<() => void>();

  now(): number {
    return Date.now() + this.offset;
  }

  advance(ms: number): void {
    this.offset += ms;
    for (const listener of this.listeners) listener();
  }

  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
