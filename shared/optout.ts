// The opt-out phrase of SMS lines (spec 4.1): `\nلغو۱۱` is appended to every SMS-line text, and a
// variant the user typed (`لغو ۱۱`, `لغو11`, `laghv11`, ...) is replaced by it. Messenger lines
// (bale, rubika) are never modified.

export const OPT_OUT_PHRASE = '\nلغو۱۱';

// A variant: the word (Persian or Latin transliteration), optional spacing/ZWNJ/dash, then 11 in
// any digit script, not followed by more digits. Leading white space goes with it, so the phrase
// replaces the variant instead of leaving a blank line behind.
const VARIANT =
  /[\s\u200c]*(?:لغو|لغـو|laghv|laghw|laghu|lagho|laqv|lghv)[\s\u200c_\-.]*(?:11|۱۱|١١)(?![0-9۰-۹٠-٩])/giu;

/** The final text of an SMS-line message. Idempotent: applying it twice changes nothing. */
export function withOptOutPhrase(message: string): string {
  const stripped = message.replace(VARIANT, '').replace(/[\s\u200c]+$/u, '');
  return stripped + OPT_OUT_PHRASE;
}

export function hasOptOutVariant(message: string): boolean {
  VARIANT.lastIndex = 0;
  const found = VARIANT.test(message);
  VARIANT.lastIndex = 0;
  return found;
}

/** Final text for a line's provider: SMS lines get the phrase, messenger lines are untouched. */
export function finalText(message: string, messenger: boolean): string {
  return messenger ? message : withOptOutPhrase(message);
}
