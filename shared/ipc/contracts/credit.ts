// IPC contracts of credit (the accounts domain's ledger): balance, top-ups and corrections, the ledger.
import { z } from 'zod';
import { defineContract, defineEvent } from '../contract';
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
 * What one charge on the bill is: a campaign's run (its sends, one per batch) or one send from
 * Compose or the API, with its refunds taken off. `charged_rials` − `refunded_rials` is what it cost.
 */
export const LedgerGroupSchema = z.object({
  /** The campaign's run, null for a send of its own. */
  execution_id: Id.nullable(),
  campaign_id: Id.nullable(),
  /** The campaign's name, or the send's text (its start); '' when the send is no longer kept. */
  name: z.string(),
  /** Where the send came from; null when it is no longer kept (retention). */
  origin: z.enum(['api', 'panel', 'campaign']).nullable(),
  /** The API generation an API send came by. */
  api_version: z.number().int().nullable(),
  /** The line it was sent from ('' when no longer kept). */
  sender: z.string(),
  sends: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
  charged_rials: Rials,
  refunded_rials: Rials,
  refund_count: z.number().int().nonnegative(),
});
export type LedgerGroup = z.infer<typeof LedgerGroupSchema>;

/**
 * A row of the ledger as the Credit tab lists it: a top-up or correction as it is, or one charge
 * with its refunds (`group`: a campaign's run or a send; `amount_rials` is the net, the id and time
 * its first charge's, so later refunds do not move it). A refund whose send is no longer kept is a
 * row of its own. Expanded (`execution_id`), a run lists its sends as groups of one send each, id
 * the send's; expanded (`send_id`), a send lists its refunds one row each.
 */
export const LedgerRowSchema = LedgerEntrySchema.extend({ group: LedgerGroupSchema.nullable() });
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
      /** Only this send's refunds, one row each (what a send's row expands to). */
      send_id: Id.optional(),
      /** Only this campaign run's sends, one row each, newest first; `before_id` is then a send id. */
      execution_id: Id.optional(),
    }),
    output: z.object({ entries: z.array(LedgerRowSchema), next_before_id: Id.nullable() }),
  }),
} as const;

export const creditEvents = {
  /**
   * Accounts' credit changed (a top-up, a correction, a send charged, refunds), wherever it was
   * changed from (this window, another page, the API): their balances after the change, batched.
   */
  'credit:changed': defineEvent({
    event: 'credit:changed',
    payload: z.object({ credits: z.array(z.object({ account_id: Id, credit_rials: Rials })) }),
  }),
} as const;
