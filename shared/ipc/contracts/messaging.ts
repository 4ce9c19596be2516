// IPC contracts of the messaging domain: the composer (its preview is the send's dry run, and the
// panel send), the message views and exports, and their push events.
import { z } from 'zod';
import { defineContract, defineEvent } from '../contract';
import { EpochMs, Id, ProviderSchema, Rials } from '../primitives';
import { TimeZoneSchema } from '../../time-zone';

// ---- compose

export const ReceiversInputSchema = z.object({
  /** Pasted text: one number per line or separated by commas, semicolons or tabs. */
  receivers_text: z.string().optional(),
  /** Numbers already split (any common form: +98, 0098, Persian digits, ...). */
  receivers: z.array(z.string()).optional(),
  /** Send to a saved segment instead of (or besides) pasted numbers. */
  segment_id: Id.optional(),
});

export const ParsedReceiversSchema = z.object({
  /** Normalized (09xxxxxxxxx), first occurrence of each, in pasted order. */
  valid: z.array(z.string()),
  /** As pasted. */
  invalid: z.array(z.string()),
  /**
   * Each dropped repeat, normalized, in pasted order (a number pasted three times is listed twice):
   * valid + invalid + duplicates is every entry.
   */
  duplicates: z.array(z.string()),
  /** Members of the segment, when one was given (not listed one by one). */
  segment_members: z.number().int().nonnegative(),
  /** What the send will be charged for: valid + segment members. */
  total: z.number().int().nonnegative(),
});
export type ParsedReceivers = z.infer<typeof ParsedReceiversSchema>;

export const ComposePreviewInputSchema = ReceiversInputSchema.extend({
  account_id: Id,
  /** The sender line's number; its provider decides opt-out phrase and price. */
  sender: z.string().min(1),
  message: z.string(),
});

export const ComposePreviewSchema = z.object({
  provider: ProviderSchema,
  messenger: z.boolean(),
  /** The text receivers get (SMS lines: with `\nلغو۱۱`). */
  final_text: z.string(),
  opt_out_added: z.boolean(),
  encoding: z.enum(['GSM-7', 'UCS-2']),
  /** Characters of the final text (Unicode code points). */
  characters: z.number().int().nonnegative(),
  /** Length as the carrier counts it: septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative(),
  per_page: z.number().int().positive(),
  /** Characters of the typed message forcing UCS-2, with their UTF-16 index in `message`. */
  ucs2_characters: z.array(z.object({ char: z.string(), index: z.number().int().nonnegative() })),
  cost_per_message_rials: Rials,
  total_cost_rials: Rials,
  credit_rials: Rials,
  enough_credit: z.boolean(),
  receivers: ParsedReceiversSchema,
  /**
   * The text has `{{COLUMN}}` placeholders, filled per recipient from the segment's columns (the
   * campaigns' rules): final_text, characters, units, pages and cost_per_message_rials are then
   * the first recipient's, total_cost_rials the sum of every recipient's own price.
   */
  personalized: z.boolean(),
  /** The recipient whose text final_text shows when personalized (null without one). */
  sample_receptor: z.string().nullable(),
  /** The most pages of any recipient's text (= pages unless personalized). */
  max_pages: z.number().int().nonnegative(),
  /** Placeholders offered: the segment's columns, and PHONE_NUMBER (the number itself). */
  columns: z.array(z.string()),
  /** Each `{{NAME}}` of the text: known (a column, or PHONE_NUMBER) and recipients without a value. */
  placeholders: z.array(z.object({ name: z.string(), known: z.boolean(), missing: z.number().int().nonnegative() })),
  /** Names written `{NAME}`, with single braces: sent as typed (probably meant `{{NAME}}`). */
  single_braces: z.array(z.string()),
  /**
   * The same text went to some of these receivers a few minutes ago (from here, another window or
   * the API): the latest such send, and how many of this draft's receivers already got it.
   */
  recent_duplicate: z.object({ send_id: Id, at: EpochMs, overlap: z.number().int().positive() }).nullable(),
});
export type ComposePreview = z.infer<typeof ComposePreviewSchema>;

