// 0023: the message states (messaging/message-states.ts): each message's status and account, two
// bytes in a row per 2,000 consecutive ids, so a status lookup of ids spread over ten million
// messages reads a few thousand small rows instead of a wide row on a page of its own per id.
// - message_states: chunk = id / 2000; `states` holds two bytes per message from the chunk's first
//   id: status + 1 (0: no such message) and the account (its id when 1-254, else 255: read the
//   message). It ends at the chunk's last message; a chunk without messages has no row.
// Filled here from the messages; STATES_FILL is also how the scale benchmark's workspace, made
// with SQL, gets its own.
export const STATES_FILL = `
INSERT INTO message_states (chunk, states)
SELECT chunk, unhex(group_concat(part, '' ORDER BY id)) FROM (
  SELECT id, id / 2000 AS chunk,
    -- The ids missing since the previous message of the chunk (or its start): two zero bytes each.
    substr(hex(zeroblob(4000)), 1, 4 * (id - coalesce(lag(id) OVER (PARTITION BY id / 2000 ORDER BY id), id / 2000 * 2000 - 1) - 1))
      || printf('%02X%02X', status + 1, CASE WHEN account_id BETWEEN 1 AND 254 THEN account_id ELSE 255 END) AS part
  FROM messages
) GROUP BY chunk;
`;

export default `
CREATE TABLE message_states (
  chunk   INTEGER PRIMARY KEY,
  states  BLOB NOT NULL
) STRICT;
${STATES_FILL}
`;
