// IPC contracts of credit (the accounts domain's ledger): balance, top-ups and corrections, the ledger.
import { z } from 'zod';
import { defineContract } from '../contract';
import { byAccount, EpochMs, Id, Rials } from '../primitives';

export const LedgerKindSchema = z.enum(['topup', 'send', 'refund', 'adjust']);
export type LedgerKind = z.infer<typeof LedgerKindSchema>;
export const LedgerEntrySchema = z.object({
  id: Id,
  account_id: Id,
  amount_rials: Rials,
  kind: LedgerKindSchema,
  send_id: Id.nullable(),
  message_id: Id.nullable(),
  note: z.string(),
  created_at: EpochMs,
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

/**
 * A row of the ledger as the Credit tab lists it: an entry, or the refunds of one send summed in
 * one row (`refund_count` > 0: that many messages' refunds; id and time are the newest one's,
 * send_id the send, message_id null). `refund_count` is null on a row that is one entry.
 */
export const LedgerRowSchema = LedgerEntrySchema.extend({ refund_count: z.number().int().positive().nullable() });
export type LedgerRow = z.infer<typeof LedgerRowSchema>;

export const creditContracts = {
  'credit:balance': defineContract({
    channel: 'credit:balance',
    input: byAccount,
    output: z.object({ account_id: Id, credit_rials: Rials }),
  }),
  'credit:topUp': defineContract({
    channel: 'credit:topUp',
    input: z.object({
      account_id: Id,
      /**
       * Positive adds; a negative amount (kind 'adjust') corrects, never below zero. The core
       * bounds it (shared/credit.ts: `amount_too_large`, `balance_too_large`).
       */
      amount_rials: z
        .number()
        .int()
        .refine((n) => n !== 0, 'amount cannot be zero'),
      note: z.string().max(500).optional(),
      kind: z.enum(['topup', 'adjust']).default('topup'),
    }),
    output: z.object({ account_id: Id, credit_rials: Rials }),
  }),
  'credit:ledger': defineContract({
    channel: 'credit:ledger',
    input: z.object({
      account_id: Id,
      limit: z.number().int().positive().max(1000).default(100),
      before_id: Id.optional(),
      /** Only this send's refunds, one row each (what its grouped refund row expands to). */
      send_id: Id.optional(),
    }),
    output: z.object({ entries: z.array(LedgerRowSchema), next_before_id: Id.nullable() }),
  }),
} as const;
