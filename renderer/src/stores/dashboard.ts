// Dashboard figures of the current account. They follow the status pushes, at most one refresh
// in flight (a burst of pushes during a big send collapses into one more read). The service
// answers dashboard:stats from a cache up to a second old, so the last pushes of a burst may be
// read before they count: one trailing read follows each burst (a debounce, not polling).
import { createStore, type StateCreator } from 'zustand/vanilla';
import type { Api, DashboardStats } from '../api';
import { errorMessage } from './errors';

export interface StatsSlice {
  accountId: number | null;
  stats: DashboardStats | null;
  error: string | null;
  load(accountId: number | null): Promise<void>;
  /** Re-reads after pushes; coalesces calls made while a read is running. */
  refresh(): Promise<void>;
  /** refresh() now and once more when the pushes have been quiet for TRAILING_MS. */
  followPushes(): void;
}

export type DashboardState = StatsSlice;

/** Longer than the service's stats cache (1 s). */
export const TRAILING_MS = 1200;

const statsSlice =
  (api: Api): StateCreator<DashboardState, [], [], StatsSlice> =>
  (set, get) => {
    let running: Promise<void> | null = null;
    let trailing: ReturnType<typeof setTimeout> | null = null;
    let again = false;
    const read = async () => {
      const accountId = get().accountId;
      if (accountId === null) return set({ stats: null });
      try {
        // The user's own day: "today" starts at local midnight.
        const stats = await api.invoke('dashboard:stats', {
          account_id: accountId,
          utc_offset_minutes: -new Date().getTimezoneOffset(),
        });
        if (get().accountId === accountId) set({ stats, error: null });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    };
    return {
      accountId: null,
      stats: null,
      error: null,
      async load(accountId) {
        set({ accountId, stats: null });
        await read();
      },
      async refresh() {
        if (running) {
          again = true;
          return running;
        }
        running = (async () => {
          do {
            again = false;
            await read();
          } while (again);
        })();
        try {
          await running;
        } finally {
          running = null;
        }
      },
      followPushes() {
        void get().refresh();
        if (trailing) clearTimeout(trailing);
        trailing = setTimeout(() => {
          trailing = null;
          void get().refresh();
        }, TRAILING_MS);
      },
    };
  };

export function createDashboardStore(api: Api) {
  return createStore<DashboardState>()((...a) => ({ ...statsSlice(api)(...a) }));
}
export type DashboardStore = ReturnType<typeof createDashboardStore>;
