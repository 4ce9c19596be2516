// Campaigns (spec 4.3, PRODUCT.md), the domain's one entry for the transports and Core: it wires
// the parts and answers for them. Creation with its checks and the editor's dry run
// (creation.ts), the execution's controls (control.ts), the execution itself, a job
// (execution.ts), short links and their visits (short-links.ts), the test to the person's number
// (test-send.ts) and the reports (reports.ts). Every call is scoped to the account: another
// account's id is "not found", which the API answers 400 like an unknown one.
//
// Public API (core.campaigns):
//   create(accountId, form)                    -> {campaign_id, execution_id, execution_status: 'SCHEDULED'}
//   report(accountId, executionId)             -> ExecutionReport (PRODUCT.md's record and our extensions)
//   messages(accountId, executionId, query)    -> ExecutionMessage[] (paged, filterable by status and clicked)
//   pause / resume / cancel(accountId, executionId) -> ExecutionReport
//   seriesPause / seriesResume / seriesEnd(accountId, campaignId) -> the campaign (a series as a whole)
//   click(code, userAgent)                     -> the address to redirect to, or null
//   list(accountId) / executions(accountId, campaignId) / linkClicks(accountId, executionId)
//   setLocalAddress(url)                       -> the default base of short links (the server's own address)
import { EventEmitter } from 'node:events';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Jobs } from '../jobs/jobs';
import type { Accounts } from '../accounts/accounts';
import type { Credit } from '../accounts/credit';
import type { Settings } from '../settings/settings';
import type { Imports, OptOuts, Segments } from '../contacts';
import type { Messaging } from '../messaging';
import { RangeMessages } from '../messaging/id-ranges';
import type {
  CampaignDraftFields,
  CampaignForm,
  CampaignQuote,
  ResendQuote,
  CreateCampaignResult,
  ExecutionMessage,
  ExecutionReport,
  ExecutionStatus,
  ResultKind,
} from '../../../shared/campaigns';
import { CampaignStore, type ExecutionRow } from './store';
import { Executions } from './execution';
import { sweepResultFiles } from './results';
import { Drafts } from './drafts';
import { reportFileTitle, type ReportFilter, type ReportFormat, type ReportLanguage } from './export';
import { Reports, type MessagesQuery } from './reports';
import { Creation } from './creation';
import { ExecutionControl } from './control';
import { Series } from './series';
import { ShortLinks, type LinkSettings } from './short-links';
import { sendTest, type TestSent } from './test-send';

export { MAX_PAGE_SIZE, type MessagesQuery } from './reports';

export interface CampaignsDeps {
  db: Db;
  clock: Clock;
  jobs: Jobs;
  accounts: Accounts;
  credit: Credit;
  settings: Settings;
  segments: Segments;
  imports: Imports;
  /** Whether a number is opted out now: a resend leaves those out. */
  optouts: Pick<OptOuts, 'has'>;
  messaging: Messaging;
  dataDir: string;
  /** Aborted when the workspace closes: a report being written stops and its partial file goes. */
  closing?: AbortSignal;
}

export interface CampaignsEvents {
  /** An execution's report changed (started, a batch recorded, paused, ended). */
  execution: [{ execution_id: number; campaign_id: number; account_id: number; status: ExecutionStatus }];
}

export class Campaigns {
  readonly events = new EventEmitter<CampaignsEvents>();
  readonly executions: Executions;
  readonly drafts: Drafts;
  private readonly store: CampaignStore;
  private readonly links: ShortLinks;
  private readonly reports: Reports;
  private readonly creation: Creation;
  private readonly control: ExecutionControl;
  private readonly series: Series;
  private readonly rangeMessages: RangeMessages;

