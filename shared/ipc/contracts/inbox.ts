// IPC contracts of the Inbox: the replies customers sent to the account's lines, each with the
// message it answers and who the customer is (their card from the segments), newest first and
// paged by cursor; marking them read; the counts the nav's badge shows and the unread per line;
// conversations (a number on a line) marked done and re-opened; a number's thread (our messages
// and their replies in time order). The rules (opt-out replies, what "read" and "done" mean) are
// the core's (messaging/inbox.ts, messaging/conversations.ts, contacts/cards.ts).
import { z } from 'zod';
import { defineContract, defineEvent } from '../contract';
import { byAccount, EpochMs, Id, Rials } from '../primitives';
import { ComposePreviewSchema } from './messaging';

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

/** One segment holding a customer's number: its non-empty columns, and the name they give. */
export const ContactSegmentSchema = z.object({
  id: Id,
  name: z.string(),
  fields: z.array(z.object({ column: z.string(), value: z.string() })),
  /** The value of the segment's NAME-like column(s), when it has one. */
  contact_name: z.string().nullable(),
});
export type ContactSegment = z.infer<typeof ContactSegmentSchema>;

/** Who a number is, as the account's segments know it (contacts/cards.ts). */
export const ContactCardSchema = z.object({
  phone: z.string(),
  /** The first segment's name for them (NAME, FIRST_NAME + LAST_NAME, نام…), or null. */
  name: z.string().nullable(),
  /** The segments holding the number, oldest first (at most CARD_SEGMENTS of them). */
  segments: z.array(ContactSegmentSchema),
  /** How many segments hold it, all of them. */
  segment_count: z.number().int().nonnegative(),
});
export type ContactCard = z.infer<typeof ContactCardSchema>;

export const InboxItemSchema = InboundMessageSchema.extend({
  replied: RepliedMessageSchema.nullable(),
  contact: ContactCardSchema,
  /** Its conversation (this number on this line) is marked done. */
  done: z.boolean(),
});
export type InboxItem = z.infer<typeof InboxItemSchema>;

/** Open: replies of conversations not marked done (the default); done: of those marked done. */
export const ConversationViewSchema = z.enum(['open', 'done', 'all']);
export type ConversationView = z.infer<typeof ConversationViewSchema>;

export const InboxFilterSchema = z.object({
  /** Absent: open. */
  view: ConversationViewSchema.optional(),
  /** Replies to this line only. */
  line_number: z.string().max(100).optional(),
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
  /** Unread replies per line that has any, by line number. */
  unread_by_line: z.array(z.object({ line_number: z.string(), unread: z.number().int().positive() })),
});
export type InboxCounts = z.infer<typeof InboxCountsSchema>;

/** One entry of a number's thread: a message we sent it (with its status) or a reply it sent us. */
export const ThreadEntrySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('sent'),
    id: Id,
    /** Our line it went out on. */
    line_number: z.string(),
    text: z.string(),
    status: z.number().int(),
    status_text: z.string(),
    /** api, panel or campaign (what sent it). */
    origin: z.string(),
    pages: z.number().int(),
    cost_rials: z.number().int(),
    at: EpochMs,
  }),
  z.object({
    kind: z.literal('received'),
    id: Id,
    /** Our line that received it. */
    line_number: z.string(),
    text: z.string(),
    read: z.boolean(),
    opt_out: z.boolean(),
    at: EpochMs,
  }),
]);
export type ThreadEntry = z.infer<typeof ThreadEntrySchema>;

/** Where an older page of a thread starts: below these ids of each kind (null: that kind is exhausted). */
export const ThreadCursorSchema = z.object({ sent_before: Id.nullable(), received_before: Id.nullable() });
export type ThreadCursor = z.infer<typeof ThreadCursorSchema>;

export const ThreadPageSchema = z.object({
  phone: z.string(),
  /** Newest first. */
  entries: z.array(ThreadEntrySchema),
  next: ThreadCursorSchema.nullable(),
});
export type ThreadPage = z.infer<typeof ThreadPageSchema>;

export const ConversationSchema = z.object({
  phone: z.string(),
  contact: ContactCardSchema,
  /** The lines the number wrote to, newest reply first, each with whether that conversation is done. */
  lines: z.array(
    z.object({ line_number: z.string(), done: z.boolean(), unread: z.number().int().nonnegative(), last_at: EpochMs }),
  ),
});
export type Conversation = z.infer<typeof ConversationSchema>;

const ReplyInputSchema = z.object({
  account_id: Id,
  /** The customer's number. */
  phone: z.string().min(1).max(40),
  /** Our line the customer wrote to (the answer goes out on it). */
  line_number: z.string().min(1),
  message: z.string().min(1),
});

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
  /** A number's card and the conversations it has (one per line it wrote to). */
  'inbox:conversation': defineContract({
    channel: 'inbox:conversation',
    input: z.object({ account_id: Id, phone: z.string().min(1).max(40) }),
    output: ConversationSchema,
  }),
  /** A number's thread, newest first; `before` the previous page's `next`. */
  'inbox:thread': defineContract({
    channel: 'inbox:thread',
    input: z.object({
      account_id: Id,
      phone: z.string().min(1).max(40),
      before: ThreadCursorSchema.optional(),
      limit: z.number().int().min(1).max(200).optional(),
    }),
    output: ThreadPageSchema,
  }),
  /** Marks a conversation (a number on a line) done, or open again; its replies are read once done. */
  'inbox:setDone': defineContract({
    channel: 'inbox:setDone',
    input: z.object({
      account_id: Id,
      line_number: z.string().min(1),
      /** The customer's number. */
      phone: z.string().min(1).max(40),
      done: z.boolean(),
    }),
    output: z.object({ done: z.boolean() }),
  }),
  /** What answering would send (the composer's quote of it): from the line the number wrote to. */
  'inbox:replyPreview': defineContract({
    channel: 'inbox:replyPreview',
    input: ReplyInputSchema.extend({ message: z.string() }),
    output: ComposePreviewSchema,
  }),
  /** Answers the number from the line it wrote to: a panel send of one message, charged once. */
  'inbox:reply': defineContract({
    channel: 'inbox:reply',
    input: ReplyInputSchema,
    output: z.object({ send_id: Id, accepted: z.number().int().nonnegative(), total_rials: Rials }),
  }),
  /** Marks a number's replies read (opening its thread). */
  'inbox:markSenderRead': defineContract({
    channel: 'inbox:markSenderRead',
    input: z.object({ account_id: Id, phone: z.string().min(1).max(40) }),
    output: z.number().int().nonnegative(),
  }),
} as const;

export const inboxEvents = {
  /** Replies just recorded (the nav's badge and an open Inbox follow them). */
  'inbox:received': defineEvent({
    event: 'inbox:received',
    payload: z.object({ account_id: Id, ids: z.array(Id), opt_outs: z.number().int().nonnegative() }),
  }),
} as const;
