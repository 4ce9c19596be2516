import { describe, expect, it } from 'vitest';
import { toPersianLetters } from './persian-letters';

describe('Persian letters in typed names', () => {
  it('writes Arabic ي/ى/ك as Persian ی/ک and leaves the rest', () => {
    expect(toPersianLetters('كلاس علي')).toBe('کلاس علی');
    expect(toPersianLetters('مصطفى')).toBe('مصطفی');
    expect(toPersianLetters('Shop ۱۲ کیک')).toBe('Shop ۱۲ کیک');
  });
});
