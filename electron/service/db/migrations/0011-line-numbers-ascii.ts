// 0011: line numbers are stored with ASCII digits (shared/lines.ts normalizeLineNumber), so the
// API's `sender` must equal them exactly (spec 4.1: "must equal the number of one of the account's
// lines"). Lines added before, as typed in Persian or Arabic digits, are rewritten, unless the
// account already has the same number in ASCII (then the old one stays as it was, still usable
// from the panel by its own spelling). Sends keep the sender they were recorded with.
export default `
UPDATE lines SET number = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(number, '۰', '0'), '٠', '0'), '۱', '1'), '١', '1'), '۲', '2'), '٢', '2'), '۳', '3'), '٣', '3'), '۴', '4'), '٤', '4'), '۵', '5'), '٥', '5'), '۶', '6'), '٦', '6'), '۷', '7'), '٧', '7'), '۸', '8'), '٨', '8'), '۹', '9'), '٩', '9')
WHERE number GLOB '*[۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩]*'
  AND NOT EXISTS (
    SELECT 1 FROM lines AS other
    WHERE other.account_id = lines.account_id AND other.number = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lines.number, '۰', '0'), '٠', '0'), '۱', '1'), '١', '1'), '۲', '2'), '٢', '2'), '۳', '3'), '٣', '3'), '۴', '4'), '٤', '4'), '۵', '5'), '٥', '5'), '۶', '6'), '٦', '6'), '۷', '7'), '٧', '7'), '۸', '8'), '٨', '8'), '۹', '9'), '٩', '9')
  );
`;
