// Writes accumulated in memory during a batch and written once at the end of the outermost one:
// the counts (counts.ts) and the message states (message-states.ts) both keep a lifecycle batch's
// moves this way, so 500 moves of one send become a few row writes, not a thousand; the counts
// keep a group commit's sends this way too (one upsert for a dozen one-message sends), and so do
// the states and sources rows and the due ranges of its sends (accepted-due.ts).
//
// A batch inside another is the in-memory side of a savepoint: when it throws, what it recorded is
// taken back (to the mark made when it began), while the outer batch goes on with the rest. With
// a group commit each request's acceptance is such a batch, and a refused one leaves no count.

export class PendingBatch<Mark = unknown> {
  private depth = 0;

  constructor(
    /** Writes what was accumulated, and forgets it. */
    private readonly flush: () => void,
    /** Forgets what was accumulated without writing it (a batch that threw). */
    private readonly discard: () => void,
    /** What was accumulated so far, copied (taken when an inner batch begins). */
    private readonly mark?: () => Mark,
    /** Back to a mark (an inner batch threw). */
    private readonly restore?: (mark: Mark) => void,
  ) {}

  /**
   * Runs `work` (inside the caller's transaction) and flushes at the end of the outermost batch; a
   * batch that throws writes nothing (its transaction rolls back), and an inner one that throws
   * takes back what it recorded (its savepoint rolls back).
   */
  run<T>(work: () => T): T {
    if (this.depth === 0) this.discard();
    const mark = this.depth > 0 && this.mark ? { at: this.mark() } : null;
    this.depth++;
    try {
      const result = work();
      if (this.depth === 1) this.flush();
      return result;
    } catch (error) {
      if (mark !== null) this.restore!(mark.at);
      throw error;
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
