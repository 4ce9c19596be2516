// Writes accumulated in memory during a batch and written once at the end of the outermost one:
// the counts (counts.ts) and the message states (message-states.ts) both keep a lifecycle batch's
// moves this way, so 500 moves of one send become a few row writes, not a thousand.

export class PendingBatch {
  private depth = 0;

  constructor(
    /** Writes what was accumulated, and forgets it. */
    private readonly flush: () => void,
    /** Forgets what was accumulated without writing it (a batch that threw). */
    private readonly discard: () => void,
  ) {}

  /**
   * Runs `work` (inside the caller's transaction) and flushes at the end of the outermost batch; a
   * batch that throws writes nothing (its transaction rolls back).
   */
  run<T>(work: () => T): T {
    if (this.depth === 0) this.discard();
    this.depth++;
    try {
      const result = work();
      if (this.depth === 1) this.flush();
      return result;
    } finally {
      this.depth--;
      if (this.depth === 0) this.discard();
    }
  }

  /** A change recorded outside any batch is written at once. */
  recorded(): void {
    if (this.depth === 0) this.flush();
  }
}
