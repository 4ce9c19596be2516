import { describe, expect, it } from 'vitest';
import {
  conditionMatcher,
  conditionProblem,
  dayToGregorian,
  dayToJalali,
  foldValue,
  gregorianToDay,
  isAnniversary,
  isJalaliLeapYear,
  jalaliToDay,
  localDateDay,
  parseDate,
  parseNumber,
} from './column-values';

describe('folding', () => {
  it('brings Arabic spellings, presentation forms, digits and spacing to one form', () => {
    expect(foldValue('تهران')).toBe('تهران');
    expect(foldValue('ﺗﻬﺮﺍﻥ')).toBe('تهران');
    expect(foldValue('  كرج ')).toBe('کرج');
    expect(foldValue('علي')).toBe('علی');
    expect(foldValue('مصطفى')).toBe('مصطفی');
    expect(foldValue('مدرسة')).toBe('مدرسه');
    expect(foldValue('أحمد')).toBe('احمد');
    expect(foldValue('إيران')).toBe('ایران');
    expect(foldValue('آمل')).toBe('آمل');
    expect(foldValue('می‌رود')).toBe('میرود');
    expect(foldValue('تـــهران')).toBe('تهران');
    expect(foldValue('مُحَمَّد')).toBe('محمد');
    expect(foldValue('  Tehran   City ')).toBe('tehran city');
    expect(foldValue('۱۲۳٤٥٦')).toBe('123456');
    expect(foldValue('ＡＢＣ１２')).toBe('abc12');
  });
  it('folds letters, not place names', () => {
    expect(foldValue('طهران')).not.toBe(foldValue('تهران'));
  });
});

describe('numbers', () => {
  it('reads digits of any script, separators and decimals', () => {
    expect(parseNumber('۱۲۳')).toBe(123);
    expect(parseNumber('١٢٣')).toBe(123);
    expect(parseNumber('۱٬۲۳۴٫۵')).toBe(1234.5);
    expect(parseNumber('1,234.5')).toBe(1234.5);
    expect(parseNumber(' -7 ')).toBe(-7);
    expect(parseNumber('12 000')).toBe(12000);
    expect(parseNumber('')).toBeNull();
    expect(parseNumber('abc')).toBeNull();
    expect(parseNumber('1.2.3')).toBeNull();
  });
});

