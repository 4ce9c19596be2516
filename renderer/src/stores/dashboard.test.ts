import { describe, expect, it, vi } from 'vitest';
import {
  CAMPAIGNS_REFRESH_MS,
  createDashboardStore,
  followExecutions,
  liveCampaigns,
  nextStep,
  TRAILING_MS,
} from './dashboard';
import { account, fakeApi, line } from '../test/fakes';
import { ACCOUNTS_REFRESH_MS, connectStores, createStores } from './index';
import { sessionSelectors } from './session';
import type { DashboardStats, StatusCounts } from '../api';
import type { CampaignSummary } from '../../../shared/ipc/contracts/campaigns';
import type { ExecutionStatus } from '../../../shared/campaigns';

const counts = (total: number): StatusCounts => ({
  total,
  pending: 0,
  delivered: total,
  undelivered: 0,
  cancelled: 0,
  blocked: 0,
  cost_rials: 0,
});
const stats = (total: number): DashboardStats => ({
  now: 0,
  today: counts(total),
  week: counts(total),
  delivery_rate: total ? 1 : null,
  credit_rials: 10,
  week_cost: { provider_rials: 0, price_list_rials: 0 },
  hourly: [],
  daily: [],
});

describe('dashboard store', () => {
  it('collapses a burst of refreshes into one more read', async () => {
    let reads = 0;
    const { api } = fakeApi({ 'dashboard:stats': () => stats(++reads) });
    const store = createDashboardStore(api);
    await store.getState().load(1);
    expect(reads).toBe(1);
    await Promise.all([store.getState().refresh(), store.getState().refresh(), store.getState().refresh()]);
    expect(reads).toBe(3);
    expect(store.getState().stats?.today.total).toBe(3);
  });
});

describe('dashboard store, trailing read', () => {
  it('reads once more after a burst of pushes, for figures the service had cached', async () => {
    vi.useFakeTimers();
    try {
      let reads = 0;
      const { api } = fakeApi({ 'dashboard:stats': () => stats(++reads) });
      const store = createDashboardStore(api);
      await store.getState().load(1);
      store.getState().followPushes();
      store.getState().followPushes();
      await vi.advanceTimersByTimeAsync(TRAILING_MS + 10);
      const afterBurst = reads;
      expect(afterBurst).toBeGreaterThanOrEqual(3);
      await vi.advanceTimersByTimeAsync(TRAILING_MS * 5);
      expect(reads).toBe(afterBurst); // nothing more without pushes: no polling
    } finally {
      vi.useRealTimers();
    }
  });
});

/** A campaign whose last execution is in `status` (null: never executed). */
function campaign(
  id: number,
  status: ExecutionStatus | null,
  times: { send?: string; started?: string | null } = {},
  paused = false,
): CampaignSummary {
  return {
    campaign_id: id,
    name: `campaign ${id}`,
    sender: '30001111',
    template_body: 'hi {{NAME}}',
    inclusion_segments: [1],
    exclusion_segments: [],
    links: [],
    send_rate: null,
    quiet_hours: null,
    track_links: true,
    filter: null,
    file_name: null,
    series: null,
    created_at: 0,
    last_execution:
      status === null
        ? null
        : {
            execution_id: id * 10,
            campaign_id: id,
            execution_status: status,
            send_datetime: times.send ?? '2025-01-01T10:00:00+03:30',
            started_at: times.started ?? null,
            finished_at: null,
            audience: 100,
            sent: 40,
            delivered: 30,
            failed: 2,
            pending: 8,
            cost: 60_000,
            skipped: 0,
            refunded: 0,
            clicks: 0,
            track_links: true,
            paused,
            reserved: 0,
            estimated_last_message_at: null,
            error: null,
          },
  };
}

