import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  LinkCodes,
  MAX_EXECUTION_FOR_LINKS,
  MAX_RECIPIENTS_FOR_LINKS,
  redirectAddress,
  shortLinkLength,
} from './links';
import { compileTemplate, TextBuilder } from './template';
import { FIELD_SEPARATOR } from '../contacts/fields';
import { priceText } from '../../../shared/pricing';

describe('short link codes', () => {
  const codes = new LinkCodes('a-test-secret-of-the-workspace');

  it('decode(encode(x)) is x over the whole space, codes are 8 characters of the alphabet', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_EXECUTION_FOR_LINKS }),
        fc.integer({ min: 0, max: MAX_RECIPIENTS_FOR_LINKS - 1 }),
        fc.integer({ min: 0, max: 9 }),
        (executionId, seq, link) => {
          const code = codes.encode({ executionId, seq, link });
          expect(code).toMatch(/^[2-9A-HJ-NP-Za-km-z]{8}$/);
          expect(codes.decode(code)).toEqual({ executionId, seq, link });
        },
      ),
    );
  });

  it('neighbouring recipients get unrelated codes, and another secret other codes', () => {
    const a = codes.encode({ executionId: 1, seq: 0, link: 0 });
    const b = codes.encode({ executionId: 1, seq: 1, link: 0 });
    let same = 0;
    for (let i = 0; i < 8; i++) if (a[i] === b[i]) same++;
    expect(same).toBeLessThan(4);
    expect(new LinkCodes('another').encode({ executionId: 1, seq: 0, link: 0 })).not.toBe(a);
  });

  it('never holds "11", so the opt-out phrase rule cannot see a variant inside a code', () => {
    for (let seq = 0; seq < 5_000; seq++) expect(codes.encode({ executionId: 7, seq, link: 0 })).not.toMatch(/1/);
  });

  it('refuses strings that are no code', () => {
    for (const bad of ['', 'abc', 'abcdefghi', 'abcdefg1', 'abcdefg0', 'abcdefgl', 'abcdefg-'])
      expect(codes.decode(bad)).toBeNull();
    // The highest 8-character values lie beyond the 46-bit space.
    expect(codes.decode('zzzzzzzz')).toBeNull();
  });

  it('counts what a link adds to a text', () => {
    expect(shortLinkLength('http://127.0.0.1:8080')).toBe(32);
  });
});

describe('redirectAddress', () => {
  const utm = { source: 'chapar', medium: 'sms', campaign: '12' };
  it('adds the UTM query after the address’s own, before its fragment', () => {
    expect(redirectAddress('https://shop.ir/a?x=1&y=a%20b#top', utm)).toBe(
      'https://shop.ir/a?x=1&y=a%20b&utm_source=chapar&utm_medium=sms&utm_campaign=12#top',
    );
    expect(redirectAddress('https://shop.ir/a', utm)).toBe(
      'https://shop.ir/a?utm_source=chapar&utm_medium=sms&utm_campaign=12',
    );
  });
  it('replaces UTM pairs the address already had, encodes values, and keeps the address as it is without UTM', () => {
    expect(redirectAddress('https://shop.ir/?utm_source=old&k=v', { ...utm, source: 'خبرنامه' })).toBe(
      `https://shop.ir/?k=v&utm_source=${encodeURIComponent('خبرنامه')}&utm_medium=sms&utm_campaign=12`,
    );
    expect(redirectAddress('https://shop.ir/a?x=1#f', null)).toBe('https://shop.ir/a?x=1#f');
  });
  it('takes an address without a scheme as https, and percent-encodes what is not ASCII', () => {
    expect(redirectAddress('shop.ir/sale', null)).toBe('https://shop.ir/sale');
    expect(redirectAddress('shop.ir:8080/sale', null)).toBe('https://shop.ir:8080/sale');
    expect(redirectAddress('https://shop.ir/حراج?q=کفش', null)).toBe(
      `https://shop.ir/${encodeURIComponent('حراج')}?q=${encodeURIComponent('کفش')}`,
    );
  });
  it('sends half a character (a lone surrogate) as U+FFFD instead of failing', () => {
    // Once a 500 of campaigns:quote (and of a click): encodeURIComponent throws on it.
    expect(redirectAddress('https://shop.ir/\ud800a', { ...utm, source: 'x\udc00' })).toBe(
      'https://shop.ir/%EF%BF%BDa?utm_source=x%EF%BF%BD&utm_medium=sms&utm_campaign=12',
    );
    expect(redirectAddress('https://shop.ir/😀', null)).toBe(`https://shop.ir/${encodeURIComponent('😀')}`);
  });
});

describe('campaign texts', () => {
  const links = [
    { idx: 0, actual_url: 'https://shop.ir/a' },
    { idx: 1, actual_url: 'https://shop.ir/a/long' },
  ];
  const template = compileTemplate(
    '{{ name }} {{CITY}} {{PHONE_NUMBER}} https://shop.ir/a/long https://shop.ir/a {{X}}',
    links,
  );
  const builder = new TextBuilder(template, { 3: ['NAME', 'CITY'] }, 'http://h:1');

  it('fills columns without regard to case, the number, and empties what a segment lacks', () => {
    const text = builder.text('09120000001', 3, ['Sara', ''].join(FIELD_SEPARATOR));
    expect(text.startsWith('Sara  09120000001 http://h:1/l/')).toBe(true);
    expect(text.endsWith(' ')).toBe(true);
  });

  it('gives each link its own code; the longer address is not cut by the shorter one', () => {
    const final = builder.fillLinks(builder.text('0912', 3, 'a'), (link) => `CODE000${link}`);
    expect(final).toBe('a  0912 http://h:1/l/CODE0001 http://h:1/l/CODE0000 ');
  });

  it('prices the text with placeholders exactly as the text with its real codes', () => {
    const pricing = { sms_page_tomans: 150, messenger_message_tomans: 50 };
    for (const name of ['', 'سارا', 'A'.repeat(40)]) {
      const withPlaceholders = builder.text('0912', 3, name);
      const priced = priceText(withPlaceholders, 'sms', pricing);
      const codes = new LinkCodes('s');
      const real = builder.fillLinks(priced.text, (link) => codes.encode({ executionId: 1, seq: 5, link }));
      expect(priceText(real, 'sms', pricing)).toMatchObject({ pages: priced.pages, costRials: priced.costRials });
      expect(real.length).toBe(priced.text.length);
    }
  });
});