describe('calendars', () => {
  const persian = new Intl.DateTimeFormat('en-u-ca-persian-nu-latn', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  });
  function intlJalali(day: number) {
    const parts = persian.formatToParts(new Date(day * 86_400_000));
    const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
    return { year: get('year'), month: get('month'), day: get('day') };
  }
  it('agrees with Intl’s persian calendar over 1300..1500 AP, both ways', () => {
    const from = jalaliToDay(1300, 1, 1);
    const to = jalaliToDay(1500, 1, 1);
    expect(from).toBe(gregorianToDay(1921, 3, 21));
    for (let day = from; day < to; day++) {
      const ours = dayToJalali(day);
      expect(ours).toEqual(intlJalali(day));
      expect(jalaliToDay(ours.year, ours.month, ours.day)).toBe(day);
    }
  });
  it('converts Gregorian days both ways', () => {
    for (let day = -40_000; day < 60_000; day += 7) {
      const g = dayToGregorian(day);
      const date = new Date(day * 86_400_000);
      expect(g).toEqual({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
      expect(gregorianToDay(g.year, g.month, g.day)).toBe(day);
    }
  });
  it('knows the leap years', () => {
    expect([1399, 1400, 1401, 1402, 1403, 1404, 1408].map(isJalaliLeapYear)).toEqual([
      true,
      false,
      false,
      false,
      true,
      false,
      true,
    ]);
  });
});

describe('date cells', () => {
  const mordad12 = gregorianToDay(1991, 8, 3);
  it('reads Jalali, Gregorian and Excel dates', () => {
    expect(parseDate('۱۳۷۰/۰۵/۱۲')).toEqual({
      day: mordad12,
      calendar: 'jalali',
      year: 1370,
      month: 5,
      dayOfMonth: 12,
    });
    expect(parseDate('1370-5-12')?.day).toBe(mordad12);
    expect(parseDate('12/05/1370')?.day).toBe(mordad12);
    expect(parseDate('1991/08/03')).toEqual({
      day: mordad12,
      calendar: 'gregorian',
      year: 1991,
      month: 8,
      dayOfMonth: 3,
    });
    expect(parseDate('1991-08-03')?.day).toBe(mordad12);
    expect(parseDate('1991-08-03T10:00:00Z')?.day).toBe(mordad12);
    expect(parseDate('03/08/1991')?.day).toBe(mordad12); // day first
    expect(parseDate('08/23/1991')?.day).toBe(gregorianToDay(1991, 8, 23)); // only a month first can be
    expect(parseDate('33453')).toEqual({ day: mordad12, calendar: 'excel', year: 1991, month: 8, dayOfMonth: 3 });
    expect(parseDate('33453.75')?.day).toBe(mordad12);
    expect(parseDate('61')?.day).toBe(gregorianToDay(1900, 3, 1));
    expect(parseDate('59')?.day).toBe(gregorianToDay(1900, 2, 28));
  });
  it('refuses days that do not exist', () => {
    expect(parseDate('1402/12/30')).toBeNull(); // 1402 has 29 days in Esfand
    expect(parseDate('1403/12/30')?.day).toBe(gregorianToDay(2025, 3, 20));
    expect(parseDate('2023-02-29')).toBeNull();
    expect(parseDate('2024-02-29')?.day).toBe(gregorianToDay(2024, 2, 29));
    expect(parseDate('1370/13/01')).toBeNull();
    expect(parseDate('hello')).toBeNull();
    expect(parseDate('')).toBeNull();
    expect(localDateDay('2024-02-30')).toBeNull();
  });
});

describe('anniversaries', () => {
  const day = (text: string) => localDateDay(text)!;
  it('a Jalali date on its Jalali day, a Gregorian one on its Gregorian day', () => {
    const jalali = parseDate('۱۳۷۰/۰۵/۱۲')!;
    expect(isAnniversary(jalali, day('2026-08-03'))).toBe(true); // 12 Mordad 1405
    expect(isAnniversary(jalali, day('2024-08-03'))).toBe(false); // 12 Mordad 1403 is 2 August
    expect(isAnniversary(jalali, day('2024-08-02'))).toBe(true);
    const gregorian = parseDate('1991-08-03')!;
    expect(isAnniversary(gregorian, day('2027-08-03'))).toBe(true);
    expect(isAnniversary(parseDate('33453')!, day('2027-08-03'))).toBe(true);
  });
  it('30 Esfand on the 29th of a common year; 29 February on the 28th', () => {
    const esfand30 = parseDate('1399/12/30')!;
    expect(isAnniversary(esfand30, jalaliToDay(1402, 12, 29))).toBe(true);
    expect(isAnniversary(esfand30, jalaliToDay(1403, 12, 29))).toBe(false);
    expect(isAnniversary(esfand30, jalaliToDay(1403, 12, 30))).toBe(true);
    const feb29 = parseDate('2000-02-29')!;
    expect(isAnniversary(feb29, day('2025-02-28'))).toBe(true);
    expect(isAnniversary(feb29, day('2028-02-28'))).toBe(false);
    expect(isAnniversary(feb29, day('2028-02-29'))).toBe(true);
  });
  it('a window of days holds every anniversary in it, the same sum as one day at a time', () => {
    const cells = ['۱۳۷۰/۰۵/۱۲', '1991-08-03', '33453', '1365/05/20', '1980-08-31', '1980-09-01', 'x', ''];
    const window = conditionMatcher({ column: 'B', op: 'anniversary', on: '2026-08-02', days: 30 });
    expect(cells.filter(window)).toEqual(['۱۳۷۰/۰۵/۱۲', '1991-08-03', '33453', '1365/05/20', '1980-08-31']);
    let daily = 0;
    for (let d = 0; d < 30; d++) {
      const on = new Date(Date.UTC(2026, 7, 2 + d)).toISOString().slice(0, 10);
      daily += cells.filter(conditionMatcher({ column: 'B', op: 'anniversary', on })).length;
    }
    expect(daily).toBe(5);
  });
});

describe('conditions', () => {
  it('equals, contains and in compare folded', () => {
    const tehran = conditionMatcher({ column: 'CITY', op: 'equals', value: 'تهران' });
    expect(['تهران', 'ﺗﻬﺮﺍﻥ', ' تهران ', 'طهران', 'تهرانپارس', ''].map(tehran)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    const contains = conditionMatcher({ column: 'NAME', op: 'contains', value: 'علی' });
    expect(['علي رضا', 'مرتضی', 'Ali'].map(contains)).toEqual([true, false, false]);
    const within = conditionMatcher({ column: 'CITY', op: 'in', values: ['کرج', 'Tehran'] });
    expect(['كرج', 'TEHRAN', 'قم'].map(within)).toEqual([true, true, false]);
  });
  it('between numbers and dates, ends open or closed', () => {
    const age = conditionMatcher({ column: 'AGE', op: 'between', kind: 'number', from: '۱۸', to: '30' });
    expect(['17', '۱۸', '٣٠', '30.5', 'x', ''].map(age)).toEqual([false, true, true, false, false, false]);
    const open = conditionMatcher({ column: 'AGE', op: 'between', kind: 'number', from: null, to: '10' });
    expect(['-5', '11'].map(open)).toEqual([true, false]);
    const born = conditionMatcher({ column: 'B', op: 'between', kind: 'date', from: '1370/01/01', to: '1991-12-31' });
    expect(['۱۳۷۰/۰۵/۱۲', '1990-01-01', '33453', '1992-01-01', 'soon'].map(born)).toEqual([
      true,
      false,
      true,
      false,
      false,
    ]);
  });
  it('says what is wrong with bounds', () => {
    expect(conditionProblem({ column: 'A', op: 'between', kind: 'number', from: 'ten', to: null })).toBe(
      'bound_invalid',
    );
    expect(conditionProblem({ column: 'A', op: 'between', kind: 'number', from: '10', to: '2' })).toBe(
      'bounds_reversed',
    );
    expect(conditionProblem({ column: 'A', op: 'between', kind: 'date', from: '1402/12/30', to: null })).toBe(
      'bound_invalid',
    );
    expect(conditionProblem({ column: 'A', op: 'between', kind: 'date', from: '', to: '1403/01/01' })).toBeNull();
    expect(conditionProblem({ column: 'A', op: 'equals', value: 'x' })).toBeNull();
  });
});
