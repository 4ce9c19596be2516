// The account's IP allow-list as Settings → Accounts edits it: version 1 of the API answers 416 to
// a caller whose address is not on it. The core keeps the list canonical and refuses an entry that
// is no address or CIDR range; this store only sends the whole new list through accounts:update
// and, when the core refuses an entry, says which one.
import { createStore } from 'zustand/vanilla';
import type { Account, Api } from '../api';
import { IpcCallError } from '../api';
import { i18n } from '../i18n';
import { errorMessage } from './errors';

/** What "add this computer" adds: a program on this machine calls from one of these. */
export const THIS_COMPUTER = ['127.0.0.1', '::1'] as const;

export interface AllowlistState {
  busy: boolean;
  /** Adds entries (an address or a CIDR range each); null when saved, else why not. */
  add(account: Account, entries: readonly string[]): Promise<string | null>;
  /** Null when removed, else why not. */
  remove(account: Account, entry: string): Promise<string | null>;
}

/** `refreshAccounts`: the session's, which owns the accounts (the header, the other tabs). */
export function createAllowlistStore(api: Api, refreshAccounts: () => Promise<void>) {
  return createStore<AllowlistState>()((set) => {
    const save = async (account: Account, list: string[], typed: readonly string[]): Promise<string | null> => {
      set({ busy: true });
      try {
        await api.invoke('accounts:update', { id: account.id, ip_allowlist: list });
        await refreshAccounts();
        return null;
      } catch (error) {
        // The core names no entry in its reason; the one typed here is the one it refused.
        if (error instanceof IpcCallError && error.reason === 'ip_allowlist_entry_invalid' && typed.length === 1)
          return i18n.t('allowlist.invalid', { entry: typed[0] });
        return errorMessage(error);
      } finally {
        set({ busy: false });
      }
    };
    return {
      busy: false,
      add: (account, entries) => {
        const typed = entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
        return save(account, [...account.ip_allowlist, ...typed], typed);
      },
      remove: (account, entry) =>
        save(
          account,
          account.ip_allowlist.filter((e) => e !== entry),
          [],
        ),
    };
  });
}

export type AllowlistStore = ReturnType<typeof createAllowlistStore>;
