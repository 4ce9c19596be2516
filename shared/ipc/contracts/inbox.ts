// IPC contracts of the Inbox: the replies customers sent to the account's lines, each with the
// message it answers, newest first and paged by cursor; marking them read; the counts the nav's
// badge shows. The rules (opt-out replies, what "read" means) are the core's (messaging/inbox.ts).
import { z } from 'zod';
import { defineContract, defineEvent } from '../contract';
import { byAccount, EpochMs, Id } from '../primitives';

/** One inbound message as stored. */
export const InboundMessageSchema = z.object({
  id: Id,
  /** Our line that received it. */
  line_number: z.string(),
  /** The customer's number. */
  sender: z.string(),
  text: z.string(),
  received_at: EpochMs,
  read_at: EpochMs.nullable(),
  /** The message it answers, when known. */
  reply_to: Id.nullable(),
  /** It asked to opt out, and the number was put on the opt-out list. */
  opt_out: z.boolean(),
});
export type InboundMessage = z.infer<typeof InboundMessageSchema>;

/** The sent message a reply answers. */
export const RepliedMessageSchema = z.object({
  id: Id,
  text: z.string(),
  /** When it was sent (accepted). */
  sent_at: EpochMs,
  /** The line it went out on. */
  line_number: z.string(),
});
export type RepliedMessage = z.infer<typeof RepliedMessageSchema>;

export const InboxItemSchema = InboundMessageSchema.extend({ replied: RepliedMessageSchema.nullable() });
export type InboxItem = z.infer<typeof InboxItemSchema>;

export const InboxFilterSchema = z.object({
  unread_only: z.boolean().optional(),
  opt_outs_only: z.boolean().optional(),
  /** A part of the customer's number, in any digits. */
  search: z.string().max(100).optional(),
});
export type InboxFilter = z.infer<typeof InboxFilterSchema>;

export const InboxPageSchema = z.object({
  items: z.array(InboxItemSchema),
  /** The cursor of the next (older) page, or null at the end. */
  next: Id.nullable(),
});
export type InboxPage = z.infer<typeof InboxPageSchema>;

export const InboxCountsSchema = z.object({
  unread: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});
export type InboxCounts = z.infer<typeof InboxCountsSchema>;

export const inboxContracts = {
  'inbox:list': defineContract({
    channel: 'inbox:list',
    input: InboxFilterSchema.extend({
      account_id: Id,
      /** Rows older than this id (the previous page's `next`). */
      before: Id.optional(),
      limit: z.number().int().min(1).max(500).optional(),
    }),
    output: InboxPageSchema,
  }),
  /** Marks the given replies read (all of the account's when `ids` is absent); answers how many changed. */
  'inbox:markRead': defineContract({
    channel: 'inbox:markRead',
    input: z.object({ account_id: Id, ids: z.array(Id).max(1000).optional() }),
    output: z.number().int().nonnegative(),
  }),
  'inbox:counts': defineContract({ channel: 'inbox:counts', input: byAccount, output: InboxCountsSchema }),
} as const;

export const inboxEvents = {
  /** Replies just recorded (the nav's badge and an open Inbox follow them). */
  'inbox:received': defineEvent({
    event: 'inbox:received',
    payload: z.object({ account_id: Id, ids: z.array(Id), opt_outs: z.number().int().nonnegative() }),
  }),
} as const;
