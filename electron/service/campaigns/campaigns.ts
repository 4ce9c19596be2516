// Campaigns (spec 4.3, PRODUCT.md): creation with its checks, the execution's controls (pause,
// resume, cancel), short link visits, and the reports. The execution itself is a job
// (execution.ts). Every call is scoped to the account: another account's id is "not found", which
// the API answers 400 like an unknown one.
//
// Public API (core.campaigns):
//   create(accountId, form)                    -> {campaign_id, execution_id, execution_status: 'SCHEDULED'}
//   report(accountId, executionId)             -> ExecutionReport (PRODUCT.md's record and our extensions)
//   messages(accountId, executionId, query)    -> ExecutionMessage[] (paged, filterable by status and clicked)
//   pause / resume / cancel(accountId, executionId) -> ExecutionReport
//   click(code, userAgent)                     -> the address to redirect to, or null
//   list(accountId) / executions(accountId, campaignId) / linkClicks(accountId, executionId)
//   setLocalAddress(url)                       -> the default base of short links (the server's own address)
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { z } from 'zod';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Jobs } from '../jobs/jobs';
import type { Accounts } from '../accounts/accounts';
import type { Credit } from '../accounts/credit';
import type { Settings } from '../settings/settings';
import type { Imports, Segments } from '../contacts';
import { audienceView } from '../contacts/audience-view';
import type { Messaging } from '../messaging';
import { ServiceError } from '../errors';
import { unixSeconds } from '../clock';
import { ApiCode } from '../../../shared/status';
import { MessageStatus, messageStatusText, sqlList } from '../../../shared/lifecycle';
import {
  FAILED_RESULT_STATUSES,
  FINAL_EXECUTION_STATUSES,
  type CampaignDraftFields,
  type CampaignForm,
  type CampaignQuote,
  type CreateCampaignResult,
  type ExecutionMessage,
  type ExecutionReport,
  type ExecutionStatus,
  type ResultKind,
} from '../../../shared/campaigns';
import { checkCampaignForm } from './form';
import { CampaignStore, batchIds, quietHoursText, type CampaignRow, type ExecutionRow } from './store';
import { Executions } from './execution';
import { LinkCodes, redirectAddress, shortLinkLength } from './links';
import { exportExecution, type ReportFilter, type ReportFormat, type ReportLanguage } from './export';
import { segmentFromResults, sweepResultFiles } from './results';
import { Drafts, formOfDraft } from './drafts';
import { OutcomeCounter, type Outcomes } from '../messaging/outcomes';
import { audienceChunks, quoteCampaign, QuoteSuperseded } from './quote';
import { compileTemplate, TextBuilder } from './template';
import type { CampaignSpec } from './form';

export interface CampaignsDeps {
  db: Db;
  clock: Clock;
  jobs: Jobs;
  accounts: Accounts;
  credit: Credit;
  settings: Settings;
  segments: Segments;
  imports: Imports;
  messaging: Messaging;
  dataDir: string;
}

export interface CampaignsEvents {
  /** An execution's report changed (started, a batch recorded, paused, ended). */
  execution: [{ execution_id: number; campaign_id: number; account_id: number; status: ExecutionStatus }];
}

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

const CampaignSettingsSchema = z.object({
  /** The public base address of short links; null: the local server's own address. */
  short_link_base: z.string().nullable().default(null),
});
const SecretSchema = z.string().min(16);

export class Campaigns {
  readonly events = new EventEmitter<CampaignsEvents>();
  readonly executions: Executions;
  readonly drafts: Drafts;
  private readonly db: Db;
  /** The newest quote of each editor (quote_key): an older one still reading stops. */
  private readonly quoteGenerations = new Map<string, number>();
  private quoteGeneration = 0;
  private readonly store: CampaignStore;
  private readonly outcomes: OutcomeCounter;
  private localAddress = 'http://127.0.0.1:8080';
  private codes: LinkCodes | null = null;

