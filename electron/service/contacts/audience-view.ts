// What a campaign's audience (its quote, its live count, its execution's freeze) sees of a segment
// while an import writes into it: the segment as it was before that import. Until an import that
// adds rows to an existing segment is done, its rows may still be taken out again (a cancel or a
// failure removes exactly the rows it recorded in import_added, Segments.purgeWorker), so no
// audience reads them; once it is done they are members like any other. A segment an import or a
// combine is still creating has nothing to show yet.
//
// The readers ask for the pending imports of their segments in the transaction of the read itself,
// so a batch committed between the two cannot slip in. With none pending (the usual case) the read
// is the plain one: a pending import is found through its segment's status, one primary-key
// lookup per segment.
import type { Db } from '../db/database';
import type { Segment } from '../../../shared/contacts';

/** An import adding rows to a segment and not done yet: the rows it added are hidden. */
export interface PendingImport {
  segmentId: number;
  jobId: number;
}

/**
 * The segment as an audience sees it: a ready one as it is; one an import is adding rows to (or
 * whose failed or cancelled import is being taken out) with its columns from before that import;
 * null when an audience cannot read it yet or any more (being created, failed, being deleted).
 * Its members are then the stored ones less the pending import's rows (withoutPendingRows).
 */
export function audienceView(db: Db, segment: Segment): Segment | null {
  if (segment.status === 'ready') return segment;
  if (segment.status !== 'importing') return null;
  const adding = addingImport(db, segment.id);
  return adding === null ? null : { ...segment, columns: adding.columnsBefore };
}

/** The pending imports into `segmentIds`: call it in the transaction of the read it filters. */
export function pendingImports(db: Db, segmentIds: readonly number[]): PendingImport[] {
  const ids = [...new Set(segmentIds)];
  if (ids.length === 0) return [];
  // An import adding rows keeps its segment 'importing' until it is done, or until a failed or
  // cancelled one's rows are all taken out again (writer.ts finishJob).
  const importing = db
    .prepare<number[], number>(
      `SELECT id FROM segments WHERE id IN (${ids.map(() => '?').join(',')}) AND status = 'importing'`,
    )
    .pluck()
    .all(...ids);
  return importing.flatMap((segmentId) => {
    const adding = addingImport(db, segmentId);
    return adding === null ? [] : [{ segmentId, jobId: adding.jobId }];
  });
}

/**
 * SQL that keeps a row of segment_members `member` (its alias) only when no pending import added
 * it: `AND NOT EXISTS (…)` over import_added's primary key, or nothing at all when none is pending.
 */
export function withoutPendingRows(
  member: string,
  pending: readonly PendingImport[],
): { sql: string; params: number[] } {
  if (pending.length === 0) return { sql: '', params: [] };
  const jobOf = `CASE ${member}.segment_id ${pending.map(() => 'WHEN ? THEN ?').join(' ')} END`;
  return {
    sql: `AND NOT EXISTS (SELECT 1 FROM import_added pending_row
      WHERE pending_row.job_id = ${jobOf} AND pending_row.phone = ${member}.phone)`,
    params: pending.flatMap((p) => [p.segmentId, p.jobId]),
  };
}

/**
 * The import an 'importing' segment waits for when it adds rows to the segment (the segment's
 * latest job, with the segment as its target); null when the segment is being created.
 */
function addingImport(db: Db, segmentId: number): { jobId: number; columnsBefore: string[] } | null {
  const job = db
    .prepare<[number], { id: number; target_segment_id: number | null; spec: string }>(
      'SELECT id, target_segment_id, spec FROM import_jobs WHERE segment_id = ? ORDER BY id DESC LIMIT 1',
    )
    .get(segmentId);
  if (!job || job.target_segment_id !== segmentId) return null;
  const spec = JSON.parse(job.spec) as { columnsBefore?: string[] };
  return { jobId: job.id, columnsBefore: spec.columnsBefore ?? [] };
}
