// Language-aware formatting of numbers, money and dates. Persian shows Persian digits and Jalali
// dates; English shows ASCII digits and Gregorian dates. Pure functions: the stores and the
// components pass the current language in, so nothing here reads global state.
import dayjs from 'dayjs';
import 'dayjs/locale/fa';
import jalaliday from 'jalaliday/dayjs';
import { toPersianDigits } from '../../../shared/digits';

dayjs.extend(jalaliday);

export type Language = 'fa' | 'en';
export const LANGUAGES: readonly Language[] = ['fa', 'en'];

export function isLanguage(value: unknown): value is Language {
  return value === 'fa' || value === 'en';
}

/** First start: follow the system's language (navigator.language), Persian for fa-*. */
export function languageFromNavigator(navigatorLanguage: string | undefined): Language {
  return navigatorLanguage?.toLowerCase().startsWith('fa') ? 'fa' : 'en';
}

export function directionOf(language: Language): 'rtl' | 'ltr' {
  return language === 'fa' ? 'rtl' : 'ltr';
}

/** Digits of any text in the language's script. */
export function digits(text: string | number, language: Language): string {
  return language === 'fa' ? toPersianDigits(text) : String(text);
}

/** A name the user gave (a file's, a segment's) set apart inside a sentence of either direction. */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}

/**
 * A line's or a receiver's number inside a sentence: in the language's digits, set apart left to
 * right so a +98 stays in front in either direction (in markup, <PhoneNumber> does the same).
 */
export function phoneText(number: string, language: Language): string {
  return `\u2066${digits(number, language)}\u2069`;
}

/**
 * What a text about a number of things needs: `count` picks the plural form (i18next's `_one` and
 * `_other` keys, through Intl.PluralRules: "1 message", "2 messages"), `n` is the number as shown.
 */
export function counted(value: number, language: Language): { count: number; n: string } {
  return { count: value, n: formatNumber(value, language) };
}

/** A number with thousands separators (Persian uses U+066C, the Arabic thousands separator). */
export function formatNumber(value: number, language: Language, fractionDigits = 0): string {
  const text = value.toLocaleString('en-US', {
    minimumFractionDigits: 0,
    maximumFractionDigits: fractionDigits,
  });
  return language === 'fa' ? toPersianDigits(text.replace(/,/g, '\u066c').replace('.', '\u066b')) : text;
}

export function formatPercent(ratio: number, language: Language): string {
  const text = formatNumber(Math.round(ratio * 1000) / 10, language, 1);
  return language === 'fa' ? `٪${text}` : `${text}%`;
}

/** A file's size: KB below a megabyte, MB (one decimal) below a gigabyte, then GB. */
export function formatBytes(bytes: number, language: Language): string {
  const [kb, mb, gb] = language === 'fa' ? ['کیلوبایت', 'مگابایت', 'گیگابایت'] : ['KB', 'MB', 'GB'];
  if (bytes >= 1024 ** 3) return `${formatNumber(bytes / 1024 ** 3, language, 1)} ${gb}`;
  if (bytes >= 1024 ** 2) return `${formatNumber(bytes / 1024 ** 2, language, 1)} ${mb}`;
  return `${formatNumber(Math.max(1, Math.round(bytes / 1024)), language)} ${kb}`;
}

/** A duration to wait, rounded as a person says it: "45 s", "3 min 20 s", "1 h 5 min". */
export function formatDuration(seconds: number, language: Language): string {
  const [h, min, s, and] = language === 'fa' ? ['ساعت', 'دقیقه', 'ثانیه', ' و '] : ['h', 'min', 's', ' '];
  const whole = Math.max(1, Math.round(seconds));
  const n = (value: number) => formatNumber(value, language);
  if (whole < 60) return `${n(whole)} ${s}`;
  if (whole < 3600) {
    const rest = whole % 60;
    return rest === 0 ? `${n(whole / 60)} ${min}` : `${n(Math.floor(whole / 60))} ${min}${and}${n(rest)} ${s}`;
  }
  const minutes = Math.round((whole % 3600) / 60);
  const hours = Math.floor(whole / 3600) + (minutes === 60 ? 1 : 0);
  return minutes % 60 === 0 ? `${n(hours)} ${h}` : `${n(hours)} ${h}${and}${n(minutes)} ${min}`;
}

/** Timestamps in ms. Persian: Jalali calendar, e.g. ۱۴۰۵/۰۹/۰۱ ۱۰:۳۰. */
export function formatDateTime(ms: number, language: Language): string {
  return calendarDate(ms, language).format(language === 'fa' ? 'YYYY/MM/DD HH:mm:ss' : 'YYYY-MM-DD HH:mm:ss');
}

export function formatDate(ms: number, language: Language): string {
  return calendarDate(ms, language).format(language === 'fa' ? 'YYYY/MM/DD' : 'YYYY-MM-DD');
}

/** Short day label for charts: ۰۹/۰۱ or Nov 22. */
export function formatDay(ms: number, language: Language): string {
  return calendarDate(ms, language).format(language === 'fa' ? 'MM/DD' : 'MMM D');
}

function calendarDate(ms: number, language: Language) {
  const date = dayjs(ms);
  const localized = language === 'fa' ? date.calendar('jalali').locale('fa') : date.calendar('gregory').locale('en');
  // Jalaliday formats with ASCII digits; convert so the whole string reads in one script.
  return { format: (pattern: string) => digits(localized.format(pattern), language) };
}
