// 0018: housekeeping for the long run (workspace/housekeeping.ts).
// - maintenance_log: when each background upkeep last ran (PRAGMA optimize, a step of incremental
//   vacuum, a full compaction), how long it took and what it gave back; Settings shows it.
// - retention_runs: one row per application of the retention setting (archive or delete the
//   messages older than N months). Its progress (next_id, removed, held) is written in the same
//   transaction as each batch it removes, so a crash resumes exactly after the last commit.
// - local_ids_message: retention removes a message's caller id with it (a local id naming no
//   message would refuse that id forever); without it that is a scan of every local id per batch.
export default `
CREATE TABLE maintenance_log (
  task        TEXT PRIMARY KEY CHECK (task IN ('optimize', 'incremental_vacuum', 'compact')),
  at          INTEGER NOT NULL,
  took_ms     INTEGER NOT NULL,
  freed_bytes INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE retention_runs (
  id          INTEGER PRIMARY KEY,
  action      TEXT NOT NULL CHECK (action IN ('archive', 'delete')),
  months      INTEGER NOT NULL CHECK (months >= 1),
  cutoff      INTEGER NOT NULL CHECK (cutoff % 86400000 = 0),
  automatic   INTEGER NOT NULL DEFAULT 0 CHECK (automatic IN (0, 1)),
  state       TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed', 'cancelled')),
  job_id      INTEGER,
  planned     INTEGER NOT NULL,
  removed     INTEGER NOT NULL DEFAULT 0,
  held        INTEGER NOT NULL DEFAULT 0,
  next_id     INTEGER NOT NULL DEFAULT 0,
  archives    TEXT NOT NULL DEFAULT '[]',
  error       TEXT,
  created_at  INTEGER NOT NULL,
  finished_at INTEGER
) STRICT;

CREATE INDEX local_ids_message ON local_ids(message_id);
`;
