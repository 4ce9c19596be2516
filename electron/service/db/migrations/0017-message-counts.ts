// 0017: messages counted as they are written, so counts and dashboards never scan the messages.
// - message_counts: per account, 15-minute slot of creation (created_at / 900,000; every time zone's
//   midnight and hour fall on a slot boundary), status, sender (the line) and origin: how many
//   messages, what they cost and what of that was refunded. Written in the same transaction as the
//   sends that add messages and the lifecycle moves that change their status (messaging/counts.ts).
// - message_totals: the same without the slot (whole-history counts read a handful of rows).
// - sends.own_texts: how many of a send's messages carry their own text (a personalized campaign's),
//   so a text search counts the others from their send alone (messages/queries.ts); the few sends
//   that have some are found on their own index.
// - messages_account_status keeps only the messages not delivered: lists of the other statuses
//   (in flight, failed, refunded: the few a person looks for) walk it newest first, counts come from
//   the aggregates, and delivered messages (most of them) are listed walking the table newest first,
//   where they are dense. Every delivery deletes an index entry instead of writing one, and the
//   workspace is about 13 bytes per message smaller.
// Existing messages are counted once here; the same statements rebuild the tables (tests, the
// scale benchmark's workspace).
export const REBUILD_MESSAGE_COUNTS = `
DELETE FROM message_counts;
DELETE FROM message_totals;
INSERT INTO message_counts (account_id, slot, status, sender, origin, n, cost_rials, refunded_rials)
SELECT m.account_id, m.created_at / 900000, m.status, s.sender, s.origin, COUNT(*), SUM(m.cost_rials),
  SUM(COALESCE((SELECT l.amount_rials FROM credit_ledger l WHERE l.kind = 'refund' AND l.message_id = m.id), 0))
FROM messages m JOIN sends s ON s.id = m.send_id
GROUP BY m.account_id, m.created_at / 900000, m.status, s.sender, s.origin;
INSERT INTO message_totals (account_id, status, sender, origin, n, cost_rials, refunded_rials)
SELECT account_id, status, sender, origin, SUM(n), SUM(cost_rials), SUM(refunded_rials)
FROM message_counts GROUP BY account_id, status, sender, origin;
`;

export default `
CREATE TABLE message_counts (
  account_id      INTEGER NOT NULL,
  slot            INTEGER NOT NULL,
  status          INTEGER NOT NULL,
  sender          TEXT NOT NULL,
  origin          TEXT NOT NULL,
  n               INTEGER NOT NULL,
  cost_rials      INTEGER NOT NULL,
  refunded_rials  INTEGER NOT NULL,
  PRIMARY KEY (account_id, slot, status, sender, origin)
) STRICT, WITHOUT ROWID;

CREATE TABLE message_totals (
  account_id      INTEGER NOT NULL,
  status          INTEGER NOT NULL,
  sender          TEXT NOT NULL,
  origin          TEXT NOT NULL,
  n               INTEGER NOT NULL,
  cost_rials      INTEGER NOT NULL,
  refunded_rials  INTEGER NOT NULL,
  PRIMARY KEY (account_id, status, sender, origin)
) STRICT, WITHOUT ROWID;
${REBUILD_MESSAGE_COUNTS}
DROP INDEX messages_account_status;
CREATE INDEX messages_account_status ON messages(account_id, status, id) WHERE status <> 10;
ALTER TABLE sends ADD COLUMN own_texts INTEGER NOT NULL DEFAULT 0;
UPDATE sends SET own_texts = (SELECT COUNT(*) FROM messages m WHERE m.send_id = sends.id AND m.text IS NOT NULL)
WHERE id IN (SELECT DISTINCT send_id FROM messages WHERE text IS NOT NULL);
CREATE INDEX sends_own_texts ON sends(id) WHERE own_texts > 0;`;
