// 0005: the gateway's due times kept per range of message ids instead of per message.
// - A send's messages have consecutive ids and one due time, and the gateway moves them in
//   batches of consecutive ids: one row per send (and per moved batch) says what a due_at column
//   and its index said 10,000 times, and a send no longer writes 10,000 index entries for it.
// - messages_created goes too: ids follow creation time, so a date range is found by a binary
//   search over ids (app/created-order.ts), not by an index every message is written into.
// Existing due times become ranges: runs of consecutive ids with the same due_at (gaps and islands).
export default `
CREATE TABLE message_due (
  due_at    INTEGER NOT NULL,
  first_id  INTEGER NOT NULL,
  last_id   INTEGER NOT NULL CHECK (last_id >= first_id),
  PRIMARY KEY (due_at, first_id)
) STRICT, WITHOUT ROWID;

INSERT INTO message_due (due_at, first_id, last_id)
SELECT due_at, MIN(id), MAX(id) FROM (
  SELECT id, due_at, ROW_NUMBER() OVER (ORDER BY id) - ROW_NUMBER() OVER (PARTITION BY due_at ORDER BY id) AS island
  FROM messages WHERE due_at IS NOT NULL
) GROUP BY due_at, island;

DROP INDEX IF EXISTS messages_due;
DROP INDEX IF EXISTS messages_created;
ALTER TABLE messages DROP COLUMN due_at;
`;
