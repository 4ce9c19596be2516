import { describe, expect, it } from 'vitest';
import { createPreferencesStore, DEFAULT_PREFERENCES, readPreferences } from './preferences';
import { numberText, parseNumberText } from '../components/NumberField';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
}

describe('preferences', () => {
  it('keeps what was chosen for the next start, field by field', () => {
    const storage = memoryStorage();
    const store = createPreferencesStore(storage);
    expect(store.getState().language).toBeNull();
    expect(store.getState().moneyUnit).toBe('rials');
    store.getState().set({ language: 'fa', warnAbovePages: 3, moneyUnit: 'tomans' });
    expect(readPreferences(storage)).toEqual({
      ...DEFAULT_PREFERENCES,
      language: 'fa',
      warnAbovePages: 3,
      moneyUnit: 'tomans',
    });
  });

  it('falls back to the defaults for damaged values', () => {
    const storage = memoryStorage({
      'chapar.preferences': '{"language":"de","confirmAboveRials":-5,"moneyUnit":"dollars"}',
    });
    expect(readPreferences(storage)).toEqual(DEFAULT_PREFERENCES);
    expect(readPreferences(memoryStorage({ 'chapar.preferences': 'not json' }))).toEqual(DEFAULT_PREFERENCES);
    expect(readPreferences(null)).toEqual(DEFAULT_PREFERENCES);
  });
});

describe('number fields', () => {
  it('read Persian and Arabic digits and any thousands separator', () => {
    expect(parseNumberText(numberText('۵۰۰۰۰۰۰۰', false))).toBe(50_000_000);
    expect(parseNumberText(numberText('٥٠٬٠٠٠', false))).toBe(50_000);
    expect(parseNumberText(numberText('1,250,000', false))).toBe(1_250_000);
    expect(parseNumberText(numberText('۱۲٫۵', true))).toBe(12.5);
  });

  it('keep a minus sign so the form can refuse it, and drop letters', () => {
    expect(parseNumberText(numberText('-5', false))).toBe(-5);
    expect(numberText('5a0b', false)).toBe('50');
    expect(parseNumberText(numberText('-', false))).toBe('');
    expect(parseNumberText('')).toBe('');
  });
});
