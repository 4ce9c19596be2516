import { describe, expect, it } from 'vitest';
import {
  createEmailSettingsStore,
  draftChanged,
  draftFaults,
  draftOf,
  inputOf,
  keyStillStored,
  passwordStillStored,
  providerUrlFault,
  type EmailSettingsDraft,
} from './emailSettings';
import { emailConfig, fakeApi, fakeEmail } from '../test/fakes';

const config = emailConfig();
const draft = (overrides: Partial<EmailSettingsDraft> = {}): EmailSettingsDraft => ({
  ...draftOf(config),
  ...overrides,
});

describe('email settings form', () => {
  it('starts from the saved settings and changes nothing when saved as it is', () => {
    expect(draftOf(config)).toMatchObject({ transport: 'sandbox', key: { action: 'replace', value: '' } });
    expect(draftChanged(draftOf(config), config)).toBe(false);
    expect(inputOf(draftOf(config))).toEqual({ transport: 'sandbox', default_from: null });
    const saved = emailConfig({ provider: { url: 'https://api.example.com', account_id: '7', key_set: true } });
    expect(draftOf(saved).key).toEqual({ action: 'keep' });
    expect(draftChanged(draft({ fromEmail: 'a@example.com' }), config)).toBe(true);
  });

  it('sends only the chosen transport’s part, a secret only when typed or removed', () => {
    const provider = draft({
      transport: 'provider',
      providerUrl: ' https://api.example.com/ ',
      providerAccountId: ' 1001 ',
      key: { action: 'replace', value: 'ek-1' },
      smtpHost: 'ignored.example.com',
      fromEmail: ' shop@example.com ',
      fromName: ' Shop ',
    });
    expect(inputOf(provider)).toEqual({
      transport: 'provider',
      provider: { url: 'https://api.example.com', account_id: '1001', key: 'ek-1' },
      default_from: { email: 'shop@example.com', name: 'Shop' },
    });
    expect(inputOf({ ...provider, key: { action: 'keep' } }).provider).not.toHaveProperty('key');
    expect(inputOf({ ...provider, key: { action: 'replace', value: '' } }).provider).not.toHaveProperty('key');
    expect(inputOf({ ...provider, key: { action: 'remove' } }).provider?.key).toBe('');
    const smtp = draft({
      transport: 'smtp',
      smtpHost: 'smtp.example.com',
      smtpPort: 465,
      smtpSecure: true,
      smtpUser: 'me',
      password: { action: 'replace', value: 'pw' },
    });
    expect(inputOf(smtp)).toEqual({
      transport: 'smtp',
      smtp: { host: 'smtp.example.com', port: 465, secure: true, user: 'me', password: 'pw' },
      default_from: null,
    });
    expect(inputOf({ ...smtp, password: { action: 'remove' } }).smtp?.password).toBe('');
  });

  it('says what is missing or wrong, field by field, for the chosen transport only', () => {
    expect(draftFaults(draft(), config)).toEqual({});
    // The sandbox needs nothing, whatever the hidden fields hold.
    expect(draftFaults(draft({ smtpHost: 'a b', providerUrl: 'nope' }), config)).toEqual({});
    expect(draftFaults(draft({ transport: 'provider' }), config)).toEqual({
      providerUrl: 'urlMissing',
      providerAccountId: 'accountIdMissing',
      key: 'keyMissing',
    });
    const provider = draft({
      transport: 'provider',
      providerUrl: 'https://api.example.com',
      providerAccountId: '1001',
      key: { action: 'replace', value: 'k' },
    });
    expect(draftFaults(provider, config)).toEqual({});
    expect(draftFaults({ ...provider, providerAccountId: '10/01' }, config)).toEqual({
      providerAccountId: 'accountIdInvalid',
    });
    // A saved key counts until it is removed.
    const keySaved = emailConfig({ provider: { url: '', account_id: '', key_set: true } });
    expect(draftFaults({ ...provider, key: { action: 'keep' } }, keySaved)).toEqual({});
    expect(draftFaults({ ...provider, key: { action: 'remove' } }, keySaved)).toEqual({ key: 'keyMissing' });
    expect(draftFaults({ ...provider, key: { action: 'keep' } }, config)).toEqual({ key: 'keyMissing' });
    // A key saved for one server is never sent to another: a new address asks for its key.
    const keyForApi = emailConfig({ provider: { url: 'https://api.example.com', account_id: '1', key_set: true } });
    expect(draftFaults({ ...provider, key: { action: 'keep' } }, keyForApi)).toEqual({});
    expect(
      draftFaults({ ...provider, providerUrl: 'https://API.example.com:443/', key: { action: 'keep' } }, keyForApi),
    ).toEqual({});
    expect(
      draftFaults({ ...provider, providerUrl: 'https://mail.other.example', key: { action: 'keep' } }, keyForApi),
    ).toEqual({ key: 'keyMissing' });
    expect(keyStillStored({ ...provider, providerUrl: 'http://api.example.com' }, keyForApi)).toBe(false);
    const passwordForShop = emailConfig({
      smtp: { host: 'smtp.shop.example', port: 587, secure: false, user: 'shop', password_set: true },
    });
    const shopSmtp = draft({ transport: 'smtp', smtpHost: 'SMTP.shop.example', smtpUser: 'shop' });
    expect(passwordStillStored(shopSmtp, passwordForShop)).toBe(true);
    expect(passwordStillStored({ ...shopSmtp, smtpUser: 'other' }, passwordForShop)).toBe(false);
    expect(passwordStillStored({ ...shopSmtp, smtpHost: 'smtp.other.example' }, passwordForShop)).toBe(false);

    const smtp = draft({ transport: 'smtp', smtpHost: 'smtp.example.com', smtpPort: 587 });
    expect(draftFaults(smtp, config)).toEqual({});
    expect(draftFaults({ ...smtp, smtpHost: ' ' }, config)).toEqual({ smtpHost: 'hostMissing' });
    expect(draftFaults({ ...smtp, smtpHost: 'smtp example.com' }, config)).toEqual({ smtpHost: 'hostInvalid' });
    expect(draftFaults({ ...smtp, smtpPort: '' }, config)).toEqual({ smtpPort: 'portMissing' });
    expect(draftFaults({ ...smtp, smtpPort: 0 }, config)).toEqual({ smtpPort: 'portInvalid' });
    expect(draftFaults({ ...smtp, smtpPort: 65536 }, config)).toEqual({ smtpPort: 'portInvalid' });
    expect(draftFaults({ ...smtp, smtpPort: 25.5 }, config)).toEqual({ smtpPort: 'portInvalid' });

    expect(draftFaults(draft({ fromEmail: 'shop' }), config)).toEqual({ fromEmail: 'fromInvalid' });
    expect(draftFaults(draft({ fromName: 'Shop' }), config)).toEqual({ fromEmail: 'fromMissing' });
    expect(draftFaults(draft({ fromEmail: 'shop@example.com', fromName: 'فروشگاه' }), config)).toEqual({});
  });

  it('takes a provider address of a scheme and a host only', () => {
    expect(providerUrlFault('https://api.example.com')).toBeNull();
    expect(providerUrlFault('http://127.0.0.1:4321/')).toBeNull();
    expect(providerUrlFault('')).toBe('urlMissing');
    expect(providerUrlFault('api.example.com')).toBe('urlInvalid');
    expect(providerUrlFault('ftp://api.example.com')).toBe('urlInvalid');
    expect(providerUrlFault('https://api.example.com/v2')).toBe('urlInvalid');
    expect(providerUrlFault('https://api.example.com?x=1')).toBe('urlInvalid');
    expect(providerUrlFault('https://user:pw@api.example.com')).toBe('urlInvalid');
  });
});

