// A campaign's creation (spec 4.3): the checks in their order, the campaign with its links and
// file, and its first execution SCHEDULED (its job due at the send time); the editor's dry run
// (quote.ts) checked as creation would check; and "resend to failed", a new campaign for the
// recipients an execution's messages failed to reach.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Accounts } from '../accounts/accounts';
import type { Credit } from '../accounts/credit';
import type { Settings } from '../settings/settings';
import type { Segments } from '../contacts';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import type {
  CampaignDraftFields,
  CampaignForm,
  CampaignQuote,
  CreateCampaignResult,
  ResendLeftOut,
  ResendQuote,
} from '../../../shared/campaigns';
import { checkCampaignForm, type CampaignSpec } from './form';
import {
  addDays,
  bothFilters,
  occurrences as occurrencesFrom,
  occurrencesWithin,
  type SeriesRule,
} from './occurrences';

/** The days a series' estimate covers ("monthly cost"). */
export const MONTH_DAYS = 30;
import { audienceView } from '../contacts/audience';
import { filterProblem, foldValue, localDateDay } from '../../../shared/column-values';
import { quietHoursText, type CampaignStore } from './store';
import type { Executions } from './execution';
import type { Series } from './series';
import { Drafts, formOfDraft } from './drafts';
import { quoteCampaign, QuoteSuperseded } from './quote';
import { compileTemplate } from './template';
import { linkReachFault } from './link-reach';
import type { Reports } from './reports';
import type { OptOuts } from '../contacts';
import { leftOutReason, resendName, resendNumber, resendRecipients } from './resend';

export interface CreationDeps {
  db: Db;
  clock: Clock;
  accounts: Accounts;
  credit: Credit;
  settings: Settings;
  segments: Segments;
  optouts: Pick<OptOuts, 'has'>;
  dataDir: string;
  store: CampaignStore;
  drafts: Drafts;
  executions: Executions;
  series: Series;
  reports: Reports;
  linkBase: () => string;
  /** After an execution was created. */
  onChange: (executionId: number) => void;
}

export class Creation {
  private readonly db: Db;
  /** The newest quote of each editor (quote_key): an older one still reading stops. */
  private readonly quoteGenerations = new Map<string, number>();
  private quoteGeneration = 0;

  constructor(private readonly deps: CreationDeps) {
    this.db = deps.db;
  }

  /**
   * Spec 4.3's checks in their order (form, send time, sender line, segments), then ours: short
   * links a phone can open on a line that reaches phones (link-reach.ts). The request as creation
   * takes it, or the ServiceError of the first fault.
   */
  private check(accountId: number, form: CampaignForm): CampaignSpec {
    const spec = checkCampaignForm(form);
    const line = this.deps.accounts.senderLine(accountId, spec.sender, 'campaign');
    const columns: string[] = [];
    for (const segmentId of [...spec.include, ...spec.exclude]) {
      const segment = this.deps.segments.find(accountId, segmentId);
      if (segment === null)
        throw new ServiceError(ApiCode.BadRequest, `segment ${segmentId} unknown`, 'campaign_segment_gone');
      if (spec.include.includes(segmentId))
        columns.push(...(audienceView(this.db, segment)?.columns ?? segment.columns));
    }
    // Targeting by column: every condition names a column some inclusion segment has.
    const unknown = spec.filter && filterProblem(spec.filter.all, columns);
    if (unknown) throw new ServiceError(ApiCode.BadRequest, unknown.detail, unknown.reason);
    // A date trigger reads a column some inclusion segment has (compared folded, as filters are).
    const trigger = spec.series?.every === 'trigger' ? spec.series : null;
    if (trigger !== null && !columns.some((c) => foldValue(c) === foldValue(trigger.column)))
      throw new ServiceError(
        ApiCode.BadRequest,
        `trigger_column ${JSON.stringify(trigger.column)} is not a column of the inclusion segments`,
        'series_trigger_column',
      );
    const writesShortLinks = spec.trackLinks && compileTemplate(spec.template_body, spec.links).links.length > 0;
    const unreachable = linkReachFault(line, this.deps.linkBase(), writesShortLinks);
    if (unreachable !== null) throw unreachable;
    return spec;
  }

