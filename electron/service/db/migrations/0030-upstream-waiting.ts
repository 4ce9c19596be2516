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
export default `
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
