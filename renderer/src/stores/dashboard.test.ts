import { describe, expect, it } from 'vitest';
import { createDashboardStore } from './dashboard';
import { fakeApi } from '../test/fakes';
import type { DashboardStats, StatusCounts } from '../api';

const counts = (total: number): StatusCounts => ({ total, pending: 0, delivered: total, undelivered: 0, cancelled: 0, blocked: 0, cost_rials: 0 });
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
