import { describe, expect, it } from 'vitest';
import { createContactsStore } from './contacts';
import { fakeApi } from '../test/fakes';
import type { SegmentSummary } from '../api';

const segment = (id: number, name: string): SegmentSummary => ({
  id,
  name,
  columns: [],
  member_count: 3,
  status: 'ready',
  source: { kind: 'import', label: `${name}.csv` },
  created_at: 0,
});

describe('contacts store', () => {
  it('lists, searches, renames and deletes segments of the account', async () => {
    let segments = [segment(1, 'club'), segment(2, 'shop')];
    const { api, transport } = fakeApi({
      'segments:list': (input) => segments.filter((s) => !input.search || s.name.includes(input.search)),
      'segments:rename': (input) => {
        segments = segments.map((s) => (s.id === input.segment_id ? { ...s, name: input.name } : s));
        return segments.find((s) => s.id === input.segment_id)!;
      },
      'segments:delete': (input) => {
        segments = segments.filter((s) => s.id !== input.segment_id);
        return null;
      },
    });
    const store = createContactsStore(api);
    await store.getState().load(1);
    expect(store.getState().segments?.map((s) => s.id)).toEqual([1, 2]);
    store.getState().setSearch('sh');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getState().segments?.map((s) => s.id)).toEqual([2]);
    store.getState().setSearch('');
    expect(await store.getState().rename(1, 'باشگاه')).toBe(true);
    expect(store.getState().segments?.[0]?.name).toBe('باشگاه');
    expect(await store.getState().remove(2)).toBe(true);
    expect(store.getState().segments?.map((s) => s.id)).toEqual([1]);
    expect(
      transport.calls
        .filter((c) => c.channel === 'segments:list')
        .every((c) => (c.input as { account_id: number }).account_id === 1),
    ).toBe(true);
  });

  it('turns a refusal into its error, shown once', async () => {
    const { api } = fakeApi({
      'segments:list': () => [segment(1, 'club')],
      'segments:combineCount': () => {
        throw Object.assign(new Error('segment 3 is importing, not ready'), { code: 400 });
      },
    });
    const store = createContactsStore(api);
    await store.getState().load(1);
    expect(await store.getState().combineCount([1, 3], [])).toBeNull();
    expect(store.getState().error).toContain('not ready');
    expect(await store.getState().combineCount([], [])).toBe(0);
  });
});
