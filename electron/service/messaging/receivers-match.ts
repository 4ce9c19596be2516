// How the receiver index (receivers.ts) names numbers in its two FTS5 tables, and the MATCH
// expressions that look them up. Pure functions: no database here.
//
// - A stored receptor in the canonical form (0 and ten digits, shared/phone.ts) is one token of
//   `receiver_messages` (unicode61 keeps a run of digits whole), and one row of `receiver_digits`
//   whose rowid is its number: the number gives the receptor back, so a part's candidates are
//   checked in JavaScript without reading anything else.
// - Anything else (a receptor written by hand into an old workspace) is listed by message id in
//   `receiver_odd` and always checked against the message itself.

/** The canonical receptor, as SQLite's GLOB sees it. */
export const CANONICAL_GLOB = '0[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]';
const CANONICAL = /^0[0-9]{10}$/;

/** The number a canonical receptor is kept under (its digits as an integer), or null for any other text. */
export function receiverKey(receptor: string): number | null {
  return CANONICAL.test(receptor) ? Number(receptor) : null;
}

/** The canonical receptor a key stands for. */
export function keyReceptor(key: number): string {
  return '0' + String(key).padStart(10, '0');
}

/** Whether `digits` is one canonical receptor (searched for as a whole). */
export function isCanonical(digits: string): boolean {
  return CANONICAL.test(digits);
}

/**
 * The trigram query for numbers that contain `part` (3 digits or more): every trigram of it, each a
 * phrase of one token. `receiver_digits` keeps no positions (detail=none: half the size), so this
 * finds numbers holding all the trigrams anywhere, a few more than those holding the part itself;
 * the caller keeps the ones that do.
 */
export function partQuery(part: string): string {
  if (!/^[0-9]{3,}$/.test(part)) throw new Error('a part of a number is three digits or more');
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= part.length; i++) trigrams.add(part.slice(i, i + 3));
  return [...trigrams].map((trigram) => `"${trigram}"`).join(' AND ');
}

/** The `receiver_messages` query for the messages of one canonical receptor. */
export function receptorToken(receptor: string): string {
  if (!CANONICAL.test(receptor)) throw new Error(`not canonical: ${receptor}`);
  return `"${receptor}"`;
}
