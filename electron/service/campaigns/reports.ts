// The campaigns' read model: the execution report (PRODUCT.md's record and our extensions), the
// campaign list and page, an execution's recipients (the paged messages list, its count, one
// recipient's clicks), its clicks per link, its delivery chart, the per-recipient file
// (export.ts) and a new segment of its results (results.ts). Every read is scoped to the account:
// another account's execution is "not found", which the API answers 400 like an unknown one.
// Messages are read by the execution's id ranges (its batches) through messaging's fragments and
// operations (messaging/id-ranges.ts, messaging/outcomes.ts), each read one statement.
import type { AudienceFilter } from '../../../shared/audience-filter';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/database';
import type { CampaignSeries } from '../../../shared/campaigns';
import { bothFilters } from './occurrences';
import type { Credit } from '../accounts/credit';
import { joinRefundsSql } from '../accounts/credit';
import type { Imports, Segments } from '../contacts';
import { ServiceError } from '../errors';
import { unixSeconds } from '../clock';
import { ApiCode } from '../../../shared/status';
import { MessageStatus, messageStatusText, sqlList } from '../../../shared/lifecycle';
import {
  FINAL_EXECUTION_STATUSES,
  type ExecutionMessage,
  type ExecutionReport,
  type ResultKind,
} from '../../../shared/campaigns';
import { OutcomeCounter, type Outcomes } from '../messaging/outcomes';
import { joinRangeMessagesSql, joinSendSql, messagesSql, RangeMessages } from '../messaging/id-ranges';
import { messageTextSql } from '../messaging/message-text';
import { batchIds, quietHoursText, type CampaignRow, type CampaignStore, type ExecutionRow } from './store';
import type { Executions } from './execution';
import { exportExecution, type ReportFilter, type ReportFormat, type ReportLanguage } from './export';
import { segmentFromResults } from './results';

export interface MessagesQuery {
  page?: number;
  size?: number;
  status?: readonly number[];
  clicked?: boolean;
}

export const MAX_PAGE_SIZE = 1000;

/** A campaign as the list and its page read it: its row and its newest execution. */
type SummaryRow = CampaignRow & { last_execution_id: number | null };
const SUMMARY_SELECT = `SELECT c.*, (SELECT max(id) FROM campaign_executions e WHERE e.campaign_id = c.id) AS last_execution_id
  FROM campaigns c`;

/** The messages of the execution's batches, as `m` joined to its batch `b`. */
const BATCH_MESSAGES = joinRangeMessagesSql('m', 'b.first_message_id', 'b.first_message_id + b.count - 1');

export interface ReportsDeps {
  db: Db;
  store: CampaignStore;
  executions: Executions;
  credit: Credit;
  segments: Segments;
  imports: Imports;
  dataDir: string;
  closing?: AbortSignal;
  /** A campaign's series (series.ts), null for a one-off. */
  seriesOf: (campaignId: number, accountId: number) => CampaignSeries | null;
}

export class Reports {
  private readonly db: Db;
  private readonly store: CampaignStore;
  private readonly outcomes: OutcomeCounter;
  private readonly ranges: RangeMessages;

  constructor(private readonly deps: ReportsDeps) {
    this.db = deps.db;
    this.store = deps.store;
    this.outcomes = new OutcomeCounter(deps.db);
    this.ranges = new RangeMessages(deps.db);
  }

  /** The execution of the account, or 400 (unknown and another account's are not told apart). */
  execution(accountId: number, executionId: number): ExecutionRow {
    const execution = this.store.execution.get(executionId);
    if (!execution || execution.account_id !== accountId)
      throw new ServiceError(ApiCode.BadRequest, `execution ${executionId} unknown`, 'execution_not_found');
    return execution;
  }

