// A campaign's send time as the user picks it: a calendar day and a clock time on the wall of a
// time zone (Asia/Tehran, Europe/Berlin), turned into the RFC 3339 instant creation takes, with
// that zone's offset at that moment (so "10:00 in Berlin" stays 10:00 across summer time). Only
// Intl: no time zone database of our own. The zone rules themselves (the default, the check, the
// wall clock, a typed clock time) are shared/time-zone.ts's, the core's quiet hours read the same.
import { offsetAt, wallTimeAt, type WallTime } from '../../../../../shared/time-zone';

export { offsetAt, parseClock, wallTimeAt, type WallTime } from '../../../../../shared/time-zone';

/** Zones offered in the picker besides the browser's own. */
export const COMMON_ZONES = [
  'Asia/Tehran',
  'UTC',
  'Asia/Dubai',
  'Asia/Kabul',
  'Europe/Istanbul',
  'Europe/Berlin',
  'Europe/London',
  'America/New_York',
  'America/Toronto',
  'America/Los_Angeles',
  'Australia/Sydney',
] as const;

/**
 * The instant a wall time in `zone` names. A time skipped by a clock change (02:30 on the spring
 * night) is read with the offset before the change, so it lands just after the jump; a time that
 * happens twice (the autumn night) is its first occurrence.
 */
export function instantOf(wall: WallTime, zone: string): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  // The offsets a day either side hold whatever change happens around this time.
  const before = offsetAt(asUtc - DAY_MS, zone);
  const offsets = [before, offsetAt(asUtc, zone), offsetAt(asUtc + DAY_MS, zone)];
  const matching = offsets
    .map((offset) => asUtc - offset * 60_000)
    .filter((ms) => sameWall(wallTimeAt(ms, zone), wall));
  return matching.length > 0 ? Math.min(...matching) : asUtc - before * 60_000;
}

const DAY_MS = 86_400_000;

function sameWall(a: WallTime, b: WallTime): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "+03:30", "-04:00", "+00:00". */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const whole = Math.abs(minutes);
  return `${sign}${pad(Math.floor(whole / 60))}:${pad(whole % 60)}`;
}

/** RFC 3339 with the zone's offset at that moment: 2025-03-21T10:00:00+03:30. */
export function toRfc3339(wall: WallTime, zone: string): string {
  const ms = instantOf(wall, zone);
  // The wall time actually reached (a skipped time moves on to after the jump).
  const reached = wallTimeAt(ms, zone);
  return `${pad(reached.year, 4)}-${pad(reached.month)}-${pad(reached.day)}T${pad(reached.hour)}:${pad(reached.minute)}:00${formatOffset(offsetAt(ms, zone))}`;
}

const RFC3339_WALL = /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2})/;

/** The wall time an RFC 3339 string states before its offset (what the user picked). */
export function wallTimeOf(rfc3339: string): WallTime | null {
  const match = RFC3339_WALL.exec(rfc3339.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [number, number, number, number, number];
  return { year, month, day, hour, minute };
}

/** "HH:MM" of a wall time. */
export function clockOf(wall: Pick<WallTime, 'hour' | 'minute'>): string {
  return `${pad(wall.hour)}:${pad(wall.minute)}`;
}
