// IPC contracts of email: how the app's email goes out (the embedded sandbox, a provider's API or
// SMTP; keys and passwords go in and never come back out), the composer's preview of a segment's
// recipients, the send itself (one confirmation for a stated count), its results live and their
// export. The rules (addresses, `{{variable}}`, batches, retries) are the core's (email/client).
import { z } from 'zod';
import { defineContract, defineEvent } from '../contract';
import { byAccount, EpochMs, Id, NoInput } from '../primitives';
import { EMAIL_RECIPIENT_STATUSES, EMAIL_TRANSPORTS, MAX_EMAIL_LENGTH } from '../../email';
import { ExportFormatSchema, MessageExportSchema } from './messaging';
import { TimeZoneSchema } from '../../time-zone';

export const EmailTransportSchema = z.enum(EMAIL_TRANSPORTS);
export const EmailRecipientStatusSchema = z.enum(EMAIL_RECIPIENT_STATUSES);

const Address = z.string().max(MAX_EMAIL_LENGTH);
const DisplayName = z.string().max(200);
export const EmailPartySchema = z.object({ email: Address, name: DisplayName.optional() });
export type EmailParty = z.infer<typeof EmailPartySchema>;

/** The connection settings as the window sees them: a secret is only "set" or not. */
export const EmailConfigSchema = z.object({
  transport: EmailTransportSchema,
  provider: z.object({
    /** `{email_api_url}`: the provider's address (scheme and host; no path). */
    url: z.string(),
    account_id: z.string(),
    key_set: z.boolean(),
  }),
  smtp: z.object({
    host: z.string(),
    port: z.number().int().min(1).max(65535),
    /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
    secure: z.boolean(),
    user: z.string(),
    password_set: z.boolean(),
  }),
  /** The sender the composer starts with (the last one used). */
  default_from: EmailPartySchema.nullable(),
  /** Where secrets are kept: the OS keychain (desktop) or a file only this user can read (serve). */
  secret_storage: z.enum(['keychain', 'file']),
});
export type EmailConfig = z.infer<typeof EmailConfigSchema>;

export const EmailConfigInputSchema = z.object({
  transport: EmailTransportSchema,
  provider: z
    .object({
      url: z.string().max(2000),
      account_id: z.string().max(200),
      /** Absent: keep the stored key; '' removes it. */
      key: z.string().max(1000).optional(),
    })
    .optional(),
  smtp: z
    .object({
      host: z.string().max(255),
      port: z.number().int().min(1).max(65535),
      secure: z.boolean(),
      user: z.string().max(500),
      /** Absent: keep the stored password; '' removes it. */
      password: z.string().max(1000).optional(),
    })
    .optional(),
  default_from: EmailPartySchema.nullable().optional(),
});
export type EmailConfigInput = z.infer<typeof EmailConfigInputSchema>;

/** What the composer is writing: the segment it goes to and the message's template. */
export const EmailDraftSchema = z.object({
  account_id: Id,
  segment_id: Id,
  from: EmailPartySchema,
  reply_to: EmailPartySchema.nullable().optional(),
  subject: z.string().max(1000),
  /** At least one of the two bodies (the core says which is missing). */
  text: z.string().max(1_000_000).optional(),
  html: z.string().max(2_000_000).optional(),
});
export type EmailDraft = z.infer<typeof EmailDraftSchema>;

/** A segment row that gets no email, and why. `row` counts the segment's members from 1. */
export const EmailSkippedSchema = z.object({
  row: z.number().int().positive(),
  phone: z.string(),
  /** What the EMAIL column holds ('' when empty). */
  email: z.string(),
  reason: z.enum(['missing', 'invalid', 'duplicate']),
});
export type EmailSkipped = z.infer<typeof EmailSkippedSchema>;

/** One recipient's message as it will be sent. */
export const EmailSampleSchema = z.object({
  row: z.number().int().positive(),
  email: z.string(),
  name: z.string(),
  subject: z.string(),
  text: z.string().nullable(),
  /** Unsanitized: the window sanitizes before showing it. */
  html: z.string().nullable(),
});
export type EmailSample = z.infer<typeof EmailSampleSchema>;

export const EmailPreviewSchema = z.object({
  /** The segment's members. */
  total: z.number().int().nonnegative(),
  /** Members with a valid, first-seen address: the messages a send makes. */
  valid: z.number().int().nonnegative(),
  skipped_count: z.number().int().nonnegative(),
  /** The first skipped rows (at most 100). */
  skipped: z.array(EmailSkippedSchema),
  /** The segment's columns, as imported. */
  columns: z.array(z.string()),
  /** The column read as the address (EMAIL, matched without regard to case), or null. */
  email_column: z.string().nullable(),
  /**
   * What the send would refuse this draft for (reasons of errors.reasons, the first to fix first):
   * the preview answers a half-written draft, so the counts show as soon as a segment is picked.
   */
  problems: z.array(z.string()),
  /** Variables of the subject or bodies that match no column (they render empty). */
  unknown_variables: z.array(z.string()),
  /** Recipients `offset`.. rendered, in segment order. */
  samples: z.array(EmailSampleSchema),
});
export type EmailPreview = z.infer<typeof EmailPreviewSchema>;

