import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatDuration, formatNumber, formatPercent, languageFromNavigator } from './format';
import { en } from '../i18n/en';
import { fa } from '../i18n/fa';

describe('formatting', () => {
  it('writes Persian digits and separators in fa, ASCII in en', () => {
    expect(formatNumber(1234567, 'fa')).toBe('۱٬۲۳۴٬۵۶۷');
    expect(formatNumber(1234567, 'en')).toBe('1,234,567');
    expect(formatPercent(0.855, 'en')).toBe('85.5%');
  });

  it('shows Jalali dates in fa and Gregorian in en', () => {
    const noonUtc = Date.UTC(2026, 10, 22, 12); // 1 Azar 1405
    expect(formatDate(noonUtc, 'en')).toBe('2026-11-22');
    expect(formatDate(noonUtc, 'fa')).toBe('۱۴۰۵/۰۹/۰۱');
  });

  it('says sizes and durations in the language, units included', () => {
    expect(formatBytes(300, 'en')).toBe('1 KB');
    expect(formatBytes(5 * 1024 * 1024 + 100_000, 'en')).toBe('5.1 MB');
    expect(formatBytes(2 * 1024 ** 3, 'fa')).toBe('۲ گیگابایت');
    expect(formatDuration(4.4, 'en')).toBe('4 s');
    expect(formatDuration(200, 'en')).toBe('3 min 20 s');
    expect(formatDuration(180, 'fa')).toBe('۳ دقیقه');
    expect(formatDuration(3_900, 'fa')).toBe('۱ ساعت و ۵ دقیقه');
    expect(formatDuration(7_190, 'en')).toBe('2 h');
  });

  it('follows navigator.language on first start', () => {
    expect(languageFromNavigator('fa-IR')).toBe('fa');
    expect(languageFromNavigator('en-GB')).toBe('en');
    expect(languageFromNavigator(undefined)).toBe('en');
  });
});

describe('translations', () => {
  it('have no empty text and no English left in the Persian file', () => {
    const walk = (a: object, b: object, path: string[] = []): void => {
      for (const [key, value] of Object.entries(a)) {
        const other = (b as Record<string, unknown>)[key];
        if (typeof value === 'string') {
          expect(typeof other, [...path, key].join('.')).toBe('string');
          expect((other as string).length, [...path, key].join('.')).toBeGreaterThan(0);
        } else walk(value as object, other as object, [...path, key]);
      }
    };
    walk(en, fa);
    // The same text in both files is a missed translation, except for names kept as they are.
    const same: string[] = [];
    const compare = (a: object, b: object, path: string[] = []): void => {
      for (const [key, value] of Object.entries(a)) {
        const other = (b as Record<string, unknown>)[key];
        if (typeof value === 'string') {
          if (value === other) same.push([...path, key].join('.'));
        } else compare(value as object, other as object, [...path, key]);
      }
    };
    compare(en, fa);
    // The sample codes of a verify template are what programs send: Latin digits in both languages;
    // HTML and CSV are names of formats, and API the name of the interface, written the same in Persian.
    expect(same).toEqual([
      'compose.receiversPlaceholder',
      'settings.credit.bill.origins.api',
      'templates.sample.token',
      'templates.sample.token2',
      'templates.sample.token3',
      'email.message.html',
      'email.results.exportCsv',
    ]);
  });
});
