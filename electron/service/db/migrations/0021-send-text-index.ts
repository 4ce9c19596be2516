// 0021: the send-text index (messaging/send-texts.ts), written off the send path by a background
// worker, as the receiver index is.
// - send_texts: a trigram index of the sends' texts in search form (shared/search.ts), one
//   document per block of 16 consecutive send ids (rowid = id / 16), their texts joined by a line
//   break. Contentless and without positions: it proposes the blocks whose texts hold every
//   trigram of a term, and the search checks each of their sends' texts itself. A block of 16 keeps
//   a trigram common to nearby texts once instead of 16 times (measured at two million sends: 4.5
//   bytes a message against 10.3 for a document per send). contentless_delete lets a block be
//   written again (below).
// - send_text_index: sends with ids below `upto` (a multiple of 16) are in it; blocks below
//   `written` have a document. A send id below `upto` is given again only after the newest sends
//   went (an account deleted): the trigger then lowers `upto` to its block, so the search reads
//   that block's sends directly until the worker has written it again.
// FTS5's own merging is off (automerge 0): the worker merges in bounded steps between its runs.
export default `
CREATE VIRTUAL TABLE send_texts USING fts5(
  text, content='', contentless_delete=1, detail=none, tokenize='trigram case_sensitive 1'
);
INSERT INTO send_texts (send_texts, rank) VALUES ('automerge', 0);

CREATE TABLE send_text_index (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  upto     INTEGER NOT NULL,
  written  INTEGER NOT NULL
) STRICT;
INSERT INTO send_text_index (id, upto, written) VALUES (1, 0, 0);

CREATE TRIGGER send_text_index_reuse AFTER INSERT ON sends
WHEN NEW.id < (SELECT upto FROM send_text_index WHERE id = 1)
BEGIN
  UPDATE send_text_index SET upto = NEW.id - NEW.id % 16 WHERE id = 1;
END;
`;
