// Settings → Email: how the app's email goes out (the embedded sandbox, a provider's API, SMTP),
// the default sender, and a test of the saved connection. A key or password only goes in: the core
// answers whether one is set, never its value, so the form holds a new one only until it is saved.
// The form's draft and what it says of a field live here, beside the store, so they are tested
// without a window; the core checks again and has the last word (its refusal is the form's message).
import { createStore } from 'zustand/vanilla';
import type { Api } from '../api';
import type { EmailConfig, EmailConfigInput } from '../../../shared/ipc/contracts/email';
import {
  isEmail,
  normalizeEmail,
  providerKeyStays,
  smtpPasswordStays,
  type EmailTransportKind,
} from '../../../shared/email';
import { errorMessage, reported } from './errors';

export type { EmailConfig };

/** What the user does with a stored key or password: keep it, type a new one, or remove it. */
export type SecretDraft = { action: 'keep' } | { action: 'replace'; value: string } | { action: 'remove' };

export interface EmailSettingsDraft {
  transport: EmailTransportKind;
  providerUrl: string;
  providerAccountId: string;
  key: SecretDraft;
  smtpHost: string;
  smtpPort: number | '';
  smtpSecure: boolean;
  smtpUser: string;
  password: SecretDraft;
  fromEmail: string;
  fromName: string;
}

/** The fields the form can fault, each with the key of its message under emailSettings.faults. */
export type EmailSettingsFaults = Partial<
  Record<'providerUrl' | 'providerAccountId' | 'key' | 'smtpHost' | 'smtpPort' | 'fromEmail', string>
>;

/** A secret's draft as the form starts: kept when stored, else an empty field to type one into. */
const secretDraft = (set: boolean): SecretDraft => (set ? { action: 'keep' } : { action: 'replace', value: '' });

export function draftOf(config: EmailConfig): EmailSettingsDraft {
  return {
    transport: config.transport,
    providerUrl: config.provider.url,
    providerAccountId: config.provider.account_id,
    key: secretDraft(config.provider.key_set),
    smtpHost: config.smtp.host,
    smtpPort: config.smtp.port,
    smtpSecure: config.smtp.secure,
    smtpUser: config.smtp.user,
    password: secretDraft(config.smtp.password_set),
    fromEmail: config.default_from?.email ?? '',
    fromName: config.default_from?.name ?? '',
  };
}

/**
 * Whether the stored key still holds for the draft: the core sends a key only to the server it
 * was given for, and forgets it when the address moves without a new one (shared/email.ts).
 */
export function keyStillStored(draft: EmailSettingsDraft, config: EmailConfig): boolean {
  return config.provider.key_set && providerKeyStays(config.provider.url, draft.providerUrl);
}

/** The same for the SMTP password: the same server and user name. */
export function passwordStillStored(draft: EmailSettingsDraft, config: EmailConfig): boolean {
  return config.smtp.password_set && smtpPasswordStays(config.smtp, { host: draft.smtpHost, user: draft.smtpUser });
}

/** Whether a secret will be there after saving. */
function secretAfterSave(draft: SecretDraft, stored: boolean): boolean {
  if (draft.action === 'remove') return false;
  if (draft.action === 'replace' && draft.value !== '') return true;
  return stored;
}

/** A provider's address as `{email_api_url}` is written: http(s), a host, nothing after it. */
export function providerUrlFault(url: string): 'urlMissing' | 'urlInvalid' | null {
  const written = url.trim().replace(/\/+$/, '');
  if (written === '') return 'urlMissing';
  let parsed: URL;
  try {
    parsed = new URL(written);
  } catch {
    return 'urlInvalid';
  }
  const bare = parsed.pathname === '/' && parsed.search === '' && parsed.hash === '' && parsed.username === '';
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && bare ? null : 'urlInvalid';
}

/**
 * What the form says of each field of the chosen transport and of the default sender (fields of
 * the transports not chosen are neither checked nor sent: the core keeps what it has for them).
 */
