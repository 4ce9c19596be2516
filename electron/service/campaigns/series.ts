// A series: a campaign that repeats (daily / weekly / monthly, Jalali or Gregorian) or is
// date-triggered (every day, to the members whose date column falls N days later), each occurrence
// an execution of its own (execution.ts: freeze, reserve, record, finish; its own report).
//
// How it runs: the next occurrence's execution always exists already, SCHEDULED at its time (made
// at creation for the first), and the series' tick (a persisted job, 'campaigns.series') is due at
// that same time. A tick makes the occurrence after it (its execution, that execution's job, and
// the next tick) in ONE transaction, and the execution's UNIQUE (campaign_id, occurrence) means no
// occurrence is ever made twice: a tick run again after a crash finds its own job id no longer the
// series' and does nothing.
//
// Missed occurrences (the app was not running): an occurrence still runs when the app is back on
// its own local day (a birthday greeting at 11:00 instead of 09:00), but a day missed entirely is
// recorded as an execution ended FAILED with the reason MISSED_REASON, nothing sent (never late).
// Credit is reserved by each occurrence at its time; an occurrence short of it ends FAILED with
// the reason and the series goes on.
//
// Pause (the whole series): no occurrence is made while paused; the next one, if it has not started,
// is withdrawn (its row deleted with its job: it never existed); one running keeps its own pause.
// Resume: the next occurrence from now on, none made up for. End: for good; the next one, if it has
// not started, is cancelled.
import { z } from 'zod';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Jobs, Job } from '../jobs/jobs';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import type { CampaignSeries, SeriesOccurrence } from '../../../shared/campaigns';
import type { AudienceFilter } from '../../../shared/audience-filter';
import type { CampaignStore, ExecutionRow } from './store';
import type { Executions } from './execution';
import { addDays, localDate, nextOccurrence, type Occurrence, type SeriesRule } from './occurrences';
import { seriesObjects } from './series-form';

export const SERIES_JOB = 'campaigns.series';
const SeriesPayload = z.object({ campaignId: z.number().int().positive() });

/** The reason of an occurrence whose whole local day passed with the app not running. */
export const MISSED_REASON = 'missed: the app was not running on its day';

interface SeriesRow {
  campaign_id: number;
  rule: string;
  paused: number;
  ended_at: number | null;
  job_id: number | null;
}

export interface SeriesDeps {
  db: Db;
  clock: Clock;
  jobs: Jobs;
  store: CampaignStore;
  executions: Executions;
  timeZone: (accountId: number) => string;
  onChange: (executionId: number) => void;
}

export class Series {
  private readonly db: Db;
  private readonly rowStmt;

  constructor(private readonly deps: SeriesDeps) {
    this.db = deps.db;
    this.rowStmt = this.db.prepare<[number], SeriesRow>('SELECT * FROM campaign_series WHERE campaign_id = ?');
    deps.jobs.register({
      type: SERIES_JOB,
      payload: SeriesPayload,
      concurrency: 1,
      maxAttempts: 20,
      backoff: { baseMs: 1_000, maxMs: 60_000 },
      run: (job) => Promise.resolve(this.tick(job)),
    });
  }

  rule(campaignId: number): SeriesRule | null {
    const row = this.rowStmt.get(campaignId);
    return row ? (JSON.parse(row.rule) as SeriesRule) : null;
  }

  /**
   * Inside creation's transaction: the series kept, its first occurrence (the first due at or
   * after `notBefore`) made SCHEDULED, and the tick after it. The first occurrence's execution id;
   * 400 when the rule has none (an `until` before it).
   */
  begin(campaignId: number, accountId: number, rule: SeriesRule, notBefore: number): number {
    const first = nextOccurrence(rule, this.deps.timeZone(accountId), notBefore, null);
    if (first === null)
      throw new ServiceError(ApiCode.BadRequest, 'repeat_until comes before the first occurrence', 'series_until');
    this.db
      .prepare('INSERT INTO campaign_series (campaign_id, rule) VALUES (?, ?)')
      .run(campaignId, JSON.stringify(rule));
    const executionId = this.make(campaignId, accountId, first);
    this.scheduleTick(campaignId, first.at);
    return executionId;
  }