  constructor(private readonly deps: CampaignsDeps) {
    this.db = deps.db;
    this.store = new CampaignStore(deps.db);
    this.drafts = new Drafts(deps.db, deps.clock);
    this.outcomes = new OutcomeCounter(deps.db);
    this.executions = new Executions({
      db: deps.db,
      clock: deps.clock,
      jobs: deps.jobs,
      accept: deps.messaging.accept,
      lifecycle: deps.messaging.lifecycle,
      credit: deps.credit,
      accounts: deps.accounts,
      settings: deps.settings,
      segments: deps.segments,
      store: this.store,
      codes: () => this.linkCodes(),
      linkBase: () => this.linkBase(),
      timeZone: (accountId) => this.timeZone(accountId),
      onProgress: (executionId) => this.emit(executionId),
    });
    sweepResultFiles(deps.db, deps.imports, deps.dataDir);
  }

  /** The local server's address, the default base of short links (the host calls this once it listens). */
  setLocalAddress(url: string): void {
    this.localAddress = url.replace(/\/+$/, '');
  }

  /** The base every new execution writes its short links under. */
  linkBase(): string {
    const configured = this.deps.settings.read('campaigns', CampaignSettingsSchema, { short_link_base: null });
    return (configured.short_link_base ?? this.localAddress).replace(/\/+$/, '');
  }

  /** How many characters a short link adds to a text now. */
  linkLength(): number {
    return shortLinkLength(this.linkBase());
  }

  /** The short links' settings: the configured base (null: the local server's address) and what is used. */
  linkSettings(): { short_link_base: string | null; effective_base: string; link_length: number } {
    const { short_link_base } = this.deps.settings.read('campaigns', CampaignSettingsSchema, {
      short_link_base: null,
    });
    return { short_link_base, effective_base: this.linkBase(), link_length: this.linkLength() };
  }

