import { describe, expect, it, vi } from 'vitest';
import { createDashboardStore, TRAILING_MS } from './dashboard';
import { fakeApi } from '../test/fakes';
import type { DashboardStats, StatusCounts } from '../api';

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
