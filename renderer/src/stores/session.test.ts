import { describe, expect, it } from 'vitest';
import { createSessionStore } from './session';
import { account, fakeApi } from '../test/fakes';
import type { AppSettings } from '../api';

const settings = (language: AppSettings['language']): AppSettings => ({
  language,
  data_dir: '/data',
  next_data_dir: null,
  http_api: { enabled: true, host: '127.0.0.1', port: 8080, url: 'http://127.0.0.1:8080', can_toggle: false },
  mode: 'web',
});

describe('session store', () => {
  it('starts in the navigator language and keeps it while the setting is "system"', async () => {
    const { api } = fakeApi({ 'settings:get': () => settings('system') });
    const store = createSessionStore(api, 'fa-IR');
    expect(store.getState().language).toBe('fa');
    await store.getState().loadSettings();
    expect(store.getState().language).toBe('fa');
    expect(createSessionStore(api, 'en-US').getState().language).toBe('en');
  });

  it('follows a saved language and persists a new choice', async () => {
    const { api, transport } = fakeApi({
      'settings:get': () => settings('en'),
      'settings:set': (patch) => settings(patch.language ?? 'system'),
    });
    const store = createSessionStore(api, 'fa-IR');
    await store.getState().loadSettings();
    expect(store.getState().language).toBe('en');
    await store.getState().setLanguage('fa');
    expect(store.getState().language).toBe('fa');
    expect(transport.calls.at(-1)).toEqual({ channel: 'settings:set', input: { language: 'fa' } });
  });

  it('selects the first active account and keeps the selection on refresh', async () => {
    const accounts = [account({ id: 1, active: false }), account({ id: 2 }), account({ id: 3 })];
    const { api } = fakeApi({ 'accounts:list': () => accounts });
    const store = createSessionStore(api);
    await store.getState().loadAccounts();
    expect(store.getState().accountId).toBe(2);
    store.getState().selectAccount(3);
    await store.getState().refreshAccounts();
    expect(store.getState().accountId).toBe(3);
  });

  it('reports a refused call as an error, not a crash', async () => {
    const { api } = fakeApi({});
    const store = createSessionStore(api);
    await store.getState().loadAccounts();
    expect(store.getState().error).toMatch(/no fake/);
    expect(store.getState().ready).toBe(true);
  });
});
