// 0025: each message's source beside its state (messaging/message-states.ts): the account, sender
// line and origin it was sent with (what the aggregates of 0017 are kept by, but the slot and the
// status), so the messages of any id range are counted by those and their status from two rows per
// 2,000 ids, without reading the messages: a date range's partial 15-minute slots at its ends
// (messaging/queries.ts) were counted scanning up to a slot of messages (480 ms at 3 million
// messages in an hour).
// - send_sources: a code per account, sender and origin sends have used, 1-65534 (a source past
//   those is written 65535: its messages are read).
// - message_sources: chunk = id / 2000, as message_states; `sources` holds two bytes per message
//   from the chunk's first id: its source's code, big-endian (0: no such message). It ends at the
//   chunk's last message; a chunk without messages has no row.
// The messages already written get theirs from the message states' background fill, armed here
// again over all of them (their states are written again with them): until it gets there, counts
// read those messages' rows, as lookups do.
import { STATES_TO_FILL } from './0023-message-states';

export default `
CREATE TABLE send_sources (
  id          INTEGER PRIMARY KEY,
  account_id  INTEGER NOT NULL,
  sender      TEXT NOT NULL,
  origin      TEXT NOT NULL,
  UNIQUE (account_id, sender, origin)
) STRICT;

CREATE TABLE message_sources (
  chunk    INTEGER PRIMARY KEY,
  sources  BLOB NOT NULL
) STRICT;

DELETE FROM message_states_fill;
${STATES_TO_FILL}
`;
