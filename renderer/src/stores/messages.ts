// Sent messages for the virtualized table: a filter, the row count, and rows fetched page by page
// as the table scrolls (never the whole result: it must stay smooth at 1,000,000 rows). Statuses
// move live from the service's pushes (messages:status-changed); the renderer never polls.
// Sends are first-class too: the "by send" list (each send or campaign execution as one row with
// its counts), and a scope that narrows the table to one send's messages under its live row.
// A read that fails (web mode: the core out of reach) never empties the screen: the last rows and
// counts stay, marked stale, and the next read that succeeds replaces them.
import { createStore, type StateCreator } from 'zustand/vanilla';
import type { Api, MessageRow } from '../api';
import type { SendRow } from '../../../shared/ipc/contracts/messaging';
import { messageStatusText, type MessageStatus } from '../../../shared/status';
import type { Period } from '../lib/periods';
import { errorMessage, isOffline } from './errors';
import { throttled } from '../lib/throttled';
import type { ExportLocale } from '../lib/exports';
import { RecentStatuses, newerStatus } from './status-merge';

export const PAGE_SIZE = 100;
/** Rows of one page of the "by send" list. */
export const SENDS_PAGE_SIZE = 50;
/**
 * The by-send list and an open send's row are re-read at most this often while pushes come:
 * each read counts messages per send, and a big send pushes many times a second.
 */
export const SENDS_REFRESH_MS = 1000;

/** The send whose messages are shown (#/messages/send/12, #/messages/execution/3). */
export interface SendScope {
  kind: 'send' | 'execution';
  id: number;
}

export function sameScope(a: SendScope | null, b: SendScope | null): boolean {
  return a === b || (a !== null && b !== null && a.kind === b.kind && a.id === b.id);
}

/** What the user filters by; the account is added when asking the service. */
export interface MessageFilter {
  statuses?: number[];
  /** The preset that set from/to (shown back by the filters when the page opens again). */
  period?: Period;
  sender?: string;
  receptor?: string;
  /** ms, inclusive. */
  from?: number;
  /** ms, exclusive. */
  to?: number;
  text?: string;
}

export interface TimelineEntry {
  status: number;
  status_text: string;
  at: number;
}

export interface StatusChange {
  id: number;
  account_id: number;
  status: number;
}

export interface ExportResult {
  rows: number;
  file_name: string;
  /** Desktop: the written file. */
  path: string | null;
  /** Web: where the browser downloads it. */
  url: string | null;
}

/** The contracts' filter for an account, a UI filter and the send in view. */
export function toQuery(accountId: number, filter: MessageFilter, scope: SendScope | null = null) {
  return {
    account_id: accountId,
    ...(scope?.kind === 'send' ? { send_id: scope.id } : {}),
    ...(scope?.kind === 'execution' ? { execution_id: scope.id } : {}),
    ...(filter.statuses ? { status: filter.statuses } : {}),
    ...(filter.sender ? { sender: filter.sender } : {}),
    ...(filter.receptor ? { receptor: filter.receptor } : {}),
    ...(filter.from !== undefined ? { from: filter.from } : {}),
    ...(filter.to !== undefined ? { to: filter.to } : {}),
    ...(filter.text ? { text: filter.text } : {}),
  };
}

export interface FilterSlice {
  accountId: number | null;
  filter: MessageFilter;
  setAccount(accountId: number | null): void;
  setFilter(changes: MessageFilter): void;
  clearFilter(): void;
}

export interface RowsSlice {
  /** Rows matching the filter; null until counted. */
  count: number | null;
  /** Loaded pages by index; a page index is floor(row / PAGE_SIZE). */
  pages: Record<number, MessageRow[]>;
  loadingPages: number[];
  /** Bumped on every filter/account change; answers of an older generation are dropped. */
  generation: number;
  error: string | null;
  /**
   * The last read failed: what is shown (rows, count, or nothing yet) is from before it, and no
   * empty state may be told from it. Cleared by the next read that succeeds.
   */
  stale: boolean;
  reload(): Promise<void>;
  /**
   * Re-reads count and first page while the old rows stay on screen, then swaps them in at once
   * (new messages shift every offset, so the other pages are fetched again as they show).
   */
  refreshHead(): Promise<void>;
  /** Makes sure rows [start, end] are loaded or loading. */
  ensureRows(start: number, end: number): void;
  /** Applies pushed status changes to the loaded rows; new messages refresh the head. */
  applyStatusChanges(changes: StatusChange[]): void;
}

export interface TimelineSlice {
  openMessage: MessageRow | null;
  timeline: TimelineEntry[] | null;
  openTimeline(row: MessageRow): Promise<void>;
  closeTimeline(): void;
}

