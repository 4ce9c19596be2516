import { describe, expect, it } from 'vitest';
import { finalText, hasOptOutVariant, isOptOutReply, OPT_OUT_PHRASE, withOptOutPhrase } from './optout';

const occurrences = (text: string) => text.split('لغو').length - 1;

describe('withOptOutPhrase', () => {
  it('appends \\nلغو۱۱ to a text without a variant', () => {
    expect(OPT_OUT_PHRASE).toBe('\nلغو۱۱');
    expect(withOptOutPhrase('سلام')).toBe('سلام\nلغو۱۱');
    expect(withOptOutPhrase('Hello')).toBe('Hello\nلغو۱۱');
  });

  it.each([
    'تخفیف ویژه\nلغو۱۱',
    'تخفیف ویژه لغو ۱۱',
    'تخفیف ویژه لغو11',
    'تخفیف ویژه لغو 11',
    'تخفیف ویژه لغو١١',
    'تخفیف ویژه لغو\u200c۱۱',
    'تخفیف ویژه لغـو۱۱',
    'تخفیف ویژه laghv11',
    'تخفیف ویژه LAGHV 11',
    'تخفیف ویژه Laghv-11',
    'تخفیف ویژه\n\nلغو ۱۱\n',
  ])('replaces the variant in %j by the standard phrase, once', (text) => {
    const result = withOptOutPhrase(text);
    expect(result).toBe('تخفیف ویژه\nلغو۱۱');
    expect(occurrences(result)).toBe(1);
  });

  it('replaces a variant in the middle of the text too, keeping the rest', () => {
    expect(withOptOutPhrase('برای لغو۱۱ بفرستید')).toBe('برای بفرستید\nلغو۱۱');
  });

  it('does not take 111 or لغو 12 for a variant', () => {
    expect(withOptOutPhrase('کد لغو111')).toBe('کد لغو111\nلغو۱۱');
    expect(withOptOutPhrase('لغو 12')).toBe('لغو 12\nلغو۱۱');
    expect(hasOptOutVariant('لغو 12')).toBe(false);
  });

  it('is idempotent', () => {
    for (const text of ['a', 'a\nلغو۱۱', 'laghv11', '', '   ', 'x لغو ۱۱ y laghv 11']) {
      const once = withOptOutPhrase(text);
      expect(withOptOutPhrase(once)).toBe(once);
    }
  });

  it('drops trailing white space before the phrase', () => {
    expect(withOptOutPhrase('سلام  \n\t')).toBe('سلام\nلغو۱۱');
  });

  it('stays linear on long runs of white space (a hostile message must not stall the server)', () => {
    // The old pattern retried at every space of a run: 2 MB of spaces took hours. This must be
    // a single linear pass; the test would time out long before the quadratic version finished.
    const hostile = ' '.repeat(2_000_000) + 'x' + ' \u200c'.repeat(1_000_000) + 'y';
    expect(withOptOutPhrase(hostile)).toBe(hostile.trimEnd() + OPT_OUT_PHRASE);
    expect(withOptOutPhrase('لغو' + ' '.repeat(1_000_000) + 'x')).toBe(
      'لغو' + ' '.repeat(1_000_000) + 'x' + OPT_OUT_PHRASE,
    );
  }, 20_000);
});

describe('hasOptOutVariant', () => {
  it('finds the variants, repeatedly (no leftover lastIndex)', () => {
    for (let i = 0; i < 3; i++) {
      expect(hasOptOutVariant('laghv11')).toBe(true);
      expect(hasOptOutVariant('لغو ۱۱')).toBe(true);
      expect(hasOptOutVariant('hello')).toBe(false);
    }
  });
});

describe('finalText', () => {
  it('adds the phrase on SMS lines and leaves messenger texts unmodified', () => {
    expect(finalText('hi laghv11', false)).toBe('hi\nلغو۱۱');
    expect(finalText('hi laghv11', true)).toBe('hi laghv11');
    expect(finalText('  ', true)).toBe('  ');
  });
});

describe('isOptOutReply', () => {
  it.each([
    '11',
    '۱۱',
    '١١',
    'لغو',
    'لغو۱۱',
    'لغو 11',
    'لغو ۱۱',
    'لغو\u200c۱۱',
    'لغو١١',
    'لغـو',
    'laghv',
    'LAGHV',
    'Laghv11',
    'laghv 11',
    'laghv-11',
    '  لغو۱۱\n',
    '\u200cلغو\u200c',
    'لغو!',
    '11.',
  ])('takes %j for an opt-out', (reply) => {
    expect(isOptOutReply(reply)).toBe(true);
  });

  it.each([
    'ساعت ۱۱ میام',
    'لغو نکنید لطفا',
    'میخوام سفارشم رو لغو کنم',
    'کد ۱۱۱',
    '111',
    '12',
    'لغو 12',
    'لغو۱۱۱',
    'laghvi',
    'mamnoon',
    '',
    '   ',
  ])('does not take %j for an opt-out', (reply) => {
    expect(isOptOutReply(reply)).toBe(false);
  });
});
