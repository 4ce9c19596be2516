// One form for searching: Arabic and Persian letters and digits, the zero-width non-joiner, and
// Latin case compare equal on both sides; and the stored side's replacements in SQL agree with it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchKey, storedFoldsFor } from './search';

describe('searchKey', () => {
  it('folds Arabic yeh and kaf into the Persian letters, both ways', () => {
    expect(searchKey('يلدا')).toBe(searchKey('یلدا'));
    expect(searchKey('كتاب')).toBe(searchKey('کتاب'));
    expect(searchKey('مصطفى')).toBe(searchKey('مصطفی'));
    expect(searchKey('يلدا')).toBe('یلدا');
  });

  it('reads Persian, Arabic-Indic and ASCII digits alike', () => {
    expect(searchKey('کد ۱۲۳۴')).toBe('کد 1234');
    expect(searchKey('کد ١٢٣٤')).toBe('کد 1234');
  });

  it('ignores the zero-width non-joiner and the case of Latin letters', () => {
    expect(searchKey('می‌روم')).toBe(searchKey('میروم'));
    expect(searchKey('SALE Off')).toBe('sale off');
    expect(searchKey('سلام، تخفیف 50%!')).toBe('سلام، تخفیف 50%!');
    expect(searchKey('')).toBe('');
  });

  it('a substring of a text is found in its key by the key of the substring', () => {
    const stored = 'سلام یلدا، تخفیف ۲۰٪ را می‌توانید این هفته بگیرید';
    for (const term of ['يلدا', 'یلدا', 'تخفيف ٢٠', 'تخفیف 20', 'ميتوانيد', 'می\u200cتوانید'])
      expect(searchKey(stored).includes(searchKey(term))).toBe(true);
  });
});

describe('storedFoldsFor', () => {
  // What SQL does with the replacements: replace() in order, then LIKE '%key%' (ASCII case ignored).
  const sqlLike = (stored: string, key: string) => {
    let text = stored;
    for (const [from, to] of storedFoldsFor(key)) text = text.split(from).join(to);
    return text.replace(/[A-Z]/g, (c) => c.toLowerCase()).includes(key);
  };
  const alphabet = ['ی', 'ي', 'ى', 'ک', 'ك', 'ل', 'د', 'ا', '۱', '١', '1', '2', '۲', 'a', 'A', ' ', '\u200c'];
  const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 12 }).map((chars) => chars.join(''));

  it('lists only what the key needs: the dropped characters and its own characters’ other spellings', () => {
    expect(storedFoldsFor(searchKey('یلدا'))).toEqual([
      ['\u064a', 'ی'],
      ['\u0649', 'ی'],
      ['\u200c', ''],
    ]);
    expect(storedFoldsFor('sale')).toEqual([['\u200c', '']]);
    expect(storedFoldsFor('20').map(([from]) => from)).toEqual(['\u200c', '۰', '٠', '۲', '٢']);
  });

  it('finds a term in a stored text in SQL exactly when the keys hold it', () => {
    fc.assert(
      fc.property(text, text, (stored, term) => {
        const key = searchKey(term);
        expect(sqlLike(stored, key)).toBe(searchKey(stored).includes(key));
      }),
      { numRuns: 3000 },
    );
  });
});
