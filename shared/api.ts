// Schemas of the HTTP API's bodies (spec sections 2 and 4), in zod: the handlers validate with
// them and the OpenAPI document is generated from them, so the two cannot drift apart.
import { z } from 'zod';

export const MAX_RECEIVERS = 10_000;
/** Ids per status lookup: as many as one send can produce, so a send's messages fit one lookup. */
export const MAX_STATUS_IDS = MAX_RECEIVERS;
export const MAX_FILE_ID_LENGTH = 100;

export const SendRequestSchema = z
  .object({
    message: z.string().min(1).describe('Text; for SMS lines `\\nلغو۱۱` is appended (or replaces a variant)'),
    sender: z.string().describe("Number of one of the account's lines holding can_send_api_campaign"),
    receivers: z
      .array(z.string())
      .min(1)
      .max(MAX_RECEIVERS)
      .describe('1 to 10,000 numbers matching ^((\\+?98)|0)?9[0-9]{9}$; more than 10,000 is error 414'),
    file_id: z
      .string()
      .max(MAX_FILE_ID_LENGTH)
      .nullable()
      .optional()
      .describe('UUID from POST /upload-file/{provider}; only for bale and rubika lines of the same provider'),
  })
  .meta({ id: 'SendRequest' });
export type SendRequest = z.infer<typeof SendRequestSchema>;

/** Messages per personalized send (POST /v2/sms/send-p2p): as many as receivers per send. */
export const MAX_P2P_MESSAGES = MAX_RECEIVERS;

export const P2pMessageSchema = z
  .object({
    message: z
      .string()
      .min(1)
      .describe("This receiver's own text; for SMS lines `\\nلغو۱۱` is appended (or replaces a variant)"),
    receiver: z.string().describe('A number matching ^((\\+?98)|0)?9[0-9]{9}$'),
  })
  .meta({ id: 'P2pMessage' });
export type P2pMessage = z.infer<typeof P2pMessageSchema>;

/** The v2 provider's personalized send (reference/sms-upstreams.md "Najva v2"): an own text per receiver. */
export const P2pSendRequestSchema = z
  .object({
    messages: z
      .array(P2pMessageSchema)
      .min(1)
      .max(MAX_P2P_MESSAGES)
      .describe('1 to 10,000 messages, each its own receiver and text; more than 10,000 is error 414'),
    sender: SendRequestSchema.shape.sender,
    file_id: SendRequestSchema.shape.file_id,
  })
  .meta({ id: 'P2pSendRequest' });
export type P2pSendRequest = z.infer<typeof P2pSendRequestSchema>;

export const MessageInfoSchema = z
  .object({
    messageid: z.number().int().describe('0 for invalid or duplicate records'),
    message: z.string().describe('Final text after the opt-out phrase; empty for invalid or duplicate records'),
    status: z.number().int().describe('Message status (1 accepted, 0 invalid, 15 duplicate)'),
    statustext: z.string(),
    sender: z.string(),
    receptor: z.string().describe('Normalized to 09xxxxxxxxx; an invalid number is echoed as received'),
    date: z.number().int().describe('Unix seconds; 0 for invalid or duplicate records'),
    cost: z.number().describe('Rials: pages of the final text x page price (tomans) x 10'),
  })
  .meta({ id: 'MessageInfo' });
export type MessageInfo = z.infer<typeof MessageInfoSchema>;

export const StatusRequestSchema = z
  .object({
    messageids: z
      .array(z.number().int())
      .max(MAX_STATUS_IDS)
      .describe("At most 10,000 ids (one send's worth); more is error 414"),
  })
  .meta({ id: 'StatusRequest' });
export type StatusRequest = z.infer<typeof StatusRequestSchema>;

export const StatusEntrySchema = z
  .object({
    messageid: z.number().int(),
    status: z.number().int().describe('100 for an unknown id or one of another account'),
    statustext: z.string(),
  })
  .meta({ id: 'StatusEntry' });
export type StatusEntry = z.infer<typeof StatusEntrySchema>;

export const FileUploadResultSchema = z.object({ file_id: z.string().uuid() }).meta({ id: 'FileUploadResult' });

export const ApiStatusSchema = z
  .object({
    status: z.number().int().describe('Equals the HTTP status code (201 answers keep 200 here)'),
    message: z.string().describe('Persian, ready to display'),
  })
  .meta({ id: 'ApiStatus' });

/** The envelope of spec 2.1 around a given entries schema. */
export function envelopeOf<T extends z.ZodType>(entries: T) {
  return z.object({ return: ApiStatusSchema, entries });
}

export const ErrorEnvelopeSchema = z
  .object({ return: ApiStatusSchema, entries: z.array(z.never()).max(0).describe('Always [] on errors') })
  .meta({ id: 'ErrorEnvelope' });
