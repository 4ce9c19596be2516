// The Inbox of the current account: replies customers sent to its lines, newest first, paged by
// cursor, with the filters the page offers (unread only, opt-outs only, a number), and the unread
// count the nav's badge shows. Replies arriving (inbox:received) refresh the count, and the list's
// first page when the page is open; a burst of them is read at most once per REFRESH_MS.
import { createStore } from 'zustand/vanilla';
import type { Api } from '../api';
import type { InboxCounts, InboxItem } from '../../../shared/ipc/contracts/inbox';
import type { PayloadOf } from '../../../shared/ipc';
import { reported } from './errors';
import { throttled } from '../lib/throttled';

export interface InboxFilter {
  unreadOnly: boolean;
  optOutsOnly: boolean;
  /** A part of the customer's number, any digits. */
  search: string;
}

export interface InboxState {
  accountId: number | null;
  filter: InboxFilter;
  items: InboxItem[];
  /** The cursor of the next (older) page; null at the end. */
  next: number | null;
  /** The list was read at least once for this account and filter. */
  loaded: boolean;
  loading: boolean;
  counts: InboxCounts | null;
  error: string | null;
  /** The page is on screen: pushes then refresh its list too. */
  shown: boolean;
  setAccount(accountId: number | null): void;
  setShown(shown: boolean): void;
  setFilter(patch: Partial<InboxFilter>): void;
  /** Reads the first page afresh (the rows on screen stay until the answer replaces them). */
  load(): Promise<void>;
  loadMore(): Promise<void>;
  refreshCounts(): Promise<void>;
  /** Marks these replies read (every unread one of the account when `ids` is absent). */
  markRead(ids?: number[]): Promise<void>;
  follow(payload: PayloadOf<'inbox:received'>): void;
}

export const PAGE_SIZE = 50;
export const REFRESH_MS = 1000;
export const EMPTY_FILTER: InboxFilter = { unreadOnly: false, optOutsOnly: false, search: '' };

export function createInboxStore(api: Api) {
  // Answers of an earlier account or filter are dropped: each read carries the generation it was asked in.
  let generation = 0;
  const store = createStore<InboxState>()((set, get) => {
    const input = () => {
      const { accountId, filter } = get();
      return {
        account_id: accountId!,
        ...(filter.unreadOnly ? { unread_only: true } : {}),
        ...(filter.optOutsOnly ? { opt_outs_only: true } : {}),
        ...(filter.search.trim() ? { search: filter.search.trim() } : {}),
      };
    };
    return {
      accountId: null,
      filter: EMPTY_FILTER,
      items: [],
      next: null,
      loaded: false,
      loading: false,
      counts: null,
      error: null,
      shown: false,
      setAccount(accountId) {
        if (accountId === get().accountId) return;
        generation++;
        set({ accountId, items: [], next: null, loaded: false, counts: null, error: null });
        if (accountId === null) return;
        void get().refreshCounts();
        if (get().shown) void get().load();
      },
      setShown(shown) {
        set({ shown });
        if (shown) {
          void get().load();
          void get().refreshCounts();
        }
      },
      setFilter(patch) {
        generation++;
        set({ filter: { ...get().filter, ...patch }, items: [], next: null, loaded: false });
        void get().load();
      },
      async load() {
        if (get().accountId === null) return;
        const asked = generation;
        set({ loading: true });
        try {
          const page = await api.invoke('inbox:list', { ...input(), limit: PAGE_SIZE });
          if (asked !== generation) return;
          set({ items: page.items, next: page.next, loaded: true, loading: false, error: null });
        } catch (error) {
          if (asked === generation) set({ loading: false, ...reported(error) });
        }
      },
      async loadMore() {
        const { next, loading } = get();
        if (next === null || loading) return;
        const asked = generation;
        set({ loading: true });
        try {
          const page = await api.invoke('inbox:list', { ...input(), before: next, limit: PAGE_SIZE });
          if (asked !== generation) return;
          set({ items: [...get().items, ...page.items], next: page.next, loading: false, error: null });
        } catch (error) {
          if (asked === generation) set({ loading: false, ...reported(error) });
        }
      },
      async refreshCounts() {
        const accountId = get().accountId;
        if (accountId === null) return;
        try {
          const counts = await api.invoke('inbox:counts', { account_id: accountId });
          if (get().accountId === accountId) set({ counts });
        } catch (error) {
          if (get().accountId === accountId) set(reported(error));
        }
      },
      async markRead(ids) {
        const accountId = get().accountId;
        if (accountId === null) return;
        const unread = new Set((ids ?? get().items.map((item) => item.id)).filter((id) => isUnread(get().items, id)));
        if (ids !== undefined && unread.size === 0) return;
        try {
          await api.invoke('inbox:markRead', { account_id: accountId, ...(ids === undefined ? {} : { ids }) });
          if (get().accountId !== accountId) return;
          // Shown read at once; "unread only" keeps them until the next read, so the row read stays in view.
          const now = Date.now();
          set({
            items: get().items.map((item) =>
              (ids === undefined || unread.has(item.id)) && item.read_at === null ? { ...item, read_at: now } : item,
            ),
          });
          await get().refreshCounts();
        } catch (error) {
          if (get().accountId === accountId) set(reported(error));
        }
      },
      follow(payload) {
        if (payload.account_id !== get().accountId) return;
        refresh();
      },
    };
  });
  const refresh = throttled(async () => {
    const state = store.getState();
    await Promise.all([state.refreshCounts(), state.shown ? state.load() : Promise.resolve()]);
  }, REFRESH_MS);
  return store;
}

function isUnread(items: readonly InboxItem[], id: number): boolean {
  return items.find((item) => item.id === id)?.read_at === null;
}

/** Follows the replies pushed by the core; returns the unsubscribe function. */
export function followInbox(api: Api, store: ReturnType<typeof createInboxStore>): () => void {
  return api.on('inbox:received', (payload) => store.getState().follow(payload));
}
