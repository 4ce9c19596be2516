import { describe, expect, it } from 'vitest';
import { formatAmount, inUnit, toRials } from './money';

describe('amounts in rials or tomans', () => {
  it('shows rials as they are, tomans as a tenth of them', () => {
    expect(formatAmount(1_221_000, 'rials', 'en')).toBe('1,221,000');
    expect(formatAmount(1_221_000, 'tomans', 'en')).toBe('122,100');
    expect(formatAmount(4_505, 'tomans', 'en')).toBe('450.5');
    expect(formatAmount(1_221_000, 'tomans', 'fa')).toBe('۱۲۲٬۱۰۰');
    expect(inUnit(-300, 'tomans')).toBe(-30);
  });
  it('takes what is typed in the unit back to rials', () => {
    expect(toRials(50_000, 'tomans')).toBe(500_000);
    expect(toRials(50_000, 'rials')).toBe(50_000);
    expect(toRials(0.3, 'tomans')).toBe(3);
  });
});
