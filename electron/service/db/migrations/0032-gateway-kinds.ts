// 0032: a line's gateway kind is no longer listed in the table, a line keeps its gateway's own
// options (an HTTP gateway's request), and reports a gateway pushes early are kept (below). 0027 wrote the kinds of its day into
// a CHECK, and SQLite cannot change a CHECK in place: every new provider would cost a rebuild of
// `lines`. The kinds are shared/gateways.ts's list, checked where a line is written (the seed
// file, Settings → Lines, both through GATEWAY_KINDS). The table is rebuilt once, by SQLite's own
// procedure for changes ALTER TABLE cannot make: a new table, the rows copied, the old one dropped
// and the new one renamed, with foreign keys off for the step and checked before it commits
// (migrations with `foreignKeysOff`, database.ts migrate).
export default `
CREATE TABLE lines_new (
  id                       INTEGER PRIMARY KEY,
  account_id               INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  number                   TEXT NOT NULL UNIQUE,
  provider                 TEXT NOT NULL CHECK (provider IN ('sms', 'bale', 'rubika')),
  can_send_api_campaign    INTEGER NOT NULL DEFAULT 0 CHECK (can_send_api_campaign IN (0, 1)),
  can_send_panel_campaign  INTEGER NOT NULL DEFAULT 0 CHECK (can_send_panel_campaign IN (0, 1)),
  active                   INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  created_at               INTEGER NOT NULL,
  gateway                  TEXT NOT NULL DEFAULT 'simulator',
  gateway_base_url         TEXT,
  gateway_sender           TEXT,
  gateway_rate             REAL NOT NULL DEFAULT 5 CHECK (gateway_rate > 0),
  -- An HTTP gateway's method, body template and success pattern (JSON, HttpGatewayOptionsSchema);
  -- NULL for the other kinds. JSON so that a kind's own settings need no further rebuild.
  gateway_options          TEXT CHECK (gateway_options IS NULL OR json_valid(gateway_options))
) STRICT;
INSERT INTO lines_new (id, account_id, number, provider, can_send_api_campaign, can_send_panel_campaign, active,
                       created_at, gateway, gateway_base_url, gateway_sender, gateway_rate)
  SELECT id, account_id, number, provider, can_send_api_campaign, can_send_panel_campaign, active,
         created_at, gateway, gateway_base_url, gateway_sender, gateway_rate
  FROM lines;
DROP TABLE lines;
ALTER TABLE lines_new RENAME TO lines;
CREATE INDEX lines_account ON lines(account_id);

-- Reports a gateway pushed (an HTTP gateway's callback) before the answer of the call that carried
-- the message was applied: Kannel reports as soon as its SMSC takes a message, often while our call
-- of 50 is still running. Kept here and applied with that answer, never dropped.
CREATE TABLE upstream_early_reports (
  message_id  INTEGER PRIMARY KEY,
  line_id     INTEGER NOT NULL,
  local_id    INTEGER NOT NULL,
  -- Our final status, or NULL for a report of a message on its way.
  status      INTEGER,
  at          INTEGER NOT NULL
) STRICT;
`;
