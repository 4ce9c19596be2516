// Names a person types on an Arabic keyboard layout carry ي and ك where Persian writes ی and ک:
// the two look alike on screen but sort, search and print as different letters. What the UI saves
// in the user's own words (campaign, segment and template names, the values filled into a panel
// send) is brought to the Persian letters once, in the core, before it is stored or sent. What
// other programs send through the HTTP API is kept exactly as sent.

const ARABIC_TO_PERSIAN = new Map<string, string>([
  ['\u064a', '\u06cc'], // ARABIC LETTER YEH ي -> ی
  ['\u0649', '\u06cc'], // ARABIC LETTER ALEF MAKSURA ى -> ی
  ['\u0643', '\u06a9'], // ARABIC LETTER KAF ك -> ک
]);
const ARABIC_LETTERS = /[\u064a\u0649\u0643]/g;

/** `text` with Arabic ي/ى/ك written as Persian ی/ک; everything else as it was. */
export function toPersianLetters(text: string): string {
  return text.replace(ARABIC_LETTERS, (c) => ARABIC_TO_PERSIAN.get(c)!);
}
