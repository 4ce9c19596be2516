// 0003: indexes for the app's message views (list, filters, counts, dashboard), so they stay fast
// at a million messages. Each serves a query of electron/service/app/: paging one account newest
// first, one account filtered by status, a receiver's history, the dashboard's time buckets
// (covering: status and cost read from the index alone), and the sender filter on sends.
export default `
CREATE INDEX messages_account_id ON messages(account_id, id);
CREATE INDEX messages_account_status ON messages(account_id, status, id);
CREATE INDEX messages_receptor ON messages(receptor);
CREATE INDEX messages_account_created ON messages(account_id, created_at, status, cost_rials);
CREATE INDEX sends_sender ON sends(sender, id);
`;
