// A campaign that runs by itself, said in words: "Every day at 09:00 Tehran time, to the people
// whose BIRTHDAY is today". Only the wording is here; when each occurrence falls (Jalali month
// lengths, month ends, the end date) is the core's, which the quote states (`series`).
import type { TFunction } from 'i18next';
import { WEEKDAYS, type CampaignDraftFields, type Weekday } from '../../../../../shared/campaigns';
import { digits, isolate, type Language } from '../../../lib/format';
import { formatDay } from './when';

export type Repeat = NonNullable<CampaignDraftFields['repeat']>;
export type Trigger = NonNullable<CampaignDraftFields['trigger']>;
export type SeriesMode = 'once' | 'repeat' | 'trigger';

export const modeOf = (fields: Pick<CampaignDraftFields, 'repeat' | 'trigger'>): SeriesMode =>
  fields.trigger ? 'trigger' : fields.repeat ? 'repeat' : 'once';

/** The column a new date trigger starts on: the first that reads like a birthday or a date. */
export function defaultTriggerColumn(columns: readonly string[]): string {
  const dated = columns.filter((c) => c !== 'PHONE_NUMBER');
  return dated.find((c) => /birth|تولد|date|تاریخ/i.test(c)) ?? dated[0] ?? '';
}

/** The days of the week in the order the language's calendars print them. */
export const weekOrder = (language: Language): Weekday[] =>
  language === 'fa' ? [...WEEKDAYS] : [...WEEKDAYS.slice(1), WEEKDAYS[0]];

/** "Monday" / "دوشنبه". */
export function weekdayName(weekday: Weekday, language: Language, width: 'long' | 'short' = 'long'): string {
  // 2024-01-06 was a Saturday, the first of WEEKDAYS.
  const date = new Date(Date.UTC(2024, 0, 6 + WEEKDAYS.indexOf(weekday), 12));
  return new Intl.DateTimeFormat(language === 'fa' ? 'fa-IR' : 'en-US', { weekday: width, timeZone: 'UTC' }).format(
    date,
  );
}

/** "YYYY-MM-DD" as the day it names, or null. */
export function dayOf(text: string | null | undefined): { year: number; month: number; day: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text ?? '');
  return match ? { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) } : null;
}

/** The series' sentence in the user's language; null for a one-off campaign. */
export function seriesSentence(
  fields: Pick<CampaignDraftFields, 'repeat' | 'trigger'>,
  zone: string,
  t: TFunction,
  language: Language,
): string | null {
  const common = { zone, interpolation: { escapeValue: false } };
  if (fields.trigger) {
    const { column, days_before: daysBefore, time } = fields.trigger;
    const shown = { ...common, time: digits(time, language), column: isolate(column || '…') };
    return daysBefore === 0
      ? t('campaignEditor.series.sentenceToday', shown)
      : t('campaignEditor.series.sentenceBefore', { ...shown, count: daysBefore, n: digits(daysBefore, language) });
  }
  const repeat = fields.repeat;
  if (!repeat) return null;
  const time = digits(repeat.time, language);
  let sentence: string;
  if (repeat.every === 'daily') sentence = t('campaignEditor.series.sentenceDaily', { ...common, time });
  else if (repeat.every === 'weekly') {
    const picked = weekOrder(language).filter((d) => repeat.weekdays.includes(d));
    const days = picked.map((d) => weekdayName(d, language)).join(t('campaignEditor.series.and'));
    sentence = t('campaignEditor.series.sentenceWeekly', { ...common, time, days: days || '…' });
  } else
    sentence = t('campaignEditor.series.sentenceMonthly', {
      ...common,
      time,
      day: digits(repeat.day ?? 1, language),
      calendar: t(`campaignEditor.series.${repeat.calendar}`),
    });
  const until = dayOf(repeat.until);
  return until
    ? t('campaignEditor.series.sentenceUntil', { sentence, day: formatDay(until, language), ...common })
    : sentence;
}
