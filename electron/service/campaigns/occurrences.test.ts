// The calendar of a series: days of a daily, weekly and monthly rule (Jalali and Gregorian month
// lengths, Esfand of a leap year and of a common one, a day a month lacks), the instant of a local
// time in Tehran (no DST) and in Berlin across its spring gap, and `until`.
import { describe, expect, it } from 'vitest';
import {
  instantOf,
  jalaliOf,
  localDate,
  nextOccurrence,
  occurrences,
  occurrencesWithin,
  type SeriesRule,
} from './occurrences';

const TEHRAN = 'Asia/Tehran';
const BERLIN = 'Europe/Berlin';

function days(rule: SeriesRule, zone: string, from: string, count: number): string[] {
  const found: string[] = [];
  for (const { occurrence } of occurrences(rule, zone, Date.parse(from), null)) {
    found.push(occurrence);
    if (found.length === count) break;
  }
  return found;
}

describe('the occurrence calendar', () => {
  it('reads Jalali dates through Intl (Nowruz 1404, 30 Esfand 1403 of a leap year)', () => {
    expect(jalaliOf('2025-03-21')).toEqual({ year: 1404, month: 1, day: 1 });
    expect(jalaliOf('2025-03-20')).toEqual({ year: 1403, month: 12, day: 30 });
    expect(jalaliOf('2026-03-20')).toEqual({ year: 1404, month: 12, day: 29 });
  });

  it('daily at 09:00 Tehran is 05:30 UTC every day (no DST), from the first at or after the start', () => {
    const rule: SeriesRule = { every: 'daily', hour: 9, minute: 0, until: null };
    // 10:00 Tehran: today's 09:00 has passed, so tomorrow's is first.
    const list = [...occurrencesWithin(rule, TEHRAN, Date.parse('2026-06-01T06:30:00Z'), 3)];
    expect(list).toEqual([
      { occurrence: '2026-06-02', at: Date.parse('2026-06-02T05:30:00Z') },
      { occurrence: '2026-06-03', at: Date.parse('2026-06-03T05:30:00Z') },
      { occurrence: '2026-06-04', at: Date.parse('2026-06-04T05:30:00Z') },
    ]);
    // At 08:00 Tehran today's comes first.
    expect(nextOccurrence(rule, TEHRAN, Date.parse('2026-06-01T04:30:00Z'), null)?.occurrence).toBe('2026-06-01');
    // In winter too (Iran has had no DST since 2022).
    expect(instantOf('2026-12-01', 9, 0, TEHRAN)).toBe(Date.parse('2026-12-01T05:30:00Z'));
  });

  it('takes local days: 01:00 Tehran on the 2nd is still the 1st in UTC', () => {
    expect(localDate(Date.parse('2026-06-01T21:30:00Z'), TEHRAN)).toBe('2026-06-02');
    const rule: SeriesRule = { every: 'daily', hour: 1, minute: 0, until: null };
    expect(nextOccurrence(rule, TEHRAN, Date.parse('2026-06-01T21:00:00Z'), null)).toEqual({
      occurrence: '2026-06-02',
      at: Date.parse('2026-06-01T21:30:00Z'),
    });
  });

  it('keeps the wall time across a DST change (Berlin, 29 March 2026), and a time in the gap moves an hour on', () => {
    const rule: SeriesRule = { every: 'daily', hour: 9, minute: 0, until: null };
    const list = occurrencesWithin(rule, BERLIN, Date.parse('2026-03-28T00:00:00Z'), 2);
    expect(list.map((o) => o.at)).toEqual([Date.parse('2026-03-28T08:00:00Z'), Date.parse('2026-03-29T07:00:00Z')]);
    // 02:30 does not exist that night: 03:30 CEST.
    expect(instantOf('2026-03-29', 2, 30, BERLIN)).toBe(Date.parse('2026-03-29T01:30:00Z'));
    // Autumn: 09:00 on 25 October is CET again.
    expect(instantOf('2026-10-25', 9, 0, BERLIN)).toBe(Date.parse('2026-10-25T08:00:00Z'));
  });

  it('weekly on the days named', () => {
    // 1 December 2026 is a Tuesday.
    const rule: SeriesRule = { every: 'weekly', hour: 9, minute: 0, weekdays: ['sat', 'mon'], until: null };
    expect(days(rule, TEHRAN, '2026-12-01T00:00:00Z', 4)).toEqual([
      '2026-12-05',
      '2026-12-07',
      '2026-12-12',
      '2026-12-14',
    ]);
  });

  it('monthly on a Jalali day, the last day of a month that lacks it (Mehr 30, Esfand 29 of 1404, 30 of 1403)', () => {
    const rule: SeriesRule = { every: 'monthly', hour: 9, minute: 0, day: 31, calendar: 'jalali', until: null };
    // From Shahrivar 1405: 31 Shahrivar, then 30 Mehr, 30 Aban …
    expect(days(rule, TEHRAN, '2026-09-01T00:00:00Z', 3)).toEqual(['2026-09-22', '2026-10-22', '2026-11-21']);
    const thirtieth: SeriesRule = { every: 'monthly', hour: 9, minute: 0, day: 30, calendar: 'jalali', until: null };
    // Esfand 1403 (leap) has its 30th; Esfand 1404 ends on the 29th.
    expect(days(thirtieth, TEHRAN, '2025-03-01T00:00:00Z', 1)).toEqual(['2025-03-20']);
    expect(days(thirtieth, TEHRAN, '2026-03-01T00:00:00Z', 2)).toEqual(['2026-03-20', '2026-04-19']);
    const first: SeriesRule = { every: 'monthly', hour: 9, minute: 0, day: 1, calendar: 'jalali', until: null };
    expect(days(first, TEHRAN, '2026-03-01T00:00:00Z', 1)).toEqual(['2026-03-21']);
  });

  it('monthly on a Gregorian day: 31 in February is its last day, 29 in a leap February is the 29th', () => {
    const rule: SeriesRule = { every: 'monthly', hour: 9, minute: 0, day: 31, calendar: 'gregorian', until: null };
    expect(days(rule, TEHRAN, '2026-01-15T00:00:00Z', 3)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31']);
    const leap: SeriesRule = { every: 'monthly', hour: 9, minute: 0, day: 29, calendar: 'gregorian', until: null };
    expect(days(leap, TEHRAN, '2028-02-01T00:00:00Z', 1)).toEqual(['2028-02-29']);
    expect(days(leap, TEHRAN, '2027-02-01T00:00:00Z', 1)).toEqual(['2027-02-28']);
  });

  it('stops at until (inclusive)', () => {
    const rule: SeriesRule = { every: 'daily', hour: 9, minute: 0, until: '2026-06-03' };
    expect(days(rule, TEHRAN, '2026-06-01T00:00:00Z', 10)).toEqual(['2026-06-01', '2026-06-02', '2026-06-03']);
    expect(nextOccurrence(rule, TEHRAN, Date.parse('2026-06-04T00:00:00Z'), null)).toBeNull();
  });

  it('goes on after a given day (the last made), whatever the start', () => {
    const rule: SeriesRule = { every: 'daily', hour: 9, minute: 0, until: null };
    expect(nextOccurrence(rule, TEHRAN, 0, '2026-06-01')?.occurrence).toBe('2026-06-02');
  });
});
