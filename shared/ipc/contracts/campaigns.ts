// IPC contracts of the campaigns domain: creating a campaign (the same checks as spec 4.3's form),
// its executions' reports, recipients, link clicks and controls, the short links' settings, and
// the push event of an execution moving on. The campaign screens build on these.
import { z } from 'zod';
import { defineContract, defineEvent } from '../contract';
import { byAccount, EpochMs, Id, NoInput } from '../primitives';
import { MessageExportSchema } from './messaging';
import {
  CreateCampaignResultSchema,
  RESULT_KINDS,
  EXECUTION_STATUSES,
  ExecutionMessageSchema,
  ExecutionReportSchema,
} from '../../campaigns';

const byExecution = z.object({ account_id: Id, execution_id: Id });

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
  file_name: z.string().nullable(),
  created_at: EpochMs,
  last_execution: ExecutionReportSchema.nullable(),
});
export type CampaignSummary = z.infer<typeof CampaignSummarySchema>;

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
      name: z.string(),
      template_body: z.string(),
      /** RFC 3339 with an offset. */
      send_datetime: z.string(),
      inclusion_segments: z.array(z.number().int()).default([]),
      exclusion_segments: z.array(z.number().int()).default([]),
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
    }),
    output: CreateCampaignResultSchema,
  }),
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
  /** The execution's per-recipient report as a file (progress: export:progress with export_id). */
  'campaigns:export': defineContract({
    channel: 'campaigns:export',
    input: byExecution.extend({
      format: z.enum(['csv', 'xlsx']),
      language: z.enum(['fa', 'en']),
      status: z.array(z.number().int()).optional(),
      clicked: z.boolean().optional(),
      export_id: z.string().min(1).max(100).optional(),
    }),
    output: MessageExportSchema,
  }),
  /** "New segment from results": imported like a spreadsheet (progress: import:progress). */
  'campaigns:segmentFromResults': defineContract({
    channel: 'campaigns:segmentFromResults',
    input: byExecution.extend({ kind: z.enum(RESULT_KINDS), name: z.string().min(1).max(200) }),
    output: z.object({ segment_id: Id, job_id: Id }),
  }),
  /** "Resend to failed": a new campaign like this one to the failed recipients. */
  'campaigns:resendFailed': defineContract({
    channel: 'campaigns:resendFailed',
    input: byExecution.extend({ name: z.string().max(200).optional(), send_datetime: z.string().optional() }),
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
