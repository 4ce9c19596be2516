import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { fa } from './fa';
import { resources } from './index';
import { counted } from '../lib/format';

function pluralKeys(texts: object, prefix = ''): string[] {
  return Object.entries(texts).flatMap(([key, value]) =>
    typeof value === 'string'
      ? key.endsWith('_one')
        ? [`${prefix}${key.slice(0, -4)}`]
        : []
      : pluralKeys(value as object, `${prefix}${key}.`),
  );
}

describe('plural forms', () => {
  const i18n = i18next.createInstance();
  void i18n.init({
    resources,
    lng: 'en',
    fallbackLng: false,
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });

  it('say "1 message" and "2 messages" in English, one form in Persian with Persian digits', () => {
    const en = i18n.getFixedT('en');
    const fa = i18n.getFixedT('fa');
    expect(en('messages.count', counted(1, 'en'))).toBe('1 message');
    expect(en('messages.count', counted(2, 'en'))).toBe('2 messages');
    expect(en('messages.count', counted(0, 'en'))).toBe('0 messages');
    expect(en('compose.confirm.send', counted(1, 'en'))).toBe('Send 1 message');
    expect(en('compose.confirm.send', counted(1200, 'en'))).toBe('Send 1,200 messages');
    expect(en('segment.members', counted(1, 'en'))).toBe('1 contact');
    expect(fa('messages.count', counted(1, 'fa'))).toBe('۱ پیام');
    expect(fa('messages.count', counted(2, 'fa'))).toBe('۲ پیام');
  });

  it('count each number of a sentence with two by its own form (an import summary, a resend)', () => {
    const en = i18n.getFixedT('en');
    const read = en('import.rowsRead', { ...counted(1, 'en'), file: 'a.csv' });
    expect(en('import.summaryNew', { read, ...counted(1, 'en'), segment: 'S' })).toBe(
      '1 row of a.csv read; 1 contact is in the new segment S.',
    );
    expect(en('import.summaryAdded', { read, ...counted(3, 'en'), segment: 'S' })).toBe(
      '1 row of a.csv read; 3 contacts were added to S.',
    );
    expect(en('report.resendLeftOut', { ...counted(1, 'en'), failed: '8' })).toMatch(
      /^1 of the 8 failed recipients is /,
    );
    expect(en('exports.rowsTo', { ...counted(1, 'en'), file: 'f.csv' })).toBe('1 row → f.csv');
  });

  it('has both forms of every plural text in both languages', () => {
    const keys = pluralKeys(en);
    expect(keys.length).toBeGreaterThan(40);
    expect(pluralKeys(fa)).toEqual(keys);
    for (const key of keys) {
      const lookup = (texts: object, k: string) =>
        k.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], texts);
      for (const texts of [en, fa]) expect(typeof lookup(texts, `${key}_other`), key).toBe('string');
    }
  });
});
