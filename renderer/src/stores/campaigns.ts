// The Campaigns page: the account's drafts and campaigns as one list, and one execution's report
// (its counts, delivery chart, link clicks, recipients page by page, pause / resume / cancel,
// export, and the follow-ups "new segment from results" and "resend to failed").
// Both follow the executions' pushes (campaigns:execution), throttled; the report also reads
// itself again every few seconds until the run is over and its messages have their final status,
// because delivery statuses change without an execution push.
import { createStore, type StateCreator } from 'zustand/vanilla';
import type { Api } from '../api';
import type { OutputOf, PayloadOf } from '../../../shared/ipc';
import type { CampaignSummary } from '../../../shared/ipc/contracts/campaigns';
import {
  CampaignDraftFieldsSchema,
  FAILED_RESULT_STATUSES,
  FINAL_EXECUTION_STATUSES,
  PENDING_RESULT_STATUSES,
  type CampaignDraft,
  type CampaignDraftFields,
  type CampaignQuote,
  type CampaignSeries,
  type ExecutionMessage,
  type ExecutionStatus,
  type ExecutionReport,
  type ResendQuote,
  type ResultKind,
} from '../../../shared/campaigns';
import type { Language } from '../lib/format';
import { MessageStatus } from '../../../shared/lifecycle';
import { isOffline, reported } from './errors';
import { throttled } from '../lib/throttled';

export type CampaignDetail = OutputOf<'campaigns:get'>;
export type DeliveryChart = OutputOf<'campaigns:deliveryChart'>;
export type LinkClicks = OutputOf<'campaigns:linkClicks'>;
export type RecipientClicks = OutputOf<'campaigns:messageClicks'>;
export type MessageTimeline = OutputOf<'messages:timeline'>;
export type ReportExport = OutputOf<'campaigns:export'>;
type ImportJob = OutputOf<'imports:get'>;

// ---- statuses

/** What the list and the report call a campaign's state: its last execution's, or a draft's. */
export type CampaignStatus = 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

export function isFinal(report: ExecutionReport): boolean {
  return FINAL_EXECUTION_STATUSES.includes(report.execution_status);
}

/** Over, and every message it sent has its final status: nothing in the report moves but clicks. */
export function settled(report: ExecutionReport): boolean {
  return isFinal(report) && report.pending === 0;
}

/** A paused execution stays SCHEDULED or RUNNING in the core; the user sees it as paused. */
export function statusOf(report: ExecutionReport): Exclude<CampaignStatus, 'draft'> {
  return executionShownStatus(report.execution_status, report.paused);
}

/** An execution's state as the user sees it (the report's, the dashboard's and the sends' badge). */
export function executionShownStatus(status: ExecutionStatus, paused: boolean): Exclude<CampaignStatus, 'draft'> {
  if (paused && !FINAL_EXECUTION_STATUSES.includes(status)) return 'paused';
  switch (status) {
    case 'SCHEDULED':
      return 'scheduled';
    case 'RUNNING':
      return 'running';
    case 'COMPLETED':
      return 'completed';
    case 'FAILED':
      return 'failed';
    case 'CANCELLED':
      return 'cancelled';
  }
}

