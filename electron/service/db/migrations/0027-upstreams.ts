// 0027: real delivery. Each line names its gateway (shared/gateways.ts: the simulator, or the
// business's provider account) with the provider's address, the line's number there and the pace
// of calls; the provider's key lives in the secrets store, never here. The upstream carrier keeps,
// per message handed to a provider, where it stands there (a persisted state machine: recorded
// before each call, the provider's id and cost stored with its answer), per line why it is paused
// and how far its inbox was read, and the provider's ids of replies already recorded.
export default `
ALTER TABLE lines ADD COLUMN gateway TEXT NOT NULL DEFAULT 'simulator'
  CHECK (gateway IN ('simulator', 'kavenegar-v1', 'najva-v2'));
ALTER TABLE lines ADD COLUMN gateway_base_url TEXT;
ALTER TABLE lines ADD COLUMN gateway_sender TEXT;
ALTER TABLE lines ADD COLUMN gateway_rate REAL NOT NULL DEFAULT 5 CHECK (gateway_rate > 0);

CREATE TABLE upstream_handovers (
  message_id   INTEGER PRIMARY KEY,
  -- Our id of it at the provider (Kavenegar's localid): unique for good, even across a restore
  -- that brings message ids back (upstream-carrier.ts nextLocalId).
  local_id     INTEGER NOT NULL,
  line_id      INTEGER NOT NULL,
  account_id   INTEGER NOT NULL,
  state        TEXT NOT NULL CHECK (state IN
                 ('waiting', 'handing_over', 'accepted', 'rejected', 'unknown', 'review', 'final', 'expired')),
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
-- One index serves the due work of a state (due_at IS NOT NULL) and the counts and lists by state:
-- every move rewrites one entry, not two.
CREATE INDEX upstream_handovers_due ON upstream_handovers(line_id, state, due_at);
CREATE UNIQUE INDEX upstream_handovers_local ON upstream_handovers(local_id);

CREATE TABLE upstream_lines (
  line_id        INTEGER PRIMARY KEY,
  paused_code    INTEGER,
  paused_text    TEXT,
  paused_at      INTEGER,
  -- The inbox is read up to here (ms); a paged read goes on from it.
  inbox_read_to  INTEGER,
  inbox_due_at   INTEGER,
  -- Lowered when the provider answers 414 (our batch was too big).
  max_batch      INTEGER
) STRICT;

CREATE TABLE upstream_inbound (
  line_id      INTEGER NOT NULL,
  upstream_id  TEXT NOT NULL,
  PRIMARY KEY (line_id, upstream_id)
) STRICT, WITHOUT ROWID;
`;
