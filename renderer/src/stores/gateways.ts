// The lines' gateways of the current account as the window follows them: each line's queue at its
// provider (counts per hand-over state, the provider's cost, a pause and its reason), the messages
// waiting for the user's decision, and the user's actions on them (resume, send again, mark as
// failed). The header's banner, the Dashboard's card, Settings → Lines and the confirmations
// ("through Kavenegar") all read this one copy. It follows `gateways:changed` pushes and is read
// again every REFRESH_EVERY_MS while the window is visible: a queue's counts move without pushes.
// Setting a line's gateway and testing its connection live with the lines (stores/settings.ts).
import { createStore } from 'zustand/vanilla';
import type { Api } from '../api';
import type { PayloadOf } from '../../../shared/ipc';
import type { Handover, LineQueue } from '../../../shared/ipc/contracts/gateways';
import { isUpstream, type GatewayKind, type HandoverState } from '../../../shared/gateways';
import { errorMessage, reported } from './errors';
import { throttled } from '../lib/throttled';

export type { Handover, LineQueue };

/** The states whose messages wait for the user (the review list). */
export const USER_STATES = ['review', 'unknown'] as const satisfies readonly HandoverState[];
/** How many of them the list shows (the contract's limit is larger; the actions cover all of them). */
export const HANDOVERS_SHOWN = 100;
/** A queue's counts are read again this often while the window is visible. */
export const REFRESH_EVERY_MS = 10_000;
/** Pushes in a burst (several lines paused at once) are read at most this often. */
export const PUSH_REFRESH_MS = 500;

export type GatewayAction = 'resume' | 'retry' | 'markFailed';

export interface GatewaysState {
  accountId: number | null;
  /** Every line of the account (simulator ones too); null until read. */
  queues: LineQueue[] | null;
  /** The messages needing review or unknown, per line number, as last read. */
  handovers: Record<string, Handover[]>;
  /** The action running, per line number: its buttons wait for it (nothing is asked twice). */
  busy: Record<string, GatewayAction>;
  error: string | null;
  setAccount(accountId: number | null): void;
  /** Reads every line's queue again. */
  refresh(): Promise<void>;
  /** A push: the line's pause changed (read again, throttled). */
  follow(payload: PayloadOf<'gateways:changed'>): void;
  /** Reads the messages of a line that wait for the user. */
  loadHandovers(number: string): Promise<void>;
  /** A paused line goes on; null when done, else why not. */
  resume(number: string): Promise<string | null>;
  /** Messages needing review are sent again (the user confirmed it may cost twice); null or why not. */
  retry(number: string, messageIds?: number[]): Promise<string | null>;
  /** Messages needing review or unknown end cancelled and refunded; null or why not. */
  markFailed(number: string, messageIds?: number[]): Promise<string | null>;
}