  report(accountId: number, executionId: number): ExecutionReport {
    const execution = this.execution(accountId, executionId);
    const campaign = this.store.campaign.get(execution.campaign_id)!;
    // Counted over the execution's id ranges on the index alone: a tenth of the time of reading
    // the messages themselves (wide rows: their texts) at 800,000.
    const { sent, delivered, failed, pending } = this.executionOutcomes(execution);
    // Each batch is one send whose total is the sum of its messages' costs.
    const cost = this.db
      .prepare<[number], number>(
        `SELECT total(s.total_rials) FROM campaign_batches b ${joinSendSql('s', 'b.send_id')} WHERE b.execution_id = ?`,
      )
      .pluck()
      .get(execution.id)!;
    const refunded = this.db
      .prepare<[number], number>(
        `SELECT total(l.amount_rials) FROM campaign_batches b
           ${joinRefundsSql('l', 'b.first_message_id', 'b.first_message_id + b.count - 1')}
         WHERE b.execution_id = ?`,
      )
      .pluck()
      .get(execution.id)!;
    const clicks = this.db
      .prepare<[number], number>('SELECT count(*) FROM campaign_clicks WHERE execution_id = ?')
      .pluck()
      .get(execution.id)!;
    const audience =
      execution.audience ??
      (FINAL_EXECUTION_STATUSES.includes(execution.status) ? sent : this.liveAudience(campaign, execution));
    const estimate = this.deps.executions.estimateLast(execution, campaign, audience);
    return {
      execution_id: execution.id,
      campaign_id: execution.campaign_id,
      execution_status: execution.status,
      send_datetime: execution.send_datetime,
      started_at: iso(execution.started_at),
      finished_at: iso(execution.finished_at),
      audience,
      sent,
      delivered,
      failed,
      pending,
      cost,
      skipped: Math.max(0, audience - sent),
      refunded,
      clicks,
      track_links: campaign.track_links === 1,
      paused: execution.paused === 1,
      reserved: execution.reservation_id === null ? 0 : this.deps.credit.reserved(execution.reservation_id),
      estimated_last_message_at: iso(estimate),
      error: execution.error,
    };
  }

  /**
   * How the execution's messages ended. A finished execution whose messages are all final can no
   * longer change: its outcomes are kept (migration 0020) and read from then on.
   */
  private executionOutcomes(execution: ExecutionRow): Outcomes {
    if (execution.outcomes !== null) return JSON.parse(execution.outcomes) as Outcomes;
    const outcomes = this.outcomes.count(execution.account_id, this.idRanges(execution.id));
    if (FINAL_EXECUTION_STATUSES.includes(execution.status) && outcomes.pending === 0)
      this.db
        .prepare('UPDATE campaign_executions SET outcomes = ? WHERE id = ? AND outcomes IS NULL')
        .run(JSON.stringify(outcomes), execution.id);
    return outcomes;
  }

  /** The execution's message ids as ranges: its batches, adjacent ones merged. */
  private idRanges(executionId: number): Array<[number, number]> {
    const ranges: Array<[number, number]> = [];
    for (const batch of this.store.batches.all(executionId).sort((a, b) => a.first_message_id - b.first_message_id)) {
      const { first, last } = batchIds(batch);
      const previous = ranges[ranges.length - 1];
      if (previous && previous[1] + 1 === first) previous[1] = last;
      else ranges.push([first, last]);
    }
    return ranges;
  }

  /** The audience as it would be frozen now (before the execution starts); 0 when a segment is not ready. */
  private liveAudience(campaign: CampaignRow, execution: ExecutionRow): number {
    // A date trigger's occurrence: those whose date falls on its day (series.ts).
    const own = campaign.filter === null ? null : (JSON.parse(campaign.filter) as AudienceFilter);
    try {
      return this.deps.segments.audienceCount(campaign.account_id, {
        include: JSON.parse(campaign.inclusion_segments) as number[],
        exclude: JSON.parse(campaign.exclusion_segments) as number[],
        filter: bothFilters(own, this.deps.executions.occurrences?.filter(execution) ?? null),
      });
    } catch (error) {
      if (error instanceof ServiceError) return 0;
      throw error;
    }
  }

  messages(accountId: number, executionId: number, query: MessagesQuery = {}): ExecutionMessage[] {
    const execution = this.execution(accountId, executionId);
    const size = Math.min(Math.max(Math.trunc(query.size ?? 500), 1), MAX_PAGE_SIZE);
    const page = Math.max(Math.trunc(query.page ?? 1), 1);
    const where = messageWhere(query);
    type Row = {
      id: number;
      receptor: string;
      text: string;
      status: MessageStatus;
      cost: number;
      created_at: number;
      clicks: number;
    };
    const columns = `m.id, m.receptor, ${messageTextSql('m', 's')} AS text, m.status, m.cost_rials AS cost, m.created_at,
      (SELECT count(*) FROM campaign_clicks c WHERE c.message_id = m.id) AS clicks`;
    let rows: Row[];
    if (where.length === 0) {
      // Unfiltered, the page's ids come straight from the batches' id ranges: a page deep in
      // 800,000 recipients reads its own rows only, not every row before it.
      const byIds = this.db.prepare<[number, number], Row>(
        `SELECT ${columns} FROM ${messagesSql('m')} ${joinSendSql('s', 'm.send_id')}
         WHERE m.id BETWEEN ? AND ? ORDER BY m.id`,
      );
      rows = [];
      let skip = (page - 1) * size;
      for (const [first, last] of this.idRanges(execution.id)) {
        const n = last - first + 1;
        if (skip >= n) {
          skip -= n;
          continue;
        }
        const from = first + skip;
        const to = Math.min(last, from + (size - rows.length) - 1);
        rows.push(...byIds.all(from, to));
        skip = 0;
        if (rows.length >= size) break;
      }
    } else
      rows = this.db
        .prepare<[number, number, number], Row>(
          `SELECT ${columns}
           FROM campaign_batches b
           ${BATCH_MESSAGES}
           ${joinSendSql('s', 'm.send_id')}
           WHERE b.execution_id = ? ${where.map((w) => `AND ${w}`).join(' ')}
           ORDER BY m.id LIMIT ? OFFSET ?`,
        )
        .all(execution.id, size, (page - 1) * size);
    return rows.map((row) => ({
      messageid: row.id,
      receptor: row.receptor,
      message: row.text,
      status: row.status,
      statustext: messageStatusText[row.status],
      cost: row.cost,
      date: unixSeconds(row.created_at),
      clicks: row.clicks,
    }));
  }

