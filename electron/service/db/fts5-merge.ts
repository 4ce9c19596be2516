// FTS5's 'merge' command run in bounded steps by the background indexes (messaging/receivers.ts,
// messaging/send-texts.ts), with their own merging off: a step tells whether it merged anything by
// FTS5's own test, a 'merge' that changed fewer than two rows found nothing to merge.
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';

/** Runs 'merge' statements in one transaction; the answer: whether any of them merged something. */
export type Fts5Merge = (merges: readonly Statement<[]>[]) => boolean;

export function fts5Merge(db: Db): Fts5Merge {
  const totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
  return (merges) =>
    db.transaction(() => {
      let worked = false;
      for (const merge of merges) {
        const before = totalChanges.get()!;
        merge.run();
        if (totalChanges.get()! - before >= 2) worked = true;
      }
      return worked;
    })();
}
