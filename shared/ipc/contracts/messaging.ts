// IPC contracts of the messaging domain: The composer (preview, send), the message views and exports, the dashboard.
import { z } from 'zod';
import { defineContract, defineEvent } from '../contract';
import * as s from '../schemas';

export const messagingContracts = {
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
} as const;

export const messagingEvents = {
  /** Messages whose status moved, batched (several gateway steps may be merged). */
  'messages:status-changed': defineEvent({
    event: 'messages:status-changed',
    payload: z.object({ changes: z.array(s.StatusChangeSchema) }),
  }),
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