describe('email settings store', () => {
  it('reads the settings, saves them and keeps no secret', async () => {
    const email = fakeEmail();
    const { api, transport } = fakeApi(email.handlers);
    const store = createEmailSettingsStore(api);
    await store.getState().load();
    expect(store.getState().config).toEqual(emailConfig());
    const version = store.getState().version;
    const refused = await store.getState().save({
      transport: 'smtp',
      smtp: { host: 'smtp.example.com', port: 587, secure: false, user: 'me', password: 'hunter2-secret' },
      default_from: { email: 'shop@example.com' },
    });
    expect(refused).toBeNull();
    expect(transport.calls.at(-1)?.channel).toBe('email:configure');
    expect(email.state.secrets.password).toBe('hunter2-secret');
    expect(store.getState().config?.smtp).toMatchObject({ host: 'smtp.example.com', password_set: true });
    // The form starts afresh from every save, even one that answers the same settings.
    expect(store.getState().version).toBe(version + 1);
    expect(JSON.stringify(store.getState())).not.toContain('hunter2');
  });

  it('answers the core’s refusal for the form, and a failed read as the store’s error', async () => {
    const email = fakeEmail();
    const store = createEmailSettingsStore(fakeApi(email.handlers).api);
    await store.getState().load();
    const refused = await store
      .getState()
      .save({ transport: 'smtp', smtp: { host: ' ', port: 25, secure: false, user: '' } });
    expect(refused).toEqual(expect.any(String));
    expect(store.getState().config?.transport).toBe('sandbox');
    expect(store.getState().saving).toBe(false);

    const broken = createEmailSettingsStore(fakeApi({}).api);
    await broken.getState().load();
    expect(broken.getState().config).toBeNull();
    expect(broken.getState().error).toEqual(expect.any(String));
  });

  it('tests the saved connection and keeps the result until the settings change', async () => {
    const email = fakeEmail({ connection: { ok: false, error: 'connect ECONNREFUSED 127.0.0.1:2525' } });
    const { api } = fakeApi(email.handlers);
    const store = createEmailSettingsStore(api);
    await store.getState().load();
    expect(await store.getState().testConnection()).toEqual({
      ok: false,
      error: 'connect ECONNREFUSED 127.0.0.1:2525',
    });
    expect(store.getState().test).toEqual({ ok: false, error: 'connect ECONNREFUSED 127.0.0.1:2525' });
    email.state.connection = { ok: true, error: null };
    await store.getState().testConnection();
    expect(store.getState()).toMatchObject({ testing: false, test: { ok: true, error: null } });
    await store.getState().save({ transport: 'sandbox' });
    expect(store.getState().test).toBeNull();
  });

  it('says a test that could not be made as a failed test', async () => {
    const store = createEmailSettingsStore(fakeApi({}).api);
    const test = await store.getState().testConnection();
    expect(test.ok).toBe(false);
    expect(test.error).toEqual(expect.any(String));
    expect(store.getState().testing).toBe(false);
  });
});