export const EmailCountsSchema = z.record(EmailRecipientStatusSchema, z.number().int().nonnegative());

export const EmailSendSchema = z.object({
  id: Id,
  account_id: Id,
  segment_id: Id,
  /** The segment's name when the send was made. */
  segment_name: z.string(),
  from: EmailPartySchema,
  reply_to: EmailPartySchema.nullable(),
  subject: z.string(),
  text: z.string().nullable(),
  html: z.string().nullable(),
  transport: EmailTransportSchema,
  /** sending: batches still going to the transport or results still coming; done: every result final. */
  state: z.enum(['sending', 'done', 'failed', 'cancelled']),
  /** Why it failed (a refused key, an unreachable server), in the core's words. */
  error: z.string().nullable(),
  total: z.number().int().nonnegative(),
  counts: EmailCountsSchema,
  created_at: EpochMs,
  finished_at: EpochMs.nullable(),
});
export type EmailSend = z.infer<typeof EmailSendSchema>;

export const EmailRecipientSchema = z.object({
  row: z.number().int().positive(),
  email: z.string(),
  name: z.string(),
  status: EmailRecipientStatusSchema,
  /** The provider's message id (null before its batch is accepted, and for SMTP). */
  message_id: z.string().nullable(),
  error: z.string().nullable(),
  updated_at: EpochMs,
});
export type EmailRecipient = z.infer<typeof EmailRecipientSchema>;

export const emailContracts = {
  'email:config': defineContract({ channel: 'email:config', input: NoInput, output: EmailConfigSchema }),
  'email:configure': defineContract({
    channel: 'email:configure',
    input: EmailConfigInputSchema,
    output: EmailConfigSchema,
  }),
  /** Tries the configured connection without sending (the provider's list, SMTP's greeting). */
  'email:testConnection': defineContract({
    channel: 'email:testConnection',
    input: NoInput,
    output: z.object({ ok: z.boolean(), error: z.string().nullable() }),
  }),
  'email:preview': defineContract({
    channel: 'email:preview',
    input: EmailDraftSchema.extend({
      offset: z.number().int().nonnegative().optional(),
      limit: z.number().int().min(1).max(50).optional(),
    }),
    output: EmailPreviewSchema,
  }),
  /**
   * Sends the draft to the segment's valid addresses. `expected_count` is the count the user
   * confirmed: a segment that changed since is refused. `request_id` names this confirmation: the
   * same id again answers the same send (a double click sends once).
   */
  'email:send': defineContract({
    channel: 'email:send',
    input: EmailDraftSchema.extend({
      expected_count: z.number().int().nonnegative(),
      request_id: z.string().min(8).max(100),
    }),
    output: EmailSendSchema,
  }),
  'email:sends': defineContract({ channel: 'email:sends', input: byAccount, output: z.array(EmailSendSchema) }),
  'email:get': defineContract({
    channel: 'email:get',
    input: z.object({ account_id: Id, send_id: Id }),
    output: EmailSendSchema,
  }),
  'email:recipients': defineContract({
    channel: 'email:recipients',
    input: z.object({
      account_id: Id,
      send_id: Id,
      statuses: z.array(EmailRecipientStatusSchema).max(20).optional(),
      /** A part of the address. */
      search: z.string().max(MAX_EMAIL_LENGTH).optional(),
      offset: z.number().int().nonnegative().optional(),
      limit: z.number().int().min(1).max(500).optional(),
    }),
    output: z.object({ rows: z.array(EmailRecipientSchema), total: z.number().int().nonnegative() }),
  }),
  /** Stops a send: batches not yet handed over are not sent; the provider cancels what it can. */
  'email:cancel': defineContract({
    channel: 'email:cancel',
    input: z.object({ account_id: Id, send_id: Id }),
    output: EmailSendSchema,
  }),
  'email:export': defineContract({
    channel: 'email:export',
    input: z.object({
      account_id: Id,
      send_id: Id,
      format: ExportFormatSchema,
      language: z.enum(['fa', 'en']),
      time_zone: TimeZoneSchema,
      statuses: z.array(EmailRecipientStatusSchema).max(20).optional(),
      export_id: z.string().max(100).optional(),
    }),
    output: MessageExportSchema,
  }),
} as const;

export const emailEvents = {
  /** A send's counts or state changed (batches handed over, results polled). */
  'email:progress': defineEvent({ event: 'email:progress', payload: EmailSendSchema }),
} as const;