  /**
   * Sets the public base address of short links (an absolute http(s) address, for example a
   * domain that forwards to this PC), or null for the local server's own. Executions started
   * earlier keep the base they wrote their texts with.
   */
  setShortLinkBase(base: string | null): ReturnType<Campaigns['linkSettings']> {
    let value: string | null = null;
    if (base !== null && base.trim() !== '') {
      let url: URL;
      try {
        url = new URL(base.trim());
      } catch {
        throw new ServiceError(ApiCode.BadRequest, 'the short link base is an absolute address', 'short_link_base');
      }
      if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash)
        throw new ServiceError(
          ApiCode.BadRequest,
          'the short link base is an http(s) address without query',
          'short_link_base',
        );
      value = url.toString().replace(/\/+$/, '');
    }
    this.deps.settings.write('campaigns', CampaignSettingsSchema, { short_link_base: value });
    return this.linkSettings();
  }

  /**
   * Spec 4.3's checks in their order (form, send time, sender line, segments): the request as
   * creation takes it, or the ServiceError of the first fault.
   */
  private check(accountId: number, form: CampaignForm): CampaignSpec {
    const spec = checkCampaignForm(form);
    this.deps.accounts.senderLine(accountId, spec.sender, 'campaign');
    for (const segmentId of [...spec.include, ...spec.exclude])
      if (this.deps.segments.find(accountId, segmentId) === null)
        throw new ServiceError(ApiCode.BadRequest, `segment ${segmentId} unknown`, 'campaign_segment_gone');
    return spec;
  }

  /**
   * Creates the campaign and its first execution; `draftId` (the app's editor) is deleted in the
   * same transaction, so the draft cannot be scheduled twice.
   */
  create(accountId: number, form: CampaignForm, options: { draftId?: number } = {}): CreateCampaignResult {
    const spec = this.check(accountId, form);
    if (options.draftId !== undefined) this.drafts.get(accountId, options.draftId);
    const now = this.deps.clock.now();
    const ids = this.db.transaction(() => {
      if (options.draftId !== undefined) this.drafts.delete(accountId, options.draftId);
      const campaignId = Number(
        this.db
          .prepare(
            `INSERT INTO campaigns (account_id, name, sender, template_body, inclusion_segments, exclusion_segments,
               utm_source, utm_medium, utm_campaign, send_rate, quiet_start, quiet_end, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            accountId,
            spec.name,
            spec.sender,
            spec.template_body,
            JSON.stringify(spec.include),
            JSON.stringify(spec.exclude),
            spec.utm.source,
            spec.utm.medium,
            spec.utm.campaign,
            spec.sendRate,
            spec.quietHours?.start ?? null,
            spec.quietHours?.end ?? null,
            now,
          ).lastInsertRowid,
      );
      const insertLink = this.db.prepare(
        'INSERT INTO campaign_links (campaign_id, idx, actual_url, has_utm) VALUES (?, ?, ?, ?)',
      );
      for (const link of spec.links) insertLink.run(campaignId, link.idx, link.actual_url, link.has_utm ? 1 : 0);
      if (spec.file) {
        // Kept as given (spec 4.3: no check of its content; the HTTP form bounds its size), beside the workspace's other files.
        const dir = path.join(this.deps.dataDir, 'campaign-files');
        fs.mkdirSync(dir, { recursive: true });
        const safe =
          path
            .basename(spec.file.name)
            .replace(/[^\p{L}\p{N}._-]/gu, '_')
            .slice(0, 100) || 'file';
        const relative = path.join('campaign-files', `${campaignId}-${safe}`);
        fs.writeFileSync(path.join(this.deps.dataDir, relative), spec.file.bytes);
        this.db
          .prepare('UPDATE campaigns SET file_name = ?, file_path = ?, file_size = ? WHERE id = ?')
          .run(spec.file.name, relative, spec.file.bytes.byteLength, campaignId);
      }
      const executionId = this.insertExecution(campaignId, accountId, spec.send_datetime, spec.sendAt, now);
      return { campaignId, executionId };
    })();
    this.emit(ids.executionId);
    return { campaign_id: ids.campaignId, execution_id: ids.executionId, execution_status: 'SCHEDULED' };
  }

  /** A new SCHEDULED execution of a campaign, its job due at the send time (at once when past). */
  private insertExecution(campaignId: number, accountId: number, sendDatetime: string, sendAt: number, now: number) {
    const executionId = Number(
      this.db
        .prepare(
          `INSERT INTO campaign_executions (campaign_id, account_id, status, send_datetime, send_at, created_at)
           VALUES (?, ?, 'SCHEDULED', ?, ?, ?)`,
        )
        .run(campaignId, accountId, sendDatetime, sendAt, now).lastInsertRowid,
    );
    this.executions.enqueue(executionId, sendAt);
    return executionId;
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
        'SELECT total(s.total_rials) FROM campaign_batches b JOIN sends s ON s.id = b.send_id WHERE b.execution_id = ?',
      )
      .pluck()
      .get(execution.id)!;
    const refunded = this.db
      .prepare<[number], number>(
        `SELECT total(l.amount_rials) FROM campaign_batches b JOIN credit_ledger l
           ON l.kind = 'refund' AND l.message_id BETWEEN b.first_message_id AND b.first_message_id + b.count - 1
         WHERE b.execution_id = ?`,
      )
      .pluck()
      .get(execution.id)!;
    const clicks = this.db
      .prepare<[number], number>('SELECT count(*) FROM campaign_clicks WHERE execution_id = ?')
      .pluck()
      .get(execution.id)!;
    const audience =
      execution.audience ?? (FINAL_EXECUTION_STATUSES.includes(execution.status) ? sent : this.liveAudience(campaign));
    const estimate = this.executions.estimateLast(execution, campaign, audience);
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
  private liveAudience(campaign: CampaignRow): number {
    try {
      return this.deps.segments.audienceCount(campaign.account_id, {
        include: JSON.parse(campaign.inclusion_segments) as number[],
        exclude: JSON.parse(campaign.exclusion_segments) as number[],
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
    const columns = `m.id, m.receptor, COALESCE(m.text, s.text) AS text, m.status, m.cost_rials AS cost, m.created_at,
      (SELECT count(*) FROM campaign_clicks c WHERE c.message_id = m.id) AS clicks`;
    let rows: Row[];
    if (where.length === 0) {
      // Unfiltered, the page's ids come straight from the batches' id ranges: a page deep in
      // 800,000 recipients reads its own rows only, not every row before it.
      const byIds = this.db.prepare<[number, number], Row>(
        `SELECT ${columns} FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.id BETWEEN ? AND ? ORDER BY m.id`,
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
           JOIN messages m ON m.id BETWEEN b.first_message_id AND b.first_message_id + b.count - 1
           JOIN sends s ON s.id = m.send_id
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

  /** Stops sending: the run ends after its current batch, messages not yet due stay in 2 until resume. */
  pause(accountId: number, executionId: number): ExecutionReport {
    const execution = this.execution(accountId, executionId);
    this.requireOpen(execution);
    if (execution.paused === 0) {
      const now = this.deps.clock.now();
      this.db.transaction(() => {
        this.db.prepare('UPDATE campaign_executions SET paused = 1, paused_at = ? WHERE id = ?').run(now, execution.id);
        this.executions.withdrawFuture(execution.id, now);
      })();
      if (execution.job_id !== null) this.deps.jobs.cancel(execution.job_id);
      this.emit(execution.id);
    }
    return this.report(accountId, executionId);
  }

  resume(accountId: number, executionId: number): ExecutionReport {
    const execution = this.execution(accountId, executionId);
    this.requireOpen(execution);
    if (execution.paused === 1) {
      const now = this.deps.clock.now();
      const campaign = this.store.campaign.get(execution.campaign_id)!;
      this.db.transaction(() => {
        this.db.prepare('UPDATE campaign_executions SET paused = 0, paused_at = NULL WHERE id = ?').run(execution.id);
        this.executions.replanHeld(execution, campaign, now);
        this.executions.enqueue(execution.id, execution.status === 'SCHEDULED' ? execution.send_at : now);
      })();
      this.emit(execution.id);
    }
    return this.report(accountId, executionId);
  }

  /**
   * Ends the execution CANCELLED: nothing more is recorded, what it still held is released, and its
   * messages not handed to the carrier yet end 13, refunded (by a job, so a crash halfway finishes
   * the sweep on the next start; a small execution is swept at once).
   */
  cancel(accountId: number, executionId: number): ExecutionReport {
    const execution = this.execution(accountId, executionId);
    this.requireOpen(execution);
    const now = this.deps.clock.now();
    this.db.transaction(() => {
      if (execution.reservation_id !== null) this.deps.credit.release(execution.reservation_id);
      this.store.finish(execution.id, 'CANCELLED', null, now);
      if (execution.job_id !== null) this.deps.jobs.cancel(execution.job_id);
      this.executions.enqueue(execution.id, now);
    })();
    // The queued sweep finds nothing left to do after this one.
    if (execution.recorded <= 20_000) for (const _step of this.executions.sweepSteps(execution.id));
    this.emit(execution.id);
    return this.report(accountId, executionId);
  }

  /** A visit of a short link: the click recorded, and where to send the visitor; null for no such link. */
  click(code: string, userAgent: string): string | null {
    const ref = this.linkCodes().decode(code);
    if (ref === null) return null;
    const execution = this.store.execution.get(ref.executionId);
    if (!execution || ref.seq >= execution.recorded) return null;
    const batch = this.store.batchOfSeq.get(ref.executionId, ref.seq);
    if (!batch || ref.seq >= batch.first_seq + batch.count) return null;
    const campaign = this.store.campaign.get(execution.campaign_id)!;
    const link = this.store.linksOf(campaign.id).find((l) => l.idx === ref.link);
    if (!link) return null;
    const messageId = batch.first_message_id + (ref.seq - batch.first_seq);
    this.db
      .prepare(
        'INSERT INTO campaign_clicks (execution_id, message_id, link_idx, clicked_at, user_agent) VALUES (?, ?, ?, ?, ?)',
      )
      .run(execution.id, messageId, link.idx, this.deps.clock.now(), userAgent.slice(0, 500));
    this.emit(execution.id);
    return redirectAddress(
      link.actual_url,
      link.has_utm
        ? {
            source: campaign.utm_source,
            medium: campaign.utm_medium,
            campaign: campaign.utm_campaign.replaceAll('{id}', String(campaign.id)),
          }
        : null,
    );
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
      file_name: row.file_name,
      created_at: row.created_at,
      last_execution: row.last_execution_id === null ? null : this.report(row.account_id, row.last_execution_id),
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
    return exportExecution(this.db, { executionId, format, language, timeZone, file, filter }, onProgress);
  }

  /** "New segment from results": failed, delivered, clicked or not-clicked recipients, imported as a segment. */
  segmentFromResults(
    accountId: number,
    executionId: number,
    kind: ResultKind,
    name: string,
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
    });
  }

  /**
   * "Resend to failed": a new campaign like this execution's (line, text, links, UTM, rate, quiet
   * hours) to the recipients whose messages failed, as a new segment; due at `send_datetime`, or
   * now. Its execution waits while that segment is being imported.
   */
  async resendToFailed(
    accountId: number,
    executionId: number,
    options: { name?: string; send_datetime?: string } = {},
  ): Promise<CreateCampaignResult & { segment_id: number }> {
    const execution = this.execution(accountId, executionId);
    const campaign = this.store.campaign.get(execution.campaign_id)!;
    const name = options.name?.trim() || `${campaign.name} (resend #${execution.id})`;
    const { segmentId } = await this.segmentFromResults(accountId, executionId, 'failed', name);
    const created = this.create(accountId, {
      sender: campaign.sender,
      name,
      template_body: campaign.template_body,
      send_datetime: options.send_datetime ?? new Date(this.deps.clock.now()).toISOString(),
      inclusion_segments: [String(segmentId)],
      exclusion_segments: [],
      links: this.store.linksOf(campaign.id).map((link) => ({
        index: link.idx,
        actual_url: link.actual_url,
        has_utm: link.has_utm ? 'true' : 'false',
      })),
      utm: { utm_source: campaign.utm_source, utm_medium: campaign.utm_medium, utm_campaign: campaign.utm_campaign },
      send_rate: campaign.send_rate === null ? undefined : String(campaign.send_rate),
      quiet_hours: quietHoursText(campaign) ?? undefined,
    });
    this.db.prepare('UPDATE campaigns SET resent_from = ? WHERE id = ?').run(execution.id, created.campaign_id);
    return { ...created, segment_id: segmentId };
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
   * The editor's dry run (quote.ts): the drafted campaign checked as creation would check it, its
   * audience counted and explained, sample texts and the whole cost against the credit. A newer
   * quote with the same key stops an older one still reading (409).
   */
  async quote(
    accountId: number,
    fields: CampaignDraftFields,
    options: { seed?: number; quoteKey?: string } = {},
  ): Promise<CampaignQuote> {
    this.deps.accounts.get(accountId);
    const generation = ++this.quoteGeneration;
    const key = options.quoteKey;
    if (key !== undefined) this.quoteGenerations.set(key, generation);
    const now = this.deps.clock.now();
    let problem: CampaignQuote['problem'] = null;
    try {
      this.check(accountId, formOfDraft(fields, now));
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      problem = { code: error.code, field: faultField(error), detail: error.detail ?? error.message };
    }
    try {
      return await quoteCampaign(
        {
          db: this.db,
          accountId,
          now,
          segment: (id) => this.deps.segments.find(accountId, id),
          provider: this.deps.accounts.findLine(accountId, fields.sender.trim())?.provider ?? null,
          pricing: this.deps.settings.pricing(),
          credit: this.deps.credit.available(accountId),
          linkBase: this.linkBase(),
          timeZone: this.timeZone(accountId),
          problem,
          stale: () => key !== undefined && this.quoteGenerations.get(key) !== generation,
        },
        fields,
        options.seed ?? 1,
      );
    } catch (error) {
      if (error instanceof QuoteSuperseded)
        throw new ServiceError(ApiCode.Superseded, 'a newer quote replaced this one');
      throw error;
    } finally {
      if (key !== undefined && this.quoteGenerations.get(key) === generation) this.quoteGenerations.delete(key);
    }
  }

  /**
   * "Send a test to my number": the first recipient's text (the bare template when the audience is
   * empty) as one panel message to `receptor`, now, on the drafted line, charged like any message.
   * Links stay the addresses typed in the text: a test has no tracked recipient.
   */
  sendTest(accountId: number, fields: CampaignDraftFields, receptor: string) {
    const template = compileTemplate(fields.template_body, []);
    const readable = (ids: number[]) =>
      ids.flatMap((id) => audienceView(this.db, this.deps.segments.get(accountId, id)) ?? []);
    const include = readable(fields.inclusion_segments);
    const exclude = readable(fields.exclusion_segments);
    let first: [string, number, string] | null = null;
    for (const chunk of audienceChunks(this.db, include, exclude, accountId)) {
      const row = chunk.find(([, , , , excluded, optedOut]) => !excluded && !optedOut);
      if (row) {
        first = [row[0], row[1], row[2]];
        break;
      }
    }
    const builder = new TextBuilder(
      template,
      Object.fromEntries(include.map((s) => [String(s.id), s.columns])),
      this.linkBase(),
    );
    const text = first ? builder.text(...first) : builder.text(receptor, 0, '');
    if (text.trim() === '') throw new ServiceError(ApiCode.BadRequest, 'the text is empty', 'campaign_text_required');
    const recorded = this.deps.messaging.accept.accept({
      accountId,
      origin: 'panel',
      sender: fields.sender.trim(),
      text,
      receivers: [receptor],
      rule: 'lenient',
    });
    if (recorded.accepted === 0) throw new ServiceError(ApiCode.InvalidReceiver, receptor, 'test_receptor_invalid');
    const message = this.db
      .prepare<[number], { id: number; receptor: string; text: string; cost_rials: number }>(
        `SELECT m.id, m.receptor, COALESCE(m.text, s.text) AS text, m.cost_rials
         FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.send_id = ? ORDER BY m.id LIMIT 1`,
      )
      .get(recorded.sendId)!;
    return {
      send_id: recorded.sendId,
      message_id: message.id,
      receptor: message.receptor,
      text: message.text,
      cost_rials: message.cost_rials,
    };
  }

  /** How many of the execution's recipients the filter leaves. */
  messageCount(accountId: number, executionId: number, filter: Pick<MessagesQuery, 'status' | 'clicked'> = {}): number {
    const execution = this.execution(accountId, executionId);
    const where = messageWhere(filter);
    if (where.length === 0) return this.idRanges(execution.id).reduce((n, [first, last]) => n + last - first + 1, 0);
    return this.db
      .prepare<[number], number>(
        `SELECT count(*) FROM campaign_batches b
         JOIN messages m ON m.id BETWEEN b.first_message_id AND b.first_message_id + b.count - 1
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
    const failed = sqlList(FAILED_RESULT_STATUSES as MessageStatus[]);
    const slice = this.db.prepare<[number, number], { minute: number; delivered: number; failed: number }>(
      `SELECT CAST(final_at / ${MINUTE} AS INTEGER) AS minute, sum(status = ${MessageStatus.Delivered}) AS delivered,
         sum(status IN (${failed})) AS failed
       FROM messages WHERE id BETWEEN ? AND ? AND final_at IS NOT NULL GROUP BY minute`,
    );
    const minutes = new Map<number, { delivered: number; failed: number }>();
    const SLICE = 50_000;
    for (const [from, to] of this.idRanges(execution.id))
      for (let at = from; at <= to; at += SLICE) {
        for (const row of slice.all(at, Math.min(to, at + SLICE - 1))) {
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

  /** The execution of the account, or 400 (unknown and another account's are not told apart). */
  execution(accountId: number, executionId: number): ExecutionRow {
    const execution = this.store.execution.get(executionId);
    if (!execution || execution.account_id !== accountId)
      throw new ServiceError(ApiCode.BadRequest, `execution ${executionId} unknown`, 'execution_not_found');
    return execution;
  }

  private requireOpen(execution: ExecutionRow): void {
    if (FINAL_EXECUTION_STATUSES.includes(execution.status))
      throw new ServiceError(
        ApiCode.BadRequest,
        `execution ${execution.id} has ended (${execution.status})`,
        'execution_ended',
      );
  }

  private linkCodes(): LinkCodes {
    if (this.codes === null) {
      let secret = this.deps.settings.read<string | null>('campaigns.link_secret', SecretSchema.nullable(), null);
      if (secret === null) {
        secret = randomBytes(24).toString('hex');
        this.deps.settings.write('campaigns.link_secret', SecretSchema, secret);
      }
      this.codes = new LinkCodes(secret);
    }
    return this.codes;
  }

  private timeZone(accountId: number): string {
    return this.deps.accounts.timeZone(accountId);
  }

  private emit(executionId: number): void {
    const execution = this.store.execution.get(executionId);
    if (execution)
      this.events.emit('execution', {
        execution_id: execution.id,
        campaign_id: execution.campaign_id,
        account_id: execution.account_id,
        status: execution.status,
      });
  }
}

/** The form field a fault of spec 4.3's checks names (its detail starts with it), when it names one. */
function faultField(error: ServiceError): string | null {
  if (error.code === ApiCode.BadDate) return 'send_datetime';
  if (error.code === ApiCode.InvalidSender) return 'sender';
  const match =
    /^(sender|name|template_body|send_datetime|inclusion_segments|exclusion_segments|links|send_rate|quiet_hours|segment)\b/.exec(
      error.detail ?? '',
    );
  if (!match) return null;
  return match[1] === 'segment' ? 'inclusion_segments' : match[1]!;
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
