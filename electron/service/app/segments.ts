// Segments as the composer needs them. The contacts domain owns segments (core.segments when it
// is wired in); until then, and for the member numbers a send needs, this reads its tables.
import type { Core } from '../core';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import type { SegmentSummary } from '../../../shared/ipc/schemas';

interface SegmentsDomain {
  list(accountId: number): SegmentSummary[];
}

function segmentsDomain(core: Core): SegmentsDomain | undefined {
  const domain = (core as unknown as { segments?: Partial<SegmentsDomain> }).segments;
  return domain && typeof domain.list === 'function' ? (domain as SegmentsDomain) : undefined;
}

interface SegmentRow {
  id: number;
  name: string;
  columns: string;
  member_count: number;
  status: string;
  created_at: number;
}

export function listSegments(core: Core, accountId: number): SegmentSummary[] {
  const domain = segmentsDomain(core);
  if (domain) return domain.list(accountId);
  return core.db
    .prepare<[number], SegmentRow>(
      `SELECT id, name, columns, member_count, status, created_at FROM segments
       WHERE account_id = ? AND status != 'deleting' ORDER BY id DESC`,
    )
    .all(accountId)
    .map((row) => ({ ...row, columns: JSON.parse(row.columns) as string[] }));
}

function readySegment(core: Core, accountId: number, segmentId: number): SegmentRow {
  const row = core.db
    .prepare<[number, number], SegmentRow>(
      'SELECT id, name, columns, member_count, status, created_at FROM segments WHERE id = ? AND account_id = ?',
    )
    .get(segmentId, accountId);
  if (!row || row.status === 'deleting') throw new ServiceError(ApiCode.NotFound, `segment ${segmentId}`);
  if (row.status !== 'ready') throw new ServiceError(ApiCode.BadRequest, `segment ${segmentId} is ${row.status}`);
  return row;
}

export function segmentMembers(core: Core, accountId: number, segmentId: number): number {
  return readySegment(core, accountId, segmentId).member_count;
}

/** The segment's numbers (already normalized and distinct), streamed from the table. */
export function* segmentPhones(core: Core, accountId: number, segmentId: number): Generator<string> {
  readySegment(core, accountId, segmentId);
  const stmt = core.db.prepare<[number], { phone: string }>('SELECT phone FROM segment_members WHERE segment_id = ?');
  for (const row of stmt.iterate(segmentId)) yield row.phone;
}
