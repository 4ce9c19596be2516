// What the exports (the messages export here, a campaign's report in campaigns/export.ts) share so
// a file reads as the UI does for the person it is for: times in their time zone (a Jalali date in
// Persian, a Gregorian one in English, and ISO 8601 with the zone's offset for machines), the
// statuses' short labels (shared/status-labels.ts, as the UI's badges), and a sheet laid out in the
// UI's direction with its header frozen and its columns wide enough to read.
import type ExcelJS from 'exceljs';
import { statusShortLabel } from '../../../shared/status-labels';

export type ExportLanguage = 'fa' | 'en';

/** The zone of an export that names none: the product's default (shared/time-zone.ts). */
export { DEFAULT_TIME_ZONE } from '../../../shared/time-zone';

/** The status column's text: the short label the UI's badges show. */
export function exportStatusText(status: number, language: ExportLanguage): string {
  return statusShortLabel(status, language) || String(status);
}

// ---- times

/**
 * How a time is written: `jalali` 1405/08/29 10:00:00, `gregorian` 2026-11-20 10:00:00, `iso`
 * 2026-11-20T10:00:00+03:30 (each in the zone given; digits are ASCII so a sheet sorts them).
 */
export type TimeStyle = 'jalali' | 'gregorian' | 'iso';

/** The local time column's style in a language; the ISO one goes beside it. */
export function localTimeStyle(language: ExportLanguage): TimeStyle {
  return language === 'fa' ? 'jalali' : 'gregorian';
}

const BUCKET_MS = 15 * 60_000;

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/**
 * A formatter of timestamps (ms) in `timeZone`. Intl does the calendar and the zone once per quarter
 * hour (every zone's offset is a whole number of quarter hours today), the minutes and seconds
 * within it are added here, and the last answer is kept: a batch's messages share one time. A
 * million rows take a few hundred Intl calls instead of a million.
 */
export function zonedTimeFormatter(style: TimeStyle, timeZone: string): (ms: number) => string {
  const intl = new Intl.DateTimeFormat(
    style === 'jalali' ? 'en-US-u-ca-persian-nu-latn' : 'en-US-u-ca-gregory-nu-latn',
    {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    },
  );
  const partsOf = (ms: number) => {
    const parts: Record<string, string> = {};
    for (const part of intl.formatToParts(ms)) parts[part.type] = part.value;
    return {
      year: parts.year!.padStart(4, '0'),
      month: parts.month!,
      day: parts.day!,
      hour: Number(parts.hour),
      minute: Number(parts.minute),
      second: Number(parts.second),
    };
  };
  // The zone's offset at ms, from the Gregorian wall time (the ISO style only).
  const offsetOf = (ms: number, p: ReturnType<typeof partsOf>) => {
    const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), p.hour, p.minute, p.second);
    const minutes = Math.round((local - Math.floor(ms / 1000) * 1000) / 60_000);
    const sign = minutes < 0 ? '-' : '+';
    const abs = Math.abs(minutes);
    return `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
  };
  const dateSep = style === 'jalali' ? '/' : '-';
  const timeSep = style === 'iso' ? 'T' : ' ';
  const head = (p: ReturnType<typeof partsOf>) =>
    `${p.year}${dateSep}${p.month}${dateSep}${p.day}${timeSep}${pad2(p.hour)}:`;
  const exact = (ms: number): string => {
    const p = partsOf(ms);
    return `${head(p)}${pad2(p.minute)}:${pad2(p.second)}${style === 'iso' ? offsetOf(ms, p) : ''}`;
  };
  // Per quarter hour: the text up to the hour, the minute it starts at, and (ISO) the offset.
  const buckets = new Map<number, { head: string; minute: number; tail: string } | null>();
  let lastMs = NaN;
  let last = '';
  return (ms: number): string => {
    if (ms === lastMs) return last;
    const key = Math.floor(ms / BUCKET_MS);
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      if (buckets.size > 4096) buckets.clear();
      const start = key * BUCKET_MS;
      const p = partsOf(start);
      bucket =
        p.minute % 15 === 0 && p.second === 0
          ? { head: head(p), minute: p.minute, tail: style === 'iso' ? offsetOf(start, p) : '' }
          : null;
      buckets.set(key, bucket);
    }
    let text: string;
    if (bucket === null || !Number.isFinite(ms)) text = exact(ms);
    else {
      const within = ms - key * BUCKET_MS;
      text =
        bucket.head +
        pad2(bucket.minute + Math.floor(within / 60_000)) +
        ':' +
        pad2(Math.floor((within % 60_000) / 1000)) +
        bucket.tail;
    }
    lastMs = ms;
    last = text;
    return text;
  };
}

// ---- sheets

/** The worksheet's options: the UI's direction, the header row frozen. */
export function sheetOptions(language: ExportLanguage): Partial<ExcelJS.AddWorksheetOptions> {
  return { views: [{ rightToLeft: language === 'fa', state: 'frozen', xSplit: 0, ySplit: 1 }] };
}

/** Column widths (in characters) for a sheet; set before its first row is committed. */
export function setColumnWidths(sheet: ExcelJS.Worksheet, widths: readonly number[]): void {
  sheet.columns = widths.map((width) => ({ width }));
}
