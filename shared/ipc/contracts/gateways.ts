// IPC contracts of the lines' gateways (who delivers a line's messages: the simulator or the
// business's provider account, shared/gateways.ts): setting one, testing the connection, and each
// line's queue at its provider with the user's actions on it. A key goes in (`api_key`) and never
// comes back: answers say only whether one is kept (`key_set`).
import { z } from 'zod';
import { defineContract, defineEvent } from '../contract';
import { byAccount, EpochMs, Id, Rials } from '../primitives';
import { GATEWAY_KINDS, HANDOVER_STATES, MAX_RATE_PER_SECOND } from '../../gateways';
import { HttpGatewayOptionsSchema, LineSchema } from './accounts';

export const GatewayKindSchema = z.enum(GATEWAY_KINDS);
export const HandoverStateSchema = z.enum(HANDOVER_STATES);

const lineRef = { account_id: Id, number: z.string().min(1) };

export const GatewayInputSchema = z.object({
  ...lineRef,
  kind: GatewayKindSchema,
  /** The provider's address (http or https); '' = the provider's own; absent keeps the line's (same gateway). */
  base_url: z.string().trim().max(500).optional(),
  /** The line's number at the provider; '' = the line's own; absent keeps the line's (same gateway). */
  sender: z.string().trim().max(100).optional(),
  /** Calls per second to the provider (a token bucket per line). */
  rate_per_second: z.number().positive().max(MAX_RATE_PER_SECOND).optional(),
  /** The provider's API key: absent keeps the kept one, '' removes it. */
  api_key: z.string().max(500).optional(),
  /** An HTTP gateway's method, body and success pattern: absent keeps the line's (same gateway), else GET. */
  http: HttpGatewayOptionsSchema.optional(),
});
export type GatewayInput = z.infer<typeof GatewayInputSchema>;

export const LinePauseSchema = z.object({ code: z.number().int(), text: z.string(), at: EpochMs });

/** A line's work at its provider: how many of its messages stand where, and why it is paused. */
export const LineQueueSchema = z.object({
  line_id: Id,
  number: z.string(),
  kind: GatewayKindSchema,
  paused: LinePauseSchema.nullable(),
  counts: z.record(HandoverStateSchema, z.number().int().nonnegative()),
  /** What the provider charged for this line's accepted messages (its own `cost`), rials. */
  provider_cost_rials: Rials,
});
export type LineQueue = z.infer<typeof LineQueueSchema>;

export const HandoverSchema = z.object({
  message_id: Id,
  receptor: z.string(),
  state: HandoverStateSchema,
  /** The provider's code and text of its last answer about this message (a refusal, a timeout). */
  code: z.number().int().nullable(),
  detail: z.string().nullable(),
  upstream_id: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
  updated_at: EpochMs,
});
export type Handover = z.infer<typeof HandoverSchema>;

export const ConnectionTestSchema = z.object({
  ok: z.boolean(),
  /** The provider's credit when it says (rials). */
  credit_rials: Rials.nullable(),
  /** The credit as the provider says it in a unit of its own that is not rials (SMS.ir's), when it does. */
  provider_credit: z.number().nullable().optional(),
  /** The provider's code and words when the test failed (or a network error's). */
  code: z.number().int().nullable(),
  detail: z.string().nullable(),
});
export type ConnectionTest = z.infer<typeof ConnectionTestSchema>;

export const gatewaysContracts = {
  /** Sets a line's gateway; refused while the line has messages in flight at another gateway (`gateway_in_flight`). */
  'lines:setGateway': defineContract({ channel: 'lines:setGateway', input: GatewayInputSchema, output: LineSchema }),
  /** Asks the provider for the account's info with the line's settings (nothing is sent). */
  'lines:testGateway': defineContract({
    channel: 'lines:testGateway',
    input: z.object(lineRef),
    output: ConnectionTestSchema,
  }),
  'gateways:queues': defineContract({ channel: 'gateways:queues', input: byAccount, output: z.array(LineQueueSchema) }),
  'gateways:handovers': defineContract({
    channel: 'gateways:handovers',
    input: z.object({
      ...lineRef,
      state: HandoverStateSchema,
      limit: z.number().int().positive().max(500).default(100),
    }),
    output: z.array(HandoverSchema),
  }),
  /** A paused line goes on handing over. */
  'gateways:resume': defineContract({ channel: 'gateways:resume', input: z.object(lineRef), output: LineQueueSchema }),
  /**
   * Messages needing review (or those given) are sent again: the user says the provider does not
   * have them. Confirmed in the window first: this may cost money.
   */
  'gateways:retry': defineContract({
    channel: 'gateways:retry',
    input: z.object({ ...lineRef, message_ids: z.array(Id).max(10_000).optional() }),
    output: LineQueueSchema,
  }),
  /** Messages needing review (or those given) end as failed (13, refunded): the user says they never went out. */
  'gateways:markFailed': defineContract({
    channel: 'gateways:markFailed',
    input: z.object({ ...lineRef, message_ids: z.array(Id).max(10_000).optional() }),
    output: LineQueueSchema,
  }),
} as const;

export const gatewaysEvents = {
  /** A line's queue at its provider changed its pause (paused, resumed): the banner and Settings re-read. */
  'gateways:changed': defineEvent({
    event: 'gateways:changed',
    payload: z.object({ account_id: Id, line_id: Id, paused: LinePauseSchema.nullable() }),
  }),
} as const;
