// 0019: the receiver index (messaging/receivers.ts), written off the send path by a background
// worker that indexes the messages above its watermark a few hundred at a time.
// - receiver_messages: an inverted index from a receiver to its messages (rowid = message id, the
//   receptor its one token). Contentless, no positions, no column sizes: what is left is each
//   receiver's message ids, delta-encoded in FTS5's segments, which are written in sequence and
//   merged in the background instead of updated in place.
// - receiver_digits: the distinct receivers (rowid = the number) with a trigram index of their
//   digits, for parts of a number; receiver_keys says which numbers it holds already.
// - receiver_odd: messages whose receptor is not in the canonical form, checked one by one.
// - receiver_index: how far the index goes (messages with ids up to the watermark are in it).
// FTS5's own merging is off (automerge 0): the worker merges in bounded steps between its chunks,
// so no insert pays for a large merge. Existing messages are indexed by the worker, not here:
// a migration that read ten million messages would hold the app's start for a minute.
export default `
CREATE VIRTUAL TABLE receiver_messages USING fts5(
  receiver, content='', detail=none, columnsize=0, tokenize='unicode61'
);
INSERT INTO receiver_messages (receiver_messages, rank) VALUES ('automerge', 0);

CREATE VIRTUAL TABLE receiver_digits USING fts5(
  digits, content='', detail=none, columnsize=0, tokenize='trigram'
);
INSERT INTO receiver_digits (receiver_digits, rank) VALUES ('automerge', 0);

CREATE TABLE receiver_keys (
  key  INTEGER PRIMARY KEY
) STRICT;

CREATE TABLE receiver_odd (
  message_id  INTEGER PRIMARY KEY
) STRICT;

CREATE TABLE receiver_index (
  id         INTEGER PRIMARY KEY CHECK (id = 1),
  watermark  INTEGER NOT NULL
) STRICT;
INSERT INTO receiver_index (id, watermark) VALUES (1, 0);
`;
