import { describe, expect, it } from 'vitest';
import { formatOffset, instantOf, offsetAt, parseClock, toRfc3339, wallTimeAt, wallTimeOf } from './zonedTime';

const wall = (year: number, month: number, day: number, hour: number, minute: number) => ({
  year,
  month,
  day,
  hour,
  minute,
});

describe('zoned send times', () => {
  it('reads a Tehran wall time with +03:30', () => {
    expect(toRfc3339(wall(2025, 3, 21, 10, 0), 'Asia/Tehran')).toBe('2025-03-21T10:00:00+03:30');
    expect(instantOf(wall(2025, 3, 21, 10, 0), 'Asia/Tehran')).toBe(Date.parse('2025-03-21T06:30:00Z'));
    // Iran has had no summer time since 2022: the offset is the same in summer.
    expect(toRfc3339(wall(2025, 7, 1, 23, 45), 'Asia/Tehran')).toBe('2025-07-01T23:45:00+03:30');
  });

  it('follows summer time in a zone that has it', () => {
    expect(toRfc3339(wall(2025, 1, 15, 10, 0), 'Europe/Berlin')).toBe('2025-01-15T10:00:00+01:00');
    expect(toRfc3339(wall(2025, 7, 15, 10, 0), 'Europe/Berlin')).toBe('2025-07-15T10:00:00+02:00');
    expect(toRfc3339(wall(2025, 7, 15, 10, 0), 'America/New_York')).toBe('2025-07-15T10:00:00-04:00');
    expect(toRfc3339(wall(2025, 12, 31, 23, 30), 'America/New_York')).toBe('2025-12-31T23:30:00-05:00');
  });

  it('moves a time skipped by the spring change past the jump, and takes the first of a doubled one', () => {
    // Berlin, 30 March 2025: 02:00 jumps to 03:00.
    expect(toRfc3339(wall(2025, 3, 30, 2, 30), 'Europe/Berlin')).toBe('2025-03-30T03:30:00+02:00');
    // 26 October 2025: 03:00 goes back to 02:00, so 02:30 happens twice.
    expect(toRfc3339(wall(2025, 10, 26, 2, 30), 'Europe/Berlin')).toBe('2025-10-26T02:30:00+02:00');
    expect(instantOf(wall(2025, 10, 26, 2, 30), 'Europe/Berlin')).toBe(Date.parse('2025-10-26T00:30:00Z'));
  });

  it('shows an instant on the wall of a zone, and reads a picked time back', () => {
    const ms = Date.parse('2025-03-20T21:00:00Z');
    expect(wallTimeAt(ms, 'Asia/Tehran')).toMatchObject(wall(2025, 3, 21, 0, 30));
    expect(offsetAt(ms, 'Asia/Tehran')).toBe(210);
    expect(offsetAt(ms, 'UTC')).toBe(0);
    expect(wallTimeOf('2025-03-21T10:05:00+03:30')).toEqual(wall(2025, 3, 21, 10, 5));
    expect(wallTimeOf('tomorrow')).toBeNull();
    expect(formatOffset(-270)).toBe('-04:30');
  });

  it('parses clock times', () => {
    expect(parseClock('9:05')).toEqual({ hour: 9, minute: 5 });
    expect(parseClock('23:59')).toEqual({ hour: 23, minute: 59 });
    expect(parseClock('24:00')).toBeNull();
    expect(parseClock('10:6')).toBeNull();
  });
});
