// How the UI shows a message status, all read from the lifecycle table (shared/lifecycle.ts):
// the statuses and their order, which can be stored, the colour of each status's tone, its label
// (shared/lifecycle.ts statusTextIn: the spec's Persian text or the English one, the same the
// report exports use), the Messages filter's choices and the dashboard chart's series.
import {
  ALL_STATUSES,
  FINAL_STATUSES,
  LIFECYCLE,
  STORED_STATUSES,
  isMessageStatus,
  statusTextIn,
  type MessageStatus,
  type StatusTone,
} from '../../../shared/lifecycle';
import type { StatusCounts } from '../api';
import type { Language } from './format';

export { ALL_STATUSES, FINAL_STATUSES, STORED_STATUSES, isMessageStatus };

export function statusLabel(status: number, language: Language): string {
  return isMessageStatus(status) ? statusTextIn(status, language) : String(status);
}

export function toneColor(tone: StatusTone): string {
  switch (tone) {
    case 'success':
      return 'green';
    case 'waiting':
      return 'gray';
    case 'scheduled':
      return 'indigo';
    case 'in-flight':
      return 'blue';
    case 'problem':
      return 'orange';
    case 'refunded':
      return 'grape';
    case 'blocked':
      return 'dark';
    case 'rejected':
      return 'red';
  }
}

export function statusColor(status: MessageStatus): string {
  return toneColor(LIFECYCLE[status].tone);
}

/** The Messages filter's choices: every status a stored message can hold, in display order. */
export function statusFilterOptions(language: Language): Array<{ value: string; label: string }> {
  return STORED_STATUSES.map((s) => ({ value: String(s), label: statusLabel(s, language) }));
}

// ---- the dashboard chart

/** The chart's series: the dashboard's counts (dashboard:stats), one per final status plus the pending ones. */
export type ChartSeries = Exclude<keyof StatusCounts, 'total' | 'cost_rials'>;

const PENDING_SERIES: ChartSeries = 'pending';
// Typed by the counts' own keys, so a series added to the contract must be listed here.
const SERIES_NAMES: Record<ChartSeries, true> = {
  pending: true,
  delivered: true,
  undelivered: true,
  cancelled: true,
  blocked: true,
};
const isChartSeries = (name: string): name is ChartSeries => Object.prototype.hasOwnProperty.call(SERIES_NAMES, name);

/**
 * Where the chart counts a status: a status still moving is pending, a final one has the series
 * of its own name (as the dashboard's counts are named). Null for a status no stored message
 * holds, or a final one the counts do not name yet.
 */
export function chartSeriesOf(status: MessageStatus): ChartSeries | null {
  const rule = LIFECYCLE[status];
  if (!rule.stored) return null;
  if (!rule.final) return PENDING_SERIES;
  const name = rule.name.toLowerCase();
  return isChartSeries(name) ? name : null;
}

/** The chart's series in display order (pending first, then the final statuses), with their colours. */
export const CHART_SERIES: ReadonlyArray<{ name: ChartSeries; color: string }> = [
  { name: PENDING_SERIES, color: `${toneColor('waiting')}.5` },
  ...FINAL_STATUSES.flatMap((s) => {
    const name = chartSeriesOf(s);
    return name === null ? [] : [{ name, color: `${statusColor(s)}.6` }];
  }),
];
