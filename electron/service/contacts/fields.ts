// How a segment member's column values are stored: segments.columns gives the names, and
// segment_members.fields the values in that order joined with U+001F (a character no spreadsheet
// cell carries; the importer replaces it if one does). One string per member writes fastest.
export const FIELD_SEPARATOR = '\u001f';

export function encodeFields(values: readonly string[]): string {
  return values.map((value) => value.replaceAll(FIELD_SEPARATOR, ' ')).join(FIELD_SEPARATOR);
}

/** The member's values by column name; missing values are ''. */
export function decodeFields(fields: string, columns: readonly string[]): Record<string, string> {
  const values = columns.length > 0 ? fields.split(FIELD_SEPARATOR) : [];
  const record: Record<string, string> = {};
  columns.forEach((name, i) => (record[name] = values[i] ?? ''));
  return record;
}

/** Re-encodes values stored under `from` columns for a segment with `to` columns (by name). */
export function remapFields(fields: string, from: readonly string[], to: readonly string[]): string {
  if (from.length === to.length && from.every((name, i) => name === to[i])) return fields;
  const values = from.length > 0 ? fields.split(FIELD_SEPARATOR) : [];
  return to
    .map((name) => {
      const i = from.indexOf(name);
      return i < 0 ? '' : (values[i] ?? '');
    })
    .join(FIELD_SEPARATOR);
}
