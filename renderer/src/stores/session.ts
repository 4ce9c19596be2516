// The session store: the UI language and the account the panel works on. Language: the saved
// setting, else (setting 'system', the first start) navigator.language; choosing one persists it
// with settings:set.
import { createStore, type StateCreator } from 'zustand/vanilla';
import type { Account, Api, AppSettings } from '../api';
import { isLanguage, languageFromNavigator, type Language } from '../lib/format';
import { errorMessage } from './errors';

export interface LanguageSlice {
  language: Language;
  settings: AppSettings | null;
  /** Loads the saved settings; keeps the navigator's language when none was chosen. */
  loadSettings(): Promise<void>;
  setLanguage(language: Language): Promise<void>;
  setHttpApi(changes: { enabled?: boolean; host?: string; port?: number }): Promise<boolean>;
  /** Desktop: the workspace folder to use from the next start. */
  setDataDir(dir: string): Promise<boolean>;
}

export interface AccountsSlice {
  accounts: Account[];
  accountId: number | null;
  ready: boolean;
  error: string | null;
  loadAccounts(): Promise<void>;
  selectAccount(id: number): void;
  createAccount(name: string): Promise<Account | null>;
  updateAccount(id: number, changes: { name?: string; active?: boolean }): Promise<void>;
  /** Re-reads accounts (balances after a send, a top-up or a refund), keeping the selection. */
  refreshAccounts(): Promise<void>;
}

export type SessionState = LanguageSlice & AccountsSlice;

const languageSlice =
  (api: Api, initial: Language): StateCreator<SessionState, [], [], LanguageSlice> =>
  (set) => ({
    language: initial,
    settings: null,
    async loadSettings() {
      try {
        const settings = await api.invoke('settings:get');
        set(isLanguage(settings.language) ? { settings, language: settings.language } : { settings });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    },
    async setLanguage(language) {
      // Switch at once; the saved value follows (a failed save is reported, the UI stays usable).
      set({ language });
      try {
        set({ settings: await api.invoke('settings:set', { language }) });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    },
    async setHttpApi(changes) {
      try {
        set({ settings: await api.invoke('settings:set', { http_api: changes }) });
        return true;
      } catch (error) {
        set({ error: errorMessage(error) });
        return false;
      }
    },
    async setDataDir(dir) {
      try {
        set({ settings: await api.invoke('settings:set', { data_dir: dir }) });
        return true;
      } catch (error) {
        set({ error: errorMessage(error) });
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
        set({ ready: true, error: errorMessage(error) });
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
        set({ error: errorMessage(error) });
        return null;
      }
    },
    async updateAccount(id, changes) {
      try {
        const account = await api.invoke('accounts:update', { id, ...changes });
        set({ accounts: get().accounts.map((a) => (a.id === id ? account : a)) });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    },
    async refreshAccounts() {
      try {
        set({ accounts: await api.invoke('accounts:list') });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    },
  });

export function createSessionStore(api: Api, navigatorLanguage?: string) {
  return createStore<SessionState>()((...a) => ({
    ...languageSlice(api, languageFromNavigator(navigatorLanguage))(...a),
    ...accountsSlice(api)(...a),
  }));
}
export type SessionStore = ReturnType<typeof createSessionStore>;

export const sessionSelectors = {
  currentAccount: (s: SessionState): Account | undefined => s.accounts.find((a) => a.id === s.accountId),
  credit: (s: SessionState): number | null => s.accounts.find((a) => a.id === s.accountId)?.credit_rials ?? null,
};
