// 0023: the message states (messaging/message-states.ts): each message's status and account, two
// bytes in a row per 2,000 consecutive ids, so a status lookup of ids spread over ten million
// messages reads a few thousand small rows instead of a wide row on a page of its own per id.
// - message_states: chunk = id / 2000; `states` holds two bytes per message from the chunk's first
//   id: status + 1 (0: no such message) and the account (its id when 1-254, else 255: read the
//   message). It ends at the chunk's last message; a chunk without messages has no row.
// - message_states_fill: the chunks next_chunk..end_chunk - 1 hold messages written before this
//   migration and are not filled yet. Filling them here took 17 s at ten million messages, at the
//   first start after the upgrade; a background worker fills them instead, a few chunks per
//   transaction, and a lookup reads their messages' own rows until then. No row: all filled.
/** The chunks of the messages already written, to fill (the tests make an upgraded workspace with it). */
export const STATES_TO_FILL = `
INSERT INTO message_states_fill (id, next_chunk, end_chunk)
SELECT 1, lo / 2000, hi / 2000 + 1 FROM (SELECT min(id) AS lo, max(id) AS hi FROM messages) WHERE hi IS NOT NULL;
`;

export default `
CREATE TABLE message_states (
  chunk   INTEGER PRIMARY KEY,
  states  BLOB NOT NULL
) STRICT;

CREATE TABLE message_states_fill (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  next_chunk  INTEGER NOT NULL,
  end_chunk   INTEGER NOT NULL
) STRICT;
${STATES_TO_FILL}
`;