  /** An occurrence's execution, SCHEDULED at its time (a time passed: at once), with its job. */
  private make(campaignId: number, accountId: number, occurrence: Occurrence): number {
    const now = this.deps.clock.now();
    const executionId = Number(
      this.db
        .prepare(
          `INSERT INTO campaign_executions (campaign_id, account_id, status, send_datetime, send_at, created_at, occurrence)
           VALUES (?, ?, 'SCHEDULED', ?, ?, ?, ?)`,
        )
        .run(campaignId, accountId, new Date(occurrence.at).toISOString(), occurrence.at, now, occurrence.occurrence)
        .lastInsertRowid,
    );
    this.deps.executions.enqueue(executionId, occurrence.at);
    return executionId;
  }

  /** An occurrence whose day passed: an execution ended FAILED at once, nothing sent. */
  private recordMissed(campaignId: number, accountId: number, occurrence: Occurrence): number {
    const now = this.deps.clock.now();
    return Number(
      this.db
        .prepare(
          `INSERT INTO campaign_executions (campaign_id, account_id, status, send_datetime, send_at, created_at,
             finished_at, error, occurrence)
           VALUES (?, ?, 'FAILED', ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          campaignId,
          accountId,
          new Date(occurrence.at).toISOString(),
          occurrence.at,
          now,
          now,
          MISSED_REASON,
          occurrence.occurrence,
        ).lastInsertRowid,
    );
  }

  private scheduleTick(campaignId: number, at: number): void {
    const jobId = this.deps.jobs.enqueue(SERIES_JOB, { campaignId }, { runAfter: at });
    this.db.prepare('UPDATE campaign_series SET job_id = ? WHERE campaign_id = ?').run(jobId, campaignId);
  }

  /** The latest occurrence made (its local day), or null. */
  private lastMade(campaignId: number): string | null {
    return (
      this.db
        .prepare<[number], string | null>('SELECT max(occurrence) FROM campaign_executions WHERE campaign_id = ?')
        .pluck()
        .get(campaignId) ?? null
    );
  }

  /**
   * The tick: the occurrences after the last made, each day passed entirely recorded missed, the
   * first on today or later made SCHEDULED, and the tick at its time; all in one transaction.
   */
  private tick(job: Job<{ campaignId: number }>): void {
    const { campaignId } = job.payload;
    const made: number[] = [];
    this.db.transaction(() => {
      const row = this.rowStmt.get(campaignId);
      if (!row || row.job_id !== job.id || row.paused === 1 || row.ended_at !== null) return;
      const campaign = this.deps.store.campaign.get(campaignId)!;
      const rule = JSON.parse(row.rule) as SeriesRule;
      const zone = this.deps.timeZone(campaign.account_id);
      const today = localDate(this.deps.clock.now(), zone);
      let after = this.lastMade(campaignId);
      for (;;) {
        // From the day after the last made (0: however long ago that was).
        const next = nextOccurrence(rule, zone, after === null ? this.deps.clock.now() : 0, after);
        if (next === null) {
          this.db
            .prepare('UPDATE campaign_series SET ended_at = ?, job_id = NULL WHERE campaign_id = ?')
            .run(this.deps.clock.now(), campaignId);
          return;
        }
        if (next.occurrence < today) {
          made.push(this.recordMissed(campaignId, campaign.account_id, next));
          after = next.occurrence;
          continue;
        }
        made.push(this.make(campaignId, campaign.account_id, next));
        this.scheduleTick(campaignId, next.at);
        return;
      }
    })();
    for (const executionId of made) this.deps.onChange(executionId);
  }

  /**
   * Whether a SCHEDULED occurrence's day has passed entirely (the app was off all of it): the
   * execution then ends missed instead of sending late.
   */
  missed(execution: ExecutionRow): string | null {
    if (execution.occurrence === null) return null;
    const today = localDate(this.deps.clock.now(), this.deps.timeZone(execution.account_id));
    return execution.occurrence < today ? MISSED_REASON : null;
  }

  /** The filter of an occurrence of a date-triggered campaign: its members whose date falls N days after its day. */
  filter(execution: ExecutionRow): AudienceFilter | null {
    if (execution.occurrence === null) return null;
    const rule = this.rule(execution.campaign_id);
    if (rule?.every !== 'trigger') return null;
    return { all: [{ column: rule.column, op: 'anniversary', on: addDays(execution.occurrence, rule.daysBefore) }] };
  }

  // ---- the series' controls

  pause(accountId: number, campaignId: number): void {
    const row = this.open(accountId, campaignId);
    if (row.paused === 1) return;
    const withdrawn = this.pending(campaignId);
    this.db.transaction(() => {
      this.db.prepare('UPDATE campaign_series SET paused = 1, job_id = NULL WHERE campaign_id = ?').run(campaignId);
      if (row.job_id !== null) this.deps.jobs.cancel(row.job_id);
      if (withdrawn !== null) {
        if (withdrawn.job_id !== null) this.deps.jobs.cancel(withdrawn.job_id);
        this.db.prepare('DELETE FROM campaign_executions WHERE id = ?').run(withdrawn.id);
      }
    })();
  }

  resume(accountId: number, campaignId: number): void {
    const row = this.open(accountId, campaignId);
    if (row.paused === 0) return;
    const rule = JSON.parse(row.rule) as SeriesRule;
    let executionId: number | null = null;
    this.db.transaction(() => {
      this.db.prepare('UPDATE campaign_series SET paused = 0 WHERE campaign_id = ?').run(campaignId);
      const next = nextOccurrence(
        rule,
        this.deps.timeZone(accountId),
        this.deps.clock.now(),
        this.lastMade(campaignId),
      );
      if (next === null) {
        this.db
          .prepare('UPDATE campaign_series SET ended_at = ? WHERE campaign_id = ?')
          .run(this.deps.clock.now(), campaignId);
        return;
      }
      executionId = this.make(campaignId, accountId, next);
      this.scheduleTick(campaignId, next.at);
    })();
    if (executionId !== null) this.deps.onChange(executionId);
  }

  end(accountId: number, campaignId: number): void {
    const row = this.open(accountId, campaignId);
    const pending = this.pending(campaignId);
    this.db.transaction(() => {
      this.db
        .prepare('UPDATE campaign_series SET ended_at = ?, job_id = NULL WHERE campaign_id = ?')
        .run(this.deps.clock.now(), campaignId);
      if (row.job_id !== null) this.deps.jobs.cancel(row.job_id);
      if (pending !== null) {
        if (pending.job_id !== null) this.deps.jobs.cancel(pending.job_id);
        this.deps.store.finish(pending.id, 'CANCELLED', null, this.deps.clock.now());
      }
    })();
    if (pending !== null) this.deps.onChange(pending.id);
  }

  /** The series of a campaign of the account, not ended; 400 otherwise. */
  private open(accountId: number, campaignId: number): SeriesRow {
    const campaign = this.deps.store.campaign.get(campaignId);
    if (!campaign || campaign.account_id !== accountId)
      throw new ServiceError(ApiCode.BadRequest, `campaign ${campaignId} unknown`, 'campaign_not_found');
    const row = this.rowStmt.get(campaignId);
    if (!row) throw new ServiceError(ApiCode.BadRequest, `campaign ${campaignId} is not a series`, 'series_not_series');
    if (row.ended_at !== null)
      throw new ServiceError(ApiCode.BadRequest, `the series of campaign ${campaignId} has ended`, 'series_ended');
    return row;
  }

  /** The next occurrence made and not started yet (SCHEDULED, never run). */
  private pending(campaignId: number): ExecutionRow | null {
    return (
      this.db
        .prepare<[number], ExecutionRow>(
          `SELECT * FROM campaign_executions WHERE campaign_id = ? AND occurrence IS NOT NULL
             AND status = 'SCHEDULED' AND started_at IS NULL ORDER BY occurrence DESC LIMIT 1`,
        )
        .get(campaignId) ?? null
    );
  }

  /** The series as the list and the campaign page show it; null for a one-off. */
  summary(campaignId: number, accountId: number): CampaignSeries | null {
    const row = this.rowStmt.get(campaignId);
    if (!row) return null;
    const rule = JSON.parse(row.rule) as SeriesRule;
    const occurrences = this.db
      .prepare<
        [number],
        { id: number; occurrence: string; send_at: number; status: SeriesOccurrence['status']; error: string | null }
      >(
        `SELECT id, occurrence, send_at, status, error FROM campaign_executions
         WHERE campaign_id = ? AND occurrence IS NOT NULL ORDER BY occurrence DESC`,
      )
      .all(campaignId)
      .map((e): SeriesOccurrence => ({
        occurrence: e.occurrence,
        execution_id: e.id,
        at: e.send_at,
        status: e.status,
        missed: e.status === 'FAILED' && e.error === MISSED_REASON,
      }));
    const ended = row.ended_at !== null;
    const paused = row.paused === 1;
    const upcoming = ended || paused ? null : this.pending(campaignId);
    return {
      kind: rule.every === 'trigger' ? 'trigger' : 'repeat',
      ...seriesObjects(rule),
      time_zone: this.deps.timeZone(accountId),
      paused,
      ended,
      next_occurrence: upcoming?.occurrence ?? null,
      next_at: upcoming?.send_at ?? null,
      occurrences,
    };
  }
}
