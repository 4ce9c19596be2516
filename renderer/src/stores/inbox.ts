// The Inbox of the current account: replies customers sent to its lines, newest first, paged by
// cursor, with the filters the page offers (open / done / all conversations, a line, unread only,
// opt-outs only, a number), the unread count the nav's badge shows and the unread per line.
// Replies arriving (inbox:received) refresh the counts, and the list's first page when the page is
// open; a burst of them is read at most once per REFRESH_MS. One conversation can be open: a
// number's card, its lines, its thread (paged, newest first; its sent messages' statuses follow
// the pushes), marked done or open again, and answered through the core's quote and send.
import { createStore } from 'zustand/vanilla';
import type { Api } from '../api';
import type {
  Conversation,
  ConversationView,
  InboxCounts,
  InboxItem,
  ThreadCursor,
  ThreadEntry,
} from '../../../shared/ipc/contracts/inbox';
import type { OutputOf } from '../../../shared/ipc';
import type { PayloadOf } from '../../../shared/ipc';
import { reported } from './errors';
import { throttled } from '../lib/throttled';

export interface InboxFilter {
  /** Open conversations (the default), done ones, or all. */
  view: ConversationView;
  /** One line's replies only ('' for every line). */
  line: string;
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
  /** The conversation open, if any: a number's card, lines and thread. */
  conversation: OpenConversation | null;
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
  /** Opens a number's conversation: its card and lines, the thread's newest page; its replies read. */
  openConversation(phone: string): Promise<void>;
  closeConversation(): void;
  /** Reads the open thread's newest page again (keeping the older pages already read). */
  refreshConversation(): Promise<void>;
  loadOlderThread(): Promise<void>;
  /** Marks a conversation (a number on a line) done, or open again. */
  setDone(lineNumber: string, sender: string, done: boolean): Promise<void>;
  /** The core's quote of an answer from `lineNumber` (what the confirmation states). */
  quoteReply(lineNumber: string, message: string): Promise<OutputOf<'inbox:replyPreview'>>;
  /** Sends the answer (after the confirmation); the thread is read again. */
  sendReply(lineNumber: string, message: string): Promise<OutputOf<'inbox:reply'>>;
  applyStatusChanges(changes: ReadonlyArray<{ id: number; status: number }>): void;
}

export interface OpenConversation {
  phone: string;
  info: Conversation | null;
  /** Newest first. */
  entries: ThreadEntry[];
  next: ThreadCursor | null;
  loading: boolean;
}

export const THREAD_PAGE = 50;

/** An entry's key across the two kinds (their ids are of different tables). */
const entryKey = (entry: ThreadEntry) => `${entry.kind}:${entry.id}`;

/** Newest first, as the core orders a thread. */
function byTime(a: ThreadEntry, b: ThreadEntry): number {
  return b.at - a.at || (a.kind === b.kind ? b.id - a.id : a.kind === 'received' ? -1 : 1);
}

export const PAGE_SIZE = 50;
export const REFRESH_MS = 1000;
export const EMPTY_FILTER: InboxFilter = { view: 'open', line: '', unreadOnly: false, optOutsOnly: false, search: '' };

