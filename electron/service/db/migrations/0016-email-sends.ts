// 0016: the app's email sends (email/client): one row per confirmed send of a segment, one row per
// recipient with a valid address. A send's progress (the next batch to hand over, the idempotency
// key's generation, the poll round) is written in the same transaction as the recipients' results
// it counts, so a crash resumes at the next batch and the provider replays the one in flight.
export default `
-- uuid names the send at the provider (Idempotency-Key chapar-<uuid>-<batch>, tag chapar-send-<uuid>);
-- request_id the user's confirmation (the same id again answers this send). The template and the
-- transport are kept as sent. job_id is the job in charge of the send now (the send, poll or a
-- continuation): another job of the send that wakes (a crash's leftover) does nothing.
-- not_before: a provider's Retry-After, honoured by the next attempt.
CREATE TABLE email_sends (
  id               INTEGER PRIMARY KEY,
  account_id       INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  segment_id       INTEGER NOT NULL,
  segment_name     TEXT NOT NULL,
  uuid             TEXT NOT NULL UNIQUE,
  request_id       TEXT NOT NULL,
  from_email       TEXT NOT NULL,
  from_name        TEXT NOT NULL DEFAULT '',
  reply_to_email   TEXT,
  reply_to_name    TEXT,
  subject          TEXT NOT NULL,
  text             TEXT,
  html             TEXT,
  transport        TEXT NOT NULL CHECK (transport IN ('sandbox', 'provider', 'smtp')),
  state            TEXT NOT NULL CHECK (state IN ('sending', 'done', 'failed', 'cancelled')),
  error            TEXT,
  total            INTEGER NOT NULL,
  next_batch       INTEGER NOT NULL DEFAULT 0,
  key_generation   INTEGER NOT NULL DEFAULT 0,
  not_before       INTEGER NOT NULL DEFAULT 0,
  poll_round       INTEGER NOT NULL DEFAULT 0,
  job_id           INTEGER,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  finished_at      INTEGER,
  UNIQUE (account_id, request_id)
) STRICT;
CREATE INDEX email_sends_account ON email_sends(account_id, id);

-- seq numbers the send's recipients from 0 in segment order (batch b is seq b*500 .. b*500+499);
-- row is the member's row in the segment (from 1), as the skipped rows report counts them.
-- substitutions: the recipient's values keyed by the template's variable names as written.
CREATE TABLE email_recipients (
  send_id        INTEGER NOT NULL REFERENCES email_sends(id) ON DELETE CASCADE,
  seq            INTEGER NOT NULL,
  row            INTEGER NOT NULL,
  phone          TEXT NOT NULL,
  email          TEXT NOT NULL,
  name           TEXT NOT NULL DEFAULT '',
  substitutions  TEXT NOT NULL DEFAULT '{}',
  status         TEXT NOT NULL DEFAULT 'pending',
  message_id     TEXT,
  error          TEXT,
  updated_at     INTEGER NOT NULL,
  PRIMARY KEY (send_id, seq)
) STRICT, WITHOUT ROWID;
-- The results page filtered by status and paged in order; counts by status; the poller's and the
-- cancel's non-final rows (the poller maps the provider's message ids to seq from these, and
-- writes by the primary key).
CREATE INDEX email_recipients_status ON email_recipients(send_id, status, seq);
`;
