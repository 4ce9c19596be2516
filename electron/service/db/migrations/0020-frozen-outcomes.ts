// 0020: a finished campaign execution's outcomes, kept once every one of its messages is final.
// They can no longer change, so its report reads them instead of counting a million messages again
// (and keeps them after retention archives those messages).
export default `
ALTER TABLE campaign_executions ADD COLUMN outcomes TEXT;
`;
