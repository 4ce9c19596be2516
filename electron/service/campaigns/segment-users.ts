// "These campaigns name this segment", as the contacts domain shows on a segment's page and its
// delete confirmation (segments.registerUsers): a campaign's audience names segments by id, in its
// inclusion or exclusion list. Contacts is below campaigns and may not read its tables.
import type { Db } from '../db/database';
import type { SegmentUsers } from '../contacts/segments';

export function campaignsNamingSegment(db: Db): SegmentUsers {
  const stmt = db.prepare<[number, number, number], { campaign_id: number; name: string }>(
    `SELECT id AS campaign_id, name FROM campaigns c WHERE account_id = ?
       AND (EXISTS (SELECT 1 FROM json_each(c.inclusion_segments) WHERE value = ?)
         OR EXISTS (SELECT 1 FROM json_each(c.exclusion_segments) WHERE value = ?))
     ORDER BY id`,
  );
  return (accountId, segmentId) => stmt.all(accountId, segmentId, segmentId);
}
