// IPC contracts of the verify/lookup templates (API version 1): the app is where a user writes
// them, since version 1's own template calls are not part of the API we imitate. The rules (name,
// placeholders, the line) are the core's (messaging/templates.ts); the schemas only bound sizes.
import { z } from 'zod';
import { defineContract } from '../contract';
import { byAccount, EpochMs, Id } from '../primitives';

export const VerifyTemplateSchema = z.object({
  id: Id,
  account_id: Id,
  name: z.string(),
  body: z.string(),
  /** The line it goes out on; null: the account's first SMS line that may send by API. */
  sender: z.string().nullable(),
  active: z.boolean(),
  created_at: EpochMs,
  updated_at: EpochMs,
});
export type VerifyTemplate = z.infer<typeof VerifyTemplateSchema>;

const Name = z.string().max(200);
const Body = z.string().max(5000);
const Sender = z.string().max(100).nullable();

export const templatesContracts = {
  'templates:list': defineContract({
    channel: 'templates:list',
    input: byAccount,
    output: z.array(VerifyTemplateSchema),
  }),
  'templates:create': defineContract({
    channel: 'templates:create',
    input: z.object({
      account_id: Id,
      name: Name,
      body: Body,
      sender: Sender.optional(),
      active: z.boolean().optional(),
    }),
    output: VerifyTemplateSchema,
  }),
  /** Changes the fields given; a template of another account is 404. */
  'templates:update': defineContract({
    channel: 'templates:update',
    input: z.object({
      account_id: Id,
      id: Id,
      name: Name.optional(),
      body: Body.optional(),
      sender: Sender.optional(),
      active: z.boolean().optional(),
    }),
    output: VerifyTemplateSchema,
  }),
  'templates:remove': defineContract({
    channel: 'templates:remove',
    input: z.object({ account_id: Id, id: Id }),
    output: z.null(),
  }),
} as const;
