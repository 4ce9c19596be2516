// 0022: the text tallies (messaging/text-tallies.ts), written by the send-text index's worker with
// its blocks, so a count of a common word sums a few rows instead of reading every text.
// - text_templates: the sends' texts in search form (shared/search.ts) with each run of digits
//   made one U+E000 (an order or a code number), so a shop's few templates come once each. At
//   most a bounded number: a text beyond them is "unlisted" (template 0).
// - send_text_tallies: per chunk of 256 consecutive send ids (chunk = id / 256) below the
//   send-text index's watermark, the messages that carry their send's text (message_count -
//   own_texts), by template, account, line (sender) and origin: what a count may ask of a send. A
//   chunk holding an unlisted text has one row instead, template 0 and account 0: a count reads
//   that chunk's sends.
// The watermark starts over, so the worker writes every block again, tallies and all.
export default `
CREATE TABLE text_templates (
  id   INTEGER PRIMARY KEY,
  key  TEXT NOT NULL UNIQUE
) STRICT;

CREATE TABLE send_text_tallies (
  chunk        INTEGER NOT NULL,
  template_id  INTEGER NOT NULL,
  account_id   INTEGER NOT NULL,
  sender       TEXT NOT NULL,
  origin       TEXT NOT NULL,
  messages     INTEGER NOT NULL,
  PRIMARY KEY (chunk, template_id, account_id, sender, origin)
) STRICT, WITHOUT ROWID;

UPDATE send_text_index SET upto = 0 WHERE id = 1;
`;
