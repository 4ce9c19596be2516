// 0003: indexes for the app's message views, so lists, filters and counts stay fast at a million
// messages. Few and narrow on purpose: every index is written by each of a send's 10,000 inserts,
// and the status one by each gateway move too (measured: the wider set doubled a send's time).
// - (account_id, status, id): one account's messages of some statuses, newest first, and their counts;
// - (receptor): one receiver's history;
// - (created_at): date ranges (created_at never changes, so the gateway never touches it);
// - sends (sender, id): the sender filter, through the send ids of that line.
export default `
CREATE INDEX messages_account_status ON messages(account_id, status, id);
CREATE INDEX messages_receptor ON messages(receptor);
CREATE INDEX messages_created ON messages(created_at);
CREATE INDEX sends_sender ON sends(sender, id);
`;
