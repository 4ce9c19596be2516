// Time zones as both sides read them: the zone assumed where none is named (Tehran, where the
// product's customers are), whether this runtime knows a zone, the runtime's own zone, what a wall
// clock in a zone shows at an instant, and a clock time "HH:MM" as people type it (a send time's,
// quiet hours' ends). Only Intl: no time zone database of our own. The core reads an account's
// quiet hours with it, the renderer a send time the user picks; the exports name their zone with it.
import { z } from 'zod';

/** Where the product's customers are: the zone when none is named, or the one named is unknown. */
export const DEFAULT_TIME_ZONE = 'Asia/Tehran';

/** An IANA zone name this runtime knows (Asia/Tehran, Europe/Berlin, UTC). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `zone` when the runtime knows it, else Tehran's: an unknown name never fails what reads a time. */
export function knownTimeZone(zone: string): string {
  return isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
}

/** This runtime's zone (the browser's, the system's) when Intl names one it knows, else Tehran. */
export function runtimeTimeZone(): string {
  try {
    const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

/** A zone a request names: an IANA name this runtime knows. */
export const TimeZoneSchema = z.string().min(1).max(60).refine(isTimeZone, 'an IANA time zone, e.g. Asia/Tehran');

// ---- wall clocks

/** A day and a time as a clock on the wall shows them; month 1-12. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

// One formatter per zone: building one costs far more than using it.
const wallFormatters = new Map<string, Intl.DateTimeFormat>();

function wallFormatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = wallFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallFormatters.set(zone, formatter);
  }
  return formatter;
}

/** What a wall clock in `zone` shows at the instant `ms` (Gregorian; hours 0-23). */
export function wallTimeAt(ms: number, zone: string): WallTime & { second: number } {
  const parts: Record<string, number> = {};
  for (const part of wallFormatterOf(zone).formatToParts(new Date(ms)))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    // Some engines write midnight as 24 even with h23.
    hour: parts.hour! % 24,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** The zone's offset from UTC at the instant `ms`, in minutes (Tehran: 210). */
export function offsetAt(ms: number, zone: string): number {
  const wall = wallTimeAt(ms, zone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/**
 * A reader of the minutes after local midnight in `zone` (an unknown zone: Tehran's), for quiet
 * hours. It asks Intl for the hour and minute alone: a send's plan reads it for every batch.
 */
export function minuteOfDayReader(zone: string): (ms: number) => number {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone: knownTimeZone(zone),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return (ms) => {
    const parts = format.formatToParts(ms);
    const hour = Number(parts.find((p) => p.type === 'hour')!.value);
    const minute = Number(parts.find((p) => p.type === 'minute')!.value);
    return hour * 60 + minute;
  };
}

// ---- clock times

/** "HH:MM" (0-23, 0-59; the hour in one digit or two) to its parts; null when it is not a clock time. */
export function parseClock(text: string): { hour: number; minute: number } | null {
  const match = /^([0-9]{1,2}):([0-9]{2})$/.exec(text.trim());
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  return hour < 24 && minute < 60 ? { hour, minute } : null;
}
