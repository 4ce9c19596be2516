// 0001: accounts, keys, lines, credit, pricing/settings, files, sends and their messages.
export default `
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE accounts (
  id            INTEGER PRIMARY KEY,
  name          TEXT NOT NULL UNIQUE,
  active        INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  credit_rials  INTEGER NOT NULL DEFAULT 0 CHECK (credit_rials >= 0),
  ip_allowlist  TEXT NOT NULL DEFAULT '[]',
  created_at    INTEGER NOT NULL
) STRICT;

-- Keys are stored as SHA-256 digests; the key itself is shown once, at creation.
CREATE TABLE api_keys (
  id          INTEGER PRIMARY KEY,
  account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key_hash    TEXT NOT NULL UNIQUE,
  hint        TEXT NOT NULL,
  label       TEXT NOT NULL DEFAULT '',
  created_at  INTEGER NOT NULL,
  revoked_at  INTEGER
) STRICT;
CREATE INDEX api_keys_account ON api_keys(account_id);

CREATE TABLE lines (
  id                       INTEGER PRIMARY KEY,
  account_id               INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  number                   TEXT NOT NULL UNIQUE,
  provider                 TEXT NOT NULL CHECK (provider IN ('sms', 'bale', 'rubika')),
  can_send_api_campaign    INTEGER NOT NULL DEFAULT 0 CHECK (can_send_api_campaign IN (0, 1)),
  can_send_panel_campaign  INTEGER NOT NULL DEFAULT 0 CHECK (can_send_panel_campaign IN (0, 1)),
  active                   INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  created_at               INTEGER NOT NULL
) STRICT;
CREATE INDEX lines_account ON lines(account_id);

-- Every change of credit is a row here; the sum per account equals accounts.credit_rials.
CREATE TABLE credit_ledger (
  id            INTEGER PRIMARY KEY,
  account_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  amount_rials  INTEGER NOT NULL,
  kind          TEXT NOT NULL CHECK (kind IN ('topup', 'send', 'refund', 'adjust')),
  send_id       INTEGER,
  message_id    INTEGER,
  note          TEXT NOT NULL DEFAULT '',
  created_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX credit_ledger_account ON credit_ledger(account_id, id);
-- A message is refunded at most once, whatever path asks for it.
CREATE UNIQUE INDEX credit_ledger_refund_once ON credit_ledger(message_id) WHERE kind = 'refund';

-- Files uploaded for messenger sends (POST /upload-file/{provider}); file_id is a UUID.
CREATE TABLE files (
  id          TEXT PRIMARY KEY,
  account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  provider    TEXT NOT NULL CHECK (provider IN ('bale', 'rubika')),
  name        TEXT NOT NULL,
  mime        TEXT NOT NULL,
  size        INTEGER NOT NULL,
  created_at  INTEGER NOT NULL
) STRICT;

-- One row per accepted send request: what its messages share.
CREATE TABLE sends (
  id             INTEGER PRIMARY KEY,
  account_id     INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  line_id        INTEGER NOT NULL REFERENCES lines(id),
  sender         TEXT NOT NULL,
  provider       TEXT NOT NULL,
  text           TEXT NOT NULL,
  pages          INTEGER NOT NULL,
  origin         TEXT NOT NULL CHECK (origin IN ('api', 'panel', 'campaign')),
  file_id        TEXT,
  message_count  INTEGER NOT NULL,
  total_rials    INTEGER NOT NULL,
  created_at     INTEGER NOT NULL
) STRICT;
CREATE INDEX sends_account ON sends(account_id, id);

-- One row per accepted receiver. due_at (ms) is when the gateway next moves it; NULL once final.
-- text is NULL when the message carries its send's text (personalized campaigns fill it).
CREATE TABLE messages (
  id          INTEGER PRIMARY KEY,
  send_id     INTEGER NOT NULL REFERENCES sends(id) ON DELETE CASCADE,
  account_id  INTEGER NOT NULL,
  receptor    TEXT NOT NULL,
  status      INTEGER NOT NULL,
  cost_rials  INTEGER NOT NULL,
  created_at  INTEGER NOT NULL,
  due_at      INTEGER,
  handed_at   INTEGER,
  final_at    INTEGER,
  text        TEXT
) STRICT;
CREATE INDEX messages_due ON messages(due_at) WHERE due_at IS NOT NULL;
CREATE INDEX messages_send ON messages(send_id);

-- Opt-outs: a blocklist per account (PRODUCT.md).
CREATE TABLE optouts (
  account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  phone       TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (account_id, phone)
) STRICT, WITHOUT ROWID;
`;
