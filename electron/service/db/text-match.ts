// Text search in SQL over people's texts (messages, segment names, members' columns): the one way
// the core compares a stored text with a typed term, in the form shared/search.ts defines.
import { storedFoldsFor } from '../../../shared/search';

/**
 * A stored text (column) holds a search key: the text with storedFoldsFor(key) replaced, then LIKE,
 * which ignores the case of Latin letters as searchKey does. Replacements run in SQL because a
 * function called per row costs several times the scan (each text crossing into JavaScript):
 * measured over 100,000 long texts, about 2.5 times a bare LIKE for a word, against 8 times.
 */
export function textMatch(column: string, key: string): { sql: string; params: string[] } {
  const folds = storedFoldsFor(key);
  const folded = folds.reduce((sql) => `replace(${sql}, ?, ?)`, column);
  return {
    sql: `${folded} LIKE ? ESCAPE '\\'`,
    params: [...folds.flat(), `%${escapeLike(key)}%`],
  };
}

/** A LIKE pattern's text with its wildcards taken literally (ESCAPE '\\'). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
