// A segment cell as a filter reads it (shared/audience-filter.ts): folded text, a number, a date.
// Pure and without imports, so a reader thread loads it quickly: a count over a million members
// calls conditionMatcher's test once per member.
//
// Folding makes the spellings one keyboard or another produces meet: Unicode NFKC first (Arabic
// presentation forms «ﺗﻬﺮﺍﻥ» become «تهران», full-width digits plain ones), digits of any script as
// ASCII, Arabic ي/ى as Persian ی, ك as ک, ة and ۀ as ه, أ/إ/ٱ as ا (آ stays: it is a letter of its
// own in Persian), ZWNJ, tatweel, bidi marks and diacritics removed, white space trimmed and
// collapsed, letter case ignored. Letters are folded, not place names: «طهران» (the older spelling)
// stays distinct from «تهران», as «Tehran» does; a user wanting both lists both (`in`).
import type { ColumnCondition } from './audience-filter';

// eslint-disable-next-line no-misleading-character-class -- ranges of marks, each removed on its own
const STRIP = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\u0640\u064b-\u065f\u0670\u06d6-\u06ed]/g;
const LETTERS: Record<string, string> = {
  '\u064a': '\u06cc', // ي
  '\u0649': '\u06cc', // ى
  '\u0643': '\u06a9', // ك
  '\u0629': '\u0647', // ة
  '\u06c0': '\u0647', // ۀ
  '\u06d5': '\u0647', // ە
  '\u0623': '\u0627', // أ
  '\u0625': '\u0627', // إ
  '\u0671': '\u0627', // ٱ
};
const FOLDED_LETTERS = /[\u064a\u0649\u0643\u0629\u06c0\u06d5\u0623\u0625\u0671]/g;

/** Digits of any script Unicode calls decimal (Persian, Arabic-Indic, Devanagari, …) as ASCII. */
function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (d) => {
    const code = d.codePointAt(0)!;
    if (code < 128) return d;
    // Every Nd block runs 0..9 from a code point ending in 0 (hex); these are the common ones.
    for (const zero of DIGIT_ZEROS) if (code >= zero && code <= zero + 9) return String(code - zero);
    return d;
  });
}
const DIGIT_ZEROS = [0x06f0, 0x0660, 0x0966, 0x09e6, 0xff10, 0x07c0, 0x0e50, 0x1040, 0x17e0, 0x1810];

