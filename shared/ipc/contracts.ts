// Every IPC operation and push event of the app, in one registry. The preload's allowlist, main's
// handler registration, the web bridge's routes and the renderer's typed client are all derived
// from these two objects, so an operation exists everywhere or nowhere.
import { z } from 'zod';
import { defineContract, defineEvent, type Contract, type EventContract } from './contract';
import * as s from './schemas';
import { CHANNEL_NAMES, EVENT_NAMES as EVENT_NAME_LIST, type ChannelName, type EventNameOf } from './channels';

const byAccount = z.object({ account_id: s.Id });

export const contracts = {
  // ---- accounts, keys, lines
  'accounts:list': defineContract({ channel: 'accounts:list', input: s.NoInput, output: z.array(s.AccountSchema) }),
  'accounts:create': defineContract({
    channel: 'accounts:create',
    input: z.object({
      name: z.string().trim().min(1).max(100),
      active: z.boolean().optional(),
      ip_allowlist: z.array(z.string()).optional(),
      /** Opening credit, recorded as a top-up in the ledger. */
      credit_rials: z.number().int().nonnegative().optional(),
    }),
    output: s.AccountSchema,
  }),
  'accounts:update': defineContract({
    channel: 'accounts:update',
    input: z.object({
      id: s.Id,
      name: z.string().trim().min(1).max(100).optional(),
      active: z.boolean().optional(),
      ip_allowlist: z.array(z.string()).optional(),
    }),
    output: s.AccountSchema,
  }),
  'apiKeys:list': defineContract({ channel: 'apiKeys:list', input: byAccount, output: z.array(s.ApiKeyInfoSchema) }),
  'apiKeys:create': defineContract({
    channel: 'apiKeys:create',
    input: z.object({ account_id: s.Id, label: z.string().max(100).optional() }),
    /** `key` is the only time the key is ever shown; only its hash is stored. */
    output: z.object({ key: z.string(), info: s.ApiKeyInfoSchema }),
  }),
  'apiKeys:revoke': defineContract({
    channel: 'apiKeys:revoke',
    input: z.object({ id: s.Id }),
    output: s.ApiKeyInfoSchema,
  }),
  'lines:list': defineContract({ channel: 'lines:list', input: byAccount, output: z.array(s.LineSchema) }),
  'lines:upsert': defineContract({
    channel: 'lines:upsert',
    input: z.object({
      account_id: s.Id,
      number: z.string().trim().min(1).max(100),
      provider: s.ProviderSchema,
      permissions: z.array(s.LinePermissionSchema),
      active: z.boolean().optional(),
    }),
    output: s.LineSchema,
  }),
  /** Lines with history are deactivated, not deleted; the line as it is now is returned. */
  'lines:remove': defineContract({
    channel: 'lines:remove',
    input: z.object({ account_id: s.Id, number: z.string().min(1) }),
    output: s.LineSchema,
  }),

  // ---- credit
  'credit:balance': defineContract({
    channel: 'credit:balance',
    input: byAccount,
    output: z.object({ account_id: s.Id, credit_rials: s.Rials }),
  }),
  'credit:topUp': defineContract({
    channel: 'credit:topUp',
    input: z.object({
      account_id: s.Id,
      /** Positive adds; a negative amount (kind 'adjust') corrects, never below zero. */
      amount_rials: z
        .number()
        .int()
        .refine((n) => n !== 0, 'amount cannot be zero'),
      note: z.string().max(500).optional(),
      kind: z.enum(['topup', 'adjust']).default('topup'),
    }),
    output: z.object({ account_id: s.Id, credit_rials: s.Rials }),
  }),
  'credit:ledger': defineContract({
    channel: 'credit:ledger',
    input: z.object({
      account_id: s.Id,
      limit: z.number().int().positive().max(1000).default(100),
      before_id: s.Id.optional(),
    }),
    output: z.object({ entries: z.array(s.LedgerEntrySchema), next_before_id: s.Id.nullable() }),
  }),

  // ---- service settings
  'pricing:get': defineContract({ channel: 'pricing:get', input: s.NoInput, output: s.PricingSchema }),
  'pricing:set': defineContract({ channel: 'pricing:set', input: s.PricingSchema, output: s.PricingSchema }),
  'simulator:get': defineContract({ channel: 'simulator:get', input: s.NoInput, output: s.SimulatorSchema }),
  'simulator:set': defineContract({ channel: 'simulator:set', input: s.SimulatorSchema, output: s.SimulatorSchema }),

  // ---- compose and send
  'compose:preview': defineContract({
    channel: 'compose:preview',
    input: s.ComposePreviewInputSchema,
    output: s.ComposePreviewSchema,
  }),
  /**
   * A panel send: pasted receivers and/or a segment, of any size, is one send (`send_id`) in one
   * transaction: recorded whole, or refused (418 short of credit) with nothing recorded.
   */
  'messages:send': defineContract({
    channel: 'messages:send',
    input: s.ReceiversInputSchema.extend({
      account_id: s.Id,
      sender: z.string().min(1),
      message: z.string().min(1),
      file_id: z.string().max(100).nullable().optional(),
    }),
    output: z.object({
      send_id: s.Id,
      accepted: z.number().int().nonnegative(),
      total_rials: s.Rials,
      invalid: z.array(z.string()),
      duplicates: z.array(z.string()),
    }),
  }),

  // ---- messages
  'messages:list': defineContract({
    channel: 'messages:list',
    input: s.MessageListInputSchema,
    output: s.MessageListSchema,
  }),
  'messages:count': defineContract({
    channel: 'messages:count',
    input: s.MessageFilterSchema,
    output: z.object({ count: z.number().int().nonnegative() }),
  }),
  'messages:timeline': defineContract({
    channel: 'messages:timeline',
    input: z.object({ message_id: s.Id, account_id: s.Id.optional() }),
    output: s.MessageTimelineSchema,
  }),
  /** Streams the filtered rows to a file; export:progress reports while it runs. */
  'messages:export': defineContract({
    channel: 'messages:export',
    input: s.MessageExportInputSchema,
    output: s.MessageExportSchema,
  }),

  // ---- dashboard
  'dashboard:stats': defineContract({
    channel: 'dashboard:stats',
    input: s.DashboardInputSchema,
    output: s.DashboardStatsSchema,
  }),

  // ---- app settings
  'settings:get': defineContract({ channel: 'settings:get', input: s.NoInput, output: s.AppSettingsSchema }),
  'settings:set': defineContract({
    channel: 'settings:set',
    input: s.AppSettingsPatchSchema,
    output: s.AppSettingsSchema,
  }),

  // ---- backup
  /** An online copy of the whole workspace database; default folder: <data>/backups. */
  'backup:create': defineContract({
    channel: 'backup:create',
    input: z.object({ path: z.string().min(1).optional() }).optional(),
    output: s.BackupSchema,
  }),
  /**
   * Replaces the workspace's data with a backup's. The current data is first backed up itself
   * (`safety_backup`), never deleted.
   */
  /** Backups in the workspace's backups folder, newest first (what Restore offers). */
  'backup:list': defineContract({ channel: 'backup:list', input: s.NoInput, output: z.array(s.BackupSchema) }),
  'backup:restore': defineContract({
    channel: 'backup:restore',
    input: z.object({ path: z.string().min(1) }),
    output: z.object({ restored_from: z.string(), safety_backup: s.BackupSchema }),
  }),

  // ---- segments (contacts)
  'segments:list': defineContract({
    channel: 'segments:list',
    input: byAccount,
    output: z.array(s.SegmentSummarySchema),
  }),

  // ---- the desktop's file dialogs (web mode answers 501: the browser has no access to the server's disk)
  /** A native dialog: a backup to restore, where to save a backup, a workspace folder. Null when cancelled. */
  'files:choose': defineContract({
    channel: 'files:choose',
    input: z.object({
      purpose: z.enum(['backup-restore', 'backup-save', 'data-folder']),
      default_path: z.string().optional(),
    }),
    output: z.object({ path: z.string().nullable() }),
  }),
  /** Shows a file (an export, a backup) in the system's file manager. */
  'files:reveal': defineContract({
    channel: 'files:reveal',
    input: z.object({ path: z.string().min(1) }),
    output: s.Empty,
  }),
} as const satisfies { [C in ChannelName]: Contract<C> };