// ---- messages

/**
 * The longest text a message search takes: far longer than any message's text, and short enough
 * for SQLite's LIKE, which refuses a pattern over 50,000 bytes.
 */
const SEARCH_TEXT_MAX = 2_000;

export const MessageFilterSchema = z.object({
  /** Omitted: every account. */
  account_id: Id.optional(),
  status: z.array(z.number().int()).optional(),
  /** The sender line's number, exact. */
  sender: z.string().optional(),
  /** A receiver, in any common form and digits: a whole number matches it, a part of one matches it anywhere. */
  receptor: z.string().optional(),
  send_id: Id.optional(),
  /** The messages of one campaign execution (all its batches' sends). */
  execution_id: Id.optional(),
  origin: z.enum(['api', 'panel', 'campaign']).optional(),
  /** Created at or after (ms). */
  from: EpochMs.optional(),
  /** Created before (ms). */
  to: EpochMs.optional(),
  /** Substring of the message text, Arabic and Persian letters and digits alike (shared/search.ts). */
  text: z.string().max(SEARCH_TEXT_MAX).optional(),
});
export type MessageFilter = z.infer<typeof MessageFilterSchema>;

export const MessageRowSchema = z.object({
  id: Id,
  send_id: Id,
  account_id: Id,
  sender: z.string(),
  provider: z.string(),
  origin: z.string(),
  receptor: z.string(),
  text: z.string(),
  pages: z.number().int(),
  status: z.number().int(),
  status_text: z.string(),
  cost_rials: Rials,
  created_at: EpochMs,
  handed_at: EpochMs.nullable(),
  final_at: EpochMs.nullable(),
});
export type MessageRow = z.infer<typeof MessageRowSchema>;

export const MessageListInputSchema = MessageFilterSchema.extend({
  /** Newest first. Keyset paging: pass the previous page's next_cursor; or use offset. */
  cursor: Id.nullable().optional(),
  offset: z.number().int().nonnegative().max(1_000_000).optional(),
  limit: z.number().int().positive().max(1000).default(100),
});

