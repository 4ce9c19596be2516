// How the UI shows a message status, all read from the lifecycle table (shared/lifecycle.ts):
// the statuses and their order, which can be stored, the colour of each (a final status other than
// delivered is a failure, in one colour), its short label and full text (shared/status-labels.ts,
// the same the exports write), the Messages filter's choices and the dashboard chart's series.
import {
  ALL_STATUSES,
  FINAL_STATUSES,
  LIFECYCLE,
  MessageStatus,
  STORED_STATUSES,
  isMessageStatus,
  type StatusTone,
} from '../../../shared/lifecycle';
import { statusFullText, statusShortLabel } from '../../../shared/status-labels';
import type { StatusCounts } from '../api';
import type { Language } from './format';

export { ALL_STATUSES, FINAL_STATUSES, STORED_STATUSES, isMessageStatus };

/** A few words for a badge, a filter's choice, a timeline step. */
export function statusLabel(status: number, language: Language): string {
  return isMessageStatus(status) ? statusShortLabel(status, language) : String(status);
}

/** What the status means in full (the spec's text in Persian), for the hover of a short label. */
export function statusDescription(status: number, language: Language): string {
  return isMessageStatus(status) ? statusFullText(status, language) : String(status);
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

/** The colour of a message that ended without reaching its receiver (11, 13, 14). */
export const FAILURE_COLOR = 'red';

/** A final status that is not a delivery failed, whatever its kind: one colour says so. */
function failed(status: MessageStatus): boolean {
  const rule = LIFECYCLE[status];
  return rule.final && rule.tone !== 'success';
}

export function statusColor(status: MessageStatus): string {
  return failed(status) ? FAILURE_COLOR : toneColor(LIFECYCLE[status].tone);
}

/**
 * Statuses a message of this app can be in: every stored status but those only an interim carrier
 * report reaches. The one carrier here (the simulator) reports final outcomes only, so 6 never occurs.
 */
export const OCCURRING_STATUSES: readonly MessageStatus[] = STORED_STATUSES.filter(
  (s) => s !== MessageStatus.SendError,
);

/** The Messages filter's choices: the statuses that occur, in display order, with their full text for the hover. */
export function statusFilterOptions(language: Language): Array<{ value: string; label: string; description: string }> {
  return OCCURRING_STATUSES.map((s) => ({
    value: String(s),
    label: statusLabel(s, language),
    description: statusDescription(s, language),
  }));
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

// The failures share one colour; the chart tells them apart by shade, in display order.
const FAILURE_SHADES = [7, 4, 9];

/** The chart's series in display order (pending first, then the final statuses), with their colours. */
export const CHART_SERIES: ReadonlyArray<{ name: ChartSeries; color: string }> = [
  { name: PENDING_SERIES, color: `${toneColor('waiting')}.5` },
  ...FINAL_STATUSES.flatMap((s) => {
    const name = chartSeriesOf(s);
    if (name === null) return [];
    const shade = failed(s) ? FAILURE_SHADES[FINAL_STATUSES.filter(failed).indexOf(s) % FAILURE_SHADES.length] : 6;
    return [{ name, color: `${statusColor(s)}.${shade}` }];
  }),
];
