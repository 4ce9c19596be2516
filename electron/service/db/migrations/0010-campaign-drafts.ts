// 0010: the app's campaign editor saves what is typed as a draft (fields as JSON, checked by
// shared/campaigns.ts's CampaignDraftFieldsSchema when read), deleted when the campaign is created.
export default `
CREATE TABLE campaign_drafts (
  id          INTEGER PRIMARY KEY,
  account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  fields      TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX campaign_drafts_account ON campaign_drafts(account_id, updated_at);
`;
