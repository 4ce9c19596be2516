// 0030: a provider line's hand-over writes a row per message once, with the provider's answer,
// rather than three times (waiting, handing over, answered): at 100,000 messages those writes were
// a quarter of the app's work (bench handover100k).
// - upstream_waiting: messages handed to a provider line and not yet in a call, as runs of
//   consecutive message ids (a send's messages have consecutive ids), in the order they came. A
//   message sent again later (a retry, a resend the user asked for) waits as its row in
//   upstream_handovers instead, with its local id and due time.
// - upstream_calls: a call in flight, recorded (committed) before it starts with each message's
//   [message id, local id, account id, handed at]. Its answer writes the messages' rows and removes
//   it; one left behind by a crash or a kill turns into unknown rows at the next start.
// - upstream_handovers, rebuilt as it was but for its state's CHECK: written as `state IN (...)` it
//   built a temporary table of the eight names for every row written one statement at a time,
//   which took 40% of an insert (the answer's rows are written so); the same names, OR-ed, do not.
export default `
CREATE TABLE upstream_handovers_0030 (
  message_id   INTEGER PRIMARY KEY,
  -- Our id of it at the provider (Kavenegar's localid): unique for good, even across a restore
  -- that brings message ids back (upstream-carrier.ts nextLocalId).
  local_id     INTEGER NOT NULL,
  line_id      INTEGER NOT NULL,
  account_id   INTEGER NOT NULL,
  state        TEXT NOT NULL CHECK (state = 'waiting' OR state = 'handing_over' OR state = 'accepted'
                 OR state = 'rejected' OR state = 'unknown' OR state = 'review' OR state = 'final'
                 OR state = 'expired'),
  -- When the carrier next works on it (send, reconcile, poll); NULL when nothing is left to do.
  due_at       INTEGER,
  attempts     INTEGER NOT NULL DEFAULT 0,
  upstream_id  TEXT,
  cost_rials   INTEGER,
  -- Reads of the provider's cost still to try (a message found again by its local id: that lookup
  -- does not say what it cost); its final status waits for them.
  cost_reads_left INTEGER NOT NULL DEFAULT 0,
  code         INTEGER,
  detail       TEXT,
  handed_at    INTEGER NOT NULL,
  accepted_at  INTEGER,
  poll_ms      INTEGER,
  updated_at   INTEGER NOT NULL
) STRICT;
INSERT INTO upstream_handovers_0030 SELECT * FROM upstream_handovers;
DROP TABLE upstream_handovers;
ALTER TABLE upstream_handovers_0030 RENAME TO upstream_handovers;
CREATE INDEX upstream_handovers_due ON upstream_handovers(line_id, state, due_at);
CREATE UNIQUE INDEX upstream_handovers_local ON upstream_handovers(local_id);

CREATE TABLE upstream_waiting (
  line_id     INTEGER NOT NULL,
  first_id    INTEGER NOT NULL,
  last_id     INTEGER NOT NULL,
  account_id  INTEGER NOT NULL,
  handed_at   INTEGER NOT NULL,
  PRIMARY KEY (line_id, first_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE upstream_calls (
  call_id     INTEGER PRIMARY KEY,
  line_id     INTEGER NOT NULL,
  started_at  INTEGER NOT NULL,
  messages    TEXT NOT NULL
) STRICT;
`;
