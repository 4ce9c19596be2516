// IPC contracts of the campaigns domain: creating a campaign (the same checks as spec 4.3's form),
// its executions' reports, recipients, link clicks and controls, the short links' settings, and
// the push event of an execution moving on. The campaign screens build on these.
import { z } from 'zod';
import { defineContract, defineEvent } from '../contract';
import { byAccount, EpochMs, Id, NoInput, Rials, typedName } from '../primitives';
import { MessageExportSchema } from './messaging';
import { TimeZoneSchema } from '../../time-zone';
import { AudienceFilter } from '../../audience-filter';
import {
  CampaignDraftFieldsSchema,
  CampaignDraftSchema,
  CampaignRepeatSchema,
  CampaignSeriesSchema,
  CampaignTriggerSchema,
  CampaignQuoteSchema,
  CreateCampaignResultSchema,
  DeliveryPointSchema,
  RESULT_KINDS,
  EXECUTION_STATUSES,
  ExecutionMessageSchema,
  ExecutionReportSchema,
  ResendQuoteSchema,
} from '../../campaigns';

const byExecution = z.object({ account_id: Id, execution_id: Id });
const byDraft = z.object({ account_id: Id, draft_id: Id });
const byCampaign = z.object({ account_id: Id, campaign_id: Id });

export const CampaignLinkSchema = z.object({
  idx: z.number().int().nonnegative(),
  actual_url: z.string(),
  has_utm: z.boolean(),
});

export const CampaignSummarySchema = z.object({
  campaign_id: Id,
  name: z.string(),
  sender: z.string(),
  template_body: z.string(),
  inclusion_segments: z.array(z.number().int()),
  exclusion_segments: z.array(z.number().int()),
  links: z.array(CampaignLinkSchema),
  send_rate: z.number().int().nullable(),
  quiet_hours: z.string().nullable(),
  /** False: its links went out as their own addresses (with their UTM tags); no clicks counted. */
  track_links: z.boolean(),
  /** The column filter its audience was targeted with; null: none. */
  filter: AudienceFilter.nullable(),
  file_name: z.string().nullable(),
  created_at: EpochMs,
  last_execution: ExecutionReportSchema.nullable(),
  /** A repeating or date-triggered campaign's series (its next occurrence, pause, occurrences so far); null: a one-off. */
  series: CampaignSeriesSchema.nullable(),
});
export type CampaignSummary = z.infer<typeof CampaignSummarySchema>;

/** One campaign with every execution's report, newest first. */
export const CampaignDetailSchema = CampaignSummarySchema.extend({ executions: z.array(ExecutionReportSchema) });
export type CampaignDetail = z.infer<typeof CampaignDetailSchema>;

export const LinkSettingsSchema = z.object({
  /** The configured public base of short links; null: the local server's own address. */
  short_link_base: z.string().nullable(),
  effective_base: z.string(),
  /** Characters one short link takes in a text. */
  link_length: z.number().int(),
});

