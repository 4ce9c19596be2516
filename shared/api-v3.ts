// Schemas of version 3's bodies (spec 1 and 9: one call sends the same text over SMS and the
// messenger channels), in zod: the route validates with them and the OpenAPI document is generated
// from them. Receivers and file ids follow version 2's rules (spec 4.1).
import { z } from 'zod';
import { MAX_FILE_ID_LENGTH, MAX_RECEIVERS, MessageInfoSchema } from './api';

export const V3_CHANNELS = ['sms', 'bale', 'rubika'] as const;

const line = (provider: string) =>
  z
    .string()
    .min(1)
    .nullable()
    .optional()
    .describe(`Number of one of the account's ${provider} lines holding can_send_api_campaign`);
const file = (provider: string) =>
  z
    .string()
    .max(MAX_FILE_ID_LENGTH)
    .nullable()
    .optional()
    .describe(`file_id from POST /upload-file/${provider}, of this account; attached to the ${provider} messages only`);

export const V3SendersSchema = z
  .strictObject({ sms: line('sms'), bale: line('bale'), rubika: line('rubika') })
  .refine((senders) => V3_CHANNELS.some((channel) => senders[channel] != null), {
    message: 'at least one channel',
  })
  .describe(
    'One sender line per channel to send on (at least one). A line of another provider under a key is error 412.',
  )
  .meta({ id: 'V3Senders' });

export const V3FilesSchema = z
  .strictObject({ bale: file('bale'), rubika: file('rubika') })
  .describe('Optional file per messenger channel; a file for a channel not in senders is error 400')
  .meta({ id: 'V3Files' });

export const V3SendRequestSchema = z
  .object({
    message: z
      .string()
      .min(1)
      .describe('Text; the SMS messages get `\\nلغو۱۱` (or it replaces a variant), messenger messages are unchanged'),
    receivers: z
      .array(z.string())
      .min(1)
      .max(MAX_RECEIVERS)
      .describe('1 to 10,000 numbers matching ^((\\+?98)|0)?9[0-9]{9}$; more than 10,000 is error 414'),
    senders: V3SendersSchema,
    files: V3FilesSchema.nullable().optional(),
  })
  .meta({ id: 'V3SendRequest' });
export type V3SendRequest = z.infer<typeof V3SendRequestSchema>;

export const V3MessageInfoSchema = MessageInfoSchema.extend({
  channel: z.enum(V3_CHANNELS).describe('The channel this message goes over'),
}).meta({ id: 'V3MessageInfo' });
export type V3MessageInfo = z.infer<typeof V3MessageInfoSchema>;
