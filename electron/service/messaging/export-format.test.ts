// The exports' times: each style agrees with Intl for every minute across a day, in zones with
// half-hour and daylight-saving offsets (the quarter-hour cache must never show a stale offset).
import { describe, expect, it } from 'vitest';
import { zonedTimeFormatter } from './export-format';

describe('zonedTimeFormatter', () => {
  it('matches Intl for every minute across a day, in zones with half-hour and DST offsets', () => {
    for (const zone of ['Asia/Tehran', 'Asia/Kathmandu', 'Europe/Berlin', 'America/St_Johns']) {
      const jalali = zonedTimeFormatter('jalali', zone);
      const gregorian = zonedTimeFormatter('gregorian', zone);
      const iso = zonedTimeFormatter('iso', zone);
      const exact = (calendar: string) =>
        new Intl.DateTimeFormat(`en-US-u-ca-${calendar}-nu-latn`, {
          timeZone: zone,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
          hourCycle: 'h23',
        });
      const persian = exact('persian');
      const gregory = exact('gregory');
      const parts = (intl: Intl.DateTimeFormat, ms: number) =>
        Object.fromEntries(intl.formatToParts(ms).map((p) => [p.type, p.value]));
      // Across Berlin's DST end (2026-10-25 01:00 UTC).
      for (let ms = Date.UTC(2026, 9, 24, 12, 0, 7); ms < Date.UTC(2026, 9, 25, 12); ms += 60_000 + 1_013) {
        const p = parts(persian, ms);
        expect(jalali(ms)).toBe(`${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}:${p.second}`);
        const g = parts(gregory, ms);
        expect(gregorian(ms)).toBe(`${g.year}-${g.month}-${g.day} ${g.hour}:${g.minute}:${g.second}`);
        const text = iso(ms);
        expect(new Date(text).getTime()).toBe(Math.floor(ms / 1000) * 1000);
        expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
        expect(text.slice(0, 19)).toBe(gregorian(ms).replace(' ', 'T'));
      }
    }
  });

  it('writes Tehran time as Jalali with the zone offset beside it', () => {
    // 2026-11-20 06:30 UTC = 10:00 in Tehran = 1405/08/29.
    const ms = Date.UTC(2026, 10, 20, 6, 30);
    expect(zonedTimeFormatter('jalali', 'Asia/Tehran')(ms)).toBe('1405/08/29 10:00:00');
    expect(zonedTimeFormatter('iso', 'Asia/Tehran')(ms)).toBe('2026-11-20T10:00:00+03:30');
    expect(zonedTimeFormatter('gregorian', 'UTC')(ms)).toBe('2026-11-20 06:30:00');
  });
});
