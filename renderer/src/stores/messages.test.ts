import { describe, expect, it } from 'vitest';
import { createMessagesStore, followStatusChanges, messagesSelectors, PAGE_SIZE } from './messages';
import { fakeApi, messageRow, until } from '../test/fakes';

/** A fake service holding `total` messages, newest (highest id) first. */
function service(total: number) {
  const rowsAt = (offset: number, limit: number) =>
    Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => messageRow(total - offset - i));
  return fakeApi({
    'messages:count': () => ({ count: total }),
    'messages:list': ({ offset = 0, limit = PAGE_SIZE }) => ({ rows: rowsAt(offset, limit), next_cursor: null }),
  });
}

describe('messages store', () => {
  it('counts and loads only the first page, then pages as rows come into view', async () => {
    const { api, transport } = service(1_000_000);
    const store = createMessagesStore(api);
    store.getState().setAccount(1);
    await until(store, (s) => s.count !== null && s.pages[0] !== undefined);
    expect(store.getState().count).toBe(1_000_000);
    expect(transport.calls.filter((c) => c.channel === 'messages:list')).toHaveLength(1);

    store.getState().ensureRows(999_950, 999_999);
    const last = Math.floor(999_999 / PAGE_SIZE);
    await until(store, (s) => s.pages[last] !== undefined);
    expect(messagesSelectors.row(store.getState(), 999_999)?.id).toBe(1);
    const list = transport.calls.filter((c) => c.channel === 'messages:list').at(-1);
    expect(list?.input).toMatchObject({ account_id: 1, offset: last * PAGE_SIZE, limit: PAGE_SIZE });
  });

  it('sends the filter to the service and drops answers of an older filter', async () => {
    const { api, transport } = service(500);
    const store = createMessagesStore(api);
    store.getState().setAccount(1);
    store.getState().setFilter({ statuses: [10], text: '  sale ', sender: '' });
    await until(store, (s) => s.count !== null);
    expect(store.getState().filter).toEqual({ statuses: [10], text: 'sale' });
    expect(transport.calls.at(-1)?.input).toMatchObject({ account_id: 1, status: [10], text: 'sale' });
    expect(store.getState().generation).toBe(2);
  });

  it('merges a push that overtakes the page being read, and never moves a status back', async () => {
    // The fake service reaches the store it serves through this holder.
    const holder: { store?: ReturnType<typeof createMessagesStore> } = {};
    const { api } = fakeApi({
      'messages:count': () => ({ count: 2 }),
      'messages:list': () => {
        // The database answered with 4 for message 2; its final status is pushed before the page lands.
        holder.store!.getState().applyStatusChanges([{ id: 2, account_id: 1, status: 10 }]);
        return { rows: [messageRow(2, { status: 4 }), messageRow(1, { status: 11 })], next_cursor: null };
      },
    });
    const store = (holder.store = createMessagesStore(api));
    store.getState().setAccount(1);
    await until(store, (s) => s.pages[0] !== undefined && s.count !== null);
    expect(store.getState().pages[0]!.map((r) => [r.id, r.status])).toEqual([
      [2, 10],
      [1, 11],
    ]);
    store.getState().applyStatusChanges([{ id: 1, account_id: 1, status: 4 }]);
    expect(store.getState().pages[0]!.find((r) => r.id === 1)?.status).toBe(11);
  });

  it('moves statuses of loaded rows from pushes, for its own account only', async () => {
    const { api, transport } = service(3);
    const store = createMessagesStore(api);
    const stop = followStatusChanges(api, store);
    store.getState().setAccount(1);
    await until(store, (s) => s.pages[0] !== undefined);
    transport.emit('messages:status-changed', {
      changes: [
        { id: 2, account_id: 1, status: 4 },
        { id: 3, account_id: 9, status: 11 },
      ],
    });
    expect(messagesSelectors.row(store.getState(), 1)).toMatchObject({ id: 2, status: 4 });
    expect(messagesSelectors.row(store.getState(), 0)).toMatchObject({ id: 3, status: 1 });
    stop();
    transport.emit('messages:status-changed', { changes: [{ id: 2, account_id: 1, status: 10 }] });
    expect(messagesSelectors.row(store.getState(), 1)?.status).toBe(4);
  });

  it('re-reads the head when a newer message than any shown moves', async () => {
    let total = 2;
    const { api, transport } = fakeApi({
      'messages:count': () => ({ count: total }),
      'messages:list': () => ({
        rows: Array.from({ length: total }, (_, i) => messageRow(total - i)),
        next_cursor: null,
      }),
    });
    const store = createMessagesStore(api);
    store.getState().setAccount(1);
    await until(store, (s) => s.count === 2);
    total = 3;
    store.getState().applyStatusChanges([{ id: 3, account_id: 1, status: 4 }]);
    await until(store, (s) => s.count === 3);
    expect(transport.calls.filter((c) => c.channel === 'messages:count')).toHaveLength(2);
  });

  it('exports the filtered rows', async () => {
    const { api, transport } = fakeApi({
      'messages:count': () => ({ count: 0 }),
      'messages:list': () => ({ rows: [], next_cursor: null }),
      'messages:export': ({ format }) => ({
        export_id: 'e1',
        format,
        rows: 7,
        path: null,
        url: '/exports/x.csv',
        file_name: 'x.csv',
      }),
    });
    const store = createMessagesStore(api);
    store.getState().setAccount(1);
    store.getState().setFilter({ statuses: [11] });
    const result = await store.getState().exportRows('csv');
    expect(result).toMatchObject({ rows: 7, url: '/exports/x.csv' });
    expect(transport.calls.at(-1)).toMatchObject({
      channel: 'messages:export',
      input: { account_id: 1, status: [11], format: 'csv' },
    });
  });
});

describe('messages store, new messages while scrolled', () => {
  it('keeps rows on screen while the head is re-read, then refetches the rows shown', async () => {
    let total = 1000;
    const { api, transport } = fakeApi({
      'messages:count': () => ({ count: total }),
      'messages:list': ({ offset = 0, limit = PAGE_SIZE }) => ({
        rows: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) =>
          messageRow(total - offset - i),
        ),
        next_cursor: null,
      }),
    });
    const store = createMessagesStore(api);
    store.getState().setAccount(1);
    await until(store, (s) => s.count === 1000);
    store.getState().ensureRows(500, 520);
    await until(store, (s) => s.pages[5] !== undefined);

    total = 1005;
    store.getState().applyStatusChanges([{ id: 1005, account_id: 1, status: 4 }]);
    // Never emptied in between: the table does not flash.
    expect(store.getState().count).toBe(1000);
    await until(store, (s) => s.count === 1005 && s.pages[5] !== undefined);
    expect(messagesSelectors.row(store.getState(), 500)?.id).toBe(505);
    expect(transport.calls.filter((c) => c.channel === 'messages:count').length).toBe(2);
  });
});
