// The due ranges of accepted sends (the lifecycle's message_due), written at the end of the
// acceptances' batch. A program sending one message per request leaves a range per request; a
// group commit's dozen of them get consecutive ids in one transaction and mostly one due time, so
// they become one range, and a step reads one row for them, not a dozen.
//
// Only one-message sends join, and only when nothing lies between their ids: a send of more keeps
// its range to itself, which is what withdraw() takes off whole (a paused campaign's batch).
import type { DueRange } from './due-ranges';
import { PendingBatch } from './pending-batch';

/** A range still to be written, and whether one-message sends may join it. */
interface Run extends DueRange {
  joins: boolean;
}

/** What a batch recorded so far (an inner batch's start): the runs, and where the last one ended. */
interface RunsMark {
  runs: number;
  lastId: number;
}

export class AcceptedDue {
  private runs: Run[] = [];
  private readonly batches = new PendingBatch<RunsMark>(
    () => this.flush(),
    () => (this.runs = []),
    () => ({ runs: this.runs.length, lastId: this.runs[this.runs.length - 1]?.last_id ?? 0 }),
    // An acceptance that threw: its runs go, and the run it joined ends where it ended before.
    (mark) => {
      this.runs.length = mark.runs;
      if (mark.runs > 0) this.runs[mark.runs - 1]!.last_id = mark.lastId;
    },
  );

  constructor(
    /** Writes one range (Lifecycle.schedule), inside the batch's transaction. */
    private readonly schedule: (dueAt: number, firstId: number, lastId: number) => void,
  ) {}

  /** Runs `work` (inside the caller's transaction); the ranges it added are written at the end of the outermost batch. */
  batch<T>(work: () => T): T {
    return this.batches.run(work);
  }

  /** A send's messages firstId..lastId are due at `dueAt` (ms). Inside its transaction. */
  add(dueAt: number, firstId: number, lastId: number): void {
    const one = firstId === lastId;
    const last = this.runs[this.runs.length - 1];
    if (one && last !== undefined && last.joins && last.due_at === dueAt && last.last_id + 1 === firstId)
      last.last_id = lastId;
    else this.runs.push({ due_at: dueAt, first_id: firstId, last_id: lastId, joins: one });
    this.batches.recorded();
  }

  private flush(): void {
    for (const run of this.runs) this.schedule(run.due_at, run.first_id, run.last_id);
    this.runs = [];
  }
}
