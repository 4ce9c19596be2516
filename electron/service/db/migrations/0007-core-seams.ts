// 0007: the core's seams.
// - messages.created_at in milliseconds, like every other stored time (it held Unix seconds, the
//   API's `date`, which is now derived from it).
// - sends.api_version: the API generation (1, 2, 3) of an 'api' send; sends.idempotency_key: the
//   same key from the same account returns the earlier send (v1's localid, email Idempotency-Key).
// - simulator_due: what the simulator carrier still has to report, as ranges of ids (the same shape
//   as the lifecycle's message_due). Messages already handed over keep their pending report: every
//   existing due range is copied, and each side passes over the messages that are not its own.
export default `
UPDATE messages SET created_at = created_at * 1000;

ALTER TABLE sends ADD COLUMN api_version INTEGER CHECK (api_version IN (1, 2, 3));
ALTER TABLE sends ADD COLUMN idempotency_key TEXT;
CREATE UNIQUE INDEX sends_idempotency ON sends(account_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
UPDATE sends SET api_version = 2 WHERE origin = 'api';

CREATE TABLE simulator_due (
  due_at    INTEGER NOT NULL,
  first_id  INTEGER NOT NULL,
  last_id   INTEGER NOT NULL CHECK (last_id >= first_id),
  PRIMARY KEY (due_at, first_id)
) STRICT, WITHOUT ROWID;
INSERT INTO simulator_due (due_at, first_id, last_id) SELECT due_at, first_id, last_id FROM message_due;
`;
