// 0035: campaigns that run by themselves (a repeating or date-triggered campaign, a "series").
// - campaign_series: the rule (JSON, occurrences.ts), whether it is paused or ended, and the job of
//   its next tick (a tick whose id is not this one's is stale: it does nothing).
// - campaign_executions.occurrence: the local day (YYYY-MM-DD) of the occurrence an execution is;
//   NULL for a one-off's. UNIQUE per campaign, so one occurrence is never made twice, whatever
//   crash falls between making it and scheduling the next.
export default `
CREATE TABLE campaign_series (
  campaign_id  INTEGER PRIMARY KEY REFERENCES campaigns(id) ON DELETE CASCADE,
  rule         TEXT NOT NULL,
  paused       INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
  ended_at     INTEGER,
  job_id       INTEGER
) STRICT;

ALTER TABLE campaign_executions ADD COLUMN occurrence TEXT;
CREATE UNIQUE INDEX campaign_executions_occurrence ON campaign_executions(campaign_id, occurrence)
  WHERE occurrence IS NOT NULL;
`;
