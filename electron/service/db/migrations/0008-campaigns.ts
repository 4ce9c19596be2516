// 0008: campaigns (spec 4.3, PRODUCT.md "Campaign creation" / "Campaign execution report").
// - accounts.time_zone: quiet hours are read in the account's zone.
// - credit_reservations: credit held for a running campaign execution. The account's credit is
//   untouched (nothing is spent yet); what other sends may spend is credit minus what is held.
//   Each recorded batch is debited as usual and shrinks its reservation in the same transaction.
// - campaigns / campaign_links: what was asked, stored as given (template_body unchanged).
// - campaign_executions: one run of a campaign; its checkpoints (freeze cursor, recipients
//   recorded) are written in the same transaction as the work they count, so a crash resumes
//   exactly where the last commit stopped.
// - campaign_recipients: the audience frozen when the execution starts, numbered from 0 (seq);
//   fields are the member's values in the columns of its segment (segment_id); cost_rials the
//   price of their text, computed as they are frozen (what the reservation adds up).
// - campaign_batches: each recorded batch is one send; its messages have consecutive ids, the
//   recipient seq's message being first_message_id + (seq - first_seq).
// - campaign_clicks: one row per visit of a short link.
export default `
ALTER TABLE accounts ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'Asia/Tehran';

CREATE TABLE credit_reservations (
  id            INTEGER PRIMARY KEY,
  account_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  amount_rials  INTEGER NOT NULL CHECK (amount_rials >= 0),
  note          TEXT NOT NULL DEFAULT '',
  created_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX credit_reservations_account ON credit_reservations(account_id);

CREATE TABLE campaigns (
  id                  INTEGER PRIMARY KEY,
  account_id          INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name                TEXT NOT NULL,
  sender              TEXT NOT NULL,
  template_body       TEXT NOT NULL,
  inclusion_segments  TEXT NOT NULL DEFAULT '[]',
  exclusion_segments  TEXT NOT NULL DEFAULT '[]',
  utm_source          TEXT NOT NULL,
  utm_medium          TEXT NOT NULL,
  utm_campaign        TEXT NOT NULL,
  send_rate           INTEGER CHECK (send_rate IS NULL OR send_rate > 0),
  quiet_start         INTEGER CHECK (quiet_start IS NULL OR quiet_start BETWEEN 0 AND 1439),
  quiet_end           INTEGER CHECK (quiet_end IS NULL OR quiet_end BETWEEN 0 AND 1439),
  file_name           TEXT,
  file_path           TEXT,
  file_size           INTEGER,
  resent_from         INTEGER,
  created_at          INTEGER NOT NULL
) STRICT;
CREATE INDEX campaigns_account ON campaigns(account_id, id);

CREATE TABLE campaign_links (
  campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  idx          INTEGER NOT NULL,
  actual_url   TEXT NOT NULL,
  has_utm      INTEGER NOT NULL CHECK (has_utm IN (0, 1)),
  PRIMARY KEY (campaign_id, idx)
) STRICT, WITHOUT ROWID;

CREATE TABLE campaign_executions (
  id              INTEGER PRIMARY KEY,
  campaign_id     INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  account_id      INTEGER NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('SCHEDULED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED')),
  paused          INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
  paused_at       INTEGER,
  send_datetime   TEXT NOT NULL,
  send_at         INTEGER NOT NULL,
  job_id          INTEGER,
  link_base       TEXT,
  segment_columns TEXT,
  freeze_after    TEXT,
  frozen          INTEGER NOT NULL DEFAULT 0,
  audience        INTEGER,
  priced_rials    INTEGER NOT NULL DEFAULT 0,
  recorded        INTEGER NOT NULL DEFAULT 0,
  reservation_id  INTEGER,
  reserved_rials  INTEGER NOT NULL DEFAULT 0,
  last_due_at     INTEGER,
  error           TEXT,
  created_at      INTEGER NOT NULL,
  started_at      INTEGER,
  finished_at     INTEGER
) STRICT;
CREATE INDEX campaign_executions_campaign ON campaign_executions(campaign_id, id);
CREATE INDEX campaign_executions_account ON campaign_executions(account_id, id);

CREATE TABLE campaign_recipients (
  execution_id  INTEGER NOT NULL,
  seq           INTEGER NOT NULL,
  phone         TEXT NOT NULL,
  segment_id    INTEGER NOT NULL,
  fields        TEXT NOT NULL,
  cost_rials    INTEGER NOT NULL,
  PRIMARY KEY (execution_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE campaign_batches (
  execution_id      INTEGER NOT NULL,
  first_seq         INTEGER NOT NULL,
  count             INTEGER NOT NULL,
  send_id           INTEGER NOT NULL,
  first_message_id  INTEGER NOT NULL,
  due_at            INTEGER NOT NULL,
  PRIMARY KEY (execution_id, first_seq)
) STRICT, WITHOUT ROWID;
CREATE INDEX campaign_batches_send ON campaign_batches(send_id);

CREATE TABLE campaign_clicks (
  id            INTEGER PRIMARY KEY,
  execution_id  INTEGER NOT NULL,
  message_id    INTEGER NOT NULL,
  link_idx      INTEGER NOT NULL,
  clicked_at    INTEGER NOT NULL,
  user_agent    TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX campaign_clicks_message ON campaign_clicks(message_id);
CREATE INDEX campaign_clicks_execution ON campaign_clicks(execution_id, link_idx);
`;
