// The series fields of a campaign request (our extension of spec 4.3: repeat, repeat_time,
// repeat_weekdays, repeat_day, repeat_calendar, repeat_until; trigger_column, trigger_days_before,
// trigger_time), checked into the rule the series keeps (occurrences.ts). All absent or empty: a
// one-off campaign. Each fault is 400 with the field named first and a reason for the app. The
// draft's `repeat` / `trigger` objects reach here through the same text fields (drafts.ts).
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { toAsciiDigits } from '../../../shared/digits';
import { parseClock } from '../../../shared/time-zone';
import {
  CALENDARS,
  MAX_DAYS_BEFORE,
  REPEAT_EVERY,
  WEEKDAYS,
  type CampaignForm,
  type CampaignRepeat,
  type CampaignTrigger,
  type SeriesCalendar,
  type Weekday,
} from '../../../shared/campaigns';
import type { SeriesRule } from './occurrences';

const bad = (detail: string, reason: string) => new ServiceError(ApiCode.BadRequest, detail, reason);

const REPEAT_FIELDS = [
  'repeat',
  'repeat_time',
  'repeat_weekdays',
  'repeat_day',
  'repeat_calendar',
  'repeat_until',
] as const;
const TRIGGER_FIELDS = ['trigger_column', 'trigger_days_before', 'trigger_time'] as const;

function value(form: CampaignForm, field: (typeof REPEAT_FIELDS)[number] | (typeof TRIGGER_FIELDS)[number]) {
  const raw = form[field];
  return raw === undefined || raw.trim() === '' ? null : toAsciiDigits(raw).trim();
}

function clock(text: string | null, field: string): { hour: number; minute: number } {
  const parsed = text === null ? null : parseClock(text);
  if (parsed === null) throw bad(`${field} is HH:MM in the account's time zone, for example 09:00`, 'series_time');
  return parsed;
}

/** The series a request asks for, or null for a one-off; 400 with the first fault. */
export function checkSeriesForm(form: CampaignForm): SeriesRule | null {
  const repeating = REPEAT_FIELDS.some((field) => value(form, field) !== null);
  const triggered = TRIGGER_FIELDS.some((field) => value(form, field) !== null);
  if (repeating && triggered)
    throw bad('repeat and trigger_column exclude each other: a campaign repeats or is date-triggered', 'series_both');
  if (triggered) {
    const column = value(form, 'trigger_column');
    if (column === null) throw bad('trigger_column is required with trigger_time', 'series_trigger_column');
    const daysText = value(form, 'trigger_days_before') ?? '0';
    if (!/^[0-9]{1,3}$/.test(daysText) || Number(daysText) > MAX_DAYS_BEFORE)
      throw bad(`trigger_days_before is 0 to ${MAX_DAYS_BEFORE}`, 'series_days_before');
    const { hour, minute } = clock(value(form, 'trigger_time'), 'trigger_time');
    return {
      every: 'trigger',
      hour,
      minute,
      column: form.trigger_column!.trim(),
      daysBefore: Number(daysText),
      until: null,
    };
  }
  if (!repeating) return null;
  const every = value(form, 'repeat')?.toLowerCase() ?? null;
  if (!REPEAT_EVERY.includes(every as never)) throw bad('repeat is daily, weekly or monthly', 'series_repeat');
  const { hour, minute } = clock(value(form, 'repeat_time'), 'repeat_time');
  const untilText = value(form, 'repeat_until');
  let until: string | null = null;
  if (untilText !== null) {
    const match = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(untilText);
    const ok =
      match !== null &&
      new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))).toISOString().slice(0, 10) ===
        untilText;
    if (!ok) throw bad('repeat_until is a day, YYYY-MM-DD (Gregorian)', 'series_until');
    until = untilText;
  }
  if (every === 'daily') return { every, hour, minute, until };
  if (every === 'weekly') {
    const names = (value(form, 'repeat_weekdays') ?? '')
      .toLowerCase()
      .split(/[\s,]+/)
      .filter((name) => name !== '');
    if (names.length === 0 || names.some((name) => !WEEKDAYS.includes(name as Weekday)))
      throw bad(`repeat_weekdays is one or more of ${WEEKDAYS.join(',')}, comma-separated`, 'series_weekdays');
    const weekdays = WEEKDAYS.filter((day) => names.includes(day));
    return { every, hour, minute, weekdays, until };
  }
  const dayText = value(form, 'repeat_day');
  if (dayText === null || !/^[0-9]{1,2}$/.test(dayText) || Number(dayText) < 1 || Number(dayText) > 31)
    throw bad('repeat_day is the day of the month, 1 to 31', 'series_day');
  const calendar = (value(form, 'repeat_calendar')?.toLowerCase() ?? 'jalali') as SeriesCalendar;
  if (!CALENDARS.includes(calendar)) throw bad('repeat_calendar is jalali or gregorian', 'series_calendar');
  return { every: 'monthly', hour, minute, day: Number(dayText), calendar, until };
}

const hhmm = (hour: number, minute: number) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;

/** A kept rule as the draft / summary objects show it. */
export function seriesObjects(rule: SeriesRule): { repeat: CampaignRepeat | null; trigger: CampaignTrigger | null } {
  const time = hhmm(rule.hour, rule.minute);
  if (rule.every === 'trigger')
    return { repeat: null, trigger: { column: rule.column, days_before: rule.daysBefore, time } };
  return {
    trigger: null,
    repeat: {
      every: rule.every,
      time,
      weekdays: rule.every === 'weekly' ? rule.weekdays : [],
      day: rule.every === 'monthly' ? rule.day : null,
      calendar: rule.every === 'monthly' ? rule.calendar : 'jalali',
      until: rule.until,
    },
  };
}

/** The draft's objects as the form's text fields (the same check for the app and the API). */
export function seriesFormFields(
  repeat: CampaignRepeat | null,
  trigger: CampaignTrigger | null,
): Partial<Pick<CampaignForm, (typeof REPEAT_FIELDS)[number] | (typeof TRIGGER_FIELDS)[number]>> {
  return {
    ...(repeat === null
      ? {}
      : {
          repeat: repeat.every,
          repeat_time: repeat.time,
          repeat_weekdays: repeat.every === 'weekly' ? repeat.weekdays.join(',') : undefined,
          repeat_day: repeat.every === 'monthly' && repeat.day !== null ? String(repeat.day) : undefined,
          repeat_calendar: repeat.every === 'monthly' ? repeat.calendar : undefined,
          repeat_until: repeat.until ?? undefined,
        }),
    ...(trigger === null
      ? {}
      : {
          trigger_column: trigger.column,
          trigger_days_before: String(trigger.days_before),
          trigger_time: trigger.time,
        }),
  };
}
