// 0006: persisted jobs (jobs/jobs.ts). One row per piece of background work of any domain: its
// type and JSON payload, where it stands, how often it was started, when it may run next, and the
// progress it reported (JSON), so a restart picks up what a crash or a close left. Times in ms.
// Rows are 'queued' (run_after says from when), 'running', or final ('done', 'failed', 'cancelled').
export default `
CREATE TABLE jobs (
  id            INTEGER PRIMARY KEY,
  type          TEXT NOT NULL,
  payload       TEXT NOT NULL,
  state         TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  attempts      INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  max_attempts  INTEGER NOT NULL CHECK (max_attempts >= 1),
  run_after     INTEGER NOT NULL,
  last_error    TEXT,
  progress      TEXT,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  finished_at   INTEGER
) STRICT;
CREATE INDEX jobs_due ON jobs(state, run_after);
`;
