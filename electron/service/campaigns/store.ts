// The campaigns domain's rows (migration 0008) as the rest of the domain reads them.
import type { Db } from '../db/database';
import type { ExecutionStatus } from '../../../shared/campaigns';
import type { CampaignLink, QuietHours } from './form';

export interface CampaignRow {
  id: number;
  account_id: number;
  name: string;
  sender: string;
  template_body: string;
  inclusion_segments: string;
  exclusion_segments: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  send_rate: number | null;
  quiet_start: number | null;
  quiet_end: number | null;
  file_name: string | null;
  file_path: string | null;
  file_size: number | null;
  resent_from: number | null;
  created_at: number;
  /** 0: links written as their own addresses, no short links (migration 0028). */
  track_links: number;
  /** The column filter's JSON (shared/audience-filter.ts), null for none (migration 0034). */
  filter: string | null;
}

export interface ExecutionRow {
  id: number;
  campaign_id: number;
  account_id: number;
  status: ExecutionStatus;
  paused: number;
  paused_at: number | null;
  send_datetime: string;
  send_at: number;
  job_id: number | null;
  link_base: string | null;
  segment_columns: string | null;
  freeze_after: string | null;
  frozen: number;
  audience: number | null;
  /** The cost of the recipients frozen so far, priced chunk by chunk: what the reservation holds. */
  priced_rials: number;
  recorded: number;
  reservation_id: number | null;
  reserved_rials: number;
  last_due_at: number | null;
  error: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  /** Its outcomes (JSON) once finished with every message final (migration 0020). */
  outcomes: string | null;
  /** The local day (YYYY-MM-DD) of the series occurrence it is; null for a one-off's (migration 0035). */
  occurrence: string | null;
}

export interface BatchRow {
  execution_id: number;
  first_seq: number;
  count: number;
  send_id: number;
  first_message_id: number;
  due_at: number;
}

export class CampaignStore {
  readonly campaign;
  readonly execution;
  readonly links;
  readonly batches;
  readonly batchOfSeq;
  private readonly setStatusStmt;

  constructor(readonly db: Db) {
    this.campaign = db.prepare<[number], CampaignRow>('SELECT * FROM campaigns WHERE id = ?');
    this.execution = db.prepare<[number], ExecutionRow>('SELECT * FROM campaign_executions WHERE id = ?');
    this.links = db.prepare<[number], { idx: number; actual_url: string; has_utm: number }>(
      'SELECT idx, actual_url, has_utm FROM campaign_links WHERE campaign_id = ? ORDER BY idx',
    );
    this.batches = db.prepare<[number], BatchRow>(
      'SELECT * FROM campaign_batches WHERE execution_id = ? ORDER BY first_seq',
    );
    this.batchOfSeq = db.prepare<[number, number], BatchRow>(
      'SELECT * FROM campaign_batches WHERE execution_id = ? AND first_seq <= ? ORDER BY first_seq DESC LIMIT 1',
    );
    this.setStatusStmt = db.prepare(
      'UPDATE campaign_executions SET status = ?, error = ?, finished_at = ? WHERE id = ?',
    );
  }

  linksOf(campaignId: number): CampaignLink[] {
    return this.links.all(campaignId).map((l) => ({ idx: l.idx, actual_url: l.actual_url, has_utm: l.has_utm === 1 }));
  }

  /** Ends an execution (COMPLETED, FAILED, CANCELLED). */
  finish(executionId: number, status: ExecutionStatus, error: string | null, now: number): void {
    this.setStatusStmt.run(status, error, now, executionId);
  }
}

export function quietHoursOf(campaign: CampaignRow): QuietHours | null {
  return campaign.quiet_start === null || campaign.quiet_end === null
    ? null
    : { start: campaign.quiet_start, end: campaign.quiet_end };
}

/** Quiet hours as the form takes them ("22:00-08:00"); null without. */
export function quietHoursText(campaign: CampaignRow): string | null {
  const hhmm = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return campaign.quiet_start === null || campaign.quiet_end === null
    ? null
    : `${hhmm(campaign.quiet_start)}-${hhmm(campaign.quiet_end)}`;
}

/** Message ids of a batch. */
export function batchIds(batch: BatchRow): { first: number; last: number } {
  return { first: batch.first_message_id, last: batch.first_message_id + batch.count - 1 };
}