export interface ExportSlice {
  exporting: boolean;
  /** Rows written so far by the running export (export:progress pushes). */
  exportProgress: { done: number; total: number } | null;
  exported: ExportResult | null;
  exportRows(format: 'csv' | 'xlsx', locale: ExportLocale): Promise<ExportResult | null>;
}

export interface SendsSlice {
  /** The send the table is narrowed to; null: every message of the account. */
  scope: SendScope | null;
  /** The scoped send's row (sends:get), kept live; null while it is read. */
  scopeRow: SendRow | null;
  /** Why the scoped send could not be read (not of this account, say). */
  scopeError: string | null;
  /** Narrows the table to one send (or widens it back with null), its filters cleared. */
  setScope(scope: SendScope | null): void;
  /** The by-send list's page (from 0), kept while the list is off screen to come back to. */
  sendsPage: number;
  /** The list is on screen: pushes re-read it. */
  sendsShown: boolean;
  /** That page's rows; null while it is read. */
  sendRows: SendRow[] | null;
  /** Sends and executions of the account; null until counted. */
  sendsTotal: number | null;
  /** Shows (and reads) a page of the by-send list; rows of the same page stay until the answer. */
  showSends(page: number): void;
  /** The list is off screen: pushes no longer re-read it. */
  hideSends(): void;
  /** Counts moved (pushes): re-reads what is shown of sends, at most once per SENDS_REFRESH_MS. */
  followSends(): void;
  /** Another account: reads what is shown of sends again now. */
  reloadSends(): void;
}

export type MessagesState = FilterSlice & RowsSlice & TimelineSlice & ExportSlice & SendsSlice;

const filterSlice: StateCreator<MessagesState, [], [], FilterSlice> = (set, get) => ({
  accountId: null,
  filter: {},
  setAccount(accountId) {
    if (accountId === get().accountId) return;
    set({ accountId });
    void get().reload();
    get().reloadSends();
  },
  setFilter(changes) {
    set({ filter: withoutEmpty({ ...get().filter, ...changes }) });
    void get().reload();
  },
  clearFilter() {
    set({ filter: {} });
    void get().reload();
  },
});

/** Drops empty fields so `{text: ''}` means "no text filter" and filters compare cleanly. */
function withoutEmpty(filter: MessageFilter): MessageFilter {
  const out: MessageFilter = {};
  if (filter.statuses && filter.statuses.length > 0) out.statuses = filter.statuses;
  if (filter.sender) out.sender = filter.sender;
  if (filter.receptor && filter.receptor.trim()) out.receptor = filter.receptor.trim();
  if (filter.period && filter.period !== 'all') out.period = filter.period;
  if (filter.from !== undefined) out.from = filter.from;
  if (filter.to !== undefined) out.to = filter.to;
  if (filter.text && filter.text.trim()) out.text = filter.text.trim();
  return out;
}

