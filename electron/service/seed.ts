// The seed file of PRODUCT.md (`serve --seed FILE`): accounts with keys, lines and credit, email
// accounts, pricing, the simulator, and each line's gateway (its provider key to the secrets store). Applying the same file again changes nothing: accounts are
// matched by name, lines by number, keys by their hash, and credit is granted only when the
// account is created. Its money and lines obey the same rules as the app's forms: an opening credit
// of at most MAX_CREDIT_CHANGE_RIALS (shared/credit.ts), prices within PricingSchema's bounds, line
// numbers normalized and checked for their provider (accounts.upsertLine). A key shorter than
// MIN_SEED_KEY_LENGTH is applied but warned about (naming the account, never the key): anyone who
// reaches the API could guess it.
import { z } from 'zod';
import type { Core } from './core';
import { LINE_PERMISSIONS, PROVIDERS } from '../../shared/status';
import { PricingSchema, SimulatorSchema, UpstreamTimingSchema } from './settings/settings';
import { GATEWAY_KINDS, MAX_RATE_PER_SECOND } from '../../shared/gateways';
import { HttpGatewayOptionsSchema } from '../../shared/ipc/contracts/accounts';
import { MIN_SEED_KEY_LENGTH } from './accounts/keys';
import { MAX_CREDIT_CHANGE_RIALS } from '../../shared/credit';
import { RELAY_OPERATIONS } from './email/relay/accounts';

/**
 * The embedded email provider's accounts (spec 4.6): the path's account id (a number or a string),
 * its keys (in clear here, stored hashed by the relay), each with every operation unless it names
 * some (a key "without access to the operation" answers 403), and the sandbox flag.
 */
const EmailAccountsSchema = z.array(
  z.object({
    account_id: z.union([z.number().int(), z.string().min(1).max(200)]).transform(String),
    api_keys: z.array(
      z.union([
        z.string().min(1),
        z.object({ key: z.string().min(1), operations: z.array(z.enum(RELAY_OPERATIONS)).optional() }),
      ]),
    ),
    sandbox: z.boolean().default(true),
  }),
);

export const SeedSchema = z.object({
  accounts: z
    .array(
      z.object({
        name: z.string().min(1),
        active: z.boolean().default(true),
        credit_rials: z.number().int().nonnegative().max(MAX_CREDIT_CHANGE_RIALS).default(0),
        api_keys: z.array(z.string().min(1)).default([]),
        ip_allowlist: z.array(z.string()).default([]),
        /** IANA zone of the account's local times (campaign quiet hours); Asia/Tehran when absent. */
        time_zone: z.string().optional(),
        lines: z
          .array(
            z.object({
              number: z.string().min(1),
              provider: z.enum(PROVIDERS as ['sms', 'bale', 'rubika']),
              permissions: z.array(z.enum(LINE_PERMISSIONS)).default([]),
              /** Who delivers the line's messages (shared/gateways.ts); the simulator when absent. */
              upstream: z
                .object({
                  kind: z.enum(GATEWAY_KINDS),
                  base_url: z.string().optional(),
                  api_key: z.string().optional(),
                  sender: z.string().optional(),
                  rate_per_second: z.number().positive().max(MAX_RATE_PER_SECOND).optional(),
                  /** An HTTP gateway's method, body template and success pattern. */
                  http: HttpGatewayOptionsSchema.optional(),
                })
                .optional(),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
  email_accounts: EmailAccountsSchema.default([]),
  pricing: PricingSchema.optional(),
  simulator: SimulatorSchema.optional(),
  upstream_timing: UpstreamTimingSchema.optional(),
});
export type Seed = z.input<typeof SeedSchema>;

export interface SeedOptions {
  /** Where warnings go (a short key); the console unless given. */
  warn?: (line: string) => void;
}

export function applySeed(core: Core, input: unknown, options: SeedOptions = {}): void {
  const seed = SeedSchema.parse(input);
  const warn = options.warn ?? ((line: string) => console.warn(line));
  const warnShortKeys = (owner: string, keys: readonly string[]) => {
    const short = keys.filter((key) => key.length < MIN_SEED_KEY_LENGTH).length;
    if (short > 0)
      warn(
        `chapar: seed: ${owner} has ${short} API key(s) shorter than ${MIN_SEED_KEY_LENGTH} characters; anyone who reaches the API could guess them`,
      );
  };
  for (const spec of seed.accounts) warnShortKeys(`account ${JSON.stringify(spec.name)}`, spec.api_keys);
  for (const entry of seed.email_accounts)
    warnShortKeys(
      `email account of account ${entry.account_id}`,
      entry.api_keys.map((key) => (typeof key === 'string' ? key : key.key)),
    );
  core.db.transaction(() => {
    if (seed.pricing) core.settings.setPricing(seed.pricing);
    if (seed.simulator) core.settings.setSimulator(seed.simulator);
    if (seed.upstream_timing) core.settings.setUpstreamTiming(seed.upstream_timing);
    for (const spec of seed.accounts) {
      let account = core.accounts.findByName(spec.name);
      if (!account) {
        account = core.accounts.create({
          name: spec.name,
          active: spec.active,
          ip_allowlist: spec.ip_allowlist,
          credit_rials: spec.credit_rials,
          note: 'seed',
        });
      } else {
        core.accounts.update(account.id, { active: spec.active, ip_allowlist: spec.ip_allowlist });
      }
      if (spec.time_zone) core.accounts.setTimeZone(account.id, spec.time_zone);
      for (const key of spec.api_keys) core.accounts.ensureApiKey(account.id, key);
      for (const { upstream, ...line } of spec.lines) {
        const stored = core.accounts.upsertLine(account.id, line);
        // Applying the same file again changes nothing: the same gateway and key are set again.
        if (upstream) core.gateways.set({ account_id: account.id, number: stored.number, ...upstream });
      }
    }
    for (const entry of seed.email_accounts)
      core.emailRelay.upsertAccount({ accountId: entry.account_id, sandbox: entry.sandbox, keys: entry.api_keys });
  })();
}

/** A fresh workspace without a seed gets a demo account, so the API answers curl at once. */
export function ensureDemoAccount(core: Core): { key: string } | null {
  if (core.accounts.list().length > 0) return null;
  return core.db.transaction(() => {
    // Version 1 needs the caller's IP on the allow-list (spec 5): this computer's, so it works out of the box.
    const account = core.accounts.create({ name: 'demo', ip_allowlist: ['127.0.0.1', '::1'] });
    core.credit.adjust(account.id, 10_000_000, 'demo credit');
    core.accounts.upsertLine(account.id, {
      number: '30001234',
      provider: 'sms',
      permissions: ['can_send_api_campaign', 'can_send_panel_campaign'],
    });
    core.accounts.upsertLine(account.id, {
      number: 'demo_bale_bot',
      provider: 'bale',
      permissions: ['can_send_api_campaign'],
    });
    return { key: core.accounts.createApiKey(account.id, 'demo').key };
  })();
}
