// Campaigns as both sides see them (PRODUCT.md "Campaign creation" and "Campaign execution
// report"): the records of the report endpoints, the rows of an execution's recipients, and the
// limits of spec 4.3. The core builds them; HTTP, IPC and the renderer read them.
import { z } from 'zod';
import { MessageStatus, STORED_STATUSES } from './lifecycle';
import { LocalDate } from './audience-filter';
import { AudienceFilter } from './audience-filter';

/** Spec 8: links per campaign. */
export const MAX_LINKS = 10;
/** utm_source when the request leaves it out (spec 4.3 leaves ours to choose). */
export const DEFAULT_UTM_SOURCE = 'chapar';
export const DEFAULT_UTM_MEDIUM = 'sms';
/** `{id}` in utm_campaign is the campaign's id. */
export const DEFAULT_UTM_CAMPAIGN = '{id}';
/** Characters of a short link's code (the path is `{base}/l/{code}`). */
export const LINK_CODE_LENGTH = 8;

/** Spec 3.2 names SCHEDULED; PRODUCT.md the rest. A paused execution stays RUNNING (or SCHEDULED) with `paused: true`. */
export const EXECUTION_STATUSES = ['SCHEDULED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const FINAL_EXECUTION_STATUSES: readonly ExecutionStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED'];

export const CreateCampaignResultSchema = z
  .object({
    campaign_id: z.number().int(),
    execution_id: z.number().int(),
    execution_status: z.literal('SCHEDULED'),
  })
  .meta({ id: 'CreateCampaignResponseEntries', description: 'Spec 2.4' });
export type CreateCampaignResult = z.infer<typeof CreateCampaignResultSchema>;

export const ExecutionReportSchema = z
  .object({
    execution_id: z.number().int(),
    campaign_id: z.number().int(),
    execution_status: z.enum(EXECUTION_STATUSES),
    send_datetime: z.string().describe('As given at creation (RFC 3339)'),
    started_at: z.string().nullable().describe('RFC 3339 (UTC), null before the execution starts'),
    finished_at: z.string().nullable().describe('RFC 3339 (UTC), null until it ends'),
    audience: z
      .number()
      .int()
      .describe(
        'Distinct numbers of the inclusion segments minus the exclusion segments minus opt-outs, frozen when the execution starts (before it: the count now)',
      ),
    sent: z.number().int().describe('Messages recorded; audience = sent + skipped'),
    delivered: z.number().int().describe('Messages in status 10'),
    failed: z.number().int().describe('Messages in status 6, 11, 13 or 14'),
    pending: z.number().int().describe('Messages in status 1, 2 or 4; sent = delivered + failed + pending'),
    cost: z
      .number()
      .describe('Sum of the messages’ costs in rials (refunds of status 13/14 included as cost; see refunded)'),
    // Our extensions.
    skipped: z
      .number()
      .int()
      .describe('Extension: audience members never recorded (cancelled or failed before their turn)'),
    refunded: z.number().describe('Extension: rials refunded for messages that ended 13 or 14'),
    clicks: z.number().int().describe('Extension: visits of the execution’s short links'),
    track_links: z
      .boolean()
      .describe(
        'Extension: false when the campaign was created with track_links=false: its links went out as their own addresses (with their UTM tags), so no visit is counted and clicks means nothing',
      ),
    paused: z.boolean().describe('Extension: paused by the user (status stays SCHEDULED or RUNNING)'),
    reserved: z.number().describe('Extension: rials still held for messages not recorded yet'),
    estimated_last_message_at: z
      .string()
      .nullable()
      .describe('Extension: when the last message is due to go out, by the send rate and quiet hours'),
    error: z.string().nullable().describe('Extension: why a FAILED execution failed'),
  })
  .meta({ id: 'ExecutionReport' });
export type ExecutionReport = z.infer<typeof ExecutionReportSchema>;

