import { describe, expect, it } from 'vitest';
import { createSessionStore } from './session';
import { account, fakeApi } from '../test/fakes';
import { createPreferencesStore, type PreferenceStorage } from '../lib/preferences';
import type { AppSettings } from '../api';

const settings = (language: AppSettings['language']): AppSettings => ({
  language,
  data_dir: '/data',
  next_data_dir: null,
  http_api: { enabled: true, host: '127.0.0.1', port: 8080, url: 'http://127.0.0.1:8080', can_toggle: false },
  mode: 'web',
});

/** A profile's storage (localStorage) in memory. */
function memory(): PreferenceStorage {
  const items = new Map<string, string>();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

describe('session store', () => {
  it('starts in the navigator language while the person chose none, whatever the server stores', async () => {
    const { api } = fakeApi({ 'settings:get': () => settings('en') });
    const store = createSessionStore(api, 'fa-IR', createPreferencesStore(memory()));
    expect(store.getState().language).toBe('fa');
    // The workspace's old `language` is another person's choice: not read.
    await store.getState().loadSettings();
    expect(store.getState().language).toBe('fa');
    expect(createSessionStore(api, 'en-US', createPreferencesStore(memory())).getState().language).toBe('en');
  });

  it('keeps a choice in this person’s preferences, never on the server', () => {
    const { api, transport } = fakeApi({});
    const storage = memory();
    const preferences = createPreferencesStore(storage);
    const store = createSessionStore(api, 'fa-IR', preferences);
    store.getState().setLanguage('en');
    expect(store.getState().language).toBe('en');
    expect(preferences.getState().language).toBe('en');
    expect(transport.calls.filter((call) => call.channel === 'settings:set')).toEqual([]);
    // Another start (a reload, the next day) in the same profile: the same language.
    expect(createSessionStore(api, 'fa-IR', createPreferencesStore(storage)).getState().language).toBe('en');
    // Another profile (another browser) on the same server: its own.
    expect(createSessionStore(api, 'fa-IR', createPreferencesStore(memory())).getState().language).toBe('fa');
    // Back to the system's language.
    store.getState().setLanguage(null);
    expect(store.getState().language).toBe('fa');
    expect(createSessionStore(api, 'en-US', createPreferencesStore(storage)).getState().language).toBe('en');
    expect(createSessionStore(api, 'fa-IR', createPreferencesStore(storage)).getState().language).toBe('fa');
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