/** A value as filters compare it (see the header). */
export function foldValue(value: string): string {
  return asciiDigits(value.normalize('NFKC'))
    .replace(STRIP, '')
    .replace(FOLDED_LETTERS, (c) => LETTERS[c]!)
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * A number cell: digits of any script, `٬` `,` or a space between thousands, `٫` or `.` before
 * the decimals, a sign. Null when the cell is no number.
 */
export function parseNumber(value: string): number | null {
  const text = foldValue(value)
    .replace(/[\u066c,' ]/g, '')
    .replace('\u066b', '.')
    .replace(/^\u2212/, '-');
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return null;
  return Number(text);
}

// ---- calendars (jalaali-js's arithmetic, rewritten: the 33-year rule within the known breaks)

const div = (a: number, b: number) => Math.trunc(a / b);
const mod = (a: number, b: number) => a - Math.trunc(a / b) * b;
const BREAKS = [
  -61, 9, 38, 199, 426, 686, 756, 818, 1111, 1181, 1210, 1635, 2060, 2097, 2192, 2262, 2324, 2394, 2456, 3178,
];

function jalCal(jy: number): { leap: number; gy: number; march: number } {
  const gy = jy + 621;
  let leapJ = -14;
  let jp = BREAKS[0]!;
  let jump = 0;
  for (let i = 1; i < BREAKS.length; i++) {
    const jm = BREAKS[i]!;
    jump = jm - jp;
    if (jy < jm) break;
    leapJ += div(jump, 33) * 8 + div(mod(jump, 33), 4);
    jp = jm;
  }
  let n = jy - jp;
  leapJ += div(n, 33) * 8 + div(mod(n, 33) + 3, 4);
  if (mod(jump, 33) === 4 && jump - n === 4) leapJ += 1;
  const leapG = div(gy, 4) - div((div(gy, 100) + 1) * 3, 4) - 150;
  const march = 20 + leapJ - leapG;
  if (jump - n < 6) n = n - jump + div(jump + 4, 33) * 33;
  let leap = mod(mod(n + 1, 33) - 1, 4);
  if (leap === -1) leap = 4;
  return { leap, gy, march };
}

/** Julian day number of a Gregorian date. */
function g2d(gy: number, gm: number, gd: number): number {
  const d = div((gy + div(gm - 8, 6) + 100100) * 1461, 4) + div(153 * mod(gm + 9, 12) + 2, 5) + gd - 34840408;
  return d - div(div(gy + 100100 + div(gm - 8, 6), 100) * 3, 4) + 752;
}

function d2g(jdn: number): { year: number; month: number; day: number } {
  let j = 4 * jdn + 139361631;
  j = j + div(div(4 * jdn + 183187720, 146097) * 3, 4) * 4 - 3908;
  const i = div(mod(j, 1461), 4) * 5 + 308;
  const day = div(mod(i, 153), 5) + 1;
  const month = mod(div(i, 153), 12) + 1;
  const year = div(j, 1461) - 100100 + div(8 - month, 6);
  return { year, month, day };
}

/** Days since 1970-01-01 of a Julian day number, and back. */
const EPOCH_JDN = 2440588;

/** Jalali years this arithmetic covers. */
const JALALI_MIN = BREAKS[0]! + 1;
const JALALI_MAX = BREAKS[BREAKS.length - 1]! - 1;

export function isJalaliLeapYear(year: number): boolean {
  return jalCal(year).leap === 0;
}

export function isGregorianLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function jalaliMonthLength(year: number, month: number): number {
  if (month <= 6) return 31;
  if (month <= 11) return 30;
  return isJalaliLeapYear(year) ? 30 : 29;
}

function gregorianMonthLength(year: number, month: number): number {
  return month === 2
    ? isGregorianLeapYear(year)
      ? 29
      : 28
    : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** Days since 1970-01-01 of a Jalali date. */
export function jalaliToDay(year: number, month: number, day: number): number {
  const { gy, march } = jalCal(year);
  return g2d(gy, 3, march) + (month - 1) * 31 - div(month, 7) * (month - 7) + day - 1 - EPOCH_JDN;
}

export function dayToJalali(epochDay: number): { year: number; month: number; day: number } {
  const jdn = epochDay + EPOCH_JDN;
  const gy = d2g(jdn).year;
  let year = gy - 621;
  const cal = jalCal(year);
  let k = jdn - g2d(gy, 3, cal.march);
  if (k >= 0) {
    if (k <= 185) return { year, month: 1 + div(k, 31), day: mod(k, 31) + 1 };
    k -= 186;
  } else {
    year -= 1;
    k += 179;
    if (cal.leap === 1) k += 1;
  }
  return { year, month: 7 + div(k, 30), day: mod(k, 30) + 1 };
}

/** Days since 1970-01-01 of a Gregorian date. */
export function gregorianToDay(year: number, month: number, day: number): number {
  return g2d(year, month, day) - EPOCH_JDN;
}

export function dayToGregorian(epochDay: number): { year: number; month: number; day: number } {
  return d2g(epochDay + EPOCH_JDN);
}

// ---- date cells

export type CellCalendar = 'jalali' | 'gregorian' | 'excel';

/** A date cell read: its day, and the calendar it was written in with that calendar's date. */
export interface CellDate {
  /** Days since 1970-01-01. */
  day: number;
  calendar: CellCalendar;
  /** In the calendar written (Gregorian for Excel serials). */
  year: number;
  month: number;
  dayOfMonth: number;
}

/** Excel's day 25569 is 1970-01-01 (its 1900 system, which counts a 29 February 1900 that never was). */
const EXCEL_EPOCH = 25569;

function written(calendar: CellCalendar, year: number, month: number, dayOfMonth: number): CellDate | null {
  if (month < 1 || month > 12 || dayOfMonth < 1) return null;
  if (calendar === 'jalali') {
    if (year < JALALI_MIN || year > JALALI_MAX || dayOfMonth > jalaliMonthLength(year, month)) return null;
    return { day: jalaliToDay(year, month, dayOfMonth), calendar, year, month, dayOfMonth };
  }
  if (year < 1 || dayOfMonth > gregorianMonthLength(year, month)) return null;
  return { day: gregorianToDay(year, month, dayOfMonth), calendar, year, month, dayOfMonth };
}

/**
 * A date cell, as people and programs write them:
 * - year first, `۱۳۷۰/۰۵/۱۲`, `1370-5-12`, `1991/08/03`, `1991-08-03` (also with `.`): a year
 *   below 1700 is Jalali, any other Gregorian; a time after it (`1991-08-03T10:00`, `… 10:00`)
 *   is ignored;
 * - year last, `03/08/1991`: day first, as in Iran and Europe; only when the middle number cannot
 *   be a month (`08/23/1991`) is it read month first, as an American export writes it;
 * - an Excel serial (a whole number from 1 to 2958465, as an XLSX number cell imports: 33453 is
 *   1991-08-03), read in its Gregorian day.
 * Null when it is none of these or names a day that does not exist.
 */
export function parseDate(value: string): CellDate | null {
  const text = foldValue(value);
  let match = /^(\d{3,4})[/\-.](\d{1,2})[/\-.](\d{1,2})(?:[t ].*)?$/.exec(text);
  if (match) {
    const year = Number(match[1]);
    return written(year < 1700 ? 'jalali' : 'gregorian', year, Number(match[2]), Number(match[3]));
  }
  match = /^(\d{1,2})[/\-.](\d{1,2})[/\-.](\d{4})$/.exec(text);
  if (match) {
    let [first, second] = [Number(match[1]), Number(match[2])];
    if (second > 12 && first <= 12) [first, second] = [second, first];
    const year = Number(match[3]);
    return written(year < 1700 ? 'jalali' : 'gregorian', year, second, first);
  }
  if (/^\d{1,7}(\.\d+)?$/.test(text)) {
    const serial = Math.floor(Number(text));
    if (serial < 1 || serial > 2958465) return null;
    // Serials before 1 March 1900 count from a day earlier (Excel's phantom 29 February 1900).
    const day = serial - EXCEL_EPOCH + (serial < 61 ? 1 : 0);
    const g = dayToGregorian(day);
    return { day, calendar: 'excel', year: g.year, month: g.month, dayOfMonth: g.day };
  }
  return null;
}

/**
 * Whether a date written `date` has its anniversary on `epochDay`: a Jalali date on its Jalali
 * month and day in that day's Jalali year (30 Esfand on 29 Esfand when the year has no 30th), a
 * Gregorian or Excel one on its Gregorian month and day (29 February on the 28th in a common year).
 */
export function isAnniversary(date: CellDate, epochDay: number): boolean {
  if (date.calendar === 'jalali') {
    const on = dayToJalali(epochDay);
    const day = Math.min(date.dayOfMonth, jalaliMonthLength(on.year, date.month));
    return on.month === date.month && on.day === day;
  }
  const on = dayToGregorian(epochDay);
  const day = Math.min(date.dayOfMonth, gregorianMonthLength(on.year, date.month));
  return on.month === date.month && on.day === day;
}

/** `YYYY-MM-DD` (Gregorian) as days since 1970-01-01; null when it is no such day. */
export function localDateDay(value: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  return written('gregorian', Number(match[1]), Number(match[2]), Number(match[3]))?.day ?? null;
}

// ---- conditions

/**
 * A condition's test of one cell's raw text (the condition's own values folded and parsed once).
 * Results are kept per distinct cell text (a column of cities has few), up to a bound.
 * Throws on a condition whose bounds do not parse: conditionProblem says why first.
 */
export function conditionMatcher(condition: ColumnCondition): (cell: string) => boolean {
  const test = plainTest(condition);
  const seen = new Map<string, boolean>();
  return (cell) => {
    let result = seen.get(cell);
    if (result === undefined) {
      result = test(cell);
      if (seen.size >= 50_000) seen.clear();
      seen.set(cell, result);
    }
    return result;
  };
}

function plainTest(condition: ColumnCondition): (cell: string) => boolean {
  switch (condition.op) {
    case 'equals': {
      const value = foldValue(condition.value);
      return (cell) => foldValue(cell) === value;
    }
    case 'contains': {
      const value = foldValue(condition.value);
      return (cell) => foldValue(cell).includes(value);
    }
    case 'in': {
      const values = new Set(condition.values.map(foldValue));
      return (cell) => values.has(foldValue(cell));
    }
    case 'between': {
      const read = condition.kind === 'number' ? parseNumber : (text: string) => parseDate(text)?.day ?? null;
      const bound = (text: string | null) => {
        if (text === null || text.trim() === '') return null;
        const parsed = read(text);
        if (parsed === null) throw new Error(`not a ${condition.kind}: ${text}`);
        return parsed;
      };
      const from = bound(condition.from);
      const to = bound(condition.to);
      return (cell) => {
        const value = read(cell);
        return value !== null && (from === null || value >= from) && (to === null || value <= to);
      };
    }
    case 'anniversary': {
      const on = localDateDay(condition.on);
      if (on === null) throw new Error(`not a day: ${condition.on}`);
      const days = condition.days ?? 1;
      return (cell) => {
        const date = parseDate(cell);
        if (date === null) return false;
        for (let d = 0; d < days; d++) if (isAnniversary(date, on + d)) return true;
        return false;
      };
    }
  }
}

/** What is wrong with a condition's own values (a bound that is no number or date, from after to); null when fine. */
export function conditionProblem(
  condition: ColumnCondition,
): 'bound_invalid' | 'bounds_reversed' | 'day_invalid' | null {
  if (condition.op === 'anniversary') return localDateDay(condition.on) === null ? 'day_invalid' : null;
  if (condition.op !== 'between') return null;
  const read = condition.kind === 'number' ? parseNumber : (text: string) => parseDate(text)?.day ?? null;
  const [from, to] = [condition.from, condition.to].map((text) =>
    text === null || text.trim() === '' ? null : read(text),
  );
  if ((condition.from?.trim() && from === null) || (condition.to?.trim() && to === null)) return 'bound_invalid';
  if (from != null && to != null && from > to) return 'bounds_reversed';
  return null;
}

/** Why a filter cannot be used on segments with `columns`: a reason (errors.reasons.filter.*) and the detail. */
export interface FilterProblem {
  reason: 'filter.column_unknown' | 'filter.bound_invalid' | 'filter.bounds_reversed' | 'filter.day_invalid';
  detail: string;
}

/**
 * The first fault of a filter's conditions (`filters[i]` in the API's words): a column none of
 * the inclusion segments has (`columns`, compared folded), a bound that is no number or date, a
 * range from after its end. Null when it can be evaluated.
 */
export function filterProblem(
  conditions: readonly ColumnCondition[],
  columns: readonly string[] | null,
): FilterProblem | null {
  const known = columns === null ? null : new Set(columns.map(foldValue));
  for (const [i, condition] of conditions.entries()) {
    if (known !== null && !known.has(foldValue(condition.column)))
      return {
        reason: 'filter.column_unknown',
        detail: `filters[${i}]column ${JSON.stringify(condition.column)} is not a column of the inclusion segments`,
      };
    const problem = conditionProblem(condition);
    if (problem === 'bound_invalid')
      return {
        reason: 'filter.bound_invalid',
        detail: `filters[${i}] from/to is not a ${condition.op === 'between' ? condition.kind : 'value'}`,
      };
    if (problem === 'bounds_reversed')
      return { reason: 'filter.bounds_reversed', detail: `filters[${i}]from is after its to` };
    if (problem === 'day_invalid')
      return { reason: 'filter.day_invalid', detail: `filters[${i}]on is not a day (YYYY-MM-DD)` };
  }
  return null;
}

/** A filter in one line, as a segment's source label names it: `CITY = تهران · AGE 18..30`. */
export function filterText(filter: { all: readonly ColumnCondition[] }): string {
  return filter.all
    .map((c) => {
      switch (c.op) {
        case 'equals':
          return `${c.column} = ${c.value}`;
        case 'contains':
          return `${c.column} ∋ ${c.value}`;
        case 'in':
          return `${c.column} ∈ {${c.values.join(', ')}}`;
        case 'between':
          return `${c.column} ${c.from ?? ''}..${c.to ?? ''}`;
        case 'anniversary':
          return `${c.column} ~ ${c.on}${c.days && c.days > 1 ? ` +${c.days - 1}` : ''}`;
      }
    })
    .join(' · ');
}