export const ExecutionMessageSchema = z
  .object({
    messageid: z.number().int(),
    receptor: z.string(),
    message: z.string(),
    status: z.number().int(),
    statustext: z.string(),
    cost: z.number(),
    date: z.number().int().describe('Unix seconds'),
    clicks: z.number().int(),
  })
  .meta({ id: 'ExecutionMessage' });
export type ExecutionMessage = z.infer<typeof ExecutionMessageSchema>;

// The report's partition of a recorded message (sent = delivered + failed + pending): spec 3.1
// names 1, 2 and 4 intermediate; every other stored status but delivery is a failure (6 included:
// an error, even if a later report may still move it). "Failed" results and "resend to failed" use
// the same set.
export const PENDING_RESULT_STATUSES: readonly MessageStatus[] = [
  MessageStatus.Queued,
  MessageStatus.Scheduled,
  MessageStatus.HandedToCarrier,
];
export const FAILED_RESULT_STATUSES: readonly MessageStatus[] = STORED_STATUSES.filter(
  (s) => s !== MessageStatus.Delivered && !PENDING_RESULT_STATUSES.includes(s),
);

/** "New segment from results": which recipients go in. */
export const RESULT_KINDS = ['failed', 'delivered', 'clicked', 'not_clicked'] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];

/**
 * A campaign request as received, wire-neutral (form fields of spec 4.3 plus our extensions). The
 * core checks it: transports only collect the fields.
 */
export interface CampaignForm {
  sender?: string | undefined;
  name?: string | undefined;
  template_body?: string | undefined;
  send_datetime?: string | undefined;
  inclusion_segments: string[];
  exclusion_segments: string[];
  /** By index i of `links[i]...`, in any order; `actual_url` or `has_utm` may be missing. */
  links: Array<{ index: number; actual_url?: string | undefined; has_utm?: string | undefined }>;
  utm: { utm_source?: string | undefined; utm_medium?: string | undefined; utm_campaign?: string | undefined };
  /** Extension: messages per minute, a positive integer. */
  send_rate?: string | undefined;
  /** Extension: "HH:MM-HH:MM" in the account's time zone (for example 22:00-08:00); no message goes out inside it. */
  quiet_hours?: string | undefined;
  /** Extension: "false" writes the links as their own addresses (with UTM tags), no short links, no clicks; default "true". */
  track_links?: string | undefined;
  /**
   * Extension: the column filter's conditions by index i of `filters[i]…`, in any order, each
   * part (`column`, `op`, `value`, `values`, `kind`, `from`, `to`) with every value it was sent with.
   */
  filters?: Array<{ index: number; part: FilterPart; values: string[] }> | undefined;
  /** The optional contact file, kept as given. */
  file?: { name: string; bytes: Uint8Array } | null | undefined;
  // Extension: a series (see CampaignRepeatSchema, CampaignTriggerSchema). All empty: a one-off.
  /** daily | weekly | monthly. */
  repeat?: string | undefined;
  /** HH:MM in the account's time zone. */
  repeat_time?: string | undefined;
  /** Weekly: days of the week, comma-separated (sat,sun,mon,tue,wed,thu,fri). */
  repeat_weekdays?: string | undefined;
  /** Monthly: day of the month, 1-31 (a month without it: its last day). */
  repeat_day?: string | undefined;
  /** Monthly: jalali (default) or gregorian. */
  repeat_calendar?: string | undefined;
  /** YYYY-MM-DD (Gregorian), the last local day an occurrence may fall on. */
  repeat_until?: string | undefined;
  /** A date-triggered campaign: the date column of the inclusion segments. */
  trigger_column?: string | undefined;
  /** 0 (on the day) to 365. */
  trigger_days_before?: string | undefined;
  /** HH:MM in the account's time zone. */
  trigger_time?: string | undefined;
}

// ---- series: campaigns that run by themselves