export const campaignsContracts = {
  'campaigns:create': defineContract({
    channel: 'campaigns:create',
    input: z.object({
      account_id: Id,
      sender: z.string(),
      name: typedName(z.string()),
      template_body: z.string(),
      /** RFC 3339 with an offset. */
      send_datetime: z.string(),
      inclusion_segments: z.array(z.number().int()).default([]),
      exclusion_segments: z.array(z.number().int()).default([]),
      /** Targeting by column (shared/audience-filter.ts); null: every member. */
      filter: AudienceFilter.nullable().default(null),
      links: z.array(z.object({ actual_url: z.string(), has_utm: z.boolean().default(false) })).default([]),
      utm: z
        .object({
          utm_source: z.string().optional(),
          utm_medium: z.string().optional(),
          utm_campaign: z.string().optional(),
        })
        .default({}),
      send_rate: z.number().int().positive().nullable().default(null),
      quiet_hours: z.string().nullable().default(null),
      /** False: the links go out as their own addresses (with their UTM tags); no short links, no clicks. */
      track_links: z.boolean().default(true),
      /** Repeating (exclusive with trigger); the first occurrence is the first at or after send_datetime. */
      repeat: CampaignRepeatSchema.nullable().default(null),
      /** Date-triggered (exclusive with repeat). */
      trigger: CampaignTriggerSchema.nullable().default(null),
      /** The draft this campaign was written in: deleted in the same transaction as the creation. */
      draft_id: Id.optional(),
    }),
    output: CreateCampaignResultSchema,
  }),
  /** One campaign with every execution's report, newest first. */
  'campaigns:get': defineContract({
    channel: 'campaigns:get',
    input: byCampaign,
    output: CampaignDetailSchema,
  }),

  // ---- the editor: drafts saved as the user types, and the core's dry run of what is drafted
  'campaigns:drafts': defineContract({
    channel: 'campaigns:drafts',
    input: byAccount,
    output: z.array(CampaignDraftSchema),
  }),
  'campaigns:draftGet': defineContract({ channel: 'campaigns:draftGet', input: byDraft, output: CampaignDraftSchema }),
  /** Creates a draft (no draft_id) or replaces one's fields. */
  'campaigns:draftSave': defineContract({
    channel: 'campaigns:draftSave',
    input: z.object({ account_id: Id, draft_id: Id.nullable().optional(), fields: CampaignDraftFieldsSchema }),
    output: CampaignDraftSchema,
  }),
  'campaigns:draftDelete': defineContract({
    channel: 'campaigns:draftDelete',
    input: byDraft,
    output: z.object({ deleted: z.boolean() }),
  }),
  /**
   * The dry run of a drafted campaign: the audience explained, placeholders without values, links,
   * sample recipients' texts and costs, the whole audience's cost against the credit and when the
   * last message goes out. Reads the whole audience (yielding between chunks); a newer quote with
   * the same `quote_key` makes an older one still running end early with 409.
   */
  'campaigns:quote': defineContract({
    channel: 'campaigns:quote',
    input: z.object({
      account_id: Id,
      fields: CampaignDraftFieldsSchema,
      /** The random sample's choice: the same seed, the same recipient. */
      seed: z.number().int().nonnegative().default(1),
      quote_key: z.string().max(100).optional(),
    }),
    output: CampaignQuoteSchema,
  }),
  /**
   * "Send a test to my number": the first recipient's text (or the bare template when the audience
   * is empty) sent now, as one panel message on the drafted line, charged like any message. Links
   * in a test go straight to their address (a test has no tracked recipients).
   */
  'campaigns:sendTest': defineContract({
    channel: 'campaigns:sendTest',
    input: z.object({ account_id: Id, fields: CampaignDraftFieldsSchema, receptor: z.string().min(1).max(40) }),
    output: z.object({ send_id: Id, message_id: Id, receptor: z.string(), text: z.string(), cost_rials: Rials }),
  }),

  // ---- the report
  'campaigns:list': defineContract({
    channel: 'campaigns:list',
    input: byAccount,
    output: z.array(CampaignSummarySchema),
  }),
  'campaigns:report': defineContract({
    channel: 'campaigns:report',
    input: byExecution,
    output: ExecutionReportSchema,
  }),
  'campaigns:messages': defineContract({
    channel: 'campaigns:messages',
    input: byExecution.extend({
      page: z.number().int().positive().default(1),
      size: z.number().int().positive().max(1000).default(500),
      status: z.array(z.number().int()).optional(),
      clicked: z.boolean().optional(),
    }),
    output: z.array(ExecutionMessageSchema),
  }),
  /** How many recipients' rows the filter leaves (the virtualized list's length). */
  'campaigns:messageCount': defineContract({
    channel: 'campaigns:messageCount',
    input: byExecution.extend({ status: z.array(z.number().int()).optional(), clicked: z.boolean().optional() }),
    output: z.object({ count: z.number().int().nonnegative() }),
  }),
  /** One recipient's visits of the short links. */
  'campaigns:messageClicks': defineContract({
    channel: 'campaigns:messageClicks',
    input: byExecution.extend({ message_id: Id }),
    output: z.array(z.object({ link_idx: z.number().int(), actual_url: z.string(), clicked_at: EpochMs })),
  }),
  /**
   * The delivery chart: messages reaching delivered / failed per time bucket (the bucket chosen so
   * the run fits in about 60 points, at least a minute).
   */
  'campaigns:deliveryChart': defineContract({
    channel: 'campaigns:deliveryChart',
    input: byExecution,
    output: z.object({ bucket_ms: z.number().int().positive(), points: z.array(DeliveryPointSchema) }),
  }),
  'campaigns:linkClicks': defineContract({
    channel: 'campaigns:linkClicks',
    input: byExecution,
    output: z.array(CampaignLinkSchema.extend({ clicks: z.number().int(), clickers: z.number().int() })),
  }),
  'campaigns:pause': defineContract({ channel: 'campaigns:pause', input: byExecution, output: ExecutionReportSchema }),
  'campaigns:resume': defineContract({
    channel: 'campaigns:resume',
    input: byExecution,
    output: ExecutionReportSchema,
  }),
  'campaigns:cancel': defineContract({
    channel: 'campaigns:cancel',
    input: byExecution,
    output: ExecutionReportSchema,
  }),
  /**
   * A series as a whole (a repeating or date-triggered campaign): pause (no occurrence is made
   * until resumed; the next one not started yet is withdrawn; one running keeps its own pause),
   * resume (the next occurrence from now on, none made up for), end (for good; the next one not
   * started yet is cancelled). Each answers with the campaign as campaigns:get does.
   */
  'campaigns:seriesPause': defineContract({
    channel: 'campaigns:seriesPause',
    input: byCampaign,
    output: CampaignDetailSchema,
  }),
  'campaigns:seriesResume': defineContract({
    channel: 'campaigns:seriesResume',
    input: byCampaign,
    output: CampaignDetailSchema,
  }),
  'campaigns:seriesEnd': defineContract({
    channel: 'campaigns:seriesEnd',
    input: byCampaign,
    output: CampaignDetailSchema,
  }),
  /** The execution's per-recipient report as a file (progress: export:progress with export_id). */
  'campaigns:export': defineContract({
    channel: 'campaigns:export',
    input: byExecution.extend({
      format: z.enum(['csv', 'xlsx']),
      language: z.enum(['fa', 'en']),
      /** Times in this zone (the person's own); omitted, the account's. */
      time_zone: TimeZoneSchema.optional(),
      status: z.array(z.number().int()).optional(),
      clicked: z.boolean().optional(),
      export_id: z.string().min(1).max(100).optional(),
    }),
    output: MessageExportSchema,
  }),
  /** "New segment from results": imported like a spreadsheet (progress: import:progress). */
  'campaigns:segmentFromResults': defineContract({
    channel: 'campaigns:segmentFromResults',
    input: byExecution.extend({ kind: z.enum(RESULT_KINDS), name: typedName(z.string().min(1).max(200)) }),
    output: z.object({ segment_id: Id, job_id: Id }),
  }),
  /**
   * "Resend to failed" before it is asked: the new campaign's name, line, rate and quiet hours,
   * its recipients, pages and cost as the core prices them, and who is left out and why.
   */
  'campaigns:resendQuote': defineContract({
    channel: 'campaigns:resendQuote',
    input: byExecution.extend({ language: z.enum(['fa', 'en']).optional() }),
    output: ResendQuoteSchema,
  }),
  /**
   * "Resend to failed": a new campaign like this one to the failed recipients it can still reach,
   * once per execution. Its generated name is in `language` (English when omitted).
   */
  'campaigns:resendFailed': defineContract({
    channel: 'campaigns:resendFailed',
    input: byExecution.extend({
      name: z.string().max(200).optional(),
      send_datetime: z.string().optional(),
      language: z.enum(['fa', 'en']).optional(),
    }),
    output: CreateCampaignResultSchema.extend({ segment_id: Id }),
  }),
  'campaigns:linkSettings': defineContract({
    channel: 'campaigns:linkSettings',
    input: NoInput,
    output: LinkSettingsSchema,
  }),
  'campaigns:setLinkSettings': defineContract({
    channel: 'campaigns:setLinkSettings',
    input: z.object({ short_link_base: z.string().nullable() }),
    output: LinkSettingsSchema,
  }),
} as const;

export const campaignsEvents = {
  /** An execution started, recorded a batch, was paused, resumed or ended, or a link was clicked. */
  'campaigns:execution': defineEvent({
    event: 'campaigns:execution',
    payload: z.object({
      execution_id: Id,
      campaign_id: Id,
      account_id: Id,
      status: z.enum(EXECUTION_STATUSES),
    }),
  }),
} as const;
