// 0029: a messenger file sent through a provider is uploaded there once per line; the provider's
// own id of it is kept here beside ours, so a campaign's batches attach it without uploading again.
export default `
CREATE TABLE upstream_files (
  line_id           INTEGER NOT NULL,
  file_id           TEXT NOT NULL,
  upstream_file_id  TEXT NOT NULL,
  PRIMARY KEY (line_id, file_id)
) STRICT, WITHOUT ROWID;
`;