export const MessageListSchema = z.object({
  rows: z.array(MessageRowSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: Id.nullable(),
});

export const TimelineEventSchema = z.object({
  status: z.number().int(),
  status_text: z.string(),
  at: EpochMs,
});
export const MessageTimelineSchema = z.object({
  message: MessageRowSchema,
  /** created -> handed to the carrier -> final, as far as the message got. */
  events: z.array(TimelineEventSchema),
});

export const ExportFormatSchema = z.enum(['csv', 'xlsx']);

/** Who an exported file is for; omitted, Persian and Tehran time (callers from before these existed). */
export const ExportLocaleSchema = z.object({
  /** Headers and status labels in this language; Persian also lays the sheet out right to left. */
  language: z.enum(['fa', 'en']).optional(),
  /** Times are written in this zone (the person's own): Jalali in Persian, with an ISO 8601 column beside. */
  time_zone: TimeZoneSchema.optional(),
});

export const MessageExportInputSchema = MessageFilterSchema.extend({
  format: ExportFormatSchema,
  /** Chosen by the caller so it can match export:progress events to this call. */
  export_id: z.string().min(1).max(100).optional(),
}).extend(ExportLocaleSchema.shape);
export const MessageExportSchema = z.object({
  export_id: z.string(),
  format: ExportFormatSchema,
  rows: z.number().int().nonnegative(),
  /** Desktop mode: the written file. */
  path: z.string().nullable(),
  /** Web mode: where the browser downloads it (same origin, token cookie). */
  url: z.string().nullable(),
  file_name: z.string(),
});

// ---- sends: each direct send, and each campaign execution, as one row

export const SendRowSchema = z.object({
  kind: z.enum(['send', 'execution']),
  /** kind 'send': the send; null for an execution (its batches are sends of their own). */
  send_id: Id.nullable(),
  execution_id: Id.nullable(),
  campaign_id: Id.nullable(),
  /** The campaign's name for an execution; null for a direct send. */
  name: z.string().nullable(),
  origin: z.enum(['api', 'panel', 'campaign']),
  account_id: Id,
  sender: z.string(),
  /** The text (an execution: the campaign's template), cut to 300 characters. */
  text: z.string(),
  /** When it was accepted (an execution: when it started, or its send time before that). */
  created_at: EpochMs,
  /** Messages recorded. */
  messages: z.number().int().nonnegative(),
  delivered: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  pending: z.number().int().nonnegative(),
  cost_rials: Rials,
  /** An execution's status (SCHEDULED, RUNNING, …); null for a send. */
  execution_status: z.string().nullable(),
});
export type SendRow = z.infer<typeof SendRowSchema>;

// ---- push payloads

export const StatusChangeSchema = z.object({ id: Id, account_id: Id, status: z.number().int() });

export const messagingContracts = {
  // ---- compose and send
  'compose:preview': defineContract({
    channel: 'compose:preview',
    input: ComposePreviewInputSchema,
    output: ComposePreviewSchema,
  }),
  /**
   * A panel send: pasted receivers and/or a segment, of any size, is one send (`send_id`) in one
   * transaction: recorded whole, or refused (418 short of credit) with nothing recorded.
   */
  'messages:send': defineContract({
    channel: 'messages:send',
    input: ReceiversInputSchema.extend({
      account_id: Id,
      sender: z.string().min(1),
      message: z.string().min(1),
      file_id: z.string().max(100).nullable().optional(),
    }),
    output: z.object({
      send_id: Id,
      accepted: z.number().int().nonnegative(),
      total_rials: Rials,
      invalid: z.array(z.string()),
      duplicates: z.array(z.string()),
    }),
  }),

  // ---- messages
  'messages:list': defineContract({
    channel: 'messages:list',
    input: MessageListInputSchema,
    output: MessageListSchema,
  }),
  'messages:count': defineContract({
    channel: 'messages:count',
    input: MessageFilterSchema,
    output: z.object({ count: z.number().int().nonnegative() }),
  }),
  'messages:timeline': defineContract({
    channel: 'messages:timeline',
    input: z.object({ message_id: Id, account_id: Id.optional() }),
    output: MessageTimelineSchema,
  }),
  /** Sends and campaign executions, newest first (the Messages page's "by send" view). */
  'sends:list': defineContract({
    channel: 'sends:list',
    input: z.object({
      account_id: Id.optional(),
      offset: z.number().int().nonnegative().max(1_000_000).default(0),
      limit: z.number().int().positive().max(200).default(50),
    }),
    output: z.object({ rows: z.array(SendRowSchema), total: z.number().int().nonnegative() }),
  }),
  /** One send or execution's row (what "open this send" shows above its messages). */
  'sends:get': defineContract({
    channel: 'sends:get',
    input: z.union([
      z.object({ account_id: Id.optional(), send_id: Id }),
      z.object({ account_id: Id.optional(), execution_id: Id }),
    ]),
    output: SendRowSchema,
  }),
  /** Streams the filtered rows to a file; export:progress reports while it runs. */
  'messages:export': defineContract({
    channel: 'messages:export',
    input: MessageExportInputSchema,
    output: MessageExportSchema,
  }),
} as const;

export const messagingEvents = {
  /** Messages whose status moved, batched (several gateway steps may be merged). */
  'messages:status-changed': defineEvent({
    event: 'messages:status-changed',
    payload: z.object({ changes: z.array(StatusChangeSchema) }),
  }),
  /** A running messages:export. */
  'export:progress': defineEvent({
    event: 'export:progress',
    payload: z.object({
      export_id: z.string(),
      state: z.enum(['running', 'done', 'failed']),
      done: z.number().int().nonnegative(),
      total: z.number().int().nonnegative(),
      error: z.string().optional(),
    }),
  }),
} as const;
