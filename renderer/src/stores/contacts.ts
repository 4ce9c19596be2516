// The Contacts pages: the account's segments (searched, renamed, deleted, combined) and what the
// segment and opt-out pages read page by page (members, opt-outs) through `api`. The list follows
// the contacts jobs' pushes (import:progress), so a finished import or combine shows at once.
import { createStore } from 'zustand/vanilla';
import type { Api, SegmentSummary } from '../api';
import type { OutputOf } from '../../../shared/ipc';
import { errorMessage } from './errors';

export type SegmentDetail = OutputOf<'segments:get'>;
export type ExportAnswer = OutputOf<'segments:export'>;

export interface ContactsState {
  /** For the pages' own paged reads (members, opt-outs): the same client the store uses. */
  api: Api;
  accountId: number | null;
  segments: SegmentSummary[] | null;
  search: string;
  error: string | null;
  load(accountId: number | null): Promise<void>;
  refresh(): Promise<void>;
  setSearch(search: string): void;
  detail(segmentId: number): Promise<SegmentDetail | null>;
  rename(segmentId: number, name: string): Promise<boolean>;
  remove(segmentId: number): Promise<boolean>;
  combineCount(include: number[], exclude: number[]): Promise<number | null>;
  combine(name: string, include: number[], exclude: number[]): Promise<number | null>;
  exportSegment(segmentId: number, format: 'csv' | 'xlsx'): Promise<ExportAnswer | null>;
}

export function createContactsStore(api: Api) {
  return createStore<ContactsState>()((set, get) => {
    let reading = 0;
    /** Runs a call for the current account; a refusal becomes the store's error (shown once). */
    const guarded = async <T>(call: (accountId: number) => Promise<T>): Promise<T | null> => {
      const accountId = get().accountId;
      if (accountId === null) return null;
      try {
        return await call(accountId);
      } catch (error) {
        set({ error: errorMessage(error) });
        return null;
      }
    };
    return {
      api,
      accountId: null,
      segments: null,
      search: '',
      error: null,
      async load(accountId) {
        set({ accountId, segments: null, error: null });
        await get().refresh();
      },
      async refresh() {
        const { accountId, search } = get();
        if (accountId === null) return set({ segments: [] });
        const ticket = ++reading;
        try {
          const segments = await api.invoke('segments:list', {
            account_id: accountId,
            ...(search.trim() ? { search: search.trim() } : {}),
          });
          // An older read answering late is dropped.
          if (ticket === reading) set({ segments, error: null });
        } catch (error) {
          if (ticket === reading) set({ error: errorMessage(error), segments: [] });
        }
      },
      setSearch(search) {
        set({ search });
        void get().refresh();
      },
      detail: (segmentId) => guarded((account_id) => api.invoke('segments:get', { account_id, segment_id: segmentId })),
      async rename(segmentId, name) {
        const done = await guarded((account_id) =>
          api.invoke('segments:rename', { account_id, segment_id: segmentId, name }),
        );
        if (done) await get().refresh();
        return done !== null;
      },
      async remove(segmentId) {
        const done = await guarded(async (account_id) => {
          await api.invoke('segments:delete', { account_id, segment_id: segmentId });
          return true;
        });
        if (done) await get().refresh();
        return done === true;
      },
      async combineCount(include, exclude) {
        if (include.length === 0) return 0;
        const answer = await guarded((account_id) =>
          api.invoke('segments:combineCount', { account_id, include, exclude }),
        );
        return answer?.count ?? null;
      },
      async combine(name, include, exclude) {
        const answer = await guarded((account_id) =>
          api.invoke('segments:combine', { account_id, name, include, exclude }),
        );
        if (answer) await get().refresh();
        return answer?.segment_id ?? null;
      },
      exportSegment: (segmentId, format) =>
        guarded((account_id) => api.invoke('segments:export', { account_id, segment_id: segmentId, format })),
    };
  });
}

export type ContactsStore = ReturnType<typeof createContactsStore>;
