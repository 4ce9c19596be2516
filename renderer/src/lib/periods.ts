// Period presets of the messages filter, as [from, to) in ms of the user's local days.
export const PERIODS = ['all', 'today', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];

const DAY = 24 * 60 * 60 * 1000;

export function periodRange(period: Period, now: number): { from?: number; to?: number } {
  if (period === 'all') return { from: undefined, to: undefined };
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  const start = midnight.getTime();
  const days = period === 'today' ? 0 : period === 'week' ? 6 : 29;
  return { from: start - days * DAY, to: undefined };
}
