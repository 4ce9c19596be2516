import { describe, expect, it } from 'vitest';
import { textDirection } from './text-direction';

describe('the direction of a message text', () => {
  it('reads a Persian text right-to-left whatever it starts with', () => {
    expect(textDirection('{{NAME}} عزیز، تخفیف ویژه برای شما')).toBe('rtl');
    expect(textDirection('۲۰٪ تخفیف تا جمعه')).toBe('rtl');
    expect(textDirection('20% تخفیف تا جمعه')).toBe('rtl');
    expect(textDirection('Sale ۲۰٪ تخفیف ویژه')).toBe('rtl');
    expect(textDirection('Chapar: سلام {{NAME}} عزیز https://example.com/a?b=c')).toBe('rtl');
    expect(textDirection('کد شما %token است')).toBe('rtl');
  });

  it('reads an English text left-to-right, even with the Persian opt-out phrase or a Persian name', () => {
    expect(textDirection('Hello {{NAME}}, your order is ready')).toBe('ltr');
    expect(textDirection('Hello from Chapar\nلغو۱۱')).toBe('ltr');
    expect(textDirection('Dear علی, your code is 1234')).toBe('ltr');
  });

  it('lets the first word decide a tie, and has no direction without words', () => {
    expect(textDirection('Sale تخفیف')).toBe('ltr');
    expect(textDirection('تخفیف Sale')).toBe('rtl');
    expect(textDirection('{{NAME}} Sale تخفیف')).toBe('ltr');
    expect(textDirection('')).toBeNull();
    expect(textDirection('{{NAME}} 1234 ۵۶ -- https://a.ir')).toBeNull();
  });

  it('counts a word written with a half-space as one word', () => {
    expect(textDirection('Chapar Shop می‌روم')).toBe('ltr');
    expect(textDirection('Chapar می‌روم خانه')).toBe('rtl');
  });
});
