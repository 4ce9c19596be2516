// Segments: named contact lists of an account (from uploads, spreadsheet imports, or union /
// difference of other segments), their members, exports, and the background purge that removes
// the members of deleted or failed segments in small batches.
//
// Public API (core.segments); every call is scoped to the account, another account's id is "not found":
//   list(accountId)                                   -> Segment[] {id, name, columns, member_count, status, created_at}
//   get(accountId, segmentId)                         -> Segment (ServiceError 404 when absent)
//   rename(accountId, segmentId, name)                -> Segment
//   delete(accountId, segmentId)                      -> void (hidden at once, members purged in the background)
//   count(accountId, segmentId)                       -> number of members
//   phones(accountId, segmentId)                      -> a ready segment's numbers (400 when not ready)
//   members(accountId, segmentId, {offset, limit})    -> {total, members: {phone, fields}[]} ordered by phone
//   union(accountId, {name, segmentIds, excludeOptOuts?}, onProgress?)           -> {jobId, segmentId}
//   difference(accountId, {name, from, minus, excludeOptOuts?}, onProgress?)     -> {jobId, segmentId}
//   audienceCount(accountId, {include, exclude})      -> distinct numbers of include minus exclude minus opt-outs
//   exportCsv / exportXlsx(accountId, segmentId, file, onProgress?) -> Promise<{rows}>
// Only 'ready' segments are complete; 'importing' ones are still being written.
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Worker } from '../jobs/scheduler';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import type { ImportProgress, Segment, SegmentMember, SegmentStatus } from '../../../shared/contacts';
import { decodeFields } from './fields';
import type { Imports } from './imports';

interface SegmentRow {
  id: number;
  account_id: number;
  name: string;
  columns: string;
  status: SegmentStatus;
  member_count: number;
  created_at: number;
}

const PURGE_BATCH = 20_000;
/** SQLite's bound-parameter limit is far above this; lists of segments are short anyway. */
const MAX_SEGMENTS_IN_QUERY = 500;