  /**
   * Creates the campaign and its first execution; `draftId` (the app's editor) is deleted in the
   * same transaction, so the draft cannot be scheduled twice.
   */
  create(accountId: number, form: CampaignForm, options: { draftId?: number } = {}): CreateCampaignResult {
    const { drafts } = this.deps;
    const spec = this.check(accountId, form);
    if (options.draftId !== undefined) drafts.get(accountId, options.draftId);
    const now = this.deps.clock.now();
    const ids = this.db.transaction(() => {
      if (options.draftId !== undefined) drafts.delete(accountId, options.draftId);
      const campaignId = Number(
        this.db
          .prepare(
            `INSERT INTO campaigns (account_id, name, sender, template_body, inclusion_segments, exclusion_segments,
               utm_source, utm_medium, utm_campaign, send_rate, quiet_start, quiet_end, track_links, filter, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
            spec.trackLinks ? 1 : 0,
            spec.filter === null ? null : JSON.stringify(spec.filter),
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
      // A series: its first occurrence at or after the send time ("not before"), and its tick.
      const executionId =
        spec.series === null
          ? this.insertExecution(campaignId, accountId, spec.send_datetime, spec.sendAt, now)
          : this.deps.series.begin(campaignId, accountId, spec.series, Math.max(spec.sendAt, now));
      return { campaignId, executionId };
    })();
    this.deps.onChange(ids.executionId);
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
    this.deps.executions.enqueue(executionId, sendAt);
    return executionId;
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
      problem = {
        code: error.code,
        field: faultField(error),
        detail: error.detail ?? error.message,
        reason: error.reason ?? null,
      };
    }
    try {
      const quote = await quoteCampaign(
        {
          db: this.db,
          accountId,
          now,
          segment: (id) => this.deps.segments.find(accountId, id),
          provider: this.deps.accounts.findLine(accountId, fields.sender.trim())?.provider ?? null,
          pricing: this.deps.settings.pricing(),
          credit: this.deps.credit.available(accountId),
          linkBase: this.deps.linkBase(),
          timeZone: this.deps.accounts.timeZone(accountId),
          problem,
          stale: () => key !== undefined && this.quoteGenerations.get(key) !== generation,
        },
        fields,
        options.seed ?? 1,
      );
      return { ...quote, monthly: await this.monthly(accountId, fields, quote, now) };
    } catch (error) {
      if (error instanceof QuoteSuperseded)
        throw new ServiceError(ApiCode.Superseded, 'a newer quote replaced this one');
      throw error;
    } finally {
      if (key !== undefined && this.quoteGenerations.get(key) === generation) this.quoteGenerations.delete(key);
    }
  }

  /**
   * A series' estimate over the next 30 days from its first possible time: a repeat sends today's
   * audience at each occurrence; a date trigger, on each day, the members whose date falls N days
   * later (counted from the data, the occurrence's own filter). Priced at the quote's average cost
   * per recipient. Null for a one-off, or a series the form refuses (the quote's problem says why).
   */
  private async monthly(
    accountId: number,
    fields: CampaignDraftFields,
    quote: CampaignQuote,
    now: number,
  ): Promise<CampaignQuote['monthly']> {
    if (fields.repeat === null && fields.trigger === null) return null;
    let rule: SeriesRule | null;
    let from = now;
    try {
      const spec = checkCampaignForm(formOfDraft(fields, now));
      rule = spec.series;
      from = Math.max(now, spec.sendAt);
    } catch (error) {
      if (error instanceof ServiceError) return null;
      throw error;
    }
    if (rule === null) return null;
    const zone = this.deps.accounts.timeZone(accountId);
    const occurrences = occurrencesWithin(rule, zone, from, MONTH_DAYS);
    const next: number[] = [];
    for (const { at } of occurrencesFrom(rule, zone, from, null)) if (next.push(at) === 3) break;
    const { recipients: audience } = quote.audience;
    const perRecipient = audience === 0 ? 0 : quote.total_cost_rials / audience;
    let recipients: number;
    if (rule.every !== 'trigger') recipients = occurrences.length * audience;
    else {
      const trigger = rule;
      const include = fields.inclusion_segments;
      const exclude = fields.exclusion_segments;
      recipients = 0;
      // A trigger's occurrences are consecutive days and each member has one anniversary a year, so
      // the month's recipients are the members whose date falls in the one window of those days:
      // one count, on a reader thread (a date parsed per member: about a second a million).
      const first = occurrences[0];
      if (first !== undefined && include.length > 0 && quote.audience.segments.every((segment) => segment.ready)) {
        const window = {
          column: trigger.column,
          op: 'anniversary' as const,
          on: addDays(first.occurrence, trigger.daysBefore),
          days: localDateDay(occurrences.at(-1)!.occurrence)! - localDateDay(first.occurrence)! + 1,
        };
        try {
          recipients = await this.deps.segments.audienceCountOffThread(accountId, {
            include,
            exclude,
            filter: bothFilters(fields.filter, { all: [window] }),
          });
        } catch (error) {
          // A column the segments lack is the quote's problem already: the estimate counts none.
          if (!(error instanceof ServiceError)) throw error;
        }
      }
    }
    return {
      occurrences: occurrences.length,
      recipients,
      cost_rials: Math.round(recipients * perRecipient),
      first_at: occurrences[0]?.at ?? null,
      next,
      time_zone: zone,
    };
  }

  /** The campaign and the settings a resend of this execution would have, and who already resent it. */
  private resendPlan(accountId: number, executionId: number, language: 'fa' | 'en' | undefined) {
    const { store, reports } = this.deps;
    const execution = reports.execution(accountId, executionId);
    const campaign = store.campaign.get(execution.campaign_id)!;
    const fields: CampaignDraftFields = {
      name: resendName(campaign.name, resendNumber(this.db, campaign.id), language),
      sender: campaign.sender,
      template_body: campaign.template_body,
      inclusion_segments: [],
      exclusion_segments: [],
      filter: null,
      links: store.linksOf(campaign.id).map((link) => ({ actual_url: link.actual_url, has_utm: link.has_utm })),
      utm: { utm_source: campaign.utm_source, utm_medium: campaign.utm_medium, utm_campaign: campaign.utm_campaign },
      send_rate: campaign.send_rate,
      quiet_hours: quietHoursText(campaign),
      send_datetime: null,
      time_zone: null,
      track_links: campaign.track_links === 1,
      repeat: null,
      trigger: null,
    };
    const resent = this.db
      .prepare<[number], { campaign_id: number; execution_id: number | null }>(
        `SELECT c.id AS campaign_id, (SELECT max(e.id) FROM campaign_executions e WHERE e.campaign_id = c.id) AS execution_id
         FROM campaigns c WHERE c.resent_from = ? ORDER BY c.id LIMIT 1`,
      )
      .get(execution.id);
    return { execution, campaign, fields, resent: resent ?? null };
  }

  /** Whether the account's opt-out list holds the number now. */
  private optedOut(accountId: number) {
    return (phone: string) => this.deps.optouts.has(accountId, phone);
  }

  /**
   * "Resend to failed" before it is asked: the new campaign as resendToFailed would create it
   * (now), quoted by the editor's dry run over the failed recipients a resend reaches, with those
   * it leaves out counted by reason. Nothing is written or held.
   */
  async resendQuote(accountId: number, executionId: number, language?: 'fa' | 'en'): Promise<ResendQuote> {
    const { execution, fields, resent } = this.resendPlan(accountId, executionId, language);
    const now = this.deps.clock.now();
    let problem: CampaignQuote['problem'] = null;
    try {
      this.deps.accounts.senderLine(accountId, fields.sender, 'campaign');
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      problem = {
        code: error.code,
        field: 'sender',
        detail: error.detail ?? error.message,
        reason: error.reason ?? null,
      };
    }
    const leftOut: ResendLeftOut = { opted_out: 0, blocked: 0, invalid: 0 };
    const quote = await quoteCampaign(
      {
        db: this.db,
        accountId,
        now,
        segment: () => null,
        provider: this.deps.accounts.findLine(accountId, fields.sender)?.provider ?? null,
        pricing: this.deps.settings.pricing(),
        credit: this.deps.credit.available(accountId),
        linkBase: this.deps.linkBase(),
        timeZone: this.deps.accounts.timeZone(accountId),
        problem,
        stale: () => false,
        recipients: {
          columns: segmentColumns(execution.segment_columns),
          chunks: resendRecipients(this.db, execution.id, this.optedOut(accountId), leftOut),
        },
      },
      fields,
      1,
    );
    return {
      ...quote,
      name: fields.name,
      sender: fields.sender,
      send_rate: fields.send_rate,
      quiet_hours: fields.quiet_hours,
      failed: quote.audience.recipients + leftOut.opted_out + leftOut.blocked + leftOut.invalid,
      left_out: leftOut,
      resent,
    };
  }

  /** Executions whose resend is being made: a second call meanwhile is refused. */
  private readonly resending = new Set<number>();

  /**
   * "Resend to failed": a new campaign like this execution's (line, text, links, UTM, rate, quiet
   * hours) to the recipients whose messages failed and may still succeed (resend.ts leaves out the
   * opted-out, the blocked and the invalid), as a new segment; due at `send_datetime`, or now. Its
   * execution waits while that segment is being imported. An execution is resent once.
   */
  async resendToFailed(
    accountId: number,
    executionId: number,
    options: { name?: string; send_datetime?: string; language?: 'fa' | 'en' } = {},
  ): Promise<CreateCampaignResult & { segment_id: number }> {
    const { store, reports } = this.deps;
    const { execution, campaign, fields, resent } = this.resendPlan(accountId, executionId, options.language);
    if (resent !== null || this.resending.has(execution.id))
      throw new ServiceError(ApiCode.BadRequest, `execution ${execution.id} was resent already`, 'already_resent');
    this.resending.add(execution.id);
    try {
      const name = options.name?.trim() || fields.name;
      const optedOut = this.optedOut(accountId);
      const { segmentId } = await reports.segmentFromResults(
        accountId,
        executionId,
        'failed',
        name,
        (phone, status) => leftOutReason(phone, status, optedOut) === null,
      );
      const created = this.create(accountId, {
        sender: campaign.sender,
        name,
        template_body: campaign.template_body,
        send_datetime: options.send_datetime ?? new Date(this.deps.clock.now()).toISOString(),
        inclusion_segments: [String(segmentId)],
        exclusion_segments: [],
        links: store.linksOf(campaign.id).map((link) => ({
          index: link.idx,
          actual_url: link.actual_url,
          has_utm: link.has_utm ? 'true' : 'false',
        })),
        utm: { utm_source: campaign.utm_source, utm_medium: campaign.utm_medium, utm_campaign: campaign.utm_campaign },
        send_rate: campaign.send_rate === null ? undefined : String(campaign.send_rate),
        quiet_hours: quietHoursText(campaign) ?? undefined,
        track_links: campaign.track_links === 1 ? 'true' : 'false',
      });
      this.db.prepare('UPDATE campaigns SET resent_from = ? WHERE id = ?').run(execution.id, created.campaign_id);
      return { ...created, segment_id: segmentId };
    } finally {
      this.resending.delete(execution.id);
    }
  }
}

/** An execution's frozen columns of each segment (segment_columns), by segment id. */
function segmentColumns(stored: string | null): Record<number, string[]> {
  return JSON.parse(stored ?? '{}') as Record<number, string[]>;
}

/** The form field a fault of spec 4.3's checks names (its detail starts with it), when it names one. */
function faultField(error: ServiceError): string | null {
  if (error.code === ApiCode.BadDate) return 'send_datetime';
  if (error.code === ApiCode.InvalidSender) return 'sender';
  // A series field (repeat_time, trigger_column, …): the draft's repeat or trigger.
  const series = /^(repeat|trigger)/.exec(error.detail ?? '');
  if (series) return series[1]!;
  const match =
    /^(sender|name|template_body|send_datetime|inclusion_segments|exclusion_segments|links|send_rate|quiet_hours|segment)\b/.exec(
      error.detail ?? '',
    );
  if (!match) return null;
  return match[1] === 'segment' ? 'inclusion_segments' : match[1]!;
}