  constructor(private readonly deps: CampaignsDeps) {
    const { db, clock } = deps;
    const store = (this.store = new CampaignStore(db));
    const onChange = (executionId: number) => this.emit(executionId);
    this.drafts = new Drafts(db, clock);
    this.links = new ShortLinks({ db, clock, settings: deps.settings, store, onClick: onChange });
    const linkBase = () => this.links.linkBase();
    this.executions = new Executions({
      db,
      clock,
      jobs: deps.jobs,
      accept: deps.messaging.accept,
      lifecycle: deps.messaging.lifecycle,
      credit: deps.credit,
      accounts: deps.accounts,
      settings: deps.settings,
      segments: deps.segments,
      store,
      codes: () => this.links.linkCodes(),
      linkBase,
      timeZone: (accountId) => deps.accounts.timeZone(accountId),
      onProgress: onChange,
    });
    const executions = this.executions;
    this.series = new Series({
      db,
      clock,
      jobs: deps.jobs,
      store,
      executions,
      timeZone: (accountId) => deps.accounts.timeZone(accountId),
      onChange,
    });
    executions.occurrences = this.series;
    const series = this.series;
    this.reports = new Reports({
      seriesOf: (campaignId, accountId) => series.summary(campaignId, accountId),
      db,
      store,
      executions,
      credit: deps.credit,
      segments: deps.segments,
      imports: deps.imports,
      dataDir: deps.dataDir,
      closing: deps.closing,
    });
    const reports = this.reports;
    this.creation = new Creation({
      db,
      clock,
      accounts: deps.accounts,
      credit: deps.credit,
      settings: deps.settings,
      segments: deps.segments,
      optouts: deps.optouts,
      dataDir: deps.dataDir,
      store,
      drafts: this.drafts,
      executions,
      series,
      reports,
      linkBase,
      onChange,
    });
    this.control = new ExecutionControl({
      db,
      clock,
      jobs: deps.jobs,
      credit: deps.credit,
      store,
      executions,
      reports,
      onChange,
    });
    this.rangeMessages = new RangeMessages(db);
    sweepResultFiles(deps.imports, deps.dataDir);
  }

  // ---- short links (short-links.ts)

  /** The local server's address, the default base of short links (the host calls this once it listens). */
  setLocalAddress(url: string): void {
    this.links.setLocalAddress(url);
  }

  /** The base every new execution writes its short links under. */
  linkBase(): string {
    return this.links.linkBase();
  }

  /** How many characters a short link adds to a text now. */
  linkLength(): number {
    return this.links.linkLength();
  }

  linkSettings(): LinkSettings {
    return this.links.linkSettings();
  }

  setShortLinkBase(base: string | null): LinkSettings {
    return this.links.setShortLinkBase(base);
  }

  click(code: string, userAgent: string): string | null {
    return this.links.click(code, userAgent);
  }

  // ---- creation and the editor (creation.ts, test-send.ts)

  create(accountId: number, form: CampaignForm, options: { draftId?: number } = {}): CreateCampaignResult {
    return this.creation.create(accountId, form, options);
  }

  quote(
    accountId: number,
    fields: CampaignDraftFields,
    options: { seed?: number; quoteKey?: string } = {},
  ): Promise<CampaignQuote> {
    return this.creation.quote(accountId, fields, options);
  }

  resendQuote(accountId: number, executionId: number, language?: 'fa' | 'en'): Promise<ResendQuote> {
    return this.creation.resendQuote(accountId, executionId, language);
  }

  resendToFailed(
    accountId: number,
    executionId: number,
    options: { name?: string; send_datetime?: string; language?: 'fa' | 'en' } = {},
  ): Promise<CreateCampaignResult & { segment_id: number }> {
    return this.creation.resendToFailed(accountId, executionId, options);
  }

  sendTest(accountId: number, fields: CampaignDraftFields, receptor: string): TestSent {
    return sendTest(
      {
        db: this.deps.db,
        segments: this.deps.segments,
        accept: this.deps.messaging.accept,
        messages: this.rangeMessages,
        linkBase: () => this.links.linkBase(),
      },
      accountId,
      fields,
      receptor,
    );
  }

