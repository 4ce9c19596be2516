// 0026: a send to many recipients is written a chunk at a time (the event loop runs between
// chunks), its request pending until the last chunk shows all its messages at once. Readers skip a
// pending request's messages; one a kill cut off is deleted at the next start (its messages go
// with it).
export default `
ALTER TABLE email_relay_requests ADD COLUMN pending INTEGER NOT NULL DEFAULT 0 CHECK (pending IN (0, 1));
CREATE INDEX email_relay_requests_pending ON email_relay_requests(id) WHERE pending = 1;
-- A request's messages, for deleting them with it.
CREATE INDEX email_relay_messages_request ON email_relay_messages(request_id);
`;
