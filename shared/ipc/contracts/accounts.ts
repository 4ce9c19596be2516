// IPC contracts of the accounts domain: accounts, their API keys (shown once) and sender lines.
import { z } from 'zod';
import { defineContract } from '../contract';
import { byAccount, EpochMs, Id, NoInput, ProviderSchema, LinePermissionSchema, Rials } from '../primitives';
import { GATEWAY_KINDS } from '../../gateways';

export const AccountSchema = z.object({
  id: Id,
  name: z.string(),
  active: z.boolean(),
  credit_rials: Rials,
  ip_allowlist: z.array(z.string()),
  created_at: EpochMs,
});
export type Account = z.infer<typeof AccountSchema>;

export const ApiKeyInfoSchema = z.object({
  id: Id,
  account_id: Id,
  /** The last characters of the key, enough to recognise it in a list. */
  hint: z.string(),
  label: z.string(),
  created_at: EpochMs,
  revoked_at: EpochMs.nullable(),
});
export type ApiKeyInfo = z.infer<typeof ApiKeyInfoSchema>;

/**
 * How an HTTP gateway is asked beyond its address (electron/…/upstream/http-gateway.ts): GET with
 * the address alone, or POST with a body made from a template with the same placeholders. Kannel's
 * `sendsms` takes GET; other gateways want a form or JSON body, and some answer 200 to a refusal,
 * which only the answer's words tell apart: `success` is a regular expression those words must match.
 */
export const HttpGatewayOptionsSchema = z.object({
  method: z.enum(['GET', 'POST']).default('GET'),
  /** POST only: the body's template ('' = an empty body). */
  body: z.string().max(4_000).default(''),
  /** POST only: the body's type, which also says how its placeholders are written (form: URL-encoded; JSON: as JSON string contents). */
  content_type: z.string().trim().max(100).default('application/x-www-form-urlencoded'),
  /** A regular expression a 2xx answer's body must match to count as taken ('' = any 2xx answer). */
  success: z.string().max(300).default(''),
});
export type HttpGatewayOptions = z.infer<typeof HttpGatewayOptionsSchema>;

export const LineSchema = z.object({
  id: Id,
  account_id: Id,
  number: z.string(),
  provider: ProviderSchema,
  can_send_api_campaign: z.boolean(),
  can_send_panel_campaign: z.boolean(),
  active: z.boolean(),
  /** Who delivers its messages (shared/gateways.ts); the key itself never leaves the core. */
  gateway: z.object({
    kind: z.enum(GATEWAY_KINDS),
    /** null: the provider's own address. */
    base_url: z.string().nullable(),
    /** The line's number at the provider; null: the line's own. */
    sender: z.string().nullable(),
    rate_per_second: z.number().positive(),
    key_set: z.boolean(),
    /** An HTTP gateway's request (method, body, success pattern); null for every other kind. */
    http: HttpGatewayOptionsSchema.nullable(),
  }),
});
export type Line = z.infer<typeof LineSchema>;

const LineInputSchema = z.object({
  account_id: Id,
  number: z.string().trim().min(1).max(100),
  provider: ProviderSchema,
  permissions: z.array(LinePermissionSchema),
  active: z.boolean().optional(),
});

export const accountsContracts = {
  'accounts:list': defineContract({ channel: 'accounts:list', input: NoInput, output: z.array(AccountSchema) }),
  'accounts:create': defineContract({
    channel: 'accounts:create',
    input: z.object({
      name: z.string().trim().min(1).max(100),
      active: z.boolean().optional(),
      ip_allowlist: z.array(z.string()).optional(),
      /** Opening credit, recorded as a top-up in the ledger. */
      credit_rials: z.number().int().nonnegative().optional(),
    }),
    output: AccountSchema,
  }),
  'accounts:update': defineContract({
    channel: 'accounts:update',
    input: z.object({
      id: Id,
      name: z.string().trim().min(1).max(100).optional(),
      active: z.boolean().optional(),
      ip_allowlist: z.array(z.string()).optional(),
    }),
    output: AccountSchema,
  }),
  'apiKeys:list': defineContract({ channel: 'apiKeys:list', input: byAccount, output: z.array(ApiKeyInfoSchema) }),
  'apiKeys:create': defineContract({
    channel: 'apiKeys:create',
    input: z.object({ account_id: Id, label: z.string().max(100).optional() }),
    /** `key` is the only time the key is ever shown; only its hash is stored. */
    output: z.object({ key: z.string(), info: ApiKeyInfoSchema }),
  }),
  'apiKeys:revoke': defineContract({
    channel: 'apiKeys:revoke',
    input: z.object({ id: Id }),
    output: ApiKeyInfoSchema,
  }),
  'lines:list': defineContract({ channel: 'lines:list', input: byAccount, output: z.array(LineSchema) }),
  /** Creates or updates a line (permission switches, activate): an existing line keeps its number. */
  'lines:upsert': defineContract({
    channel: 'lines:upsert',
    input: LineInputSchema,
    output: LineSchema,
  }),
  /**
   * A new line: its number normalized (ASCII digits) and checked for its provider's form
   * (shared/lines.ts); a number the account already has is refused (`line_exists`).
   */
  'lines:add': defineContract({ channel: 'lines:add', input: LineInputSchema, output: LineSchema }),
  /** Lines with history are deactivated, not deleted; the line as it is now is returned. */
  'lines:remove': defineContract({
    channel: 'lines:remove',
    input: z.object({ account_id: Id, number: z.string().min(1) }),
    output: LineSchema,
  }),
  /** Deletes a line that never sent (a typo); one with messages is refused (`line_has_messages`). */
  'lines:delete': defineContract({
    channel: 'lines:delete',
    input: z.object({ account_id: Id, number: z.string().min(1) }),
    output: z.null(),
  }),
} as const;
