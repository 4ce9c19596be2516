import { describe, expect, it } from 'vitest';
import { analyzeReceivers } from './receivers';
import { composePreview, costlyCharacters, invisibleName, markedRuns } from './preview';
import { segment } from '../../../shared/pages';
import type { PricedText } from '../../../shared/pricing';

const pricing = { sms_page_tomans: 150, messenger_message_tomans: 50 };

describe('receivers preview', () => {
  it('sorts pasted entries into valid, invalid and dropped repeats as the service will', () => {
    const result = analyzeReceivers('0912 123 4567\n+989121234567, ۰۹۱۲۷۶۵۴۳۲۱; 12345\n9121234567');
    expect(result.valid).toEqual(['09121234567', '09127654321']);
    expect(result.invalid).toEqual(['12345']);
    // Entered three times: two lines dropped.
    expect(result.duplicates).toEqual(['09121234567', '09121234567']);
    expect(result.submitted).toHaveLength(5);
  });

  it('counts lines: 16 entries are valid + invalid + duplicate lines', () => {
    const lines = [
      ...['09121110001', '09121110002', '09121110003', '09121110004', '09121110005', '09121110006'],
      ...['12', 'abc', '0912', '---'],
      ...['09121110001', '+989121110001', '0912 111 0002', '۰۹۱۲۱۱۱۰۰۰۳', '09121110004', '09121110005'],
    ];
    const result = analyzeReceivers(lines.join('\n'));
    expect(result.valid.length + result.invalid.length + result.duplicates.length).toBe(16);
    expect(result.duplicates).toHaveLength(6);
  });
});

describe('compose preview', () => {
  it('adds the opt-out phrase on SMS lines and prices the pages', () => {
    const preview = composePreview('Hello', 'sms', pricing, 3);
    expect(preview.finalText).toBe('Hello\nلغو۱۱');
    expect(preview.perPage).toBe(70);
    expect(preview.pages).toBe(1);
    expect(preview.costPerMessageRials).toBe(1500);
    expect(preview.totalRials).toBe(4500);
  });

  it('leaves messenger texts alone at the messenger price', () => {
    const preview = composePreview('Hello', 'bale', pricing, 2);
    expect(preview).toMatchObject({ finalText: 'Hello', messenger: true, costPerMessageRials: 500, totalRials: 1000 });
  });

  it('points out no Persian letter where it changes no price: SMS (the opt-out phrase) and messengers', () => {
    expect(composePreview('سلام، تخفیف ویژه', 'sms', pricing, 1).costly).toEqual([]);
    // 83 pages either way: a long Persian text is not its letters' fault.
    expect(composePreview('س'.repeat(5_505), 'sms', pricing, 1).costly).toEqual([]);
    expect(composePreview('Hello ✓ سلام', 'bale', pricing, 1).costly).toEqual([]);
  });

  it('points out the characters that raise the price where a text is otherwise 160 a page', () => {
    // A line priced by pages without an added phrase: what the rule is for.
    const price = (text: string): PricedText => {
      const s = segment(text);
      return { text, messenger: false, optOutAdded: false, ...s, costRials: s.pages * 1500 };
    };
    const long = 'a'.repeat(100);
    expect(costlyCharacters(`${long} ✓ ok ✓ ü`, price)).toEqual({ characters: ['✓'], perPageWithout: 160 });
    // Short enough for one page either way: no money at stake.
    expect(costlyCharacters('ok ✓', price)).toEqual({ characters: [], perPageWithout: null });
  });

  it('marks runs of the given characters', () => {
    expect(markedRuns('ab سل c', new Set(['س', 'ل']))).toEqual([
      { text: 'ab ', marked: false },
      { text: 'سل', marked: true },
      { text: ' c', marked: false },
    ]);
  });

  it('names the characters a person cannot see', () => {
    expect(invisibleName('\u200c')).toBe('zwnj');
    expect(invisibleName('\t')).toBe('tab');
    expect(invisibleName('\u00a0')).toBe('nbsp');
    expect(invisibleName('\u2066')).toBe('other');
    expect(invisibleName('س')).toBeNull();
  });
});