  /** How many of the execution's recipients the filter leaves. */
  messageCount(accountId: number, executionId: number, filter: Pick<MessagesQuery, 'status' | 'clicked'> = {}): number {
    const execution = this.execution(accountId, executionId);
    const where = messageWhere(filter);
    if (where.length === 0) return this.idRanges(execution.id).reduce((n, [first, last]) => n + last - first + 1, 0);
    return this.db
      .prepare<[number], number>(
        `SELECT count(*) FROM campaign_batches b
         ${BATCH_MESSAGES}
         WHERE b.execution_id = ? ${where.map((w) => `AND ${w}`).join(' ')}`,
      )
      .pluck()
      .get(execution.id)!;
  }

  /** One recipient's visits of the execution's short links, oldest first. */
  messageClicks(accountId: number, executionId: number, messageId: number) {
    const execution = this.execution(accountId, executionId);
    const links = this.store.linksOf(execution.campaign_id);
    return this.db
      .prepare<[number, number], { link_idx: number; clicked_at: number }>(
        'SELECT link_idx, clicked_at FROM campaign_clicks WHERE execution_id = ? AND message_id = ? ORDER BY id',
      )
      .all(execution.id, messageId)
      .map((click) => ({
        link_idx: click.link_idx,
        actual_url: links.find((l) => l.idx === click.link_idx)?.actual_url ?? '',
        clicked_at: click.clicked_at,
      }));
  }

  /** Clicks per link of an execution: visits and distinct recipients who visited. */
  linkClicks(accountId: number, executionId: number) {
    const execution = this.execution(accountId, executionId);
    const counts = this.db
      .prepare<[number], { link_idx: number; clicks: number; clickers: number }>(
        `SELECT link_idx, count(*) AS clicks, count(DISTINCT message_id) AS clickers
         FROM campaign_clicks WHERE execution_id = ? GROUP BY link_idx`,
      )
      .all(execution.id);
    return this.store.linksOf(execution.campaign_id).map((link) => {
      const count = counts.find((c) => c.link_idx === link.idx);
      return { ...link, clicks: count?.clicks ?? 0, clickers: count?.clickers ?? 0 };
    });
  }

