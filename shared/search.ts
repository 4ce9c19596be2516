// What a text search compares: both the stored text and the typed term reduced to one form, so the
// ways Persian is typed agree. Arabic keyboards give ي and ك where Persian has ی and ک; digits come
// as Persian (۰-۹), Arabic-Indic (٠-٩) or ASCII; the zero-width non-joiner (می‌روم) is typed by
// some and left out or not by others; Latin letters ignore case, as SQL's LIKE does (ASCII only).
// Every search of the core over people's texts compares these keys: the term's through
// searchKey(), the stored text's in SQL through the replacements storedFoldsFor() lists (a function
// called per row would cost several times the scan itself).

const PERSIAN_ZERO = 0x06f0;
const ARABIC_ZERO = 0x0660;

/** Every character that changes, and what it becomes ('' drops it). */
const FOLDS = new Map<string, string>([
  ['\u064a', '\u06cc'], // ARABIC LETTER YEH -> ی
  ['\u0649', '\u06cc'], // ARABIC LETTER ALEF MAKSURA -> ی
  ['\u0643', '\u06a9'], // ARABIC LETTER KAF -> ک
  ['\u200c', ''], // zero-width non-joiner
]);
for (let d = 0; d < 10; d++) {
  FOLDS.set(String.fromCharCode(PERSIAN_ZERO + d), String(d));
  FOLDS.set(String.fromCharCode(ARABIC_ZERO + d), String(d));
}
for (let c = 0x41; c <= 0x5a; c++) FOLDS.set(String.fromCharCode(c), String.fromCharCode(c + 32));

const FOLDED = new RegExp(`[${[...FOLDS.keys()].join('')}]`, 'g');
const fold = (c: string) => FOLDS.get(c)!;

/** The form a text is compared in (see the module's comment); the same for the term and the stored text. */
export function searchKey(text: string): string {
  return text.replace(FOLDED, fold);
}

/**
 * The replacements that bring a stored text to the key's form as far as comparing it with `key`
 * needs: the dropped characters, and the other spellings of the key's own characters. The case of
 * Latin letters is left to LIKE. `searchKey(stored).includes(key)` holds exactly when the stored
 * text with these replacements made contains `key`, ignoring ASCII case.
 */
export function storedFoldsFor(key: string): Array<[from: string, to: string]> {
  const needed = new Set(key);
  const folds: Array<[string, string]> = [];
  for (const [from, to] of FOLDS) {
    const latinCase = from >= 'A' && from <= 'Z';
    if (to === '' || (needed.has(to) && !latinCase)) folds.push([from, to]);
  }
  return folds;
}
