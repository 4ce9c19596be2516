// 0013: what API version 1 (the previous provider's API) keeps beside the messages: the callers'
// own ids per message (`localid`), the account's v1 settings (account/config) and the templates of
// verify/lookup, managed in the app.
export default `
-- localid (sms/send, sms/sendarray): the same localid again returns the earlier message instead of
-- sending it twice; sms/statuslocalmessageid reads by it.
CREATE TABLE local_ids (
  account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  local_id    TEXT NOT NULL,
  message_id  INTEGER NOT NULL,
  PRIMARY KEY (account_id, local_id)
) STRICT, WITHOUT ROWID;

-- account/config: one row per account once it was set; absent means the defaults.
CREATE TABLE account_config (
  account_id      INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  apilogs         TEXT NOT NULL DEFAULT 'justfaults',
  dailyreport     TEXT NOT NULL DEFAULT 'disabled',
  debugmode       TEXT NOT NULL DEFAULT 'disabled',
  defaultsender   TEXT NOT NULL DEFAULT '',
  mincreditalarm  INTEGER NOT NULL DEFAULT 0,
  resendfailed    TEXT NOT NULL DEFAULT 'disabled'
) STRICT;

-- verify/lookup templates: a name, a text with %token (and %token2, %token3, %token10, %token20)
-- and the line they go out on (NULL: the account's first SMS line that may send by API).
CREATE TABLE verify_templates (
  id          INTEGER PRIMARY KEY,
  account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  body        TEXT NOT NULL,
  sender      TEXT,
  active      INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  UNIQUE (account_id, name)
) STRICT;
`;