export function draftFaults(draft: EmailSettingsDraft, config: EmailConfig): EmailSettingsFaults {
  const faults: EmailSettingsFaults = {};
  if (draft.transport === 'provider') {
    const url = providerUrlFault(draft.providerUrl);
    if (url) faults.providerUrl = url;
    const accountId = draft.providerAccountId.trim();
    if (accountId === '') faults.providerAccountId = 'accountIdMissing';
    else if (/[\s/?#]/.test(accountId)) faults.providerAccountId = 'accountIdInvalid';
    if (!secretAfterSave(draft.key, keyStillStored(draft, config))) faults.key = 'keyMissing';
  }
  if (draft.transport === 'smtp') {
    const host = draft.smtpHost.trim();
    if (host === '') faults.smtpHost = 'hostMissing';
    else if (/[\s/]/.test(host)) faults.smtpHost = 'hostInvalid';
    if (draft.smtpPort === '') faults.smtpPort = 'portMissing';
    else if (!Number.isInteger(draft.smtpPort) || draft.smtpPort < 1 || draft.smtpPort > 65535)
      faults.smtpPort = 'portInvalid';
  }
  const from = draft.fromEmail.trim();
  if (from === '' && draft.fromName.trim() !== '') faults.fromEmail = 'fromMissing';
  else if (from !== '' && !isEmail(from)) faults.fromEmail = 'fromInvalid';
  return faults;
}

/** A secret's part of the input: absent keeps the stored one, '' removes it. */
function secretInput(draft: SecretDraft): string | undefined {
  if (draft.action === 'remove') return '';
  if (draft.action === 'replace' && draft.value !== '') return draft.value;
  return undefined;
}

/** The email:configure input of a draft without faults: the chosen transport's part and the sender. */
export function inputOf(draft: EmailSettingsDraft): EmailConfigInput {
  const from = normalizeEmail(draft.fromEmail);
  const name = draft.fromName.trim();
  const input: EmailConfigInput = {
    transport: draft.transport,
    default_from: from === null ? null : { email: from, ...(name === '' ? {} : { name }) },
  };
  if (draft.transport === 'provider') {
    const key = secretInput(draft.key);
    input.provider = {
      url: draft.providerUrl.trim().replace(/\/+$/, ''),
      account_id: draft.providerAccountId.trim(),
      ...(key === undefined ? {} : { key }),
    };
  }
  if (draft.transport === 'smtp') {
    const password = secretInput(draft.password);
    input.smtp = {
      host: draft.smtpHost.trim(),
      port: draft.smtpPort === '' ? 0 : draft.smtpPort,
      secure: draft.smtpSecure,
      user: draft.smtpUser.trim(),
      ...(password === undefined ? {} : { password }),
    };
  }
  return input;
}

/** Whether saving the draft would change anything. */
export function draftChanged(draft: EmailSettingsDraft, config: EmailConfig): boolean {
  return JSON.stringify(draft) !== JSON.stringify(draftOf(config));
}

/** The last "Test connection": the connection answered, or why not (the core's words). */
export interface ConnectionTest {
  ok: boolean;
  error: string | null;
}

export interface EmailSettingsState {
  config: EmailConfig | null;
  /**
   * Counts reads and saves: the form starts afresh from each, even when the answer is the same (a
   * replaced key leaves `key_set` true, and the typed key must not stay on the page).
   */
  version: number;
  loading: boolean;
  /** Why the settings could not be read. */
  error: string | null;
  saving: boolean;
  testing: boolean;
  /** The last test of the saved settings; cleared when they change. */
  test: ConnectionTest | null;
  load(): Promise<void>;
  /** Null when saved, else the refusal's sentence, for the form. */
  save(input: EmailConfigInput): Promise<string | null>;
  /** Tries the saved connection without sending anything. */
  testConnection(): Promise<ConnectionTest>;
}

export function createEmailSettingsStore(api: Api) {
  return createStore<EmailSettingsState>()((set, get) => ({
    config: null,
    version: 0,
    loading: false,
    error: null,
    saving: false,
    testing: false,
    test: null,
    async load() {
      set({ loading: true, error: null });
      try {
        const config = await api.invoke('email:config');
        set({ config, version: get().version + 1, loading: false });
      } catch (error) {
        set({ loading: false, ...reported(error) });
      }
    },
    async save(input) {
      set({ saving: true });
      try {
        const config = await api.invoke('email:configure', input);
        set({ config, version: get().version + 1, saving: false, test: null });
        return null;
      } catch (error) {
        set({ saving: false });
        return errorMessage(error);
      }
    },
    async testConnection() {
      if (get().testing) return get().test ?? { ok: false, error: null };
      set({ testing: true, test: null });
      let test: ConnectionTest;
      try {
        test = await api.invoke('email:testConnection');
      } catch (error) {
        test = { ok: false, error: errorMessage(error) };
      }
      set({ testing: false, test });
      return test;
    },
  }));
}