const rowsSlice =
  (api: Api): StateCreator<MessagesState, [], [], RowsSlice> =>
  (set, get) => {
    // Pushes newer than a page that is still being read are merged into it when it arrives.
    const recent = new RecentStatuses();
    const withStatus = (row: MessageRow, status: number): MessageRow => ({
      ...row,
      status,
      status_text: messageStatusText[status as MessageStatus] ?? '',
    });
    const loadPage = async (page: number, generation: number) => {
      const { accountId, filter } = get();
      if (accountId === null) return;
      set({ loadingPages: [...get().loadingPages, page] });
      try {
        const { rows } = await api.invoke('messages:list', {
          ...toQuery(accountId, filter, get().scope),
          offset: page * PAGE_SIZE,
          limit: PAGE_SIZE,
        });
        if (get().generation !== generation) return;
        set({ pages: { ...get().pages, [page]: recent.merge(rows, withStatus) } });
      } catch (error) {
        if (get().generation === generation) set({ error: errorMessage(error), stale: true });
      } finally {
        if (get().generation === generation) set({ loadingPages: get().loadingPages.filter((p) => p !== page) });
      }
    };

    let headInFlight = false;
    let headAgain = false;
    // The rows the table last asked for: refetched after the head moved under them.
    let shown: [number, number] = [0, 0];
    const readHead = async () => {
      const { accountId, filter } = get();
      if (accountId === null) return;
      const generation = get().generation + 1;
      set({ generation, loadingPages: [] });
      try {
        const query = toQuery(accountId, filter, get().scope);
        // The rows first, then the count: a send recorded between the two reads is then in the
        // count and newer than the rows, so its pushes (ids above the newest row) read the head
        // again. Read the other way round (or at once, two requests), the rows could include a
        // send the count missed, and no later push would correct the count.
        const { rows } = await api.invoke('messages:list', { ...query, offset: 0, limit: PAGE_SIZE });
        const { count } = await api.invoke('messages:count', query);
        if (get().generation !== generation) return;
        const wasStale = get().stale;
        set({
          count,
          pages: { 0: recent.merge(rows, withStatus) },
          stale: false,
          ...(wasStale ? { error: null } : {}),
        });
        get().ensureRows(shown[0], shown[1]);
        // Back after a failed read: the sends shown may have moved on meanwhile too.
        if (wasStale) get().followSends();
      } catch (error) {
        // The rows and count on screen stay (they were right when read); they are only stale.
        if (get().generation === generation) set({ error: errorMessage(error), stale: true });
      }
    };

    return {
      count: null,
      pages: {},
      loadingPages: [],
      generation: 0,
      error: null,
      stale: false,
      async reload() {
        const generation = get().generation + 1;
        set({ generation, pages: {}, loadingPages: [], count: null, error: null, stale: false });
        const { accountId, filter } = get();
        if (accountId === null) return set({ count: 0 });
        try {
          const [{ count }] = await Promise.all([
            api.invoke('messages:count', toQuery(accountId, filter, get().scope)),
            loadPage(0, generation),
          ]);
          if (get().generation === generation) set({ count });
        } catch (error) {
          // Not "no messages": the count stays unknown until a read succeeds (refreshHead, on reconnection).
          if (get().generation === generation) set({ error: errorMessage(error), stale: true });
        }
      },
      async refreshHead() {
        // A burst of pushes asks many times: one read in flight, and one more after it at most.
        if (headInFlight) {
          headAgain = true;
          return;
        }
        headInFlight = true;
        try {
          do {
            headAgain = false;
            await readHead();
          } while (headAgain);
        } finally {
          headInFlight = false;
        }
      },
      ensureRows(start, end) {
        shown = [start, end];
        const { count, pages, loadingPages, generation } = get();
        if (count === null || count === 0) return;
        const last = Math.min(end, count - 1);
        for (let page = Math.floor(Math.max(0, start) / PAGE_SIZE); page <= Math.floor(last / PAGE_SIZE); page++) {
          if (!pages[page] && !loadingPages.includes(page)) void loadPage(page, generation);
        }
      },
      applyStatusChanges(changes) {
        const { accountId, pages } = get();
        const relevant = changes.filter((c) => c.account_id === accountId);
        if (relevant.length === 0) return;
        recent.record(relevant);
        const byId = new Map(relevant.map((c) => [c.id, c.status]));
        let newest = 0;
        let touched = false;
        const next: Record<number, MessageRow[]> = {};
        for (const [key, rows] of Object.entries(pages)) {
          let changed = false;
          const updated = rows.map((row) => {
            newest = Math.max(newest, row.id);
            const pushed = byId.get(row.id);
            if (pushed === undefined) return row;
            const status = newerStatus(row.status, pushed);
            if (status === row.status) return row;
            changed = true;
            return withStatus(row, status);
          });
          next[Number(key)] = changed ? updated : rows;
          touched ||= changed;
        }
        if (touched) set({ pages: next });
        // The open timeline gains a step: re-read it.
        const open = get().openMessage;
        if (open && byId.has(open.id)) void get().openTimeline(open);
        // Messages newer than anything shown (a send made meanwhile): the list is newest first,
        // so they belong at the top; re-read the head once for this batch. A direct send is
        // recorded whole at once, so its own view never gains messages (an execution's does).
        const grows = get().scope?.kind !== 'send';
        if (grows && relevant.some((c) => c.id > newest) && get().count !== null) void get().refreshHead();
        get().followSends();
      },
    };
  };