export function createInboxStore(api: Api) {
  // Answers of an earlier account or filter are dropped: each read carries the generation it was asked in.
  let generation = 0;
  const store = createStore<InboxState>()((set, get) => {
    const input = () => {
      const { accountId, filter } = get();
      return {
        account_id: accountId!,
        view: filter.view,
        ...(filter.line !== '' ? { line_number: filter.line } : {}),
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
      conversation: null,
      setAccount(accountId) {
        if (accountId === get().accountId) return;
        generation++;
        set({ accountId, items: [], next: null, loaded: false, counts: null, error: null, conversation: null });
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
      async openConversation(phone) {
        const accountId = get().accountId;
        if (accountId === null) return;
        if (get().conversation?.phone !== phone)
          set({ conversation: { phone, info: null, entries: [], next: null, loading: true } });
        try {
          // Opening it reads its replies, before the card and lines say how many are unread.
          await api.invoke('inbox:markSenderRead', { account_id: accountId, phone });
          await get().refreshConversation();
          void get().refreshCounts();
        } catch (error) {
          if (get().accountId === accountId) set(reported(error));
        }
      },
      closeConversation() {
        set({ conversation: null });
      },
      async refreshConversation() {
        const accountId = get().accountId;
        const phone = get().conversation?.phone;
        if (accountId === null || phone === undefined) return;
        try {
          const [info, page] = await Promise.all([
            api.invoke('inbox:conversation', { account_id: accountId, phone }),
            api.invoke('inbox:thread', { account_id: accountId, phone, limit: THREAD_PAGE }),
          ]);
          const open = get().conversation;
          if (get().accountId !== accountId || open?.phone !== phone) return;
          // The newest page replaces its part; older pages already read stay below it.
          const fresh = new Set(page.entries.map(entryKey));
          const oldest = page.entries[page.entries.length - 1];
          const older = open.entries.filter(
            (entry) => !fresh.has(entryKey(entry)) && oldest !== undefined && byTime(oldest, entry) < 0,
          );
          const kept = older.length > 0;
          set({
            conversation: {
              phone,
              info,
              entries: [...page.entries, ...older],
              next: kept ? open.next : page.next,
              loading: false,
            },
          });
        } catch (error) {
          if (get().accountId === accountId) set({ ...reported(error) });
        }
      },
      async loadOlderThread() {
        const accountId = get().accountId;
        const open = get().conversation;
        if (accountId === null || open === null || open.next === null || open.loading) return;
        set({ conversation: { ...open, loading: true } });
        try {
          const page = await api.invoke('inbox:thread', {
            account_id: accountId,
            phone: open.phone,
            before: open.next,
            limit: THREAD_PAGE,
          });
          const now = get().conversation;
          if (now?.phone !== open.phone) return;
          const seen = new Set(now.entries.map(entryKey));
          set({
            conversation: {
              ...now,
              entries: [...now.entries, ...page.entries.filter((entry) => !seen.has(entryKey(entry)))],
              next: page.next,
              loading: false,
            },
          });
        } catch (error) {
          const now = get().conversation;
          if (now) set({ conversation: { ...now, loading: false }, ...reported(error) });
        }
      },
      async setDone(lineNumber, sender, done) {
        const accountId = get().accountId;
        if (accountId === null) return;
        try {
          await api.invoke('inbox:setDone', { account_id: accountId, line_number: lineNumber, phone: sender, done });
          if (get().accountId !== accountId) return;
          const { view } = get().filter;
          const mine = (item: InboxItem) => item.line_number === lineNumber && item.sender === sender;
          // Shown at once: a done conversation leaves the open view (and an undone one the done view).
          set({
            items: get()
              .items.filter((item) => !mine(item) || view === 'all' || (view === 'done') === done)
              .map((item) =>
                mine(item) ? { ...item, done, read_at: done ? (item.read_at ?? Date.now()) : item.read_at } : item,
              ),
          });
          await Promise.all([
            get().refreshCounts(),
            get().conversation?.phone === sender ? get().refreshConversation() : Promise.resolve(),
          ]);
        } catch (error) {
          if (get().accountId === accountId) set(reported(error));
        }
      },
      async quoteReply(lineNumber, message) {
        const phone = get().conversation?.phone ?? '';
        return api.invoke('inbox:replyPreview', {
          account_id: get().accountId!,
          phone,
          line_number: lineNumber,
          message,
        });
      },
      async sendReply(lineNumber, message) {
        const phone = get().conversation?.phone ?? '';
        const sent = await api.invoke('inbox:reply', {
          account_id: get().accountId!,
          phone,
          line_number: lineNumber,
          message,
        });
        await get().refreshConversation();
        return sent;
      },
      applyStatusChanges(changes) {
        const open = get().conversation;
        if (open === null || open.entries.length === 0) return;
        const byId = new Map(changes.map((c) => [c.id, c.status]));
        let changed = false;
        const entries = open.entries.map((entry) => {
          const status = entry.kind === 'sent' ? byId.get(entry.id) : undefined;
          if (entry.kind !== 'sent' || status === undefined || status === entry.status) return entry;
          changed = true;
          return { ...entry, status };
        });
        if (changed) set({ conversation: { ...open, entries } });
      },
    };
  });
  const refresh = throttled(async () => {
    const state = store.getState();
    await Promise.all([
      state.refreshCounts(),
      state.shown ? state.load() : Promise.resolve(),
      // A reply to the conversation on screen is read as it appears there.
      state.conversation ? state.openConversation(state.conversation.phone) : Promise.resolve(),
    ]);
  }, REFRESH_MS);
  return store;
}

function isUnread(items: readonly InboxItem[], id: number): boolean {
  return items.find((item) => item.id === id)?.read_at === null;
}

/** Follows the replies pushed by the core, and the statuses of an open thread's messages; returns the unsubscribe function. */
export function followInbox(api: Api, store: ReturnType<typeof createInboxStore>): () => void {
  const offReceived = api.on('inbox:received', (payload) => store.getState().follow(payload));
  const offStatus = api.on('messages:status-changed', ({ changes }) => store.getState().applyStatusChanges(changes));
  return () => {
    offReceived();
    offStatus();
  };
}
