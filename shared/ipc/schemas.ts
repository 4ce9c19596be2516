// The domain shapes the IPC contracts carry, in zod. Times are milliseconds since the Unix epoch
// everywhere in the contracts (the HTTP API keeps its own unix seconds); money is whole rials.
import { z } from 'zod';
import { LINE_PERMISSIONS, PROVIDERS } from '../status';

export const Id = z.number().int().positive();
export const EpochMs = z.number().int().nonnegative();
export const Rials = z.number().int();
export const ProviderSchema = z.enum(PROVIDERS as readonly ['sms', 'bale', 'rubika']);
export const LinePermissionSchema = z.enum(LINE_PERMISSIONS);
/** Contracts without input take nothing (`undefined`); `null` is accepted as the same. */
export const NoInput = z.union([z.undefined(), z.null()]).transform(() => undefined);
export const Empty = z.null();

// ---- accounts, keys, lines

export const AccountSchema = z.object({
  id: Id,
  name: z.string(),
  active: z.boolean(),
  credit_rials: Rials,
  ip_allowlist: z.array(z.string()),
  created_at: EpochMs,
});
export type Account = z.infer<typeof AccountSchema>;

export const ApiKeyInfoSchema = z.object({
  id: Id,
  account_id: Id,
  /** The last characters of the key, enough to recognise it in a list. */
  hint: z.string(),
  label: z.string(),
  created_at: EpochMs,
  revoked_at: EpochMs.nullable(),
});
export type ApiKeyInfo = z.infer<typeof ApiKeyInfoSchema>;

export const LineSchema = z.object({
  id: Id,
  account_id: Id,
  number: z.string(),
  provider: ProviderSchema,
  can_send_api_campaign: z.boolean(),
  can_send_panel_campaign: z.boolean(),
  active: z.boolean(),
});
export type Line = z.infer<typeof LineSchema>;

// ---- credit

export const LedgerKindSchema = z.enum(['topup', 'send', 'refund', 'adjust']);
export type LedgerKind = z.infer<typeof LedgerKindSchema>;
export const LedgerEntrySchema = z.object({
  id: Id,
  account_id: Id,
  amount_rials: Rials,
  kind: LedgerKindSchema,
  send_id: Id.nullable(),
  message_id: Id.nullable(),
  note: z.string(),
  created_at: EpochMs,
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

// ---- settings of the service (pricing, simulator) and of the app

export const PricingSchema = z.object({
  sms_page_tomans: z.number().nonnegative(),
  messenger_message_tomans: z.number().nonnegative(),
});
export type Pricing = z.infer<typeof PricingSchema>;

export const SimulatorSchema = z.object({
  seed: z.number().int(),
  handoff_ms: z.number().int().nonnegative(),
  delivery_ms: z.number().int().nonnegative(),
  /** Shares of the final statuses; normalized, so they need not sum to 1. */
  outcomes: z
    .object({
      '10': z.number().nonnegative(),
      '11': z.number().nonnegative(),
      '13': z.number().nonnegative(),
      '14': z.number().nonnegative(),
    })
    .partial()
    .refine((o) => Object.values(o).some((share) => share > 0), 'at least one outcome share must be positive'),
});
export type Simulator = z.infer<typeof SimulatorSchema>;

export const LanguageSchema = z.enum(['fa', 'en', 'system']);
export type Language = z.infer<typeof LanguageSchema>;

export const HttpApiSettingsSchema = z.object({
  enabled: z.boolean(),
  host: z.string().min(1),
  port: z.number().int().min(0).max(65535),
});

export const AppSettingsSchema = z.object({
  language: LanguageSchema,
  /** The workspace folder in use now. */
  data_dir: z.string(),
  /** A folder chosen for the next start (desktop); null when unchanged. */
  next_data_dir: z.string().nullable(),
  http_api: HttpApiSettingsSchema.extend({
    /** Where the API answers right now, or null when it is off. */
    url: z.string().nullable(),
    /** False in web mode: the API and the web UI share one server there. */
    can_toggle: z.boolean(),
  }),
  mode: z.enum(['desktop', 'web']),
});
export type AppSettings = z.infer<typeof AppSettingsSchema>;

export const AppSettingsPatchSchema = z.object({
  language: LanguageSchema.optional(),
  data_dir: z.string().min(1).optional(),
  http_api: HttpApiSettingsSchema.partial().optional(),
});

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
  /** Normalized numbers seen again after their first occurrence (each repeat listed once). */
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
});
export type ComposePreview = z.infer<typeof ComposePreviewSchema>;