/** Days of the week, in the Iranian week's order (Saturday first). */
export const WEEKDAYS = ['sat', 'sun', 'mon', 'tue', 'wed', 'thu', 'fri'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const REPEAT_EVERY = ['daily', 'weekly', 'monthly'] as const;
export const CALENDARS = ['jalali', 'gregorian'] as const;
export type SeriesCalendar = (typeof CALENDARS)[number];
/** The most days before a date a trigger may fire. */
export const MAX_DAYS_BEFORE = 365;

/**
 * A repeating campaign: one occurrence (an execution) every day / the weekdays named / the day of
 * the month named (in `calendar`; a month without that day: its last day), at `time` in the
 * account's time zone, from the campaign's send time on, up to `until` (a local day, inclusive).
 * As drafted: the core checks it at creation (a draft may hold anything of this shape).
 */
export const CampaignRepeatSchema = z.object({
  every: z.enum(REPEAT_EVERY),
  /** HH:MM, local. */
  time: z.string().max(10),
  /** Weekly: the days (at least one). */
  weekdays: z.array(z.enum(WEEKDAYS)).max(7).default([]),
  /** Monthly: the day of the month, 1-31. */
  day: z.number().int().min(1).max(31).nullable().default(null),
  calendar: z.enum(CALENDARS).default('jalali'),
  /** Last local day (YYYY-MM-DD, Gregorian) an occurrence may fall on; null: no end. */
  until: z.string().max(10).nullable().default(null),
});
export type CampaignRepeat = z.infer<typeof CampaignRepeatSchema>;

/**
 * A date-triggered campaign: every day at `time` (local), an occurrence to the members of the
 * audience whose date in `column` falls `days_before` days after that day (its month and day, in
 * the calendar the date was written in): a birthday greeting on the day, or a reminder N days before.
 */
export const CampaignTriggerSchema = z.object({
  column: z.string().max(200),
  days_before: z.number().int().min(0).max(MAX_DAYS_BEFORE).default(0),
  time: z.string().max(10),
});
export type CampaignTrigger = z.infer<typeof CampaignTriggerSchema>;

/** One occurrence of a series: its local day, when it was due, and its execution's status. */
export const SeriesOccurrenceSchema = z.object({
  /** Its local day (YYYY-MM-DD, Gregorian): the key, one execution per day at most. */
  occurrence: LocalDate,
  execution_id: z.number().int(),
  /** When it was due (ms). */
  at: z.number().int(),
  status: z.enum(EXECUTION_STATUSES),
  /** The app was not running on its day: it ended FAILED, nothing sent (not sent late). */
  missed: z.boolean(),
});
export type SeriesOccurrence = z.infer<typeof SeriesOccurrenceSchema>;

/** A campaign's series as the list and the campaign page show it; null for a one-off campaign. */
export const CampaignSeriesSchema = z.object({
  kind: z.enum(['repeat', 'trigger']),
  repeat: CampaignRepeatSchema.nullable(),
  trigger: CampaignTriggerSchema.nullable(),
  /** The zone its times are read in (the account's). */
  time_zone: z.string(),
  /** Paused as a whole: no occurrence is made until it is resumed (none made up for afterwards). */
  paused: z.boolean(),
  /** Ended by the user, or past `until`: no occurrence any more. */
  ended: z.boolean(),
  /** The next occurrence to come (its local day and time, ms); null when paused or ended. */
  next_occurrence: LocalDate.nullable(),
  next_at: z.number().int().nullable(),
  /** Every occurrence so far, newest first. */
  occurrences: z.array(SeriesOccurrenceSchema),
});
export type CampaignSeries = z.infer<typeof CampaignSeriesSchema>;
/** The parts of a condition of the form's column filter (`filters[i]<part>`). */
export const FILTER_PARTS = ['column', 'op', 'value', 'values', 'kind', 'from', 'to'] as const;
export type FilterPart = (typeof FILTER_PARTS)[number];

// ---- the app's campaign editor

/**
 * What the editor holds while a campaign is being written: a draft, saved as the user types. Every
 * field may still be empty or wrong; the quote says what creation would refuse, and creation runs
 * the spec's checks on it (the same `CampaignForm` path as the HTTP API).
 */
export const CampaignDraftFieldsSchema = z.object({
  name: z.string().max(200).default(''),
  sender: z.string().max(100).default(''),
  template_body: z.string().max(10_000).default(''),
  inclusion_segments: z.array(z.number().int().positive()).max(50).default([]),
  exclusion_segments: z.array(z.number().int().positive()).max(50).default([]),
  /** Targeting by column: conditions on the inclusion segments' columns, all met; null: everyone. */
  filter: AudienceFilter.nullable().default(null),
  links: z
    .array(z.object({ actual_url: z.string().max(2_000), has_utm: z.boolean().default(false) }))
    .max(MAX_LINKS)
    .default([]),
  utm: z
    .object({
      utm_source: z.string().max(200).optional(),
      utm_medium: z.string().max(200).optional(),
      utm_campaign: z.string().max(200).optional(),
    })
    .default({}),
  /** Messages per minute; null: as fast as the service goes. */
  send_rate: z.number().int().positive().max(1_000_000).nullable().default(null),
  /** "HH:MM-HH:MM" in the account's time zone; null: none. */
  quiet_hours: z.string().max(20).nullable().default(null),
  /** RFC 3339 with an offset; null: "now" (as soon as it is scheduled). */
  send_datetime: z.string().max(40).nullable().default(null),
  /** The IANA zone the send time was picked in (shown back in the editor). */
  time_zone: z.string().max(60).nullable().default(null),
  /** False: the links go out as their own addresses (with their UTM tags); no short links, no clicks counted. */
  track_links: z.boolean().default(true),
  /** A repeating campaign (null: not repeating). Exclusive with `trigger`. */
  repeat: CampaignRepeatSchema.nullable().default(null),
  /** A date-triggered campaign (null: not triggered). Exclusive with `repeat`. */
  trigger: CampaignTriggerSchema.nullable().default(null),
});
export type CampaignDraftFields = z.infer<typeof CampaignDraftFieldsSchema>;

export const CampaignDraftSchema = z.object({
  draft_id: z.number().int(),
  account_id: z.number().int(),
  fields: CampaignDraftFieldsSchema,
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type CampaignDraft = z.infer<typeof CampaignDraftSchema>;

export const SAMPLE_KINDS = ['first', 'longest', 'random'] as const;
export type SampleKind = (typeof SAMPLE_KINDS)[number];

/**
 * The core's dry run of a campaign as drafted: who would receive it and why, what each sample
 * recipient would get and pay, and the whole audience's cost against the credit. Nothing is
 * recorded or held.
 */
export const CampaignQuoteSchema = z.object({
  audience: z.object({
    /** Each segment named, with its members now. */
    segments: z.array(
      z.object({
        segment_id: z.number().int(),
        name: z.string(),
        role: z.enum(['include', 'exclude']),
        members: z.number().int(),
        ready: z.boolean(),
      }),
    ),
    /** Distinct numbers in the union of the inclusion segments. */
    included: z.number().int(),
    /** Of those, numbers in more than one inclusion segment counted once more each (sum of sizes − included). */
    duplicates: z.number().int(),
    /** Of the included, numbers in an exclusion segment. */
    excluded: z.number().int(),
    /** Of the included and not excluded, numbers on the opt-out list. */
    opted_out: z.number().int(),
    /**
     * Of the included, not excluded and not opted out, numbers the column filter leaves out (judged
     * by the fields of the first inclusion segment that has them; 0 without a filter).
     */
    filtered_out: z.number().int(),
    /** Who will receive it: included − excluded − opted out − filtered out. */
    recipients: z.number().int(),
  }),
  /** Placeholders offered: the inclusion segments' columns, and PHONE_NUMBER. */
  columns: z.array(z.string()),
  /** Each `{{NAME}}` of the text: known (a column of some inclusion segment) and recipients without a value. */
  placeholders: z.array(z.object({ name: z.string(), known: z.boolean(), missing: z.number().int() })),
  /** Each link: whether its address is in the text, and what its short link looks like and adds. */
  links: z.array(
    z.object({
      idx: z.number().int(),
      actual_url: z.string(),
      in_body: z.boolean(),
      /** Where a visit goes (with utm_* when has_utm). */
      redirect_to: z.string(),
      /**
       * An example of the short link (each recipient gets their own code of this length); with
       * untracked links, the address as the text carries it.
       */
      short_example: z.string(),
      /** Characters the short link (or the untracked address's tags) adds to the text (negative: saves). */
      added_characters: z.number().int(),
    }),
  ),
  provider: z.enum(['sms', 'bale', 'rubika']).nullable(),
  samples: z.array(
    z.object({
      kind: z.enum(SAMPLE_KINDS),
      receptor: z.string(),
      /** The final text (personalized, short links, opt-out phrase). */
      text: z.string(),
      encoding: z.enum(['GSM-7', 'UCS-2']),
      characters: z.number().int(),
      pages: z.number().int(),
      cost_rials: z.number().int(),
    }),
  ),
  total_pages: z.number().int(),
  total_cost_rials: z.number().int(),
  /** What the account may spend now (credit minus what running campaigns hold). */
  credit_rials: z.number().int(),
  enough_credit: z.boolean(),
  /** When the first message is due (ms); the send time, or now. */
  send_at: z.number().int().nullable(),
  /** When the last message is due by the send rate and quiet hours (ms). */
  estimated_last_message_at: z.number().int().nullable(),
  /** The first thing creation would refuse (spec 4.3's checks), or null when it would be accepted. */
  problem: z
    .object({
      code: z.number().int(),
      field: z.string().nullable(),
      detail: z.string(),
      /** The core's reason (errors.reasons), when it gave one. */
      reason: z.string().nullable().optional(),
    })
    .nullable(),
  /** Whether the links were quoted as short links (else as their own addresses). */
  track_links: z.boolean(),
  /**
   * A series' estimate over the next 30 days (null for a one-off): its occurrences then, the
   * messages they would send (a repeat: today's audience each time; a date trigger: the members
   * whose date falls in those days, counted from the data) and their cost at today's prices.
   */
  monthly: z
    .object({
      occurrences: z.number().int(),
      recipients: z.number().int(),
      cost_rials: z.number().int(),
      /** The first occurrence to come (ms), null when none falls in the 30 days. */
      first_at: z.number().int().nullable(),
      /** The first occurrences to come (ms, at most 3), within the 30 days or after. */
      next: z.array(z.number().int()),
      /** The zone its times are read in (the account's). */
      time_zone: z.string(),
    })
    .nullable()
    .default(null),
});
export type CampaignQuote = z.infer<typeof CampaignQuoteSchema>;

/** Of an execution's failed recipients, those a resend leaves out because it cannot reach them. */
export const ResendLeftOutSchema = z.object({
  /** On the opt-out list now. */
  opted_out: z.number().int(),
  /** Their message was blocked (by the carrier, or as opted out then). */
  blocked: z.number().int(),
  /** Not a mobile number. */
  invalid: z.number().int(),
});
export type ResendLeftOut = z.infer<typeof ResendLeftOutSchema>;

/**
 * "Resend to failed" before it is asked: the new campaign as it would be created (its generated
 * name, the original's line, text, links, send rate and quiet hours, sent now), quoted by the
 * same dry run as the editor's, with who is left out and why; `resent` when this execution was
 * resent already (a resend happens once).
 */
export const ResendQuoteSchema = CampaignQuoteSchema.extend({
  name: z.string(),
  sender: z.string(),
  send_rate: z.number().int().nullable(),
  quiet_hours: z.string().nullable(),
  /** How many of the report's failed recipients were read. */
  failed: z.number().int(),
  left_out: ResendLeftOutSchema,
  resent: z.object({ campaign_id: z.number().int(), execution_id: z.number().int().nullable() }).nullable(),
});
export type ResendQuote = z.infer<typeof ResendQuoteSchema>;

/** A point of an execution's delivery chart: messages that reached a final status in [at, at + bucket). */
export const DeliveryPointSchema = z.object({
  at: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int(),
});
