// The calendar of a series (a repeating or date-triggered campaign): which local days it has an
// occurrence on, and the instant each is due, in the account's time zone. Pure: days are counted
// as Gregorian dates (`YYYY-MM-DD`, the occurrence's key), Jalali months are read through Intl's
// persian calendar (no table of our own), and a wall time is turned into an instant with the
// zone's offset as Intl gives it (a DST zone included: a time the spring gap skips is taken one
// hour later, a time the autumn fold repeats is its first instant).
import { offsetAt, wallTimeAt } from '../../../shared/time-zone';
import type { SeriesCalendar, Weekday } from '../../../shared/campaigns';
import type { AudienceFilter } from '../../../shared/audience-filter';

/** A series' rule as the core keeps it (checked: series-form.ts). */
export type SeriesRule =
  | { every: 'daily'; hour: number; minute: number; until: string | null }
  | { every: 'weekly'; hour: number; minute: number; weekdays: Weekday[]; until: string | null }
  | {
      every: 'monthly';
      hour: number;
      minute: number;
      day: number;
      calendar: SeriesCalendar;
      until: string | null;
    }
  /** A date trigger: every day. */
  | { every: 'trigger'; hour: number; minute: number; column: string; daysBefore: number; until: null };

export interface Occurrence {
  /** Its local day, YYYY-MM-DD (Gregorian). */
  occurrence: string;
  /** When it is due (ms). */
  at: number;
}

const DAY_MS = 86_400_000;
const JS_WEEKDAYS: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** `YYYY-MM-DD` to the UTC midnight of that date (ms). */
export function dateMs(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
}

/** The UTC midnight `ms` falls on, as `YYYY-MM-DD`. */
export function dateOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `date` moved by `days`. */
export function addDays(date: string, days: number): string {
  return dateOf(dateMs(date) + days * DAY_MS);
}

/** The local day in `zone` at the instant `ms`. */
export function localDate(ms: number, zone: string): string {
  const wall = wallTimeAt(ms, zone);
  return dateOf(Date.UTC(wall.year, wall.month - 1, wall.day));
}

/**
 * The instant a wall clock in `zone` shows `hour:minute` on `date`. Two passes of the offset: the
 * second corrects a guess that fell on the other side of a DST change.
 */
export function instantOf(date: string, hour: number, minute: number, zone: string): number {
  const wall = dateMs(date) + (hour * 60 + minute) * 60_000;
  const first = wall - offsetAt(wall, zone) * 60_000;
  const second = wall - offsetAt(first, zone) * 60_000;
  // In the spring gap neither guess reads back as the wall time asked: the later one is taken.
  return localDate(second, zone) === date && wallTimeAt(second, zone).hour === hour ? second : Math.max(first, second);
}

const persian = new Intl.DateTimeFormat('en-US-u-ca-persian-nu-latn', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
});

/** The Jalali year, month (1-12) and day of a Gregorian date. */
export function jalaliOf(date: string): { year: number; month: number; day: number } {
  const parts: Record<string, number> = {};
  for (const part of persian.formatToParts(dateMs(date)))
    if (part.type === 'year' || part.type === 'month' || part.type === 'day') parts[part.type] = Number(part.value);
  return { year: parts.year!, month: parts.month!, day: parts.day! };
}

/** The day of the month of `date` in `calendar`. */
function dayOfMonth(date: string, calendar: SeriesCalendar): number {
  return calendar === 'jalali' ? jalaliOf(date).day : Number(date.slice(8, 10));
}

/** Whether the rule has an occurrence on the local day `date`. */
export function fallsOn(rule: SeriesRule, date: string): boolean {
  if (rule.until !== null && date > rule.until) return false;
  switch (rule.every) {
    case 'daily':
    case 'trigger':
      return true;
    case 'weekly':
      return rule.weekdays.includes(JS_WEEKDAYS[new Date(dateMs(date)).getUTCDay()]!);
    case 'monthly': {
      const day = dayOfMonth(date, rule.calendar);
      if (day === rule.day) return true;
      // A month without that day (31 in a 30-day month, 30 Esfand of a common year): its last day.
      const tomorrow = dayOfMonth(addDays(date, 1), rule.calendar);
      return day < rule.day && tomorrow === 1;
    }
  }
}

/** Days looked at before a rule is taken to have no occurrence any more (a monthly rule finds one within 31). */
const HORIZON_DAYS = 400;

/**
 * The rule's occurrences in order: the first on a local day after `after` (or from `from`'s own day
 * when null) that is due at or after `from`. Ends at `until`, or when none comes in HORIZON_DAYS.
 */
export function* occurrences(
  rule: SeriesRule,
  zone: string,
  from: number,
  after: string | null,
): Generator<Occurrence> {
  const fromDay = localDate(from, zone);
  let date = after !== null && after >= fromDay ? addDays(after, 1) : fromDay;
  let idle = 0;
  while (idle < HORIZON_DAYS) {
    if (rule.until !== null && date > rule.until) return;
    if (fallsOn(rule, date)) {
      const at = instantOf(date, rule.hour, rule.minute, zone);
      if (at >= from) {
        idle = 0;
        yield { occurrence: date, at };
      }
    }
    idle++;
    date = addDays(date, 1);
  }
}

/** The first occurrence `occurrences` gives, or null. */
export function nextOccurrence(rule: SeriesRule, zone: string, from: number, after: string | null): Occurrence | null {
  for (const occurrence of occurrences(rule, zone, from, after)) return occurrence;
  return null;
}

/** The occurrences due in [from, from + days). */
export function occurrencesWithin(rule: SeriesRule, zone: string, from: number, days: number): Occurrence[] {
  const end = from + days * DAY_MS;
  const found: Occurrence[] = [];
  for (const occurrence of occurrences(rule, zone, from, null)) {
    if (occurrence.at >= end) break;
    found.push(occurrence);
  }
  return found;
}

/** Every condition of both filters (a campaign's own and its occurrence's); null when neither has one. */
export function bothFilters(a: AudienceFilter | null, b: AudienceFilter | null): AudienceFilter | null {
  if (a === null) return b;
  if (b === null) return a;
  return { all: [...a.all, ...b.all] };
}
