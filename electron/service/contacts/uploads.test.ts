import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors';
import { checkContacts, isUpperCaseKey } from './uploads';
import { decodeFields, encodeFields, remapFields } from './fields';
import { csvLine } from './csv';

function codeOf(body: unknown): number | null {
  try {
    checkContacts(body);
    return null;
  } catch (error) {
    return error instanceof ServiceError ? error.code : -1;
  }
}

describe('upload shape rules (spec 4.4)', () => {
  it('takes upper-case keys only', () => {
    expect(isUpperCaseKey('NAME')).toBe(true);
    expect(isUpperCaseKey('FIRST_NAME_2')).toBe(true);
    expect(isUpperCaseKey('Name')).toBe(false);
    expect(isUpperCaseKey('123')).toBe(false);
    expect(isUpperCaseKey('نام')).toBe(false);
  });

  it("returns the extra columns in the first object's order", () => {
    expect(checkContacts([{ CITY: 'a', phone_number: '1', NAME: 'b' }]).columns).toEqual(['CITY', 'NAME']);
  });

  it('answers 400 or 414 as the spec says', () => {
    expect(codeOf([])).toBe(400);
    expect(codeOf('x')).toBe(400);
    expect(codeOf([{ NAME: 'a' }])).toBe(400);
    expect(codeOf([{ phone_number: '1', name: 'a' }])).toBe(400);
    expect(codeOf([{ phone_number: '1' }, { phone_number: '2', A: 'x' }])).toBe(400);
    expect(codeOf([{ phone_number: 1 }])).toBe(400);
    expect(codeOf(Array.from({ length: 100_001 }, () => ({ phone_number: '1' })))).toBe(414);
    expect(
      codeOf([
        { phone_number: '1', A: 'x' },
        { A: 'y', phone_number: '2' },
      ]),
    ).toBeNull();
  });
});

describe('member fields and CSV lines', () => {
  it('round-trips values by column name and remaps between column sets', () => {
    const stored = encodeFields(['Ali', 'Tehran']);
    expect(decodeFields(stored, ['NAME', 'CITY'])).toEqual({ NAME: 'Ali', CITY: 'Tehran' });
    expect(decodeFields('', [])).toEqual({});
    expect(remapFields(stored, ['NAME', 'CITY'], ['CITY', 'CODE', 'NAME'])).toBe(encodeFields(['Tehran', '', 'Ali']));
  });

  it('quotes what needs quoting', () => {
    expect(csvLine(['a', 'b,c', 'd"e', 'f\ng'])).toBe('a,"b,c","d""e","f\ng"\n');
  });
});
