// The Contacts pages: the account's segments (searched, renamed, deleted, combined), the pages of
// a segment's members and of the opt-out list as the virtualized tables ask for them, and the
// opt-out list's changes (numbers added or removed, a file of numbers imported). The list follows
// the contacts jobs' pushes (import:progress), so a finished import or combine shows at once.
import { createStore } from 'zustand/vanilla';
import type { Api, SegmentSummary } from '../api';
import type { OutputOf, PayloadOf } from '../../../shared/ipc';
import { splitReceivers } from '../../../shared/phone';
import { isOffline, reported } from './errors';

export type SegmentDetail = OutputOf<'segments:get'>;
export type ExportAnswer = OutputOf<'segments:export'>;
export type MembersPage = OutputOf<'segments:members'>;
export type OptOutsPage = OutputOf<'optouts:list'>;

/** A file of numbers going into the opt-out list: its progress, then its counts or its error. */
export type OptOutJob = Pick<
  PayloadOf<'import:progress'>,
  'job_id' | 'status' | 'rows' | 'fraction' | 'valid' | 'invalid' | 'duplicates' | 'error'
>;

export interface OptOutsState {
  /** Moves on with every change of the list, so its pages (and counts) are read again. */
  version: number;
  /** Entries of the last addition that are not mobile numbers, as written. */
  invalid: string[];
  /** The file import started from the page: running, or how it ended. */
  job: OptOutJob | null;
}

/** The most numbers one optouts:add / optouts:remove takes (a longer paste goes in several calls). */
export const OPT_OUT_BATCH = 10_000;

const ENDED = new Set<OptOutJob['status']>(['done', 'failed', 'cancelled']);
const EMPTY_OPT_OUTS: OptOutsState = { version: 0, invalid: [], job: null };

export interface ContactsState {
  /** The client the store uses, for the import wizard's own calls (its file step). */
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
  /** A page of a segment's members from `offset` (search: a number in any digit form, or any column). */
  members(segmentId: number, offset: number, limit: number, search?: string): Promise<MembersPage | null>;

  optOuts: OptOutsState;
  optOutsPage(offset: number, limit: number, search?: string): Promise<OptOutsPage | null>;
  /** Numbers pasted one per line or comma separated, in any digit form; answers how many went in. */
  addOptOuts(text: string): Promise<number | null>;
  removeOptOuts(text: string): Promise<number | null>;
  /** Reads a file of numbers into the list as a job (progress: followOptOuts). */
  importOptOuts(file: File): Promise<boolean>;
  /** An import:progress push; those of the page's opt-out file move its job on. */
  followOptOuts(progress: PayloadOf<'import:progress'>): void;
  /** Puts away how the last file import ended. */
  dismissOptOutJob(): void;
  exportOptOuts(format: 'csv' | 'xlsx'): Promise<ExportAnswer | null>;
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
        set({ ...reported(error) });
        return null;
      }
    };
    /** The list changed: its pages are read again. */
    const changedOptOuts = (change: Partial<OptOutsState> = {}) =>
      set((state) => ({ optOuts: { ...state.optOuts, ...change, version: state.optOuts.version + 1 } }));
    const setJob = (progress: OptOutJob) => {
      const job: OptOutJob = {
        job_id: progress.job_id,
        status: progress.status,
        rows: progress.rows,
        fraction: progress.fraction,
        valid: progress.valid,
        invalid: progress.invalid,
        duplicates: progress.duplicates,
        error: progress.error,
      };
      if (progress.status === 'done') changedOptOuts({ job });
      else set((state) => ({ optOuts: { ...state.optOuts, job } }));
    };
    const pushed = new Map<number, OptOutJob>();
    return {
      api,
      accountId: null,
      segments: null,
      search: '',
      error: null,
      async load(accountId) {
        set({ accountId, segments: null, error: null, optOuts: EMPTY_OPT_OUTS });
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
          // The list on screen stays (the core may be out of reach for a moment); never read and
          // refused: an empty list, unless offline, where it waits (loading) for the core.
          if (ticket === reading)
            set({ ...reported(error), segments: get().segments ?? (isOffline(error) ? null : []) });
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
      members: (segmentId, offset, limit, search) =>
        guarded((account_id) =>
          api.invoke('segments:members', {
            account_id,
            segment_id: segmentId,
            offset,
            limit,
            ...(search ? { search } : {}),
          }),
        ),

      optOuts: EMPTY_OPT_OUTS,
      optOutsPage: (offset, limit, search) =>
        guarded((account_id) =>
          api.invoke('optouts:list', { account_id, offset, limit, ...(search ? { search } : {}) }),
        ),
      async addOptOuts(text) {
        const phones = splitReceivers(text);
        if (phones.length === 0) return 0;
        const answer = await guarded(async (account_id) => {
          let added = 0;
          const invalid: string[] = [];
          for (let start = 0; start < phones.length; start += OPT_OUT_BATCH) {
            const part = await api.invoke('optouts:add', {
              account_id,
              phones: phones.slice(start, start + OPT_OUT_BATCH),
            });
            added += part.added;
            invalid.push(...part.invalid);
          }
          return { added, invalid };
        });
        if (answer) changedOptOuts({ invalid: answer.invalid });
        return answer?.added ?? null;
      },
      async removeOptOuts(text) {
        const phones = splitReceivers(text);
        if (phones.length === 0) return 0;
        const removed = await guarded(async (account_id) => {
          let count = 0;
          for (let start = 0; start < phones.length; start += OPT_OUT_BATCH)
            count += (
              await api.invoke('optouts:remove', { account_id, phones: phones.slice(start, start + OPT_OUT_BATCH) })
            ).removed;
          return count;
        });
        if (removed !== null) changedOptOuts({ invalid: [] });
        return removed;
      },
      async importOptOuts(file) {
        const started = await guarded(async (account_id) => {
          const source = await api.openSpreadsheet(file);
          return api.invoke('optouts:import', { account_id, file: source.file });
        });
        if (!started) return false;
        const queued: OptOutJob = {
          job_id: started.job_id,
          status: 'queued',
          rows: 0,
          fraction: 0,
          valid: 0,
          invalid: 0,
          duplicates: 0,
          error: null,
        };
        // Pushes of the job that came before its id was known, or none at all (a short file can
        // end first): what the job is now, read once.
        const early = pushed.get(started.job_id);
        pushed.clear();
        setJob(early ?? queued);
        const now = await guarded((account_id) => api.invoke('imports:get', { account_id, job_id: started.job_id }));
        if (now) get().followOptOuts({ ...now, segment_id: null, upload_id: null });
        return true;
      },
      followOptOuts(progress) {
        if (progress.kind !== 'optouts') return;
        const job = get().optOuts.job;
        if (!job || job.job_id !== progress.job_id) {
          // Perhaps the page's own, before optouts:import answered with its id.
          pushed.set(progress.job_id, progress);
          return;
        }
        // An ended job stays as it ended (a late read of an earlier moment changes nothing).
        if (ENDED.has(job.status) || (!ENDED.has(progress.status) && progress.rows < job.rows)) return;
        setJob(progress);
      },
      dismissOptOutJob() {
        const job = get().optOuts.job;
        if (job && ENDED.has(job.status)) set((state) => ({ optOuts: { ...state.optOuts, job: null } }));
      },
      exportOptOuts: (format) => guarded((account_id) => api.invoke('optouts:export', { account_id, format })),
    };
  });
}

export type ContactsStore = ReturnType<typeof createContactsStore>;
