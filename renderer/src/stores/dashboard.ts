// Dashboard figures of the current account. They follow the status pushes, at most one refresh
// in flight (a burst of pushes during a big send collapses into one more read). The service
// answers dashboard:stats from a cache up to a second old, so the last pushes of a burst may be
// read before they count: one trailing read follows each burst (a debounce, not polling). The
// credit left follows the core's credit pushes (credit:changed) as they come, without a read.
// The running and upcoming campaigns follow the executions' pushes (campaigns:execution) and,
// while one runs, the status pushes its messages make (its progress), throttled. The account's
// lines tell an empty dashboard what the next step is (add a line, or send a first message).
import { createStore, type StateCreator } from 'zustand/vanilla';
import type { Api, DashboardStats, Line } from '../api';
import type { CampaignSummary } from '../../../shared/ipc/contracts/campaigns';
import type { ExecutionReport } from '../../../shared/campaigns';
import { reported } from './errors';
import { throttled } from '../lib/throttled';

export interface StatsSlice {
  accountId: number | null;
  stats: DashboardStats | null;
  error: string | null;
  load(accountId: number | null): Promise<void>;
  /** Re-reads after pushes; coalesces calls made while a read is running. */
  refresh(): Promise<void>;
  /** refresh() now and once more when the pushes have been quiet for TRAILING_MS. */
  followPushes(): void;
  /** Takes the account's balance the core pushed (credit:changed): "credit left" without a read. */
  followCredits(credits: ReadonlyArray<{ account_id: number; credit_rials: number }>): void;
}

/** A campaign whose last execution runs (paused included) or waits for its send time. */
export type LiveCampaign = CampaignSummary & { last_execution: ExecutionReport };

export interface CampaignsSlice {
  /** Running first (longest running on top), then the upcoming by send time; null until read. */
  campaigns: LiveCampaign[] | null;
  /** Reads the list of the current account afresh. */
  loadCampaigns(): Promise<void>;
  /** Re-reads the list, at most once per CAMPAIGNS_REFRESH_MS. */
  followCampaigns(): void;
}

export interface LinesSlice {
  /** The account's lines; null until read (or when they could not be). */
  lines: Line[] | null;
  /** Reads them again (a line may have been added in Settings meanwhile). */
  loadLines(): Promise<void>;
}

export type DashboardState = StatsSlice & CampaignsSlice & LinesSlice;

/** What an empty dashboard leads to: a line to send from first, then a first message. */
export type NextStep = 'addLine' | 'compose';

/** A line the panel can send from (as the composer offers them): active, with the panel's permission. */
export function nextStep(lines: readonly Line[]): NextStep {
  return lines.some((line) => line.active && line.can_send_panel_campaign) ? 'compose' : 'addLine';
}

/** The campaigns card is re-read at most this often while executions and their messages move. */
export const CAMPAIGNS_REFRESH_MS = 1000;

/** The campaigns the dashboard shows, in the order it shows them. */
export function liveCampaigns(campaigns: CampaignSummary[]): LiveCampaign[] {
  const live = campaigns.filter(
    (c): c is LiveCampaign =>
      c.last_execution?.execution_status === 'RUNNING' || c.last_execution?.execution_status === 'SCHEDULED',
  );
  const running = (c: LiveCampaign) => c.last_execution.execution_status === 'RUNNING';
  // RFC 3339 times; an execution not started yet sorts by when it is due.
  const at = (c: LiveCampaign) => Date.parse(c.last_execution.started_at ?? c.last_execution.send_datetime);
  return live.sort((a, b) => Number(running(b)) - Number(running(a)) || at(a) - at(b));
}

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
        set({ ...reported(error) });
      }
    };
    return {
      accountId: null,
      stats: null,
      error: null,
      async load(accountId) {
        set({ accountId, stats: null, lines: null });
        await Promise.all([read(), get().loadCampaigns(), get().loadLines()]);
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
      followCredits(credits) {
        const { accountId, stats } = get();
        const credit = credits.find((c) => c.account_id === accountId);
        if (stats && credit && stats.credit_rials !== credit.credit_rials)
          set({ stats: { ...stats, credit_rials: credit.credit_rials } });
      },
      followPushes() {
        void get().refresh();
        // A running campaign's progress moves with its messages.
        if (get().campaigns?.some((c) => c.last_execution.execution_status === 'RUNNING')) get().followCampaigns();
        if (trailing) clearTimeout(trailing);
        trailing = setTimeout(() => {
          trailing = null;
          void get().refresh();
        }, TRAILING_MS);
      },
    };
  };

const campaignsSlice =
  (api: Api): StateCreator<DashboardState, [], [], CampaignsSlice> =>
  (set, get) => {
    const read = async () => {
      const accountId = get().accountId;
      if (accountId === null) return set({ campaigns: null });
      try {
        const campaigns = await api.invoke('campaigns:list', { account_id: accountId });
        if (get().accountId === accountId) set({ campaigns: liveCampaigns(campaigns) });
      } catch (error) {
        if (get().accountId === accountId) set({ ...reported(error), campaigns: get().campaigns ?? [] });
      }
    };
    return {
      campaigns: null,
      async loadCampaigns() {
        set({ campaigns: null });
        await read();
      },
      followCampaigns: throttled(read, CAMPAIGNS_REFRESH_MS),
    };
  };

const linesSlice =
  (api: Api): StateCreator<DashboardState, [], [], LinesSlice> =>
  (set, get) => ({
    lines: null,
    async loadLines() {
      const accountId = get().accountId;
      if (accountId === null) return set({ lines: null });
      try {
        const lines = await api.invoke('lines:list', { account_id: accountId });
        if (get().accountId === accountId) set({ lines });
      } catch {
        // Not told: the dashboard then shows no next step, its figures say the rest.
      }
    },
  });

export function createDashboardStore(api: Api) {
  return createStore<DashboardState>()((...a) => ({
    ...statsSlice(api)(...a),
    ...campaignsSlice(api)(...a),
    ...linesSlice(api)(...a),
  }));
}
export type DashboardStore = ReturnType<typeof createDashboardStore>;

/** Subscribes the campaigns card to the executions' pushes; returns the unsubscribe function. */
export function followExecutions(api: Api, store: DashboardStore): () => void {
  return api.on('campaigns:execution', ({ account_id }) => {
    if (account_id === store.getState().accountId) store.getState().followCampaigns();
  });
}
