// Send times said in the user's calendar: a picked day and time as its wall shows them (Jalali
// with Persian names and digits in Persian), and instants (the estimated last message) in the
// browser's own zone. The sentence around them is i18n's (campaignEditor.when.dayAt).
import dayjs from 'dayjs';
import 'dayjs/locale/fa';
import jalaliday from 'jalaliday/dayjs';
import { digits, type Language } from '../../../lib/format';
import { runtimeTimeZone } from '../../../../../shared/time-zone';
import { clockOf, instantOf, wallTimeAt, type WallTime } from './zonedTime';

dayjs.extend(jalaliday);

function calendar(date: Date, language: Language) {
  const d = dayjs(date);
  return language === 'fa' ? d.calendar('jalali').locale('fa') : d.calendar('gregory').locale('en');
}

/** "جمعه ۱ فروردین ۱۴۰۴" / "Friday, March 21, 2025". */
export function formatDay(day: Pick<WallTime, 'year' | 'month' | 'day'>, language: Language): string {
  const date = new Date(day.year, day.month - 1, day.day, 12);
  return digits(
    calendar(date, language).format(language === 'fa' ? 'dddd D MMMM YYYY' : 'dddd, MMMM D, YYYY'),
    language,
  );
}

/** A wall time's day and clock, for campaignEditor.when.dayAt ("{{day}} at {{time}}"). */
export function wallTimeParts(wall: WallTime, language: Language): { day: string; time: string } {
  return { day: formatDay(wall, language), time: digits(clockOf(wall), language) };
}

/** An instant on the wall of the browser's zone, as wallTimeParts gives it. */
export function instantParts(ms: number, language: Language): { day: string; time: string } {
  return wallTimeParts(wallTimeAt(ms, runtimeTimeZone()), language);
}

/** The default of "at a time": the next full hour at least half an hour away, in `zone`. */
export function defaultSendTime(now: number, zone: string): WallTime {
  const wall = wallTimeAt(now + 90 * 60_000, zone);
  // The hour after now + 30 min, found from now + 90 min with its minutes dropped.
  const at = instantOf({ ...wall, minute: 0 }, zone);
  return wallTimeAt(at, zone);
}
