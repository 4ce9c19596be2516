// Sent messages for the virtualized table: a filter, the row count, and rows fetched page by page
// as the table scrolls (never the whole result: it must stay smooth at 1,000,000 rows). Statuses
// move live from the service's pushes (messages:status-changed); the renderer never polls.
import { createStore, type StateCreator } from 'zustand/vanilla';
import type { Api, MessageRow } from '../api';
import { messageStatusText, type MessageStatus } from '../../../shared/status';
import { errorMessage } from './errors';
import { RecentStatuses, newerStatus } from './status-merge';

export const PAGE_SIZE = 100;

/** What the user filters by; the account is added when asking the service. */
export interface MessageFilter {
  statuses?: number[];
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

/** The contracts' filter for an account and a UI filter. */
export function toQuery(accountId: number, filter: MessageFilter) {
  return {
    account_id: accountId,
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
  exportRows(format: 'csv' | 'xlsx'): Promise<ExportResult | null>;
}

export type MessagesState = FilterSlice & RowsSlice & TimelineSlice & ExportSlice;

const filterSlice: StateCreator<MessagesState, [], [], FilterSlice> = (set, get) => ({
  accountId: null,
  filter: {},
  setAccount(accountId) {
    if (accountId === get().accountId) return;
    set({ accountId });
    void get().reload();
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
          ...toQuery(accountId, filter),
          offset: page * PAGE_SIZE,
          limit: PAGE_SIZE,
        });
        if (get().generation !== generation) return;
        set({ pages: { ...get().pages, [page]: recent.merge(rows, withStatus) } });
      } catch (error) {
        if (get().generation === generation) set({ error: errorMessage(error) });
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
        const query = toQuery(accountId, filter);
        const [{ count }, { rows }] = await Promise.all([
          api.invoke('messages:count', query),
          api.invoke('messages:list', { ...query, offset: 0, limit: PAGE_SIZE }),
        ]);
        if (get().generation !== generation) return;
        set({ count, pages: { 0: recent.merge(rows, withStatus) } });
        get().ensureRows(shown[0], shown[1]);
      } catch (error) {
        if (get().generation === generation) set({ error: errorMessage(error) });
      }
    };

    return {
      count: null,
      pages: {},
      loadingPages: [],
      generation: 0,
      error: null,
      async reload() {
        const generation = get().generation + 1;
        set({ generation, pages: {}, loadingPages: [], count: null, error: null });
        const { accountId, filter } = get();
        if (accountId === null) return set({ count: 0 });
        try {
          const [{ count }] = await Promise.all([
            api.invoke('messages:count', toQuery(accountId, filter)),
            loadPage(0, generation),
          ]);
          if (get().generation === generation) set({ count });
        } catch (error) {
          if (get().generation === generation) set({ error: errorMessage(error), count: 0 });
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
        // so they belong at the top; re-read the head once for this batch.
        if (relevant.some((c) => c.id > newest) && get().count !== null) void get().refreshHead();
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
    async exportRows(format) {
      const { accountId, filter } = get();
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
          ...toQuery(accountId, filter),
          format,
          export_id: exportId,
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

export function createMessagesStore(api: Api) {
  const store = createStore<MessagesState>()((...a) => ({
    ...filterSlice(...a),
    ...rowsSlice(api)(...a),
    ...timelineSlice(api)(...a),
    ...exportSlice(api)(...a),
  }));
  return store;
}
export type MessagesStore = ReturnType<typeof createMessagesStore>;

/** Subscribes the store to status pushes; returns the unsubscribe function. */
export function followStatusChanges(api: Api, store: MessagesStore): () => void {
  return api.on('messages:status-changed', ({ changes }) => store.getState().applyStatusChanges(changes));
}

export const messagesSelectors = {
  row: (s: MessagesState, index: number): MessageRow | undefined =>
    s.pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE],
  isFiltered: (s: MessagesState): boolean => Object.keys(s.filter).length > 0,
};
