// The session store: the UI language and the account the panel works on. Language: this person's
// choice (lib/preferences.ts: the desktop app's profile, or this browser), else the system's
// (navigator.language). Never the workspace's: two people on one `serve` each keep their own.
import { createStore, type StateCreator } from 'zustand/vanilla';
import type { Account, Api, AppSettings } from '../api';
import { languageFromNavigator, type Language } from '../lib/format';
import type { PreferencesStore } from '../lib/preferences';
import { isOffline, reported } from './errors';

export interface LanguageSlice {
  /** The language the UI shows now. */
  language: Language;
  settings: AppSettings | null;
  /** Loads the app's settings (the HTTP API, the data folder); their old `language` is not read. */
  loadSettings(): Promise<void>;
  /** This person's choice, kept in their preferences; null: follow the system's language again. */
  setLanguage(language: Language | null): void;
  setHttpApi(changes: { enabled?: boolean; host?: string; port?: number }): Promise<boolean>;
  /** Desktop: the workspace folder to use from the next start. */
  setDataDir(dir: string): Promise<boolean>;
}

export interface AccountsSlice {
  accounts: Account[];
  accountId: number | null;
  /** The accounts are known: read, or refused for good (not while the core is out of reach). */
  ready: boolean;
  error: string | null;
  loadAccounts(): Promise<void>;
  selectAccount(id: number): void;
  createAccount(name: string): Promise<Account | null>;
  updateAccount(id: number, changes: { name?: string; active?: boolean }): Promise<void>;
  /** Re-reads accounts (balances after a send, a top-up or a refund), keeping the selection. */
  refreshAccounts(): Promise<void>;
  /** Takes the balances the core pushed (credit:changed), wherever the credit was changed from. */
  followCredits(credits: ReadonlyArray<{ account_id: number; credit_rials: number }>): void;
}

export type SessionState = LanguageSlice & AccountsSlice;

const languageSlice =
  (
    api: Api,
    system: Language,
    preferences: PreferencesStore | undefined,
  ): StateCreator<SessionState, [], [], LanguageSlice> =>
  (set) => ({
    language: preferences?.getState().language ?? system,
    settings: null,
    async loadSettings() {
      try {
        set({ settings: await api.invoke('settings:get') });
      } catch (error) {
        set({ ...reported(error) });
      }
    },
    setLanguage(language) {
      preferences?.getState().set({ language });
      set({ language: language ?? system });
    },
    async setHttpApi(changes) {
      try {
        set({ settings: await api.invoke('settings:set', { http_api: changes }) });
        return true;
      } catch (error) {
        set({ ...reported(error) });
        return false;
      }
    },
    async setDataDir(dir) {
      try {
        set({ settings: await api.invoke('settings:set', { data_dir: dir }) });
        return true;
      } catch (error) {
        set({ ...reported(error) });
        return false;
      }
    },
  });

const accountsSlice =
  (api: Api): StateCreator<SessionState, [], [], AccountsSlice> =>
  (set, get) => ({
    accounts: [],
    accountId: null,
    ready: false,
    error: null,
    async loadAccounts() {
      try {
        const accounts = await api.invoke('accounts:list');
        const current = get().accountId;
        const keep = accounts.some((a) => a.id === current)
          ? current
          : (accounts.find((a) => a.active) ?? accounts[0])?.id;
        set({ accounts, accountId: keep ?? null, ready: true, error: null });
      } catch (error) {
        // Out of reach, the accounts are not known yet (not "none"): read again once back online.
        set({ ready: !isOffline(error), ...reported(error) });
      }
    },
    selectAccount(id) {
      set({ accountId: id });
    },
    async createAccount(name) {
      try {
        const account = await api.invoke('accounts:create', { name });
        set({ accounts: [...get().accounts, account] });
        return account;
      } catch (error) {
        set({ ...reported(error) });
        return null;
      }
    },
    async updateAccount(id, changes) {
      try {
        const account = await api.invoke('accounts:update', { id, ...changes });
        set({ accounts: get().accounts.map((a) => (a.id === id ? account : a)) });
      } catch (error) {
        set({ ...reported(error) });
      }
    },
    async refreshAccounts() {
      try {
        set({ accounts: await api.invoke('accounts:list'), error: null });
      } catch (error) {
        set({ ...reported(error) });
      }
    },
    followCredits(credits) {
      const now = new Map(credits.map((c) => [c.account_id, c.credit_rials]));
      const accounts = get().accounts;
      if (!accounts.some((a) => now.has(a.id) && now.get(a.id) !== a.credit_rials)) return;
      set({ accounts: accounts.map((a) => (now.has(a.id) ? { ...a, credit_rials: now.get(a.id)! } : a)) });
    },
  });

/**
 * `preferences`: where this person's language is kept (stores.preferences); without it (tests of
 * other things) the language is the system's and a choice lasts for the session only.
 */
export function createSessionStore(api: Api, navigatorLanguage?: string, preferences?: PreferencesStore) {
  return createStore<SessionState>()((...a) => ({
    ...languageSlice(api, languageFromNavigator(navigatorLanguage), preferences)(...a),
    ...accountsSlice(api)(...a),
  }));
}
export type SessionStore = ReturnType<typeof createSessionStore>;

export const sessionSelectors = {
  currentAccount: (s: SessionState): Account | undefined => s.accounts.find((a) => a.id === s.accountId),
  credit: (s: SessionState): number | null => s.accounts.find((a) => a.id === s.accountId)?.credit_rials ?? null,
};
