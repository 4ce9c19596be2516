// The campaigns domain (STYLE.md "campaigns/"): creation and its checks (form.ts, creation.ts), the
// execution job (execution.ts) with its send plan (plan.ts), texts (template.ts) and short links
// (links.ts, short-links.ts), its controls (control.ts) and the reports (reports.ts), behind the
// Campaigns façade (campaigns.ts).
export { Campaigns, type CampaignsDeps, type MessagesQuery, MAX_PAGE_SIZE } from './campaigns';
export { EXECUTE_JOB, RECORD_BATCH } from './execution';
