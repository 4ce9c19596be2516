// 0034: a campaign's column filter (targeting by column, shared/audience-filter.ts) as JSON, NULL
// for none (every campaign made before). Drafts keep theirs in their fields' JSON already.
export default `
ALTER TABLE campaigns ADD COLUMN filter TEXT;
`;
