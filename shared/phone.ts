// Iranian mobile numbers: the API's strict receivers rule (spec 4.1) and the lenient normalization
// used for spreadsheets and pasted lists. Both produce the canonical form 09xxxxxxxxx.
import { toAsciiDigits } from './digits';

/** Spec 4.1: each member of receivers matches this, nothing else is accepted. */
export const RECEIVER_PATTERN = /^((\+?98)|0)?9[0-9]{9}$/;

/** The strict API rule: the canonical number, or null when the member does not match the pattern. */
export function normalizeReceiver(receiver: string): string | null {
  if (!RECEIVER_PATTERN.test(receiver)) return null;
  return '0' + receiver.slice(receiver.length - 10);
}

// Separators people type or spreadsheets keep inside numbers: spaces (incl. NBSP and the narrow
// ones), dashes, dots, slashes, parentheses and invisible direction marks.
const SEPARATORS = /[\s\u00a0\u200b-\u200f\u202a-\u202e\u2066-\u2069\-\u2010-\u2015.()/]/g;

/**
 * Lenient normalization for imports and pasted lists: Persian/Arabic digits, separators, and the
 * prefixes +98, 0098, 98, 9 and 0. Returns null when what is left is not a mobile number.
 */
export function normalizePhone(raw: string): string | null {
  let digits = toAsciiDigits(raw).replace(SEPARATORS, '');
  if (digits.startsWith('+')) digits = digits.slice(1);
  if (digits.startsWith('0098')) digits = digits.slice(4);
  else if (digits.startsWith('98') && digits.length === 12) digits = digits.slice(2);
  else if (digits.startsWith('0')) digits = digits.slice(1);
  if (digits.length !== 10 || digits[0] !== '9') return null;
  for (let i = 1; i < 10; i++) {
    const c = digits.charCodeAt(i);
    if (c < 48 || c > 57) return null;
  }
  return '0' + digits;
}

/** Why a value is not a mobile number, each a reason of its own in the review and the reports. */
export const PHONE_PROBLEMS = ['empty', 'letters', 'landline', 'foreign', 'too_short', 'too_long', 'invalid'] as const;
export type PhoneProblem = (typeof PHONE_PROBLEMS)[number];

/** E.164 bounds of an international number's digits after the `+` (country code included). */
const INTERNATIONAL_MIN = 8;
const INTERNATIONAL_MAX = 15;
/** An Iranian number without its leading 0: area code (2 digits) + 8, or 9 + 9 for mobiles. */
const NATIONAL_DIGITS = 10;

/**
 * Why `raw` is not a mobile number (null when normalizePhone accepts it): an empty cell, letters
 * or other signs, a fixed-line Iranian number (021…), a number of another country (+44…, 0044…),
 * or an Iranian number too short or too long. Read for rejected values only (reports, reviews),
 * so it costs the import's accepted rows nothing.
 */
export function phoneProblem(raw: string): PhoneProblem | null {
  if (normalizePhone(raw) !== null) return null;
  let digits = toAsciiDigits(raw).replace(SEPARATORS, '');
  if (digits === '') return 'empty';
  let international = false;
  if (digits.startsWith('+')) {
    international = true;
    digits = digits.slice(1);
  }
  if (!/^[0-9]+$/.test(digits)) return 'letters';
  if (!international && digits.startsWith('00')) {
    international = true;
    digits = digits.slice(2);
  }
  let national: string;
  if (international) {
    if (!digits.startsWith('98')) {
      if (digits.length < INTERNATIONAL_MIN) return 'too_short';
      return digits.length > INTERNATIONAL_MAX ? 'too_long' : 'foreign';
    }
    national = digits.slice(2);
  } else if (digits.startsWith('98') && digits.length > NATIONAL_DIGITS) national = digits.slice(2);
  else if (digits.startsWith('0')) national = digits.slice(1);
  else national = digits;
  if (national === '' || national.startsWith('0')) return 'invalid';
  if (national.length < NATIONAL_DIGITS) return 'too_short';
  if (national.length > NATIONAL_DIGITS) return 'too_long';
  return national.startsWith('9') ? 'invalid' : 'landline';
}

/** Splits a pasted block of receivers: one per line, or separated by commas, semicolons or tabs. */
export function splitReceivers(text: string): string[] {
  return text
    .split(/[\n\r,;\t،؛]+/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/**
 * What a search box's text matches among stored (canonical 09...) numbers: its digits in ASCII,
 * separators dropped, a leading +98 / 0098 read as 0. Null when the text is not (part of) a
 * number, e.g. a name.
 */
export function phoneSearchDigits(term: string): string | null {
  let digits = toAsciiDigits(term).replace(SEPARATORS, '');
  if (!/^\+?[0-9]+$/.test(digits)) return null;
  const full = normalizePhone(digits);
  if (full !== null) return full;
  if (digits.startsWith('+98')) digits = '0' + digits.slice(3);
  else if (digits.startsWith('0098')) digits = '0' + digits.slice(4);
  return digits.replace(/^\+/, '');
}
