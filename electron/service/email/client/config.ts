// How the app's email goes out: the transport and its settings in core.settings, its secrets (the
// provider's key, the SMTP password) in core.secrets only. A secret goes in and never comes back
// out: the window learns only whether one is set.
import { z } from 'zod';
import type { Settings } from '../../settings/settings';
import type { SecretStore } from '../../secrets';
import { ServiceError } from '../../errors';
import { ApiCode } from '../../../../shared/status';
import {
  EMAIL_TRANSPORTS,
  isEmail,
  isProviderUrl,
  providerKeyStays,
  smtpPasswordStays,
  type EmailTransportKind,
} from '../../../../shared/email';
import type { EmailConfig, EmailConfigInput, EmailParty } from '../../../../shared/ipc/contracts/email';

export const SECRET_PROVIDER_KEY = 'email.provider.key';
export const SECRET_SMTP_PASSWORD = 'email.smtp.password';
const SETTINGS_KEY = 'email.transport';

const PartySchema = z.object({ email: z.string(), name: z.string().optional() });

const StoredSchema = z.object({
  transport: z.enum(EMAIL_TRANSPORTS),
  provider: z.object({ url: z.string(), account_id: z.string() }),
  smtp: z.object({
    host: z.string(),
    port: z.number().int().min(1).max(65535),
    secure: z.boolean(),
    user: z.string(),
  }),
  default_from: PartySchema.nullable(),
});
type Stored = z.infer<typeof StoredSchema>;

const DEFAULTS: Stored = {
  transport: 'sandbox',
  provider: { url: '', account_id: '' },
  smtp: { host: '', port: 587, secure: false, user: '' },
  default_from: null,
};

/** What a transport needs at send time, secrets included (never leaves the core). */
export interface TransportSettings {
  transport: EmailTransportKind;
  provider: { url: string; accountId: string; key: string | null };
  smtp: { host: string; port: number; secure: boolean; user: string; password: string | null };
}

export class EmailConfigStore {
  constructor(
    private readonly settings: Settings,
    private readonly secrets: SecretStore,
  ) {}

  config(): EmailConfig {
    const stored = this.stored();
    return {
      transport: stored.transport,
      provider: { ...stored.provider, key_set: this.secrets.get(SECRET_PROVIDER_KEY) !== null },
      smtp: { ...stored.smtp, password_set: this.secrets.get(SECRET_SMTP_PASSWORD) !== null },
      default_from: stored.default_from,
      secret_storage: this.secrets.kind,
    };
  }

  /**
   * Stores the settings given (a block left out keeps what was stored). The chosen transport's
   * settings must be usable; another block is checked only for what it holds (an empty address is
   * fine for a transport not in use). Secrets: absent keeps, '' removes.
   */
  configure(input: EmailConfigInput): EmailConfig {
    const before = this.stored();
    const provider = input.provider
      ? { url: input.provider.url.trim().replace(/\/+$/, ''), account_id: input.provider.account_id.trim() }
      : before.provider;
    const smtp = input.smtp
      ? {
          host: input.smtp.host.trim(),
          port: input.smtp.port,
          secure: input.smtp.secure,
          user: input.smtp.user.trim(),
        }
      : before.smtp;
    if (provider.url !== '' || input.transport === 'provider') checkProviderUrl(provider.url);
    if (input.transport === 'provider' && provider.account_id === '')
      throw new ServiceError(
        ApiCode.BadRequest,
        'the provider account id is required',
        'email_provider_account_missing',
      );
    if (input.transport === 'smtp' && smtp.host === '')
      throw new ServiceError(ApiCode.BadRequest, 'the SMTP server is required', 'email_smtp_host_missing');
    let defaultFrom = before.default_from;
    if (input.default_from !== undefined) {
      if (input.default_from !== null) checkFrom(input.default_from);
      defaultFrom = input.default_from === null ? null : cleanParty(input.default_from);
    }
    this.settings.write(SETTINGS_KEY, StoredSchema, {
      transport: input.transport,
      provider,
      smtp,
      default_from: defaultFrom,
    });
    // A secret goes only to the server it was given for: moved without a new one, it is forgotten.
    const providerMoved = !providerKeyStays(before.provider.url, provider.url);
    const smtpMoved = !smtpPasswordStays(before.smtp, smtp);
    this.putSecret(SECRET_PROVIDER_KEY, input.provider?.key ?? (providerMoved ? '' : undefined));
    this.putSecret(SECRET_SMTP_PASSWORD, input.smtp?.password ?? (smtpMoved ? '' : undefined));
    return this.config();
  }

  /** The sender the composer starts with next time: the last one used. */
  rememberFrom(from: EmailParty): void {
    const stored = this.stored();
    this.settings.write(SETTINGS_KEY, StoredSchema, { ...stored, default_from: cleanParty(from) });
  }

  transportSettings(): TransportSettings {
    const stored = this.stored();
    return {
      transport: stored.transport,
      provider: {
        url: stored.provider.url,
        accountId: stored.provider.account_id,
        key: this.secrets.get(SECRET_PROVIDER_KEY),
      },
      smtp: { ...stored.smtp, password: this.secrets.get(SECRET_SMTP_PASSWORD) },
    };
  }

  private stored(): Stored {
    return this.settings.read(SETTINGS_KEY, StoredSchema, DEFAULTS);
  }

  private putSecret(name: string, value: string | undefined): void {
    if (value === undefined) return;
    if (value === '') this.secrets.delete(name);
    else this.secrets.set(name, value);
  }
}

function checkProviderUrl(url: string): void {
  if (!isProviderUrl(url))
    throw new ServiceError(
      ApiCode.BadRequest,
      `the provider address must be an http(s) address with a host, not ${JSON.stringify(url)}`,
      'email_provider_url_invalid',
    );
}

/** The sender's address is one an email provider accepts. */
export function checkFrom(from: EmailParty): void {
  if (!isEmail(from.email))
    throw new ServiceError(
      ApiCode.BadRequest,
      `the sender ${JSON.stringify(from.email)} is not an email address`,
      'email_from_invalid',
    );
}

export function cleanParty(party: EmailParty): EmailParty {
  const name = party.name?.trim() ?? '';
  return name === '' ? { email: party.email.trim() } : { email: party.email.trim(), name };
}
