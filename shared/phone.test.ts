import { describe, expect, it } from 'vitest';
import { normalizePhone, normalizeReceiver, phoneProblem, RECEIVER_PATTERN, splitReceivers } from './phone';

describe('normalizeReceiver (the strict API rule of spec 4.1)', () => {
  it.each([
    ['09121234567', '09121234567'],
    ['9121234567', '09121234567'],
    ['989121234567', '09121234567'],
    ['+989121234567', '09121234567'],
    ['09901234567', '09901234567'],
    // 9 followed by nine digits matches even when those digits start with 8: the pattern says so.
    ['9812345678', '09812345678'],
  ])('accepts %s as %s', (raw, canonical) => {
    expect(RECEIVER_PATTERN.test(raw)).toBe(true);
    expect(normalizeReceiver(raw)).toBe(canonical);
  });

  it.each([
    ['00989121234567', '0098 prefix'],
    ['۰۹۱۲۱۲۳۴۵۶۷', 'Persian digits'],
    ['٠٩١٢١٢٣٤٥٦٧', 'Arabic-Indic digits'],
    ['０９１２１２３４５６７', 'full-width digits'],
    [' 09121234567', 'leading space'],
    ['09121234567 ', 'trailing space'],
    ['09121234567\n', 'trailing newline'],
    ['0912 123 4567', 'inner spaces'],
    ['0912-123-4567', 'dashes'],
    ['0912123456', 'too short (10 characters with 0)'],
    ['091212345678', 'too long (12 characters with 0)'],
    ['9121234567 8', 'eleven digits split'],
    ['91212345678', '11 digits without prefix'],
    ['8121234567', 'leading 8'],
    ['08121234567', '0 then 8'],
    ['+9121234567', '+ without 98'],
    ['+09121234567', '+0'],
    ['98 9121234567', 'space after 98'],
    ['0989121234567', '0 and 98 together'],
    ['+98+9121234567', 'two pluses'],
    ['', 'empty'],
    ['abc', 'letters'],
    ['09121234567\u200f', 'RTL mark'],
    ['0912123456a', 'letter in the digits'],
  ])('rejects %j (%s)', (raw) => {
    expect(RECEIVER_PATTERN.test(raw)).toBe(false);
    expect(normalizeReceiver(raw)).toBeNull();
  });
});

describe('normalizePhone (lenient: imports and pasted lists)', () => {
  it.each([
    ['09121234567', '09121234567'],
    ['9121234567', '09121234567'],
    ['989121234567', '09121234567'],
    ['+989121234567', '09121234567'],
    ['00989121234567', '09121234567'],
    ['۰۹۱۲۱۲۳۴۵۶۷', '09121234567'],
    ['٠٩١٢١٢٣٤٥٦٧', '09121234567'],
    ['+98 (912) 123-4567', '09121234567'],
    ['0912.123.4567', '09121234567'],
    ['\u200f0912 123 4567\u200e', '09121234567'],
    ['\u00a009121234567\u00a0', '09121234567'],
  ])('normalizes %j to %s', (raw, canonical) => {
    expect(normalizePhone(raw)).toBe(canonical);
  });

  it.each(['', '0912123456', '091212345678', '02112345678', '8121234567', '0912123456x', 'hello', '+1 555 123 4567'])(
    'rejects %j',
    (raw) => {
      expect(normalizePhone(raw)).toBeNull();
    },
  );
});

describe('splitReceivers', () => {
  it('splits on new lines, commas, semicolons, tabs and their Persian forms, dropping blanks', () => {
    expect(splitReceivers('09121234567,09121234568;09121234569\t09121234570\r\n09121234571،09121234572؛ ,\n')).toEqual([
      '09121234567',
      '09121234568',
      '09121234569',
      '09121234570',
      '09121234571',
      '09121234572',
    ]);
  });
});

describe('phoneProblem (why a value is no mobile number)', () => {
  it.each([
    ['09121234567'],
    ['۰۹۱۲۱۲۳۴۵۶۷'],
    ['٠٩١٢١٢٣٤٥٦٧'],
    ['+98 912 123 4567'],
    ['0098-912-123-4567'],
    ['989121234567'],
    ['9121234567'],
  ])('has none for the mobile number %s', (raw) => {
    expect(phoneProblem(raw)).toBeNull();
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['\u200f', 'empty'],
    ['abc', 'letters'],
    ['0912abc4567', 'letters'],
    ['۰۹۱۲ الف ۴۵۶۷', 'letters'],
    ['0912*123*4567', 'letters'],
    ['021 8877 6655', 'landline'],
    ['۰۲۱۸۸۷۷۶۶۵۵', 'landline'],
    ['٠٢١٨٨٧٧٦٦٥٥', 'landline'],
    ['+98 21 8877 6655', 'landline'],
    ['0098 21 8877 6655', 'landline'],
    ['982188776655', 'landline'],
    ['03132221111', 'landline'],
    ['+44 20 7946 0958', 'foreign'],
    ['0044 20 7946 0958', 'foreign'],
    ['+1 (415) 555-2671', 'foreign'],
    ['+۴۴ ۲۰ ۷۹۴۶ ۰۹۵۸', 'foreign'],
    ['12345', 'too_short'],
    ['0912123456', 'too_short'],
    ['۰۹۱۲۱۲۳۴۵۶', 'too_short'],
    ['+98 912 123 456', 'too_short'],
    ['0098912123456', 'too_short'],
    ['021 8877 665', 'too_short'],
    ['+44 123', 'too_short'],
    ['091212345678', 'too_long'],
    ['+98 912 123 45678', 'too_long'],
    ['0098 9121 234 5678', 'too_long'],
    ['+44 1234 5678 9012 3456', 'too_long'],
  ])('says %j is %s', (raw, problem) => {
    expect(phoneProblem(raw)).toBe(problem);
  });
});
