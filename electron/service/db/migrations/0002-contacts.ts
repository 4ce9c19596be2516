// 0002: contacts. Segments and their members, JSON uploads (spec 4.4 / 4.5), spreadsheet import
// jobs the scheduler resumes after a restart, and their row-numbered rejections.
export default `
-- status: 'importing' while an import or a combine fills it (never offered as an audience),
-- 'ready' once the final batch committed, 'failed' when the job failed (members purged),
-- 'deleting' while the background purge removes its members (hidden from every list).
CREATE TABLE segments (
  id            INTEGER PRIMARY KEY,
  account_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  columns       TEXT NOT NULL DEFAULT '[]',
  status        TEXT NOT NULL CHECK (status IN ('importing', 'ready', 'failed', 'deleting')),
  member_count  INTEGER NOT NULL DEFAULT 0,
  origin        TEXT NOT NULL CHECK (origin IN ('upload', 'import', 'combine')),
  error         TEXT,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX segments_account ON segments(account_id, id);
CREATE INDEX segments_purge ON segments(status) WHERE status IN ('failed', 'deleting');

-- One row per distinct normalized number of a segment (the primary key deduplicates).
-- fields: the values of segments.columns in order, joined with U+001F: one string per member is
-- the cheapest encoding to write a million of. No foreign key: members are written by the import
-- worker in large batches and removed by the purge, never by a cascade.
CREATE TABLE segment_members (
  segment_id  INTEGER NOT NULL,
  phone       TEXT NOT NULL,
  fields      TEXT NOT NULL,
  PRIMARY KEY (segment_id, phone)
) STRICT, WITHOUT ROWID;

-- Work the scheduler runs in a worker thread: 'import' (a spreadsheet or an upload's CSV into a
-- segment), 'optouts' (a file into the blocklist), 'combine' (union / difference of segments).
-- spec is the job's JSON input. rows_done/bytes_done and the counters are the checkpoint written
-- in the same transaction as each batch, so a resumed job continues exactly where it stopped.
CREATE TABLE import_jobs (
  id           INTEGER PRIMARY KEY,
  account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind         TEXT NOT NULL CHECK (kind IN ('import', 'optouts', 'combine')),
  segment_id   INTEGER,
  upload_id    INTEGER,
  spec         TEXT NOT NULL,
  status       TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  attempts     INTEGER NOT NULL DEFAULT 0,
  rows_done    INTEGER NOT NULL DEFAULT 0,
  bytes_done   INTEGER NOT NULL DEFAULT 0,
  total_bytes  INTEGER NOT NULL DEFAULT 0,
  total        INTEGER NOT NULL DEFAULT 0,
  valid        INTEGER NOT NULL DEFAULT 0,
  invalid      INTEGER NOT NULL DEFAULT 0,
  duplicates   INTEGER NOT NULL DEFAULT 0,
  opted_out    INTEGER NOT NULL DEFAULT 0,
  error        TEXT,
  created_at   INTEGER NOT NULL,
  started_at   INTEGER,
  finished_at  INTEGER
) STRICT;
CREATE INDEX import_jobs_open ON import_jobs(status, id) WHERE status IN ('queued', 'running');
CREATE INDEX import_jobs_account ON import_jobs(account_id, id);

-- Rows an import left out, numbered as the user counts them (uploads: 1 = first contact object;
-- spreadsheets: the sheet's own row number).
CREATE TABLE import_rejections (
  job_id        INTEGER NOT NULL,
  row           INTEGER NOT NULL,
  phone_number  TEXT NOT NULL,
  reason        TEXT NOT NULL CHECK (reason IN ('invalid', 'duplicate', 'opted_out')),
  PRIMARY KEY (job_id, row)
) STRICT, WITHOUT ROWID;

-- JSON uploads (POST /v2/sms/campaigns/contacts); id is the upload_data_id. csv_file is the
-- generated CSV, relative to the data folder.
CREATE TABLE uploads (
  id           INTEGER PRIMARY KEY,
  account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  segment_id   INTEGER NOT NULL,
  job_id       INTEGER NOT NULL,
  status       TEXT NOT NULL CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED')),
  csv_file     TEXT NOT NULL,
  total        INTEGER NOT NULL,
  created_at   INTEGER NOT NULL,
  finished_at  INTEGER
) STRICT;
CREATE INDEX uploads_account ON uploads(account_id, id);
`;
