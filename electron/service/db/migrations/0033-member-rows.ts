// 0033: a segment member remembers the row of the file it was imported from (as the import reports
// rows: a spreadsheet's own row number, header = 1; an upload's contact from 1), so what is said
// about a member later (an email's skipped rows) names the row the person sees in their file.
// NULL for members made before, and for those of a combine (no one file).
export default `
ALTER TABLE segment_members ADD COLUMN source_row INTEGER;
`;
