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