describe('dashboard store, campaigns', () => {
  it('shows the running (paused too) then the upcoming by send time, and nothing that ended', () => {
    const shown = liveCampaigns([
      campaign(1, 'COMPLETED'),
      campaign(2, 'SCHEDULED', { send: '2025-01-03T10:00:00+03:30' }),
      campaign(3, 'RUNNING', { started: '2025-01-01T09:00:00Z' }, true),
      campaign(4, null),
      campaign(5, 'SCHEDULED', { send: '2025-01-02T10:00:00+03:30' }),
      campaign(6, 'CANCELLED'),
      campaign(7, 'FAILED'),
      campaign(8, 'RUNNING', { started: '2025-01-01T08:00:00Z' }),
    ]);
    expect(shown.map((c) => c.campaign_id)).toEqual([8, 3, 5, 2]);
    expect(shown[1]!.last_execution.paused).toBe(true);
  });

  it('reads them with the figures, and again when an execution of this account moves', async () => {
    vi.useFakeTimers();
    try {
      let list = [campaign(1, 'SCHEDULED')];
      const { api, transport } = fakeApi({
        'dashboard:stats': () => stats(1),
        'campaigns:list': () => list,
      });
      const store = createDashboardStore(api);
      const stop = followExecutions(api, store);
      await store.getState().load(1);
      expect(store.getState().campaigns?.map((c) => c.campaign_id)).toEqual([1]);
      expect(transport.calls.find((c) => c.channel === 'campaigns:list')?.input).toEqual({ account_id: 1 });
      const reads = () => transport.calls.filter((c) => c.channel === 'campaigns:list').length;
      await vi.advanceTimersByTimeAsync(CAMPAIGNS_REFRESH_MS);

      transport.emit('campaigns:execution', { execution_id: 10, campaign_id: 1, account_id: 2, status: 'RUNNING' });
      await vi.advanceTimersByTimeAsync(CAMPAIGNS_REFRESH_MS);
      expect(reads()).toBe(1);

      list = [campaign(1, 'COMPLETED')];
      transport.emit('campaigns:execution', { execution_id: 10, campaign_id: 1, account_id: 1, status: 'COMPLETED' });
      transport.emit('campaigns:execution', { execution_id: 10, campaign_id: 1, account_id: 1, status: 'COMPLETED' });
      await vi.advanceTimersByTimeAsync(CAMPAIGNS_REFRESH_MS * 3);
      // Two pushes close together: a read now and one after the gap, never one per push.
      expect(reads()).toBe(3);
      expect(store.getState().campaigns).toEqual([]);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it("follows a running campaign's progress on status pushes, and leaves the list alone when none runs", async () => {
    vi.useFakeTimers();
    try {
      let list = [campaign(1, 'SCHEDULED')];
      const { api, transport } = fakeApi({
        'dashboard:stats': () => stats(1),
        'campaigns:list': () => list,
      });
      const store = createDashboardStore(api);
      await store.getState().load(1);
      const reads = () => transport.calls.filter((c) => c.channel === 'campaigns:list').length;
      store.getState().followPushes();
      await vi.advanceTimersByTimeAsync(TRAILING_MS * 2);
      expect(reads()).toBe(1);

      list = [campaign(1, 'RUNNING', { started: '2025-01-01T09:00:00Z' })];
      await store.getState().loadCampaigns();
      store.getState().followPushes();
      await vi.advanceTimersByTimeAsync(TRAILING_MS * 2);
      expect(reads()).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

/** All stores wired to a fake core with account 1 chosen and settled; reads(channel) counts calls. */
async function connectedOnAccount1() {
  const { api, transport } = fakeApi({
    'accounts:list': () => [account({ id: 1 })],
    'dashboard:stats': () => stats(1),
    'campaigns:list': () => [],
    'credit:balance': () => ({ account_id: 1, credit_rials: 10_000_000 }),
    'credit:ledger': () => ({ entries: [], next_before_id: null }),
  });
  const stores = createStores(api, 'en-US', null);
  const stop = connectStores(api, stores);
  await stores.session.getState().loadAccounts();
  await vi.advanceTimersByTimeAsync(ACCOUNTS_REFRESH_MS * 2);
  const reads = (channel: string) => transport.calls.filter((c) => c.channel === channel).length;
  const pushCredit = (credit_rials: number, account_id = 1) =>
    transport.emit('credit:changed', { credits: [{ account_id, credit_rials }] });
  return { reads, pushCredit, stores, stop };
}

describe('the credit pushed by the core (credit:changed)', () => {
  it('moves the header and the dashboard at once, without reading the accounts or the figures', async () => {
    vi.useFakeTimers();
    try {
      const { reads, pushCredit, stores, stop } = await connectedOnAccount1();
      const accounts = reads('accounts:list');
      const figures = reads('dashboard:stats');
      pushCredit(12_345_000);
      expect(sessionSelectors.credit(stores.session.getState())).toBe(12_345_000);
      expect(stores.dashboard.getState().stats?.credit_rials).toBe(12_345_000);
      await vi.advanceTimersByTimeAsync(ACCOUNTS_REFRESH_MS * 2);
      expect(reads('accounts:list')).toBe(accounts);
      expect(reads('dashboard:stats')).toBe(figures);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads the ledger at most once per ACCOUNTS_REFRESH_MS however many changes are pushed, and once after the last', async () => {
    vi.useFakeTimers();
    try {
      const { reads: readsOf, pushCredit, stop } = await connectedOnAccount1();
      const reads = () => readsOf('credit:ledger');
      const before = reads();
      // Three pushes a second (a run's refunds), for three seconds.
      for (let i = 0; i < 9; i++) {
        pushCredit(10_000_000 + i);
        await vi.advanceTimersByTimeAsync(333);
      }
      await vi.advanceTimersByTimeAsync(ACCOUNTS_REFRESH_MS * 2);
      const during = reads() - before;
      expect(during).toBeGreaterThanOrEqual(2);
      expect(during).toBeLessThanOrEqual(Math.ceil(3000 / ACCOUNTS_REFRESH_MS) + 1);
      // Nothing pushed: no more reads; another account's credit is not this ledger's.
      pushCredit(5, 2);
      await vi.advanceTimersByTimeAsync(ACCOUNTS_REFRESH_MS * 5);
      expect(reads() - before).toBe(during);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the next step of an empty dashboard', () => {
  it('is a line to send from first, then a first message', async () => {
    expect(nextStep([])).toBe('addLine');
    expect(nextStep([line({ active: false })])).toBe('addLine');
    expect(nextStep([line({ can_send_panel_campaign: false })])).toBe('addLine');
    expect(nextStep([line({ active: false }), line({ id: 2, number: '30002222' })])).toBe('compose');

    let lines = [line({ active: false })];
    const { api } = fakeApi({
      'dashboard:stats': () => stats(0),
      'campaigns:list': () => [],
      'lines:list': () => lines,
    });
    const store = createDashboardStore(api);
    await store.getState().load(1);
    expect(nextStep(store.getState().lines!)).toBe('addLine');
    // A line added in Settings meanwhile: read again when the dashboard is shown.
    lines = [line()];
    await store.getState().loadLines();
    expect(nextStep(store.getState().lines!)).toBe('compose');
  });
});
