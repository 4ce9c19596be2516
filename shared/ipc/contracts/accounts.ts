// IPC contracts of the accounts domain: Accounts, their API keys and lines, and credit.
import { z } from 'zod';
import { defineContract } from '../contract';
import * as s from '../schemas';

export const byAccount = z.object({ account_id: s.Id });

export const accountsContracts = {
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
} as const;
