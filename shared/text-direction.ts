// The direction a message text reads in, decided once for every editor and display of it.
// `dir="auto"` takes the first strong character, so "{{NAME}} عزیز" or "Sale ۲۰٪ تخفیف" come out
// left-to-right. Here placeholders ({{NAME}}, {x}, %token), links, e-mail addresses, digits and
// punctuation are skipped, and the words are counted: more words in a right-to-left script
// (Persian, Arabic, Hebrew) than in a left-to-right one make the text right-to-left, fewer make it
// left-to-right, and on a tie the first word decides. A text with no word has no direction of its
// own (null): its box follows the UI's.

export type TextDirection = 'rtl' | 'ltr';

// What is not a word of the text: placeholders of every kind the app fills, and addresses.
const SKIPPED = [
  /\{\{[^{}]*\}\}/g, // {{NAME}}: campaign and compose columns
  /\{[^{}\s]*\}/g, // {x}: a single brace, as gateways and email templates write them
  /%[A-Za-z_][A-Za-z0-9_]*/g, // %token: verify templates
  /\b(?:https?:\/\/|www\.)\S+/gi, // links
  /\S+@\S+\.\S+/g, // e-mail addresses
];

const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
// A letter that is not right-to-left; digits of every script are not letters (\p{L} excludes them).
const LETTER = /\p{L}/u;

/** The direction of a message text, or null when it has no word to tell (empty, only digits…). */
export function textDirection(text: string): TextDirection | null {
  let rest = text;
  for (const pattern of SKIPPED) rest = rest.replace(pattern, ' ');
  let rtl = 0;
  let ltr = 0;
  let first: TextDirection | null = null;
  // A word is a run of letters (and the marks joined to them); digits and punctuation split words.
  for (const word of rest.split(/[^\p{L}\p{M}\u200C\u200D]+/u)) {
    if (!LETTER.test(word)) continue;
    const direction: TextDirection = RTL_LETTER.test(word) ? 'rtl' : 'ltr';
    if (direction === 'rtl') rtl++;
    else ltr++;
    first ??= direction;
  }
  if (rtl === ltr) return first;
  return rtl > ltr ? 'rtl' : 'ltr';
}