/** An RFC 3339 time of a report as ms (null for none, or one that does not parse). */
export function timeOf(text: string | null): number | null {
  if (text === null) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

// ---- the list

export interface DraftRow {
  kind: 'draft';
  draft_id: number;
  name: string;
  status: 'draft';
  /** The send time drafted; null: "now" (when it is scheduled). */
  send_at: number | null;
  updated_at: number;
}

export interface CampaignRow {
  kind: 'campaign';
  campaign_id: number;
  /** The last execution (the one the row opens); null for a campaign without one yet. */
  execution_id: number | null;
  name: string;
  status: Exclude<CampaignStatus, 'draft'>;
  send_at: number | null;
  audience: number | null;
  sent: number;
  delivered: number;
  failed: number;
  pending: number;
  cost: number;
  /** A repeating or date-triggered campaign's series (kind, next occurrence, paused); null: a one-off. */
  series: CampaignSeries | null;
}

export type ListRow = DraftRow | CampaignRow;

/** Drafts first (the work in hand, last edited on top), then campaigns, newest first. */
export function listRows(drafts: readonly CampaignDraft[], campaigns: readonly CampaignSummary[]): ListRow[] {
  const draftRows = [...drafts]
    .sort((a, b) => b.updated_at - a.updated_at)
    .map((draft): DraftRow => ({
      kind: 'draft',
      draft_id: draft.draft_id,
      name: draft.fields.name,
      status: 'draft',
      send_at: timeOf(draft.fields.send_datetime),
      updated_at: draft.updated_at,
    }));
  const campaignRows = [...campaigns]
    .sort((a, b) => b.created_at - a.created_at || b.campaign_id - a.campaign_id)
    .map((campaign): CampaignRow => {
      const last = campaign.last_execution;
      return {
        kind: 'campaign',
        campaign_id: campaign.campaign_id,
        execution_id: last?.execution_id ?? null,
        name: campaign.name,
        // Created with its execution; none yet is a campaign still being set up.
        status: last ? statusOf(last) : 'scheduled',
        send_at: last ? timeOf(last.send_datetime) : null,
        audience: last?.audience ?? null,
        sent: last?.sent ?? 0,
        delivered: last?.delivered ?? 0,
        failed: last?.failed ?? 0,
        pending: last?.pending ?? 0,
        cost: last?.cost ?? 0,
        series: campaign.series,
      };
    });
  return [...draftRows, ...campaignRows];
}

/** The list is re-read at most this often while executions push. */
export const LIST_REFRESH_MS = 1000;

export interface ListSlice {
  accountId: number | null;
  /** Drafts and campaigns; null while read. */
  list: ListRow[] | null;
  /** The list is on screen: pushes re-read it. */
  listShown: boolean;
  /** The last refusal of the service, shown once. */
  error: string | null;
  load(accountId: number | null): Promise<void>;
  showList(): void;
  hideList(): void;
  refreshList(): Promise<void>;
  /** A campaigns:execution push: the list and an open report of it follow, throttled. */
  followExecution(push: PayloadOf<'campaigns:execution'>): void;
}

// ---- the report

/** Which recipients the report's rows show: by the report's partition of statuses, and clicks. */
export type RowGroup = 'all' | 'delivered' | 'failed' | 'pending';
export type ClickFilter = 'any' | 'clicked' | 'not_clicked';
export interface RowFilter {
  group: RowGroup;
  clicked: ClickFilter;
}
export const ALL_ROWS: RowFilter = { group: 'all', clicked: 'any' };

const GROUP_STATUSES: Record<Exclude<RowGroup, 'all'>, readonly number[]> = {
  delivered: [MessageStatus.Delivered],
  failed: FAILED_RESULT_STATUSES,
  pending: PENDING_RESULT_STATUSES,
};

/** The contracts' filter of recipients (campaigns:messages, messageCount, export). */
export function rowQuery(filter: RowFilter): { status?: number[]; clicked?: boolean } {
  return {
    ...(filter.group === 'all' ? {} : { status: [...GROUP_STATUSES[filter.group]] }),
    ...(filter.clicked === 'any' ? {} : { clicked: filter.clicked === 'clicked' }),
  };
}

/**
 * Click-through: recipients who clicked over those who got the message (delivered), or over those
 * it was sent to while no delivery is reported yet; null while nothing was sent.
 */
export function clickThrough(clickers: number, report: Pick<ExecutionReport, 'delivered' | 'sent'>): number | null {
  const base = report.delivered > 0 ? report.delivered : report.sent;
  return base > 0 ? clickers / base : null;
}

export interface ReportView {
  executionId: number;
  report: ExecutionReport | null;
  campaign: CampaignDetail | null;
  chart: DeliveryChart | null;
  links: LinkClicks | null;
  /** Recipients who clicked any link (the overall click-through's numerator). */
  clickers: number | null;
  /** The execution is not this account's, or none. */
  missing: boolean;
  /** Moves on with every read, so the recipients on screen are read again in place. */
  version: number;
}

/** Runs not settled are read again this often (delivery statuses move without execution pushes). */
export const REPORT_POLL_MS = 3000;
/** An open report follows its execution's pushes at most this often. */
export const REPORT_REFRESH_MS = 1000;
/** The delivery chart reads every message of the execution: it is read again at most this often. */
export const CHART_REFRESH_MS = 5000;

export type Control = 'pause' | 'resume' | 'cancel';

/** A series as the editor would draft it: what the quote of its month is asked with. */
export function seriesFields(campaign: CampaignDetail): CampaignDraftFields {
  return CampaignDraftFieldsSchema.parse({
    name: campaign.name,
    sender: campaign.sender,
    template_body: campaign.template_body,
    inclusion_segments: campaign.inclusion_segments,
    exclusion_segments: campaign.exclusion_segments,
    links: campaign.links.map((link) => ({ actual_url: link.actual_url, has_utm: link.has_utm })),
    send_rate: campaign.send_rate,
    quiet_hours: campaign.quiet_hours,
    track_links: campaign.track_links,
    time_zone: campaign.series?.time_zone ?? null,
    repeat: campaign.series?.repeat ?? null,
    trigger: campaign.series?.trigger ?? null,
  });
}
export type SeriesControl = 'seriesPause' | 'seriesResume' | 'seriesEnd';

export interface ReportSlice {
  view: ReportView | null;
  filter: RowFilter;
  /** Recipients the filter leaves; null while counted. */
  rowCount: number | null;
  openReport(executionId: number): Promise<void>;
  closeReport(): void;
  /** Reads the open report again (the counts, links, chart when due, the filtered count). */
  refreshReport(): Promise<void>;
  /** refreshReport at most once per REPORT_REFRESH_MS (pushes, the poll). */
  followReport(): void;
  setFilter(change: Partial<RowFilter>): void;
  /** Recipients of the open report from `offset` (the table asks by its pages). */
  recipients(offset: number, limit: number): Promise<ExecutionMessage[] | null>;
  /** One recipient's status timeline and clicks (the row's drawer). */
  recipient(messageId: number): Promise<{ timeline: MessageTimeline; clicks: RecipientClicks } | null>;
  control(action: Control): Promise<boolean>;
  /** Pauses, resumes or ends the open report's series as a whole. */
  seriesControl(action: SeriesControl): Promise<boolean>;
  /**
   * The core's quote of the open report's series as it stands (its month's estimate), asked
   * before resuming it; null when refused (the refusal is the store's error).
   */
  quoteSeries(): Promise<CampaignQuote | null>;
  /** Reads the open report's campaign again (a series' occurrences), at most once per REPORT_REFRESH_MS. */
  followCampaign(): void;
  /** The recipients the filter shows, as a file in the UI's language. */
  /** The report as a file in `language`, its times in `timeZone` (the person's; absent, the account's). */
  exportReport(format: 'csv' | 'xlsx', language: 'fa' | 'en', timeZone?: string): Promise<ReportExport | null>;
}

// ---- the follow-ups

/** A "new segment from results": the contacts job importing it, then the segment's size. */
export interface FollowUp {
  kind: ResultKind;
  name: string;
  segmentId: number;
  jobId: number;
  status: ImportJob['status'];
  fraction: number;
  /** The new segment's size, once its import is done. */
  members: number | null;
  error: string | null;
}

/** A follow-up's import is asked for its state this often while it runs (pushes can be missed). */
export const FOLLOW_UP_POLL_MS = 1000;

export interface FollowUpSlice {
  followUp: FollowUp | null;
  /** The segment is being written (before its import is queued). */
  creatingSegment: boolean;
  createSegment(kind: ResultKind, name: string): Promise<boolean>;
  /** An import:progress push: the follow-up's job moves on. */
  followImport(progress: PayloadOf<'import:progress'>): void;
  dismissFollowUp(): void;
  /** The core's quote of "resend to failed" for the report open, asked before the confirmation. */
  resendQuote: ResendQuote | null;
  quotingResend: boolean;
  /** Asks the core what a resend would be (recipients, left out, pages, cost, time) in `language`. */
  quoteResend(language: Language): Promise<ResendQuote | null>;
  forgetResendQuote(): void;
  resending: boolean;
  /** A new campaign to the failed recipients, sent now; answers its execution. */
  resendFailed(language: Language): Promise<number | null>;
}

export type CampaignsState = ListSlice & ReportSlice & FollowUpSlice;

const ENDED_JOB = new Set<ImportJob['status']>(['done', 'failed', 'cancelled']);

const listSlice =
  (api: Api): StateCreator<CampaignsState, [], [], ListSlice> =>
  (set, get) => {
    let reading = 0;
    const readList = async () => {
      const accountId = get().accountId;
      if (accountId === null) return set({ list: [] });
      const ticket = ++reading;
      try {
        const [drafts, campaigns] = await Promise.all([
          api.invoke('campaigns:drafts', { account_id: accountId }),
          api.invoke('campaigns:list', { account_id: accountId }),
        ]);
        // An older read answering late is dropped.
        if (ticket === reading) set({ list: listRows(drafts, campaigns) });
      } catch (error) {
        if (ticket === reading) set({ ...reported(error), list: get().list ?? [] });
      }
    };
    const followList = throttled(readList, LIST_REFRESH_MS);
    return {
      accountId: null,
      list: null,
      listShown: false,
      error: null,
      async load(accountId) {
        const open = get().view;
        set({ accountId, list: null, error: null, followUp: null });
        await Promise.all([readList(), open ? get().openReport(open.executionId) : null]);
      },
      showList() {
        set({ listShown: true });
        void readList();
      },
      hideList: () => set({ listShown: false }),
      refreshList: readList,
      followExecution(push) {
        if (push.account_id !== get().accountId) return;
        if (get().listShown) followList();
        const view = get().view;
        if (view?.executionId === push.execution_id) get().followReport();
        // Another occurrence of the series on screen: its list of occurrences moves.
        else if (view?.campaign?.series && view.campaign.campaign_id === push.campaign_id) get().followCampaign();
      },
    };
  };

const reportSlice =
  (api: Api): StateCreator<CampaignsState, [], [], ReportSlice> =>
  (set, get) => {
    let ticket = 0;
    let poll: ReturnType<typeof setTimeout> | null = null;
    let chartReadAt = -Infinity;
    let countTicket = 0;
    const stopPolling = () => {
      if (poll !== null) clearTimeout(poll);
      poll = null;
    };
    /** Asks with the open report's execution; null when none is open or no account is chosen. */
    const by = () => {
      const { accountId, view } = get();
      return accountId === null || view === null ? null : { account_id: accountId, execution_id: view.executionId };
    };
    const readCount = async () => {
      const query = by();
      if (!query) return;
      const mine = ++countTicket;
      try {
        const { count } = await api.invoke('campaigns:messageCount', { ...query, ...rowQuery(get().filter) });
        if (mine === countTicket) set({ rowCount: count });
      } catch (error) {
        if (mine === countTicket) set({ ...reported(error) });
      }
    };
    const read = async () => {
      const query = by();
      const view = get().view;
      if (!query || !view) return;
      const mine = ++ticket;
      const mineCount = ++countTicket;
      stopPolling();
      try {
        const report = await api.invoke('campaigns:report', query);
        // The chart reads every message: at most every CHART_REFRESH_MS, and once more as the run settles.
        const chartDue =
          view.chart === null ||
          Date.now() - chartReadAt >= CHART_REFRESH_MS ||
          (settled(report) && (view.report === null || !settled(view.report)));
        // Who clicked is counted over every recipient: read again only when a click was made.
        const clicksMoved = view.clickers === null || view.report?.clicks !== report.clicks;
        // The campaign (its line, text, links and executions) is read again when the status moves.
        const statusMoved =
          view.campaign === null ||
          view.report?.execution_status !== report.execution_status ||
          view.report.paused !== report.paused;
        const [links, count, clickers, chart, campaign] = await Promise.all([
          clicksMoved ? api.invoke('campaigns:linkClicks', query) : view.links,
          api.invoke('campaigns:messageCount', { ...query, ...rowQuery(get().filter) }),
          clicksMoved
            ? api.invoke('campaigns:messageCount', { ...query, clicked: true }).then((answer) => answer.count)
            : view.clickers,
          chartDue ? api.invoke('campaigns:deliveryChart', query) : null,
          statusMoved
            ? api.invoke('campaigns:get', { account_id: query.account_id, campaign_id: report.campaign_id })
            : view.campaign,
        ]);
        if (mine !== ticket || get().view?.executionId !== query.execution_id) return;
        if (chart) chartReadAt = Date.now();
        const current = get().view!;
        set({
          view: {
            ...current,
            report,
            campaign,
            links,
            clickers,
            chart: chart ?? current.chart,
            missing: false,
            version: current.version + 1,
          },
          ...(mineCount === countTicket ? { rowCount: count.count } : {}),
        });
        if (!settled(report)) poll = setTimeout(() => follow(), REPORT_POLL_MS);
      } catch (error) {
        if (mine !== ticket || get().view?.executionId !== query.execution_id) return;
        // Never read: the execution is not there (or not this account's), unless the core was out
        // of reach. Read before: a passing refusal, shown once; the next push or poll tries again.
        const report = get().view!.report;
        if (report === null && !isOffline(error)) set({ view: { ...get().view!, missing: true } });
        else {
          set({ ...reported(error) });
          if (report === null || !settled(report)) poll = setTimeout(() => follow(), REPORT_POLL_MS);
        }
      }
    };
    const follow = throttled(read, REPORT_REFRESH_MS);
    const readCampaign = async () => {
      const query = by();
      const campaignId = get().view?.campaign?.campaign_id;
      if (!query || campaignId === undefined) return;
      try {
        const campaign = await api.invoke('campaigns:get', { account_id: query.account_id, campaign_id: campaignId });
        const view = get().view;
        if (view?.executionId === query.execution_id) set({ view: { ...view, campaign } });
      } catch (error) {
        set({ ...reported(error) });
      }
    };
    const followCampaign = throttled(readCampaign, REPORT_REFRESH_MS);
    return {
      view: null,
      filter: ALL_ROWS,
      rowCount: null,
      async openReport(executionId) {
        stopPolling();
        ticket++;
        chartReadAt = -Infinity;
        set({
          view: {
            executionId,
            report: null,
            campaign: null,
            chart: null,
            links: null,
            clickers: null,
            missing: false,
            version: 0,
          },
          filter: ALL_ROWS,
          rowCount: null,
          followUp: null,
        });
        await read();
      },
      closeReport() {
        stopPolling();
        ticket++;
        set({ view: null, rowCount: null });
      },
      refreshReport: read,
      followReport: follow,
      setFilter(change) {
        set({ filter: { ...get().filter, ...change }, rowCount: null });
        void readCount();
      },
      async recipients(offset, limit) {
        const query = by();
        if (!query) return null;
        try {
          // Pages of `limit` rows: the table asks at multiples of its page size.
          return await api.invoke('campaigns:messages', {
            ...query,
            ...rowQuery(get().filter),
            page: Math.floor(offset / limit) + 1,
            size: limit,
          });
        } catch (error) {
          set({ ...reported(error) });
          return null;
        }
      },
      async recipient(messageId) {
        const query = by();
        if (!query) return null;
        try {
          const [timeline, clicks] = await Promise.all([
            api.invoke('messages:timeline', { account_id: query.account_id, message_id: messageId }),
            api.invoke('campaigns:messageClicks', { ...query, message_id: messageId }),
          ]);
          return { timeline, clicks };
        } catch (error) {
          set({ ...reported(error) });
          return null;
        }
      },
      async control(action) {
        const query = by();
        if (!query) return false;
        try {
          const report = await api.invoke(`campaigns:${action}`, query);
          const view = get().view;
          if (view?.executionId === query.execution_id) set({ view: { ...view, report } });
          void read();
          return true;
        } catch (error) {
          set({ ...reported(error) });
          return false;
        }
      },
      async seriesControl(action) {
        const query = by();
        const campaignId = get().view?.campaign?.campaign_id;
        if (!query || campaignId === undefined) return false;
        try {
          const campaign = await api.invoke(`campaigns:${action}`, {
            account_id: query.account_id,
            campaign_id: campaignId,
          });
          const view = get().view;
          if (view?.executionId === query.execution_id) set({ view: { ...view, campaign } });
          // Pausing or ending withdraws an occurrence not started yet: this report may be it.
          void read();
          return true;
        } catch (error) {
          set({ ...reported(error) });
          return false;
        }
      },
      followCampaign,
      async quoteSeries() {
        const query = by();
        const campaign = get().view?.campaign;
        if (!query || !campaign?.series) return null;
        try {
          return await api.invoke('campaigns:quote', {
            account_id: query.account_id,
            fields: seriesFields(campaign),
            seed: 1,
          });
        } catch (error) {
          set({ ...reported(error) });
          return null;
        }
      },
      async exportReport(format, language, timeZone) {
        const query = by();
        if (!query) return null;
        try {
          return await api.invoke('campaigns:export', {
            ...query,
            ...rowQuery(get().filter),
            format,
            language,
            ...(timeZone ? { time_zone: timeZone } : {}),
          });
        } catch (error) {
          set({ ...reported(error) });
          return null;
        }
      },
    };
  };

const followUpSlice =
  (api: Api): StateCreator<CampaignsState, [], [], FollowUpSlice> =>
  (set, get) => {
    let poll: ReturnType<typeof setTimeout> | null = null;
    // Pushes of jobs not followed (yet): the first of a short import can come before
    // segmentFromResults has answered its job id.
    const early = new Map<number, PayloadOf<'import:progress'>>();
    const stopPolling = () => {
      if (poll !== null) clearTimeout(poll);
      poll = null;
    };
    const move = (job: Pick<ImportJob, 'job_id' | 'status' | 'fraction' | 'error'>) => {
      const followUp = get().followUp;
      if (!followUp || followUp.jobId !== job.job_id || ENDED_JOB.has(followUp.status)) return;
      set({ followUp: { ...followUp, status: job.status, fraction: job.fraction, error: job.error } });
      if (job.status === 'done') void readSize(followUp.segmentId, followUp.jobId);
      if (ENDED_JOB.has(job.status)) stopPolling();
    };
    const readSize = async (segmentId: number, jobId: number) => {
      const accountId = get().accountId;
      if (accountId === null) return;
      try {
        const segment = await api.invoke('segments:get', { account_id: accountId, segment_id: segmentId });
        const followUp = get().followUp;
        if (followUp?.jobId === jobId) set({ followUp: { ...followUp, members: segment.member_count } });
      } catch (error) {
        set({ ...reported(error) });
      }
    };
    const check = async (jobId: number) => {
      const accountId = get().accountId;
      if (accountId === null || get().followUp?.jobId !== jobId) return;
      try {
        move(await api.invoke('imports:get', { account_id: accountId, job_id: jobId }));
      } catch (error) {
        set({ ...reported(error) });
      }
      const followUp = get().followUp;
      if (followUp?.jobId === jobId && !ENDED_JOB.has(followUp.status))
        poll = setTimeout(() => void check(jobId), FOLLOW_UP_POLL_MS);
    };
    return {
      followUp: null,
      creatingSegment: false,
      async createSegment(kind, name) {
        const accountId = get().accountId;
        const executionId = get().view?.executionId;
        if (accountId === null || executionId === undefined || get().creatingSegment) return false;
        stopPolling();
        set({ creatingSegment: true, followUp: null });
        try {
          const { segment_id, job_id } = await api.invoke('campaigns:segmentFromResults', {
            account_id: accountId,
            execution_id: executionId,
            kind,
            name,
          });
          set({
            creatingSegment: false,
            followUp: {
              kind,
              name,
              segmentId: segment_id,
              jobId: job_id,
              status: 'queued',
              fraction: 0,
              members: null,
              error: null,
            },
          });
          const pushed = early.get(job_id);
          early.clear();
          if (pushed) move(pushed);
          await check(job_id);
          return true;
        } catch (error) {
          set({ creatingSegment: false, ...reported(error) });
          return false;
        }
      },
      followImport(progress) {
        if (get().followUp?.jobId === progress.job_id) move(progress);
        else if (get().creatingSegment) early.set(progress.job_id, progress);
      },
      dismissFollowUp() {
        stopPolling();
        set({ followUp: null });
      },
      resendQuote: null,
      quotingResend: false,
      async quoteResend(language) {
        const accountId = get().accountId;
        const executionId = get().view?.executionId;
        if (accountId === null || executionId === undefined) return null;
        set({ quotingResend: true, resendQuote: null });
        try {
          const quote = await api.invoke('campaigns:resendQuote', {
            account_id: accountId,
            execution_id: executionId,
            language,
          });
          // Another report opened meanwhile: this quote is not of it.
          if (get().view?.executionId !== executionId) return null;
          set({ quotingResend: false, resendQuote: quote });
          return quote;
        } catch (error) {
          set({ quotingResend: false, ...reported(error) });
          return null;
        }
      },
      forgetResendQuote() {
        set({ resendQuote: null });
      },
      resending: false,
      async resendFailed(language) {
        const accountId = get().accountId;
        const executionId = get().view?.executionId;
        if (accountId === null || executionId === undefined || get().resending) return null;
        set({ resending: true });
        try {
          const created = await api.invoke('campaigns:resendFailed', {
            account_id: accountId,
            execution_id: executionId,
            language,
          });
          set({ resending: false, resendQuote: null });
          return created.execution_id;
        } catch (error) {
          set({ resending: false, ...reported(error) });
          return null;
        }
      },
    };
  };

export function createCampaignsStore(api: Api) {
  return createStore<CampaignsState>()((...a) => ({
    ...listSlice(api)(...a),
    ...reportSlice(api)(...a),
    ...followUpSlice(api)(...a),
  }));
}
export type CampaignsStore = ReturnType<typeof createCampaignsStore>;

/** Subscribes the store to the executions' pushes; returns the unsubscribe function. */
export function followExecutions(api: Api, store: CampaignsStore): () => void {
  return api.on('campaigns:execution', (push) => store.getState().followExecution(push));
}
