// 0036: conversations in the Inbox. A conversation is one customer's number on one of our lines
// (account, line_number, sender); it needs no row of its own while it is open.
// - inbound_done: the conversations marked done. A row means done; undo deletes it, and so does
//   the transaction recording a new reply in that conversation (it re-opens), so "done" never
//   hides a reply that came after it was marked.
// - inbound_sender: a number's replies newest first (its thread, the replies of a conversation),
//   without walking the account's whole inbox.
export default `
CREATE TABLE inbound_done (
  account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  line_number  TEXT NOT NULL,
  sender       TEXT NOT NULL,
  done_at      INTEGER NOT NULL,
  PRIMARY KEY (account_id, line_number, sender)
) STRICT, WITHOUT ROWID;

CREATE INDEX inbound_sender ON inbound_messages(account_id, sender, id);
`;
