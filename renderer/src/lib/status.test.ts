// The lifecycle table drives the renderer: a status added to shared/lifecycle.ts in one place only
// (without its labels, colour, place in the Messages filter, the dashboard chart or the simulator's
// outcomes, or its merge order) fails here. Failed finals (11, 13, 14) share the failure colour. The English labels are typed by the table's names and
// the colours by its tones, so most of it fails typecheck first.
import { describe, expect, it } from 'vitest';
import {
  FINAL_STATUSES,
  LIFECYCLE,
  PENDING_STATUSES,
  STORED_STATUSES,
  stageOf,
  type MessageStatus,
} from '../../../shared/lifecycle';
import { DashboardBucketSchema, SimulatorSchema } from '../../../shared/ipc/schemas';
import { en } from '../i18n/en';
import { fa } from '../i18n/fa';
import {
  ALL_STATUSES,
  CHART_SERIES,
  FAILURE_COLOR,
  OCCURRING_STATUSES,
  chartSeriesOf,
  statusColor,
  statusDescription,
  statusFilterOptions,
  statusLabel,
} from './status';
import { statusShortLabel } from '../../../shared/status-labels';
import { newerStatus } from '../stores/status-merge';

const statuses = Object.keys(LIFECYCLE).map(Number) as MessageStatus[];
const byNumber = (list: readonly number[]) => [...list].sort((a, b) => a - b);

describe('statuses in the UI', () => {
  it('every status of the lifecycle has an English and a Persian label and a colour', () => {
    expect(byNumber(ALL_STATUSES)).toEqual(byNumber(statuses));
    for (const status of statuses) {
      const english = statusLabel(status, 'en');
      expect(typeof english).toBe('string');
      expect(english).not.toBe('');
      expect(english).not.toBe(String(status));
      expect(statusLabel(status, 'fa')).toBe(statusShortLabel(status, 'fa'));
      // The hover says it in full: the spec's own text in Persian.
      expect(statusDescription(status, 'fa')).toBe(LIFECYCLE[status].text);
      expect(statusDescription(status, 'en')).toMatch(/\S/);
      expect(statusColor(status)).toMatch(/^[a-z]+$/);
    }
    // Labels tell statuses apart.
    expect(new Set(statuses.map((s) => statusLabel(s, 'en'))).size).toBe(statuses.length);
  });

  it('the Messages filter offers the statuses that occur, in the lifecycle order, with their full text', () => {
    for (const language of ['en', 'fa'] as const) {
      const options = statusFilterOptions(language);
      expect(options.map((o) => Number(o.value))).toEqual([...OCCURRING_STATUSES]);
      for (const option of options) {
        expect(option.label).toBe(statusLabel(Number(option.value), language));
        expect(option.description).toBe(statusDescription(Number(option.value), language));
      }
    }
    // Only stored statuses, and every one a message reaches with the simulator: the entries (1, 2),
    // what the lifecycle moves to itself (4, 13, 14) and the carrier's final outcomes.
    expect(OCCURRING_STATUSES.every((s) => LIFECYCLE[s].stored)).toBe(true);
    expect([...OCCURRING_STATUSES].sort((a, b) => a - b)).toEqual([1, 2, 4, 10, 11, 13, 14]);
    // The long text of 13 is no choice's label.
    expect(statusFilterOptions('fa').find((o) => o.value === '13')!.label.length).toBeLessThan(30);
  });

  it('a message that ended without reaching its receiver shows the failure colour, a delivered one never', () => {
    for (const status of FINAL_STATUSES)
      expect(statusColor(status) === FAILURE_COLOR, `status ${status}`).toBe(status !== 10);
    expect(statusColor(10)).not.toBe(FAILURE_COLOR);
    for (const status of PENDING_STATUSES) expect(statusColor(status)).not.toBe(FAILURE_COLOR);
  });

  it('the dashboard chart counts every stored status in a series the dashboard answers, labelled in both languages', () => {
    const bucketKeys = Object.keys(DashboardBucketSchema.shape);
    const shown = CHART_SERIES.map((s) => s.name);
    for (const status of statuses) {
      const series = chartSeriesOf(status);
      if (!LIFECYCLE[status].stored) {
        expect(series).toBeNull();
        continue;
      }
      expect(series, `status ${status} has no series in the chart`).not.toBeNull();
      expect(bucketKeys).toContain(series);
      expect(shown).toContain(series);
    }
    // Statuses still moving share one series; each final status has its own.
    expect(new Set(PENDING_STATUSES.map(chartSeriesOf)).size).toBe(1);
    expect(new Set(FINAL_STATUSES.map(chartSeriesOf)).size).toBe(FINAL_STATUSES.length);
    expect(new Set(shown).size).toBe(shown.length);
    // Told apart by colour too.
    expect(new Set(CHART_SERIES.map((s) => s.color)).size).toBe(CHART_SERIES.length);
    for (const { name, color } of CHART_SERIES) {
      expect(en.dashboard.series[name]).toMatch(/\S/);
      expect(fa.dashboard.series[name]).toMatch(/\S/);
      expect(color).toMatch(/^[a-z]+\.\d$/);
    }
  });

  it("the simulator's outcomes are every final status", () => {
    for (const status of FINAL_STATUSES) {
      const parsed = SimulatorSchema.parse({ seed: 1, handoff_ms: 0, delivery_ms: 0, outcomes: { [status]: 1 } });
      expect(parsed.outcomes, `the simulator has no outcome ${status}`).toEqual({ [status]: 1 });
    }
  });

  it('a push and a read of one message merge to the status further along the lifecycle', () => {
    for (const from of STORED_STATUSES)
      for (const move of LIFECYCLE[from].moves) {
        expect(stageOf(move.to)).toBeGreaterThan(stageOf(from));
        expect(newerStatus(from, move.to)).toBe(move.to);
        expect(newerStatus(move.to, from)).toBe(move.to);
      }
    // Any two statuses: the merge keeps the one of the higher stage (the first on a tie).
    for (const a of statuses) for (const b of statuses) expect(newerStatus(a, b)).toBe(stageOf(b) > stageOf(a) ? b : a);
  });
});
