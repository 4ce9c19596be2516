// 0009: what the contacts screens need (issue contacts-ui).
// - segments.source_kind / source_label: where the members came from, as the Contacts page says it
//   (the file's name, "A ∪ B", the campaign whose results they are). NULL kind: read from origin.
// - import_jobs.file_name: the name the user knows the file by (web mode keeps uploads under
//   generated names). import_jobs.target_segment_id: an import that adds rows to an existing
//   segment (segment_id is then that segment too).
// - import_added: the numbers such an import added, written in the same transaction as the
//   members, so a failed or cancelled one removes exactly those and the segment is as it was.
//   Emptied in the background once the job is final.
// - import_layouts: the column mapping last used for a file layout (format and header), offered
//   again when a file of the same layout is imported.
export default `
ALTER TABLE segments ADD COLUMN source_kind TEXT;
ALTER TABLE segments ADD COLUMN source_label TEXT;
ALTER TABLE import_jobs ADD COLUMN file_name TEXT;
ALTER TABLE import_jobs ADD COLUMN target_segment_id INTEGER;

CREATE TABLE import_added (
  job_id  INTEGER NOT NULL,
  phone   TEXT NOT NULL,
  PRIMARY KEY (job_id, phone)
) STRICT, WITHOUT ROWID;

CREATE TABLE import_layouts (
  account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  signature   TEXT NOT NULL,
  mapping     TEXT NOT NULL,
  used_at     INTEGER NOT NULL,
  PRIMARY KEY (account_id, signature)
) STRICT;
`;
