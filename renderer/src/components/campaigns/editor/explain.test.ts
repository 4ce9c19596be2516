import { describe, expect, it } from 'vitest';
import { audienceParts } from './audience';
import { faultText } from './faults';
import { en } from '../../../i18n/en';
import { fa } from '../../../i18n/fa';

const FSI = '\u2068';
const PDI = '\u2069';

const segment = (segment_id: number, name: string, role: 'include' | 'exclude', ready = true) => ({
  segment_id,
  name,
  role,
  members: 0,
  ready,
});

describe('the audience sentence', () => {
  it('says one segment minus another and the opted out', () => {
    const parts = audienceParts(
      {
        segments: [segment(1, 'A', 'include'), segment(2, 'B', 'exclude')],
        included: 1204,
        duplicates: 0,
        excluded: 380,
        opted_out: 120,
        filtered_out: 0,
        recipients: 704,
      },
      'en',
    );
    expect(parts).toEqual([
      { key: 'inOne', values: { n: '1,204', name: `${FSI}A${PDI}` } },
      { key: 'excluded', values: { n: '380', names: `${FSI}B${PDI}` } },
      { key: 'optedOut', values: { n: '120' } },
    ]);
  });

  it('names several inclusion segments with their duplicates counted once, in Persian digits', () => {
    const parts = audienceParts(
      {
        segments: [segment(1, 'الف', 'include'), segment(2, 'ب', 'include'), segment(3, 'ج', 'include', false)],
        included: 1500,
        duplicates: 40,
        excluded: 0,
        opted_out: 0,
        filtered_out: 0,
        recipients: 1500,
      },
      'fa',
    );
    expect(parts.map((p) => p.key)).toEqual(['inMany', 'duplicates', 'notReady']);
    expect(parts[0]!.values.n).toBe('۱٬۵۰۰');
    expect(parts[0]!.values.names).toBe(`${FSI}الف${PDI} و ${FSI}ب${PDI}`);
    expect(parts[1]!.values.n).toBe('۴۰');
  });
});

describe('refusals in the user words', () => {
  it('gives the common checks their own sentences', () => {
    expect(faultText({ code: 400, detail: 'name is required' }, 'en')).toEqual({ key: 'name', values: {} });
    expect(faultText({ code: 400, detail: 'links[1]actual_url is required' }, 'fa')).toEqual({
      key: 'linkEmpty',
      values: { n: 2 },
    });
    expect(faultText({ code: 412, detail: null, message: 'ارسال کننده نامعتبر است' }, 'en')).toEqual({
      key: 'lineNotAllowed',
    });
    expect(faultText({ code: 414, detail: 'at most 100000 recipients in a campaign with links' }, 'en')).toEqual({
      key: 'tooManyForLinks',
      values: { n: 100000 },
    });
  });

  it('says others as the service does, in the language it can', () => {
    const fault = { code: 500, detail: 'disk full', message: 'خطای داخلی سرور' };
    expect(faultText(fault, 'en')).toEqual({ key: 'other', values: { text: 'disk full' } });
    expect(faultText(fault, 'fa')).toEqual({ key: 'other', values: { text: 'خطای داخلی سرور (disk full)' } });
  });
});

describe('the editor texts built from names', () => {
  it('exist in both languages', () => {
    const keys = {
      blocks: ['noName', 'noSender', 'noText', 'noSegments', 'noRecipients', 'noCredit'],
      audience: ['inOne', 'inMany', 'duplicates', 'excluded', 'optedOut', 'notReady', 'result'],
      preview: ['first', 'longest', 'random'],
      save: ['idle', 'pending', 'saving', 'saved', 'failed'],
      faults: [
        'name',
        'sender',
        'sendTime',
        'text',
        'linkEmpty',
        'linkNotWeb',
        'tooManyLinks',
        'tooManyForLinks',
        'sendRate',
        'quietHours',
        'segmentUnknown',
        'draftMissing',
        'tooManyDrafts',
        'lineNotAllowed',
        'badDate',
        'noCredit',
        'badReceptor',
        'accountInactive',
      ],
    } as const;
    for (const texts of [en.campaignEditor, fa.campaignEditor])
      for (const [group, names] of Object.entries(keys))
        for (const name of names)
          expect(
            typeof (texts as unknown as Record<string, Record<string, unknown>>)[group]![name],
            `${group}.${name}`,
          ).toBe('string');
  });
});