export class Segments {
  private readonly byId;
  private purgeDue = true;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly imports: Imports,
  ) {
    this.byId = db.prepare<[number], SegmentRow>('SELECT * FROM segments WHERE id = ?');
  }

  list(accountId: number): Segment[] {
    return this.db
      .prepare<[number], SegmentRow>("SELECT * FROM segments WHERE account_id = ? AND status <> 'deleting' ORDER BY id")
      .all(accountId)
      .map(toSegment);
  }

  get(accountId: number, segmentId: number): Segment {
    return toSegment(this.row(accountId, segmentId));
  }

  rename(accountId: number, segmentId: number, name: string): Segment {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > 200)
      throw new ServiceError(ApiCode.BadRequest, 'a segment name has 1 to 200 characters');
    this.row(accountId, segmentId);
    this.db
      .prepare('UPDATE segments SET name = ?, updated_at = ? WHERE id = ?')
      .run(trimmed, this.clock.now(), segmentId);
    return this.get(accountId, segmentId);
  }

  delete(accountId: number, segmentId: number): void {
    this.row(accountId, segmentId);
    const job = this.db
      .prepare<[number], { id: number }>(
        "SELECT id FROM import_jobs WHERE segment_id = ? AND status IN ('queued', 'running')",
      )
      .get(segmentId);
    if (job) this.imports.cancel(accountId, job.id);
    this.db
      .prepare("UPDATE segments SET status = 'deleting', updated_at = ? WHERE id = ?")
      .run(this.clock.now(), segmentId);
    this.schedulePurge();
  }

  count(accountId: number, segmentId: number): number {
    const segment = this.row(accountId, segmentId);
    if (segment.status === 'ready') return segment.member_count;
    return (
      this.db
        .prepare<[number], number>('SELECT count(*) FROM segment_members WHERE segment_id = ?')
        .pluck()
        .get(segmentId) ?? 0
    );
  }

  /**
   * A ready segment's numbers (normalized, distinct) in one pass, for a send; 400 when the segment
   * is still importing or failed (`members()` is paged and ordered for display).
   */
  phones(accountId: number, segmentId: number): string[] {
    this.readySegment(accountId, segmentId);
    return this.db
      .prepare<[number], string>('SELECT phone FROM segment_members WHERE segment_id = ?')
      .pluck()
      .all(segmentId);
  }

  members(
    accountId: number,
    segmentId: number,
    { offset = 0, limit = 100 }: { offset?: number; limit?: number } = {},
  ): { total: number; members: SegmentMember[] } {
    const segment = this.row(accountId, segmentId);
    const columns = JSON.parse(segment.columns) as string[];
    const rows = this.db
      .prepare<[number, number, number], { phone: string; fields: string }>(
        'SELECT phone, fields FROM segment_members WHERE segment_id = ? ORDER BY phone LIMIT ? OFFSET ?',
      )
      .all(segmentId, Math.min(Math.max(Math.trunc(limit), 0), 10_000), Math.max(Math.trunc(offset), 0));
    return {
      total: this.count(accountId, segmentId),
      members: rows.map((row) => ({ phone: row.phone, fields: decodeFields(row.fields, columns) })),
    };
  }

  union(
    accountId: number,
    input: { name: string; segmentIds: number[]; excludeOptOuts?: boolean },
    onProgress?: (progress: ImportProgress) => void,
  ): { jobId: number; segmentId: number } {
    return this.combine(
      accountId,
      { name: input.name, include: input.segmentIds, exclude: [], excludeOptOuts: input.excludeOptOuts },
      onProgress,
    );
  }

  difference(
    accountId: number,
    input: { name: string; from: number[]; minus: number[]; excludeOptOuts?: boolean },
    onProgress?: (progress: ImportProgress) => void,
  ): { jobId: number; segmentId: number } {
    return this.combine(
      accountId,
      { name: input.name, include: input.from, exclude: input.minus, excludeOptOuts: input.excludeOptOuts },
      onProgress,
    );
  }

  /** A new segment: union of `include`, minus the members of `exclude`, minus opt-outs (default). Columns: all of include's, by name. */
  combine(
    accountId: number,
    input: { name: string; include: number[]; exclude: number[]; excludeOptOuts?: boolean },
    onProgress?: (progress: ImportProgress) => void,
  ): { jobId: number; segmentId: number } {
    const name = input.name.trim();
    if (name === '') throw new ServiceError(ApiCode.BadRequest, 'a segment name is required');
    if (input.include.length === 0) throw new ServiceError(ApiCode.BadRequest, 'at least one segment to include');
    if (input.include.length + input.exclude.length > MAX_SEGMENTS_IN_QUERY)
      throw new ServiceError(ApiCode.TooLarge, 'too many segments');
    const columns: string[] = [];
    for (const id of [...new Set(input.include)]) {
      const segment = this.readySegment(accountId, id);
      for (const column of JSON.parse(segment.columns) as string[]) if (!columns.includes(column)) columns.push(column);
    }
    for (const id of input.exclude) this.readySegment(accountId, id);
    return this.imports.queueCombine(
      accountId,
      name,
      columns,
      {
        include: [...new Set(input.include)],
        exclude: [...new Set(input.exclude)],
        excludeOptOuts: input.excludeOptOuts ?? true,
      },
      onProgress,
    );
  }

  /** Distinct numbers in the union of `include`, not in any of `exclude`, not opted out (PRODUCT.md's audience). */
  audienceCount(accountId: number, { include, exclude = [] }: { include: number[]; exclude?: number[] }): number {
    if (include.length === 0) return 0;
    if (include.length + exclude.length > MAX_SEGMENTS_IN_QUERY)
      throw new ServiceError(ApiCode.TooLarge, 'too many segments');
    for (const id of [...include, ...exclude]) this.readySegment(accountId, id);
    const inList = include.map(() => '?').join(',');
    const exList = exclude.map(() => '?').join(',');
    const sql = `SELECT count(DISTINCT m.phone) FROM segment_members m
      WHERE m.segment_id IN (${inList})
      ${exclude.length ? `AND NOT EXISTS (SELECT 1 FROM segment_members e WHERE e.segment_id IN (${exList}) AND e.phone = m.phone)` : ''}
      AND NOT EXISTS (SELECT 1 FROM optouts o WHERE o.account_id = ? AND o.phone = m.phone)`;
    return this.db
      .prepare(sql)
      .pluck()
      .get(...include, ...exclude, accountId) as number;
  }

  exportCsv(
    accountId: number,
    segmentId: number,
    file: string,
    onProgress?: (rows: number, total: number) => void,
  ): Promise<{ rows: number }> {
    this.readySegment(accountId, segmentId);
    return this.imports.export({ kind: 'segment', format: 'csv', segmentId, file }, onProgress);
  }

  exportXlsx(
    accountId: number,
    segmentId: number,
    file: string,
    onProgress?: (rows: number, total: number) => void,
  ): Promise<{ rows: number }> {
    this.readySegment(accountId, segmentId);
    return this.imports.export({ kind: 'segment', format: 'xlsx', segmentId, file }, onProgress);
  }

  /** Something was marked for purging (a failed or cancelled job, a deletion). */
  schedulePurge(): void {
    this.purgeDue = true;
  }

  /** Removes members of failed / deleted segments in batches, then the rows of deleted segments. */
  purgeWorker(): Worker {
    return {
      name: 'segment-purge',
      nextDueAt: () => (this.purgeDue ? 0 : null),
      runDue: () => {
        const target = this.db
          .prepare<[], { id: number; status: SegmentStatus }>(
            `SELECT s.id, s.status FROM segments s
             WHERE s.status IN ('failed', 'deleting')
               AND NOT EXISTS (SELECT 1 FROM import_jobs j WHERE j.segment_id = s.id AND j.status IN ('queued', 'running'))
               AND (s.status = 'deleting' OR EXISTS (SELECT 1 FROM segment_members m WHERE m.segment_id = s.id))
             LIMIT 1`,
          )
          .get();
        if (!target) {
          this.purgeDue = false;
          return false;
        }
        this.db.transaction(() => {
          const removed = this.db
            .prepare(
              `DELETE FROM segment_members WHERE segment_id = ? AND phone IN
                 (SELECT phone FROM segment_members WHERE segment_id = ? LIMIT ${PURGE_BATCH})`,
            )
            .run(target.id, target.id).changes;
          if (removed === 0 && target.status === 'deleting')
            this.db.prepare('DELETE FROM segments WHERE id = ?').run(target.id);
        })();
        return true;
      },
    };
  }

  private row(accountId: number, segmentId: number): SegmentRow {
    const row = Number.isInteger(segmentId) ? this.byId.get(segmentId) : undefined;
    if (!row || row.account_id !== accountId || row.status === 'deleting')
      throw new ServiceError(ApiCode.NotFound, `segment ${segmentId} not found`);
    return row;
  }

  private readySegment(accountId: number, segmentId: number): SegmentRow {
    const row = this.row(accountId, segmentId);
    if (row.status !== 'ready')
      throw new ServiceError(ApiCode.BadRequest, `segment ${segmentId} is ${row.status}, not ready`);
    return row;
  }
}

function toSegment(row: SegmentRow): Segment {
  return {
    id: row.id,
    name: row.name,
    columns: JSON.parse(row.columns) as string[],
    member_count: row.member_count,
    status: row.status,
    created_at: row.created_at,
  };
}