  /**
   * The delivery chart: how many of the execution's messages reached delivered, or a failure, in
   * each time bucket, the bucket sized so the run fits in about 60 points (a minute at least).
   * One pass counting per minute over slices of the id ranges, yielding between them; the
   * minutes are then merged into buckets.
   */
  async deliveryChart(
    accountId: number,
    executionId: number,
  ): Promise<{ bucket_ms: number; points: Array<{ at: number; delivered: number; failed: number }> }> {
    const execution = this.execution(accountId, executionId);
    const MINUTE = 60_000;
    const minutes = new Map<number, { delivered: number; failed: number }>();
    const SLICE = 50_000;
    for (const [from, to] of this.idRanges(execution.id))
      for (let at = from; at <= to; at += SLICE) {
        for (const row of this.ranges.finalsPerMinute(at, Math.min(to, at + SLICE - 1))) {
          const counts = minutes.get(row.minute) ?? { delivered: 0, failed: 0 };
          counts.delivered += row.delivered;
          counts.failed += row.failed;
          minutes.set(row.minute, counts);
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    if (minutes.size === 0) return { bucket_ms: MINUTE, points: [] };
    let first = Infinity;
    let last = -Infinity;
    for (const minute of minutes.keys()) {
      first = Math.min(first, minute);
      last = Math.max(last, minute);
    }
    const perBucket = Math.max(1, Math.ceil((last - first + 1) / 60));
    const start = first - (first % perBucket);
    // Every bucket from the first to the last, empty ones included, so the chart's time axis is even.
    const points = Array.from({ length: Math.floor((last - start) / perBucket) + 1 }, (_, i) => ({
      at: (start + i * perBucket) * MINUTE,
      delivered: 0,
      failed: 0,
    }));
    for (const [minute, counts] of minutes) {
      const point = points[Math.floor((minute - start) / perBucket)]!;
      point.delivered += counts.delivered;
      point.failed += counts.failed;
    }
    return { bucket_ms: perBucket * MINUTE, points };
  }

  list(accountId: number) {
    return this.db
      .prepare<[number], SummaryRow>(`${SUMMARY_SELECT} WHERE c.account_id = ? ORDER BY c.id DESC`)
      .all(accountId)
      .map((row) => this.summary(row));
  }

  /** One campaign with every execution's report, newest first. */
  get(accountId: number, campaignId: number) {
    const row = this.db.prepare<[number], SummaryRow>(`${SUMMARY_SELECT} WHERE c.id = ?`).get(campaignId);
    if (!row || row.account_id !== accountId)
      throw new ServiceError(ApiCode.BadRequest, `campaign ${campaignId} unknown`, 'campaign_not_found');
    return { ...this.summary(row), executions: this.executionsOf(accountId, campaignId) };
  }

  private summary(row: SummaryRow) {
    return {
      campaign_id: row.id,
      name: row.name,
      sender: row.sender,
      template_body: row.template_body,
      inclusion_segments: JSON.parse(row.inclusion_segments) as number[],
      exclusion_segments: JSON.parse(row.exclusion_segments) as number[],
      links: this.store.linksOf(row.id),
      send_rate: row.send_rate,
      quiet_hours: quietHoursText(row),
      track_links: row.track_links === 1,
      filter: row.filter === null ? null : (JSON.parse(row.filter) as AudienceFilter),
      file_name: row.file_name,
      created_at: row.created_at,
      last_execution: row.last_execution_id === null ? null : this.report(row.account_id, row.last_execution_id),
      series: this.deps.seriesOf(row.id, row.account_id),
    };
  }

  executionsOf(accountId: number, campaignId: number): ExecutionReport[] {
    const campaign = this.store.campaign.get(campaignId);
    if (!campaign || campaign.account_id !== accountId)
      throw new ServiceError(ApiCode.BadRequest, 'no such campaign', 'campaign_not_found');
    return this.db
      .prepare<[number], number>('SELECT id FROM campaign_executions WHERE campaign_id = ? ORDER BY id DESC')
      .pluck()
      .all(campaignId)
      .map((id) => this.report(accountId, id));
  }

  /**
   * The execution's per-recipient report written to `file` as CSV or XLSX, streamed in pages (the
   * UI's language in headers, status texts and dates; the person's time zone, else the account's).
   * Resolves with the rows written once the file is whole.
   */
  exportReport(
    accountId: number,
    executionId: number,
    options: {
      format: ReportFormat;
      language: ReportLanguage;
      timeZone?: string;
      file: string;
      filter?: ReportFilter;
    },
    onProgress?: (rows: number, total: number) => void,
  ): Promise<{ rows: number }> {
    this.execution(accountId, executionId);
    fs.mkdirSync(path.dirname(options.file), { recursive: true });
    const { format, language, timeZone, file, filter } = options;
    return exportExecution(
      this.db,
      { executionId, format, language, timeZone, file, filter, signal: this.deps.closing },
      onProgress,
    );
  }

  /** "New segment from results": failed, delivered, clicked or not-clicked recipients, imported as a segment. */
  segmentFromResults(
    accountId: number,
    executionId: number,
    kind: ResultKind,
    name: string,
    keep?: (phone: string, status: MessageStatus) => boolean,
  ): Promise<{ segmentId: number; jobId: number }> {
    this.execution(accountId, executionId);
    if (name.trim() === '')
      throw new ServiceError(ApiCode.BadRequest, 'a segment name is required', 'segment_name_required');
    return segmentFromResults(this.db, this.deps.imports, {
      accountId,
      executionId,
      kind,
      name: name.trim(),
      dataDir: this.deps.dataDir,
      keep,
    });
  }
}

/** The recipients' filter of the report's rows (status, clicked) as SQL conditions on m. */
function messageWhere(query: Pick<MessagesQuery, 'status' | 'clicked'>): string[] {
  const where: string[] = [];
  if (query.status && query.status.length > 0)
    where.push(`m.status IN (${sqlList(query.status.filter((s) => Number.isInteger(s)) as MessageStatus[])})`);
  if (query.clicked !== undefined)
    where.push(`${query.clicked ? '' : 'NOT '}EXISTS (SELECT 1 FROM campaign_clicks c WHERE c.message_id = m.id)`);
  return where;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
