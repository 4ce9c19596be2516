import { describe, expect, it } from 'vitest';
import { isEmail, normalizeEmail, providerKeyStays, smtpPasswordStays } from './email';

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

describe('a stored secret stays with its server', () => {
  it('keeps the provider key for the same scheme, host and port, or when none was named', () => {
    expect(providerKeyStays('https://api.example.com', 'https://API.example.com:443/')).toBe(true);
    expect(providerKeyStays('', 'https://api.example.com')).toBe(true);
    expect(providerKeyStays('https://api.example.com', 'http://api.example.com')).toBe(false);
    expect(providerKeyStays('https://api.example.com', 'https://api.example.com:8443')).toBe(false);
    expect(providerKeyStays('https://api.example.com', 'https://mail.example.com')).toBe(false);
  });

  it('keeps the SMTP password for the same host (any case) and user', () => {
    const shop = { host: 'smtp.shop.example', user: 'shop' };
    expect(smtpPasswordStays(shop, { host: 'SMTP.shop.example ', user: 'shop' })).toBe(true);
    expect(smtpPasswordStays({ host: '', user: '' }, shop)).toBe(true);
    expect(smtpPasswordStays(shop, { host: 'smtp.other.example', user: 'shop' })).toBe(false);
    expect(smtpPasswordStays(shop, { host: 'smtp.shop.example', user: 'other' })).toBe(false);
  });
});
