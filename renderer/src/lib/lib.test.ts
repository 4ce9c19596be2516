import { describe, expect, it } from 'vitest';
import { analyzeReceivers } from './receivers';
import { composePreview, ucs2Runs } from './preview';
import { formatBytes, formatDate, formatDuration, formatNumber, formatPercent, languageFromNavigator } from './format';
import { en } from '../i18n/en';
import { fa } from '../i18n/fa';

const pricing = { sms_page_tomans: 150, messenger_message_tomans: 50 };

describe('receivers preview', () => {
  it('sorts pasted numbers into valid, invalid and duplicate as the service will', () => {
    const result = analyzeReceivers('0912 123 4567\n+989121234567, ۰۹۱۲۷۶۵۴۳۲۱; 12345\n9121234567');
    expect(result.valid).toEqual(['09121234567', '09127654321']);
    expect(result.invalid).toEqual(['12345']);
    expect(result.duplicates).toEqual(['09121234567']);
    expect(result.submitted).toHaveLength(5);
  });
});

describe('compose preview', () => {
  it('adds the opt-out phrase on SMS lines and prices the pages', () => {
    const preview = composePreview('Hello', 'sms', pricing, 3);
    expect(preview.finalText).toBe('Hello\nلغو۱۱');
    expect(preview.encoding).toBe('UCS-2');
    expect(preview.pages).toBe(1);
    expect(preview.costPerMessageRials).toBe(1500);
    expect(preview.totalRials).toBe(4500);
    expect(preview.ucs2).toEqual(['ل', 'غ', 'و', '۱']);
  });

  it('leaves messenger texts alone at the messenger price', () => {
    const preview = composePreview('Hello', 'bale', pricing, 2);
    expect(preview).toMatchObject({
      finalText: 'Hello',
      encoding: 'GSM-7',
      costPerMessageRials: 500,
      totalRials: 1000,
    });
  });

  it('marks the runs of characters forcing UCS-2', () => {
    expect(ucs2Runs('ab سل c')).toEqual([
      { text: 'ab ', ucs2: false },
      { text: 'سل', ucs2: true },
      { text: ' c', ucs2: false },
    ]);
  });
});

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
    expect(same).toEqual(['compose.receiversPlaceholder']);
  });
});
