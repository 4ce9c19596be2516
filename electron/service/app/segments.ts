// Segments as the composer needs them: the contacts domain's list (core.segments), and the member
// numbers of a ready segment for a panel send, streamed from its table in one pass (the domain's
// paged members() is ordered for display, not for reading a million numbers once).
import type { Core } from '../core';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import type { SegmentSummary } from '../../../shared/ipc/schemas';

export function listSegments(core: Core, accountId: number): SegmentSummary[] {
  return core.segments.list(accountId);
}

function readySegment(core: Core, accountId: number, segmentId: number) {
  const segment = core.segments.get(accountId, segmentId);
  if (segment.status !== 'ready')
    throw new ServiceError(ApiCode.BadRequest, `segment ${segmentId} is ${segment.status}`);
  return segment;
}

export function segmentMembers(core: Core, accountId: number, segmentId: number): number {
  return readySegment(core, accountId, segmentId).member_count;
}

/** The segment's numbers (already normalized and distinct). */
export function* segmentPhones(core: Core, accountId: number, segmentId: number): Generator<string> {
  readySegment(core, accountId, segmentId);
  const stmt = core.db.prepare<[number], { phone: string }>('SELECT phone FROM segment_members WHERE segment_id = ?');
  for (const row of stmt.iterate(segmentId)) yield row.phone;
}
