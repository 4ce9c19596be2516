// Version 1's parameters as its clients send them: query and body merged, repeated keys, JSON
// arrays in form fields (sendarray), empty values as absent, and the send date.
import { describe, expect, it } from 'vitest';
import { V1Params } from './params';
import { ServiceError } from '../../errors';

function codeOf(run: () => unknown): number | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof ServiceError) return error.code;
    throw error;
  }
}

describe('V1Params', () => {
  it('merges the query with the body, query first, names case-insensitive, empty values absent', () => {
    const params = V1Params.from(
      { Receptor: '0912', sender: '' },
      { receptor: '0935,0936', message: 'hi', localid: '' },
    );
    expect(params.list('receptor')).toEqual(['0912', '0935', '0936']);
    expect(params.string('MESSAGE')).toBe('hi');
    expect(params.string('sender')).toBeUndefined();
    expect(params.members('localid')).toBeUndefined();
    expect(codeOf(() => params.required('sender'))).toBe(400);
  });

  it('takes the text null (JSON’s literal: PHP’s sendarray defaults) for absent, required ones too; nothing else', () => {
    const params = V1Params.from(
      { type: 'null' },
      { localmessageid: 'null', sender: 'NULL', message: '["null", null]', receptor: ['null', '0912'] },
    );
    expect(params.string('type')).toBeUndefined();
    expect(params.members('localmessageid')).toBeUndefined();
    expect(params.string('sender')).toBe('NULL');
    expect(params.array('message')).toEqual(['null', '']);
    expect(params.array('receptor')).toEqual(['null', '0912']);
    expect(codeOf(() => V1Params.from({}, { message: 'null' }).required('message'))).toBe(400);
  });

  it('reads repeated keys as a list, each maybe a comma list itself, and keeps their texts whole as an array', () => {
    const params = V1Params.from({}, { messageid: ['1', '2,3'], message: ['one, two', 'three'], localid: ['', 'b'] });
    expect(params.ints('messageid')).toEqual([1, 2, 3]);
    expect(params.array('message')).toEqual(['one, two', 'three']);
    expect(params.members('localid')).toEqual([undefined, 'b']);
    expect(params.list('localid')).toEqual(['b']);
  });

  it("reads sendarray's JSON arrays in form fields, and a JSON body's arrays alike", () => {
    const form = V1Params.from({}, { receptor: '["0912","0935"]', message: '["a, b", " c "]', type: '[1,1]' });
    expect(form.array('receptor')).toEqual(['0912', '0935']);
    expect(form.array('message')).toEqual(['a, b', ' c ']);
    expect(form.array('type')).toEqual(['1', '1']);
    const json = V1Params.from({}, { receptor: ['0912'], message: ['a, b'], localmessageids: ['x', null] });
    expect(json.array('receptor')).toEqual(['0912']);
    expect(json.array('message')).toEqual(['a, b']);
    expect(json.members('localmessageids')).toEqual(['x', undefined]);
    expect(V1Params.from({}, { receptor: 'a, b' }).array('receptor')).toEqual(['a', 'b']);
    expect(codeOf(() => V1Params.from({}, { receptor: '[not json' }).array('receptor'))).toBe(400);
    expect(codeOf(() => V1Params.from({}, { receptor: '{"a":1}' }).list('receptor'))).toBe(null);
    expect(codeOf(() => V1Params.from({}, { receptor: '[{"a":1}' }).list('receptor'))).toBe(400);
  });

  it('reads the send date: absent or 0 now, a future time in ms, past or broken 417', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(V1Params.from({ date: '0' }, {}).sendDate('date', now)).toBeNull();
    expect(V1Params.from({}, {}).sendDate('date', now)).toBeNull();
    expect(V1Params.from({ date: String(now / 1000 + 60) }, {}).sendDate('date', now)).toBe(now + 60_000);
    expect(V1Params.from({ date: '۱۷۶۷۲۲۵۶۶۰' }, {}).sendDate('date', now)).toBe(1_767_225_660_000);
    for (const date of [String(now / 1000 - 3600), 'soon', '-1', '1.5'])
      expect(codeOf(() => V1Params.from({ date }, {}).sendDate('date', now))).toBe(417);
  });
});
