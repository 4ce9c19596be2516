// IPC contracts of the settings domain: the service's pricing and simulator, and the app's own
// settings (language, data folder, the local HTTP API).
import { z } from 'zod';
import { defineContract } from '../contract';
import { NoInput } from '../primitives';
import { MAX_PRICE_TOMANS } from '../../credit';

/** Prices as stored: from free to MAX_PRICE_TOMANS; a price outside is refused, never clamped. */
export const PricingSchema = z.object({
  sms_page_tomans: z.number().min(0).max(MAX_PRICE_TOMANS),
  messenger_message_tomans: z.number().min(0).max(MAX_PRICE_TOMANS),
});
export type Pricing = z.infer<typeof PricingSchema>;
/** What pricing:set takes: any two numbers, so the core's refusal names the reason (`price_out_of_range`). */
export const PricingInputSchema = z.object({
  sms_page_tomans: z.number(),
  messenger_message_tomans: z.number(),
});

/** The longest a simulated step may take: a day. */
export const MAX_SIMULATOR_DELAY_MS = 86_400_000;
/** When a simulator's settings say nothing of it, a reply comes this long after the delivery. */
export const DEFAULT_REPLY_MS = 5000;

export const SimulatorSchema = z.object({
  seed: z.number().int(),
  handoff_ms: z.number().int().nonnegative().max(MAX_SIMULATOR_DELAY_MS),
  delivery_ms: z.number().int().nonnegative().max(MAX_SIMULATOR_DELAY_MS),
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
  // Replies (inbound messages) to delivered messages. Absent in settings stored (and seeds written)
  // before replies existed: those go on without replies, so nothing they send is opted out by
  // surprise; a new workspace starts from DEFAULT_SIMULATOR's small share.
  /** The share of delivered messages that get a reply, 0..1; 0 or absent means none. */
  reply_share: z.number().min(0).max(1).optional(),
  /** The share of those replies that ask to opt out (`لغو۱۱`, `11`, ...), 0..1; absent means none. */
  optout_share: z.number().min(0).max(1).optional(),
  /** How long after the delivery the reply comes (absent: DEFAULT_REPLY_MS). */
  reply_ms: z.number().int().nonnegative().max(MAX_SIMULATOR_DELAY_MS).optional(),
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

export const settingsContracts = {
  // ---- service settings
  'pricing:get': defineContract({ channel: 'pricing:get', input: NoInput, output: PricingSchema }),
  'pricing:set': defineContract({ channel: 'pricing:set', input: PricingInputSchema, output: PricingSchema }),
  'simulator:get': defineContract({ channel: 'simulator:get', input: NoInput, output: SimulatorSchema }),
  'simulator:set': defineContract({ channel: 'simulator:set', input: SimulatorSchema, output: SimulatorSchema }),
  // ---- app settings
  'settings:get': defineContract({ channel: 'settings:get', input: NoInput, output: AppSettingsSchema }),
  'settings:set': defineContract({
    channel: 'settings:set',
    input: AppSettingsPatchSchema,
    output: AppSettingsSchema,
  }),
} as const;
