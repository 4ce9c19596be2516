// 0004: drops the index on messages.receptor. Every send wrote its receivers into it at scattered
// places (numbers arrive in no order relative to those stored), so a 10,000-receiver send dirtied
// thousands of index pages, more as the table grew: measured, it was the largest single cost of
// a send. A search by receiver now reads the table (about a million rows per few hundred ms).
export default `
DROP INDEX IF EXISTS messages_receptor;
`;