export function createGatewaysStore(api: Api) {
  const store = createStore<GatewaysState>()((set, get) => {
    /** A queue answered by an action replaces the line's own in the list. */
    const replace = (queue: LineQueue) => {
      const queues = get().queues;
      if (queues) set({ queues: queues.map((q) => (q.line_id === queue.line_id ? queue : q)) });
    };
    const act = async (
      number: string,
      action: GatewayAction,
      call: (accountId: number) => Promise<LineQueue>,
    ): Promise<string | null> => {
      const accountId = get().accountId;
      if (accountId === null || get().busy[number]) return null;
      set({ busy: { ...get().busy, [number]: action } });
      try {
        const queue = await call(accountId);
        if (get().accountId !== accountId) return null;
        replace(queue);
        if (action !== 'resume') await get().loadHandovers(number);
        return null;
      } catch (error) {
        return errorMessage(error);
      } finally {
        const { [number]: _done, ...rest } = get().busy;
        set({ busy: rest });
      }
    };
    return {
      accountId: null,
      queues: null,
      handovers: {},
      busy: {},
      error: null,
      setAccount(accountId) {
        if (accountId === get().accountId) return;
        set({ accountId, queues: null, handovers: {}, busy: {}, error: null });
        void get().refresh();
      },
      async refresh() {
        const accountId = get().accountId;
        if (accountId === null) return;
        try {
          const queues = await api.invoke('gateways:queues', { account_id: accountId });
          if (get().accountId === accountId) set({ queues, error: null });
        } catch (error) {
          if (get().accountId === accountId) set(reported(error));
        }
      },
      follow(payload) {
        if (payload.account_id !== get().accountId) return;
        // The pause is known at once (the banner shows without waiting for the read).
        const queues = get().queues;
        if (queues)
          set({ queues: queues.map((q) => (q.line_id === payload.line_id ? { ...q, paused: payload.paused } : q)) });
        refreshSoon();
      },
      async loadHandovers(number) {
        const accountId = get().accountId;
        if (accountId === null) return;
        try {
          const lists = await Promise.all(
            USER_STATES.map((state) =>
              api.invoke('gateways:handovers', { account_id: accountId, number, state, limit: HANDOVERS_SHOWN }),
            ),
          );
          if (get().accountId !== accountId) return;
          // The oldest first: the ones waiting longest for a decision.
          const rows = lists.flat().sort((a, b) => a.updated_at - b.updated_at || a.message_id - b.message_id);
          set({ handovers: { ...get().handovers, [number]: rows } });
        } catch (error) {
          if (get().accountId === accountId) set(reported(error));
        }
      },
      resume: (number) =>
        act(number, 'resume', (accountId) => api.invoke('gateways:resume', { account_id: accountId, number })),
      retry: (number, messageIds) =>
        act(number, 'retry', (accountId) =>
          api.invoke('gateways:retry', {
            account_id: accountId,
            number,
            ...(messageIds ? { message_ids: messageIds } : {}),
          }),
        ),
      markFailed: (number, messageIds) =>
        act(number, 'markFailed', (accountId) =>
          api.invoke('gateways:markFailed', {
            account_id: accountId,
            number,
            ...(messageIds ? { message_ids: messageIds } : {}),
          }),
        ),
    };
  });
  const refreshSoon = throttled(() => store.getState().refresh(), PUSH_REFRESH_MS);
  return store;
}
export type GatewaysStore = ReturnType<typeof createGatewaysStore>;

export const gatewaysSelectors = {
  /** The lines that stopped handing over, in the list's order. */
  paused: (s: GatewaysState): LineQueue[] => (s.queues ?? []).filter((q) => q.paused !== null),
  /** The lines whose messages go to a provider (their queue is shown). */
  upstream: (s: GatewaysState): LineQueue[] => (s.queues ?? []).filter((q) => isUpstream(q.kind)),
  queueOf:
    (number: string) =>
    (s: GatewaysState): LineQueue | undefined =>
      s.queues?.find((q) => q.number === number),
  /**
   * Who delivers a line's messages as last read; `fallback` (the line as another store read it)
   * until the queues are here.
   */
  kindOf:
    (number: string, fallback: GatewayKind | undefined) =>
    (s: GatewaysState): GatewayKind | undefined =>
      s.queues?.find((q) => q.number === number)?.kind ?? fallback,
};

/** How many messages of a queue wait for the user: the retry's count, and mark-as-failed's. */
export function waitingForUser(queue: LineQueue): { review: number; unknown: number } {
  return { review: queue.counts.review ?? 0, unknown: queue.counts.unknown ?? 0 };
}

/**
 * Follows the pushes and reads the queues again every `everyMs` while the window is visible (and
 * at once when it becomes visible again); returns the function that stops both.
 */
export function followGateways(
  api: Api,
  store: GatewaysStore,
  options: { everyMs?: number; visible?: () => boolean } = {},
): () => void {
  // Unit tests run without a document: always visible there, unless told.
  const page = typeof document === 'undefined' ? null : document;
  const visible = options.visible ?? (() => page?.visibilityState !== 'hidden');
  const unsubscribe = api.on('gateways:changed', (payload) => store.getState().follow(payload));
  const timer = setInterval(() => {
    if (visible()) void store.getState().refresh();
  }, options.everyMs ?? REFRESH_EVERY_MS);
  const onVisibility = () => {
    if (visible()) void store.getState().refresh();
  };
  page?.addEventListener('visibilitychange', onVisibility);
  return () => {
    unsubscribe();
    clearInterval(timer);
    page?.removeEventListener('visibilitychange', onVisibility);
  };
}