export const events = {
  /** Messages whose status moved, batched (several gateway steps may be merged). */
  'messages:status-changed': defineEvent({
    event: 'messages:status-changed',
    payload: z.object({ changes: z.array(s.StatusChangeSchema) }),
  }),
  /** A contacts job (spreadsheet or upload import, opt-out file, segment combine) moving on. */
  'import:progress': defineEvent({
    event: 'import:progress',
    payload: z.object({
      job_id: s.Id,
      kind: z.enum(['import', 'optouts', 'combine']),
      segment_id: s.Id.nullable(),
      /** The upload_data_id of a JSON upload (spec 4.4), when the job came from one. */
      upload_id: s.Id.nullable(),
      status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
      /** Row number of the last row processed. */
      rows: z.number().int().nonnegative(),
      /** 0..1, from the bytes read. */
      fraction: z.number().min(0).max(1),
      valid: z.number().int().nonnegative(),
      invalid: z.number().int().nonnegative(),
      duplicates: z.number().int().nonnegative(),
      opted_out: z.number().int().nonnegative(),
      error: z.string().nullable(),
    }),
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
} as const satisfies { [E in EventNameOf]: EventContract<E> };

export type Contracts = typeof contracts;
export type Channel = keyof Contracts;
export type Events = typeof events;
export type EventName = keyof Events;

export type InputOf<C extends Channel> = z.input<Contracts[C]['input']>;
/** The input after validation (defaults filled in): what handlers receive. */
export type ParsedInputOf<C extends Channel> = z.output<Contracts[C]['input']>;
export type OutputOf<C extends Channel> = z.output<Contracts[C]['output']>;
export type PayloadOf<E extends EventName> = z.output<Events[E]['payload']>;

export const CHANNELS: readonly Channel[] = CHANNEL_NAMES;
export const EVENT_NAMES: readonly EventName[] = EVENT_NAME_LIST;

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(contracts, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}
