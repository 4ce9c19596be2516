import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { resources } from '../../../i18n';
import { en } from '../../../i18n/en';
import { fa } from '../../../i18n/fa';
import { audienceParts } from '../editor/audience';
import { conditionWords, filterWords } from './words';

const FSI = '\u2068';
const PDI = '\u2069';
const bare = (text: string) => text.replaceAll(FSI, '').replaceAll(PDI, '');

describe('a filter said in words', () => {
  const i18n = i18next.createInstance();
  void i18n.init({
    resources,
    lng: 'en',
    fallbackLng: false,
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });
  const tEn = i18n.getFixedT('en');
  const tFa = i18n.getFixedT('fa');

  it('says each operator in English, values isolated from the sentence', () => {
    const said = filterWords(
      {
        all: [
          { column: 'CITY', op: 'equals', value: 'تهران' },
          { column: 'AGE', op: 'between', kind: 'number', from: '20', to: '30' },
        ],
      },
      'en',
      tEn,
    );
    expect(said).toBe(
      `${FSI}CITY${PDI} is ${FSI}تهران${PDI} and ${FSI}AGE${PDI} between ${FSI}20${PDI} and ${FSI}30${PDI}`,
    );
    const words = (condition: Parameters<typeof conditionWords>[0]) =>
      bare(filterWords({ all: [condition] }, 'en', tEn)!);
    expect(words({ column: 'CITY', op: 'in', values: ['کرج', 'طهران'] })).toBe('CITY is کرج or طهران');
    expect(words({ column: 'CITY', op: 'in', values: ['کرج'] })).toBe('CITY is کرج');
    expect(words({ column: 'NAME', op: 'contains', value: 'علی' })).toBe('NAME contains علی');
    expect(words({ column: 'NOTE', op: 'equals', value: ' ' })).toBe('NOTE is empty');
    expect(words({ column: 'AGE', op: 'between', kind: 'number', from: '18', to: null })).toBe('AGE at least 18');
    expect(words({ column: 'JOINED', op: 'between', kind: 'date', from: null, to: '2025-03-21' })).toBe(
      'JOINED on or before Friday, March 21, 2025',
    );
  });

  it('says them in Persian, digits and dates in its own script and calendar', () => {
    const words = (condition: Parameters<typeof conditionWords>[0]) =>
      bare(filterWords({ all: [condition] }, 'fa', tFa)!);
    expect(words({ column: 'سن', op: 'between', kind: 'number', from: '20', to: '30' })).toBe('سن بین ۲۰ و ۳۰ است');
    expect(words({ column: 'CITY', op: 'in', values: ['کرج', 'قم'] })).toBe('CITY کرج یا قم است');
    expect(words({ column: 'عضویت', op: 'between', kind: 'date', from: '2025-03-21', to: null })).toBe(
      'عضویت از جمعه ۱ فروردین ۱۴۰۴ به بعد است',
    );
    expect(
      bare(
        filterWords(
          {
            all: [
              { column: 'CITY', op: 'equals', value: 'تهران' },
              { column: 'AGE', op: 'between', kind: 'number', from: '20', to: '30' },
            ],
          },
          'fa',
          tFa,
        )!,
      ),
    ).toBe('CITY برابر تهران است و AGE بین ۲۰ و ۳۰ است');
  });

  it('is nothing without conditions', () => {
    expect(filterWords(null, 'en', tEn)).toBeNull();
  });

  it('has every word in both languages', () => {
    const keys = [
      'equals',
      'empty',
      'contains',
      'in',
      'between',
      'atLeast',
      'atMost',
      'since',
      'until',
      'any',
      'anniversary',
    ];
    for (const texts of [en.campaignEditor.filter.words, fa.campaignEditor.filter.words])
      for (const key of keys) expect(typeof (texts as Record<string, unknown>)[key], key).toBe('string');
  });
});

describe('the audience sentence with conditions', () => {
  it('says how many the conditions left out, after the opted out', () => {
    const parts = audienceParts(
      {
        segments: [{ segment_id: 1, name: 'A', role: 'include', members: 0, ready: true }],
        included: 1204,
        duplicates: 0,
        excluded: 0,
        opted_out: 4,
        filtered_out: 900,
        recipients: 300,
      },
      'fa',
    );
    expect(parts.map((p) => p.key)).toEqual(['inOne', 'optedOut', 'filteredOut']);
    expect(parts[2]).toEqual({ section: 'filter', key: 'filteredOut', values: { n: '۹۰۰' } });
  });
});