// ---- messages

export const MessageFilterSchema = z.object({
  /** Omitted: every account. */
  account_id: Id.optional(),
  status: z.array(z.number().int()).optional(),
  /** The sender line's number, exact. */
  sender: z.string().optional(),
  /** A receiver, in any common form; matched exactly after normalization (or as a prefix). */
  receptor: z.string().optional(),
  send_id: Id.optional(),
  origin: z.enum(['api', 'panel', 'campaign']).optional(),
  /** Created at or after (ms). */
  from: EpochMs.optional(),
  /** Created before (ms). */
  to: EpochMs.optional(),
  /** Substring of the message text. */
  text: z.string().optional(),
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
export const MessageExportInputSchema = MessageFilterSchema.extend({
  format: ExportFormatSchema,
  /** Chosen by the caller so it can match export:progress events to this call. */
  export_id: z.string().min(1).max(100).optional(),
});
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

// ---- dashboard

export const StatusCountsSchema = z.object({
  total: z.number().int().nonnegative(),
  /** 1, 2, 4: not final yet. */
  pending: z.number().int().nonnegative(),
  delivered: z.number().int().nonnegative(),
  undelivered: z.number().int().nonnegative(),
  cancelled: z.number().int().nonnegative(),
  blocked: z.number().int().nonnegative(),
  /** Charged minus refunded. */
  cost_rials: Rials,
});
export type StatusCounts = z.infer<typeof StatusCountsSchema>;

export const DashboardInputSchema = z.object({
  account_id: Id.optional(),
  /** The user's offset from UTC in minutes (Tehran: 210), so "today" is the user's day. */
  utc_offset_minutes: z.number().int().min(-840).max(840).optional(),
  /** "Now" for the figures; defaults to the core's clock. */
  now: EpochMs.optional(),
});

export const DashboardBucketSchema = StatusCountsSchema.extend({ start: EpochMs, end: EpochMs });

export const DashboardStatsSchema = z.object({
  now: EpochMs,
  today: StatusCountsSchema,
  /** The last 7 days including today. */
  week: StatusCountsSchema,
  /** delivered / finished over the week; null when nothing finished. */
  delivery_rate: z.number().min(0).max(1).nullable(),
  credit_rials: Rials.nullable(),
  /** Today by hour (24 buckets). */
  hourly: z.array(DashboardBucketSchema),
  /** The week by day (7 buckets, oldest first). */
  daily: z.array(DashboardBucketSchema),
});
export type DashboardStats = z.infer<typeof DashboardStatsSchema>;

// ---- backup

export const BackupSchema = z.object({
  path: z.string(),
  bytes: z.number().int().nonnegative(),
  created_at: EpochMs,
  /**
   * Web mode: where the browser downloads this backup (same origin, token cookie); a backup from
   * another computer is uploaded with uploadBackup() (web-transport.ts) and then restored by path.
   */
  url: z.string().nullable().optional(),
});
export type Backup = z.infer<typeof BackupSchema>;

// ---- segments (owned by contacts; listed here for the composer)

export const SegmentSummarySchema = z.object({
  id: Id,
  name: z.string(),
  columns: z.array(z.string()),
  member_count: z.number().int().nonnegative(),
  status: z.string(),
  created_at: EpochMs,
});
export type SegmentSummary = z.infer<typeof SegmentSummarySchema>;

// ---- push payloads

export const StatusChangeSchema = z.object({ id: Id, account_id: Id, status: z.number().int() });
