import { describe, expect, it } from 'vitest';
import { countPages, messageCostRials, segment, ucs2Characters } from './pages';

const pricing = { sms_page_tomans: 150, messenger_message_tomans: 50 };

describe('segment: GSM-7', () => {
  it.each([
    [1, 1],
    [160, 1],
    [161, 2],
    [306, 2],
    [307, 3],
    [459, 3],
    [460, 4],
  ])('%i basic characters are %i page(s)', (length, pages) => {
    const result = segment('a'.repeat(length));
    expect(result.encoding).toBe('GSM-7');
    expect(result.units).toBe(length);
    expect(result.pages).toBe(pages);
    expect(result.perPage).toBe(pages === 1 ? 160 : 153);
  });

  it('counts every extension character as two septets', () => {
    for (const ch of ['€', '[', ']', '{', '}', '~', '^', '|', '\\']) {
      expect(segment(ch.repeat(80))).toMatchObject({ encoding: 'GSM-7', units: 160, pages: 1 });
      expect(segment(ch.repeat(80) + 'a')).toMatchObject({ encoding: 'GSM-7', units: 161, pages: 2 });
    }
  });

  it('counts pages from septets alone (PRODUCT.md), wherever an extension character falls', () => {
    expect(segment('a'.repeat(152) + '€' + 'a'.repeat(152))).toMatchObject({ units: 306, pages: 2 });
    expect(segment('a'.repeat(152) + '€' + 'a'.repeat(153))).toMatchObject({ units: 307, pages: 3 });
    expect(segment('a'.repeat(151) + '€' + 'a'.repeat(153))).toMatchObject({ units: 306, pages: 2 });
    // One page is 160 septets whatever they are.
    expect(segment('a'.repeat(158) + '€')).toMatchObject({ units: 160, pages: 1 });
  });

  it('keeps the accented letters of the GSM basic table in GSM-7', () => {
    expect(segment('éèùìòÇÅåÄÖÑÜäöñüàßÆæÉ@£$¥¤§¿¡\n\r')).toMatchObject({ encoding: 'GSM-7', pages: 1 });
  });
});

describe('segment: UCS-2', () => {
  it.each([
    [70, 1],
    [71, 2],
    [134, 2],
    [135, 3],
    [201, 3],
    [202, 4],
  ])('%i Persian characters are %i page(s)', (length, pages) => {
    const result = segment('س'.repeat(length));
    expect(result).toMatchObject({ encoding: 'UCS-2', units: length, pages, perPage: pages === 1 ? 70 : 67 });
  });

  it('one non-GSM character makes the whole text UCS-2', () => {
    expect(segment('a'.repeat(69) + 'ç')).toMatchObject({ encoding: 'UCS-2', units: 70, pages: 1 });
    expect(segment('a'.repeat(70) + 'س')).toMatchObject({ encoding: 'UCS-2', units: 71, pages: 2 });
    // 100 GSM characters would be one GSM page; with one Persian letter it is two UCS-2 pages.
    expect(segment('a'.repeat(100) + 'ب').pages).toBe(2);
  });

  it('counts UTF-16 code units: an emoji is two', () => {
    expect(segment('😀'.repeat(35))).toMatchObject({ encoding: 'UCS-2', units: 70, pages: 1 });
    expect(segment('a'.repeat(69) + '😀')).toMatchObject({ units: 71, pages: 2 });
  });

  it('counts pages from UTF-16 units alone (PRODUCT.md), wherever a surrogate pair falls', () => {
    expect(segment('س'.repeat(66) + '😀' + 'س'.repeat(66))).toMatchObject({ units: 134, pages: 2 });
    expect(segment('س'.repeat(65) + '😀' + 'س'.repeat(67))).toMatchObject({ units: 134, pages: 2 });
    expect(segment('😀'.repeat(67))).toMatchObject({ units: 134, pages: 2 });
    expect(segment('😀'.repeat(68))).toMatchObject({ units: 136, pages: 3 });
    expect(segment('😀'.repeat(36))).toMatchObject({ units: 72, pages: 2 });
    // A lone surrogate counts as one unit.
    expect(segment('\ud800'.repeat(71))).toMatchObject({ units: 71, pages: 2 });
  });

  it('counts extension characters once in UCS-2', () => {
    expect(segment('€'.repeat(69) + 'س')).toMatchObject({ encoding: 'UCS-2', units: 70, pages: 1 });
  });

  it('the final text of an SMS line (with \\nلغو۱۱) is UCS-2 however Latin the body is', () => {
    const phrase = '\nلغو۱۱';
    expect(segment('a'.repeat(64) + phrase)).toMatchObject({ encoding: 'UCS-2', units: 70, pages: 1 });
    expect(segment('a'.repeat(65) + phrase)).toMatchObject({ encoding: 'UCS-2', units: 71, pages: 2 });
  });
});

describe('ucs2Characters', () => {
  it('lists the characters that force UCS-2, in order', () => {
    expect(ucs2Characters('Hi سلام [ok] ç')).toEqual(['س', 'ل', 'ا', 'م', 'ç']);
    expect(ucs2Characters('plain GSM text {with} €')).toEqual([]);
  });
});

describe('messageCostRials', () => {
  it('is pages x page tomans x 10 for SMS lines', () => {
    expect(messageCostRials('a', false, pricing)).toBe(1500);
    expect(messageCostRials('س'.repeat(71), false, pricing)).toBe(2 * 150 * 10);
    expect(messageCostRials('س'.repeat(135), false, pricing)).toBe(3 * 150 * 10);
    expect(countPages('س'.repeat(135))).toBe(3);
  });

  it('is the fixed messenger price x 10 for bale and rubika, whatever the length', () => {
    expect(messageCostRials('a', true, pricing)).toBe(500);
    expect(messageCostRials('س'.repeat(5000), true, pricing)).toBe(500);
  });

  it('follows the configured prices', () => {
    expect(messageCostRials('س'.repeat(71), false, { sms_page_tomans: 99, messenger_message_tomans: 7 })).toBe(1980);
    expect(messageCostRials('x', true, { sms_page_tomans: 99, messenger_message_tomans: 7 })).toBe(70);
  });
});
