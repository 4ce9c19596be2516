// 0031: the highest local id given to a provider (Kavenegar's localid) is kept in one row, written
// once per call, instead of found by a unique index over every hand-over row. That index was a
// third of the cost of writing an answered call's rows (bench handover100k) and answered only
// MAX(local_id) at start; uniqueness is the carrier's by construction (upstream-carrier.ts
// nextLocalId: above the kept value, and above every id of an earlier second). The first value is
// the highest any row or call in flight holds.
export default `
CREATE TABLE upstream_local_ids (
  only           INTEGER PRIMARY KEY CHECK (only = 1),
  last_local_id  INTEGER NOT NULL
) STRICT;
INSERT INTO upstream_local_ids (only, last_local_id)
  SELECT 1, MAX(
    COALESCE((SELECT MAX(local_id) FROM upstream_handovers), 0),
    COALESCE((SELECT MAX(j.value ->> 1) FROM upstream_calls c, json_each(c.messages) j), 0));
DROP INDEX upstream_handovers_local;
`;
