import { describe, expect, it } from 'vitest';
import { isEmail, normalizeEmail } from './email';

describe('the email address rule', () => {
  it.each([
    'a@b.co',
    'first.last+tag@example.com',
    "o'brien@shop.ir",
    'user_1@sub.domain.example',
    'مریم@مثال.ایران',
    '  spaced@example.com  ',
  ])('takes %s', (address) => {
    expect(isEmail(address)).toBe(true);
  });

  it.each([
    '',
    'plain',
    '@example.com',
    'a@',
    'a@b',
    'a@b.c',
    'a@@b.com',
    'a@b@c.com',
    'a b@c.com',
    '.a@b.com',
    'a.@b.com',
    'a..b@c.com',
    'a@-b.com',
    'a@b-.com',
    'a@b..com',
    'a@b.123',
    '<a@b.com>',
    'a@b.com,c@d.com',
  ])('refuses %j', (address) => {
    expect(isEmail(address)).toBe(false);
  });

  it('trims and bounds the length', () => {
    expect(normalizeEmail('  a@b.co ')).toBe('a@b.co');
    const local = 'x'.repeat(64);
    const domain = `${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.com`;
    expect(normalizeEmail(`${local}@${domain}`)).toBe(`${local}@${domain}`);
    expect(normalizeEmail(`${'x'.repeat(65)}@b.com`)).toBeNull();
    expect(normalizeEmail(`a@${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(63)}.${'g'.repeat(60)}.com`)).toBeNull();
  });
});
