// The opt-out phrase of SMS lines (spec 4.1): `\nلغو۱۱` is appended to every SMS-line text, and a
// variant the user typed (`لغو ۱۱`, `لغو11`, `laghv11`, ...) is replaced by it. Messenger lines
// (bale, rubika) are never modified.

import { OPT_OUT_PHRASE } from './optout-phrase';
import { toAsciiDigits } from './digits';

export { OPT_OUT_PHRASE };

// A variant: the word (Persian or Latin transliteration), optional spacing/ZWNJ/dash, then 11 in
// any digit script, not followed by more digits. The pattern starts at the word, never at white
// space: a leading `[\s]*` made every position of a long run of spaces a failed match attempt,
// quadratic in the run's length (a 1 MB message of spaces blocked the server for minutes).
const WORD = 'لغو|لغـو|laghv|laghw|laghu|lagho|laqv|lghv';
const VARIANT = new RegExp(`(?:${WORD})[\\s\\u200c_\\-.]*(?:11|۱۱|١١)(?![0-9۰-۹٠-٩])`, 'giu');
// A whole reply that asks to opt out (an inbound message): the word alone, the word with 11, or 11
// alone, in any digit script and letter case, with spacing/ZWNJ/dash between and a full stop or
// exclamation after. Checked against the whole trimmed reply, so a sentence that merely contains
// one ("ساعت ۱۱ میام") is not an opt-out.
const OPT_OUT_REPLY = new RegExp(`^(?:(?:${WORD})(?:[\\s\\u200c_\\-.]*11)?|11)[.!؟?]*$`, 'iu');

const SPACE = /[\s\u200c]/u;
const isSpace = (ch: string | undefined): boolean => ch !== undefined && SPACE.test(ch);

/** The final text of an SMS-line message. Idempotent: applying it twice changes nothing. */
export function withOptOutPhrase(message: string): string {
  // White space before a variant goes with it, so the phrase replaces the variant instead of
  // leaving a blank line behind; trailing white space goes too. Both walks are linear.
  let stripped = '';
  let kept = 0;
  for (const match of message.matchAll(VARIANT)) {
    let cut = match.index;
    while (cut > kept && isSpace(message[cut - 1])) cut--;
    stripped += message.slice(kept, cut);
    kept = match.index + match[0].length;
  }
  stripped += message.slice(kept);
  let end = stripped.length;
  while (end > 0 && isSpace(stripped[end - 1])) end--;
  return stripped.slice(0, end) + OPT_OUT_PHRASE;
}

export function hasOptOutVariant(message: string): boolean {
  VARIANT.lastIndex = 0;
  const found = VARIANT.test(message);
  VARIANT.lastIndex = 0;
  return found;
}

/** Whether an inbound reply, as a whole, asks to leave the list (`11`, `لغو`, `لغو ۱۱`, `laghv11`, ...). */
export function isOptOutReply(reply: string): boolean {
  return OPT_OUT_REPLY.test(toAsciiDigits(reply.replace(/^[\s\u200c]+|[\s\u200c]+$/gu, '')));
}

/** Final text for a line's provider: SMS lines get the phrase, messenger lines are untouched. */
export function finalText(message: string, messenger: boolean): string {
  return messenger ? message : withOptOutPhrase(message);
}