  // ---- the execution's controls (control.ts)

  pause(accountId: number, executionId: number): ExecutionReport {
    return this.control.pause(accountId, executionId);
  }

  resume(accountId: number, executionId: number): ExecutionReport {
    return this.control.resume(accountId, executionId);
  }

  cancel(accountId: number, executionId: number): ExecutionReport {
    return this.control.cancel(accountId, executionId);
  }

  // ---- a series as a whole (series.ts): each answers with the campaign as get() does

  seriesPause(accountId: number, campaignId: number): ReturnType<Reports['get']> {
    this.series.pause(accountId, campaignId);
    return this.reports.get(accountId, campaignId);
  }

  seriesResume(accountId: number, campaignId: number): ReturnType<Reports['get']> {
    this.series.resume(accountId, campaignId);
    return this.reports.get(accountId, campaignId);
  }

  seriesEnd(accountId: number, campaignId: number): ReturnType<Reports['get']> {
    this.series.end(accountId, campaignId);
    return this.reports.get(accountId, campaignId);
  }

  // ---- reports (reports.ts)

  /** The execution of the account, or 400 (unknown and another account's are not told apart). */
  execution(accountId: number, executionId: number): ExecutionRow {
    return this.reports.execution(accountId, executionId);
  }

  report(accountId: number, executionId: number): ExecutionReport {
    return this.reports.report(accountId, executionId);
  }

  list(accountId: number): ReturnType<Reports['list']> {
    return this.reports.list(accountId);
  }

  get(accountId: number, campaignId: number): ReturnType<Reports['get']> {
    return this.reports.get(accountId, campaignId);
  }

  executionsOf(accountId: number, campaignId: number): ExecutionReport[] {
    return this.reports.executionsOf(accountId, campaignId);
  }

  messages(accountId: number, executionId: number, query: MessagesQuery = {}): ExecutionMessage[] {
    return this.reports.messages(accountId, executionId, query);
  }

  messageCount(accountId: number, executionId: number, filter: Pick<MessagesQuery, 'status' | 'clicked'> = {}): number {
    return this.reports.messageCount(accountId, executionId, filter);
  }

  messageClicks(accountId: number, executionId: number, messageId: number): ReturnType<Reports['messageClicks']> {
    return this.reports.messageClicks(accountId, executionId, messageId);
  }

  linkClicks(accountId: number, executionId: number): ReturnType<Reports['linkClicks']> {
    return this.reports.linkClicks(accountId, executionId);
  }

  deliveryChart(accountId: number, executionId: number): ReturnType<Reports['deliveryChart']> {
    return this.reports.deliveryChart(accountId, executionId);
  }

  /**
   * The name (without extension) of the execution's report file for a person writing `language`
   * in `timeZone` (absent: the account's): the campaign's name and today's date there.
   */
  reportFileTitle(accountId: number, executionId: number, language: ReportLanguage, timeZone?: string): string {
    const execution = this.reports.execution(accountId, executionId);
    const campaign = this.store.campaign.get(execution.campaign_id)!;
    return reportFileTitle(
      campaign.name,
      this.deps.clock.now(),
      language,
      timeZone ?? this.deps.accounts.timeZone(accountId),
    );
  }

  exportReport(
    accountId: number,
    executionId: number,
    options: { format: ReportFormat; language: ReportLanguage; timeZone?: string; file: string; filter?: ReportFilter },
    onProgress?: (rows: number, total: number) => void,
  ): Promise<{ rows: number }> {
    return this.reports.exportReport(accountId, executionId, options, onProgress);
  }

  segmentFromResults(
    accountId: number,
    executionId: number,
    kind: ResultKind,
    name: string,
  ): Promise<{ segmentId: number; jobId: number }> {
    return this.reports.segmentFromResults(accountId, executionId, kind, name);
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
