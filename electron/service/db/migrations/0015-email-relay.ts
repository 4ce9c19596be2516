// 0015: the embedded email provider (spec 4.6, reference/email-relay-provider.md): its accounts and
// their keys, the requests it accepted, one message per recipient with what that recipient got,
// the moves of each message, tags for the list's filter, and the Idempotency-Key answers.
export default `
-- The provider's accounts. id is the path's account id as written (the seed's numbers as text;
-- 'local' is the app's own). sandbox is kept as given: the embedded provider never really sends.
CREATE TABLE email_relay_accounts (
  id          TEXT PRIMARY KEY,
  sandbox     INTEGER NOT NULL DEFAULT 1 CHECK (sandbox IN (0, 1)),
  created_at  INTEGER NOT NULL
) STRICT;

-- Keys in their stored form only (the keyed hash of accounts/keys.ts). operations: a
-- comma-separated subset of send,read,cancel.
CREATE TABLE email_relay_keys (
  key_hash    TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL REFERENCES email_relay_accounts(id) ON DELETE CASCADE,
  operations  TEXT NOT NULL
) STRICT;
CREATE INDEX email_relay_keys_account ON email_relay_keys(account_id);

-- One row per accepted POST: what every message of it shares (the raw content is built from it).
CREATE TABLE email_relay_requests (
  id              INTEGER PRIMARY KEY,
  account_id      TEXT NOT NULL REFERENCES email_relay_accounts(id) ON DELETE CASCADE,
  from_email      TEXT NOT NULL,
  from_name       TEXT,
  reply_to_email  TEXT,
  reply_to_name   TEXT,
  headers         TEXT NOT NULL DEFAULT '{}',
  attachments     TEXT NOT NULL DEFAULT '[]',
  tags            TEXT NOT NULL DEFAULT '[]',
  sandbox_result  TEXT NOT NULL,
  created_at      INTEGER NOT NULL
) STRICT;

-- One message per recipient, newest = highest seq. id is the UUID the API shows. subject and the
-- bodies are rendered for this recipient. due_at is when the sandbox moves it next (NULL: final).
CREATE TABLE email_relay_messages (
  seq             INTEGER PRIMARY KEY,
  id              TEXT NOT NULL UNIQUE,
  account_id      TEXT NOT NULL REFERENCES email_relay_accounts(id) ON DELETE CASCADE,
  request_id      INTEGER NOT NULL REFERENCES email_relay_requests(id) ON DELETE CASCADE,
  sender          TEXT NOT NULL COLLATE NOCASE,
  recipient       TEXT NOT NULL COLLATE NOCASE,
  recipient_name  TEXT,
  substitutions   TEXT,
  subject         TEXT NOT NULL,
  text_content    TEXT,
  html_content    TEXT,
  amp_content     TEXT,
  status          TEXT NOT NULL,
  num_attempts    INTEGER NOT NULL DEFAULT 0,
  first_attempt   INTEGER NOT NULL,
  expires         INTEGER NOT NULL,
  due_at          INTEGER,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  sent_at         INTEGER,
  delivered_at    INTEGER
) STRICT;
-- The list, newest first, and its filters that an index can serve.
CREATE INDEX email_relay_messages_account ON email_relay_messages(account_id, seq);
CREATE INDEX email_relay_messages_status ON email_relay_messages(account_id, status, seq);
CREATE INDEX email_relay_messages_recipient ON email_relay_messages(account_id, recipient, seq);
CREATE INDEX email_relay_messages_sender ON email_relay_messages(account_id, sender, seq);
CREATE INDEX email_relay_messages_created ON email_relay_messages(account_id, created_at);
-- The sandbox's due scan; final messages leave the index.
CREATE INDEX email_relay_messages_due ON email_relay_messages(due_at) WHERE due_at IS NOT NULL;

-- Tags per message, so a tag filter (the relay client's poll of one send) walks an index in the
-- list's order instead of scanning the account's messages.
CREATE TABLE email_relay_message_tags (
  account_id  TEXT NOT NULL,
  tag         TEXT NOT NULL,
  message_seq INTEGER NOT NULL REFERENCES email_relay_messages(seq) ON DELETE CASCADE,
  PRIMARY KEY (account_id, tag, message_seq)
) STRICT, WITHOUT ROWID;
CREATE INDEX email_relay_message_tags_message ON email_relay_message_tags(message_seq);

-- Every move of a message (delivery_attempts of the API).
CREATE TABLE email_relay_attempts (
  id           INTEGER PRIMARY KEY,
  message_seq  INTEGER NOT NULL REFERENCES email_relay_messages(seq) ON DELETE CASCADE,
  time         INTEGER NOT NULL,
  status       TEXT NOT NULL,
  log          TEXT NOT NULL
) STRICT;
CREATE INDEX email_relay_attempts_message ON email_relay_attempts(message_seq, id);

-- Idempotency-Key outcomes, scoped to account, method and path; kept 24 hours. outcome 'answered'
-- keeps the answer to replay (status and JSON body) and the body's hash; 'failed' makes later uses 412.
CREATE TABLE email_relay_idempotency (
  account_id   TEXT NOT NULL,
  scope        TEXT NOT NULL,
  key          TEXT NOT NULL,
  body_hash    TEXT,
  outcome      TEXT NOT NULL CHECK (outcome IN ('answered', 'failed')),
  status       INTEGER NOT NULL,
  answer       TEXT,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (account_id, scope, key)
) STRICT;
CREATE INDEX email_relay_idempotency_created ON email_relay_idempotency(created_at);

-- Seeds applied before this migration kept the email accounts in the settings, keys already in
-- their stored form: they move here, with every operation, and the setting goes.
INSERT OR IGNORE INTO email_relay_accounts (id, sandbox, created_at)
  SELECT CAST(json_extract(a.value, '$.account_id') AS TEXT),
         CASE WHEN json_extract(a.value, '$.sandbox') = 0 THEN 0 ELSE 1 END,
         CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM settings s, json_each(s.value) a
  WHERE s.key = 'email_accounts' AND json_valid(s.value) AND json_type(s.value) = 'array';
INSERT OR IGNORE INTO email_relay_keys (key_hash, account_id, operations)
  SELECT k.value, CAST(json_extract(a.value, '$.account_id') AS TEXT), 'send,read,cancel'
  FROM settings s, json_each(s.value) a, json_each(a.value, '$.api_keys') k
  WHERE s.key = 'email_accounts' AND json_valid(s.value) AND json_type(s.value) = 'array' AND k.type = 'text';
DELETE FROM settings WHERE key = 'email_accounts';
`;