const timelineSlice =
  (api: Api): StateCreator<MessagesState, [], [], TimelineSlice> =>
  (set, get) => ({
    openMessage: null,
    timeline: null,
    async openTimeline(row) {
      const { accountId } = get();
      if (accountId === null) return;
      if (get().openMessage?.id !== row.id) set({ openMessage: row, timeline: null });
      try {
        const { message, events } = await api.invoke('messages:timeline', {
          message_id: row.id,
          account_id: accountId,
        });
        if (get().openMessage?.id === row.id) set({ openMessage: message, timeline: events });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    },
    closeTimeline: () => set({ openMessage: null, timeline: null }),
  });

const exportSlice =
  (api: Api): StateCreator<MessagesState, [], [], ExportSlice> =>
  (set, get) => ({
    exporting: false,
    exportProgress: null,
    exported: null,
    async exportRows(format, locale) {
      const { accountId, filter, scope } = get();
      if (accountId === null) return null;
      // Our own id, so the progress pushes of this export are told from any other's.
      const exportId = `ui-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
      const stop = api.on('export:progress', (progress) => {
        if (progress.export_id === exportId && progress.state === 'running')
          set({ exportProgress: { done: progress.done, total: progress.total } });
      });
      set({ exporting: true, exportProgress: null, exported: null, error: null });
      try {
        const exported = await api.invoke('messages:export', {
          ...toQuery(accountId, filter, scope),
          format,
          export_id: exportId,
          language: locale.language,
          time_zone: locale.time_zone,
        });
        set({ exporting: false, exportProgress: null, exported });
        return exported;
      } catch (error) {
        set({ exporting: false, exportProgress: null, error: errorMessage(error) });
        return null;
      } finally {
        stop();
      }
    },
  });

const sendsSlice =
  (api: Api): StateCreator<MessagesState, [], [], SendsSlice> =>
  (set, get) => {
    // Answers for a page or a scope no longer shown are dropped.
    let sendsRead = 0;
    const readSends = async () => {
      const { accountId, sendsPage: page, sendsShown } = get();
      if (accountId === null || !sendsShown) return;
      const read = ++sendsRead;
      try {
        const { rows, total } = await api.invoke('sends:list', {
          account_id: accountId,
          offset: page * SENDS_PAGE_SIZE,
          limit: SENDS_PAGE_SIZE,
        });
        if (read === sendsRead && get().sendsPage === page && get().accountId === accountId)
          set({ sendRows: rows, sendsTotal: total });
      } catch (error) {
        // Out of reach: the rows shown stay (none yet: still loading, never "nothing sent").
        if (read === sendsRead)
          set({ error: errorMessage(error), sendRows: get().sendRows ?? (isOffline(error) ? null : []) });
      }
    };
    let scopeRead = 0;
    const readScopeRow = async () => {
      const { accountId, scope } = get();
      if (accountId === null || scope === null) return;
      const read = ++scopeRead;
      try {
        const row = await api.invoke(
          'sends:get',
          scope.kind === 'send'
            ? { account_id: accountId, send_id: scope.id }
            : { account_id: accountId, execution_id: scope.id },
        );
        if (read === scopeRead && sameScope(get().scope, scope) && get().accountId === accountId)
          set({ scopeRow: row, scopeError: null });
      } catch (error) {
        if (read !== scopeRead || !sameScope(get().scope, scope)) return;
        // Out of reach is not "this send cannot be opened": its row stays as it was.
        if (isOffline(error)) set({ error: errorMessage(error), stale: true });
        else set({ scopeRow: null, scopeError: errorMessage(error) });
      }
    };
    const refreshSends = throttled(readSends, SENDS_REFRESH_MS);
    const refreshScopeRow = throttled(readScopeRow, SENDS_REFRESH_MS);
    return {
      scope: null,
      scopeRow: null,
      scopeError: null,
      setScope(scope) {
        if (sameScope(scope, get().scope)) return;
        set({ scope, scopeRow: null, scopeError: null, filter: {}, openMessage: null, timeline: null, exported: null });
        void get().reload();
        void readScopeRow();
      },
      sendsPage: 0,
      sendsShown: false,
      sendRows: null,
      sendsTotal: null,
      showSends(page) {
        set(page === get().sendsPage ? { sendsShown: true } : { sendsShown: true, sendsPage: page, sendRows: null });
        void readSends();
      },
      hideSends: () => set({ sendsShown: false }),
      followSends() {
        if (get().sendsShown) refreshSends();
        if (get().scope !== null) refreshScopeRow();
      },
      reloadSends() {
        set({ sendRows: null, sendsTotal: null, scopeRow: null, scopeError: null });
        void readSends();
        void readScopeRow();
      },
    };
  };

export function createMessagesStore(api: Api) {
  const store = createStore<MessagesState>()((...a) => ({
    ...filterSlice(...a),
    ...rowsSlice(api)(...a),
    ...timelineSlice(api)(...a),
    ...exportSlice(api)(...a),
    ...sendsSlice(api)(...a),
  }));
  return store;
}
export type MessagesStore = ReturnType<typeof createMessagesStore>;

/**
 * Subscribes the store to status pushes, and to executions moving on (a campaign starting,
 * pausing, ending changes its row in the by-send list); returns the unsubscribe function.
 */
export function followStatusChanges(api: Api, store: MessagesStore): () => void {
  const stopMessages = api.on('messages:status-changed', ({ changes }) => store.getState().applyStatusChanges(changes));
  const stopExecutions = api.on('campaigns:execution', ({ account_id }) => {
    if (account_id === store.getState().accountId) store.getState().followSends();
  });
  return () => {
    stopMessages();
    stopExecutions();
  };
}

export const messagesSelectors = {
  row: (s: MessagesState, index: number): MessageRow | undefined =>
    s.pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE],
  isFiltered: (s: MessagesState): boolean => Object.keys(s.filter).length > 0,
};
