// 0014: inbound messages (replies customers send to the account's lines) and the simulator's
// pending replies.
export default `
-- One row per message received. line_number is our line that received it, sender the customer's
-- number (09xxxxxxxxx), reply_to the message it answers when known; read_at is NULL until read
-- (in the app, or fetched by the API as unread); opt_out is 1 when the reply asked to leave the
-- list (shared/optout.ts isOptOutReply) and the number was put on the account's opt-out list.
CREATE TABLE inbound_messages (
  id           INTEGER PRIMARY KEY,
  account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  line_number  TEXT NOT NULL,
  sender       TEXT NOT NULL,
  text         TEXT NOT NULL,
  received_at  INTEGER NOT NULL,
  read_at      INTEGER,
  reply_to     INTEGER,
  opt_out      INTEGER NOT NULL DEFAULT 0 CHECK (opt_out IN (0, 1))
) STRICT;
-- The Inbox page, newest first; counts by time range walk it from received_at.
CREATE INDEX inbound_account ON inbound_messages(account_id, id);
CREATE INDEX inbound_account_received ON inbound_messages(account_id, received_at);
-- The unread ones (the nav badge, the API's unread fetch per line); read rows leave the index.
CREATE INDEX inbound_unread ON inbound_messages(account_id, line_number, id) WHERE read_at IS NULL;

-- The simulator's replies still to come, written in the transaction that reported the delivery,
-- and deleted in the one that records the reply: a crash neither loses nor repeats one.
CREATE TABLE simulator_replies (
  message_id  INTEGER PRIMARY KEY,
  due_at      INTEGER NOT NULL
) STRICT;
CREATE INDEX simulator_replies_due ON simulator_replies(due_at);
`;
