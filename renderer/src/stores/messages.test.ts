import { describe, expect, it, vi } from 'vitest';
import {
  createMessagesStore,
  followStatusChanges,
  messagesSelectors,
  PAGE_SIZE,
  SENDS_PAGE_SIZE,
  SENDS_REFRESH_MS,
} from './messages';
import { fakeApi, messageRow, until } from '../test/fakes';
import { IpcCallError, OFFLINE_CODE, OFFLINE_REASON } from '../../../shared/ipc';
import type { Api } from '../api';
import type { SendRow } from '../../../shared/ipc/contracts/messaging';

/** A fake service holding `total` messages (or as many as it says at each call), newest (highest id) first. */
function service(total: number | (() => number)) {
  const count = typeof total === 'number' ? () => total : total;
  const rowsAt = (offset: number, limit: number, n = count()) =>
    Array.from({ length: Math.max(0, Math.min(limit, n - offset)) }, (_, i) => messageRow(n - offset - i));
  return fakeApi({
    'messages:count': () => ({ count: count() }),
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

  it('counts a send recorded between the two reads of a head refresh, once its pushes come', async () => {
    // 100 messages, then a send of 50 (101..150) whose push reads the head again; while that read
    // is under way, between its two requests, another send of 50 (151..200) is recorded.
    let total = 100;
    let between = false;
    const after = <T>(answer: T): T => {
      if (between) [between, total] = [false, 200];
      return answer;
    };
    const rowsAt = (offset: number, limit: number) =>
      Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => messageRow(total - offset - i));
    const { api } = fakeApi({
      'messages:count': () => after({ count: total }),
      'messages:list': ({ offset = 0, limit = PAGE_SIZE }) => after({ rows: rowsAt(offset, limit), next_cursor: null }),
    });
    const store = createMessagesStore(api);
    store.getState().setAccount(1);
    await until(store, (s) => s.count === 100 && s.pages[0] !== undefined);

    [total, between] = [150, true];
    store.getState().applyStatusChanges([{ id: 101, account_id: 1, status: 4 }]);
    await until(store, (s) => s.pages[0]?.[0]?.id !== 100);
    // The second send's messages move on: their pushes bring the head and the count up to date.
    store
      .getState()
      .applyStatusChanges(Array.from({ length: 50 }, (_, i) => ({ id: 151 + i, account_id: 1, status: 4 })));
    await until(store, (s) => s.count === 200 && s.pages[0]?.[0]?.id === 200);
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
    const result = await store.getState().exportRows('csv', { language: 'en', time_zone: 'Europe/Berlin' });
    expect(result).toMatchObject({ rows: 7, url: '/exports/x.csv' });
    expect(transport.calls.at(-1)).toMatchObject({
      channel: 'messages:export',
      input: { account_id: 1, status: [11], format: 'csv', language: 'en', time_zone: 'Europe/Berlin' },
    });
  });
});

describe('messages store, new messages while scrolled', () => {
  it('keeps rows on screen while the head is re-read, then refetches the rows shown', async () => {
    let total = 1000;
    const { api, transport } = service(() => total);
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

/** A row of the by-send list. */
const sendRow = (id: number, overrides: Partial<SendRow> = {}): SendRow => ({
  kind: 'send',
  send_id: id,
  execution_id: null,
  campaign_id: null,
  name: null,
  origin: 'panel',
  account_id: 1,
  sender: '30001111',
  text: 'hi',
  created_at: 1_700_000_000_000,
  messages: 2,
  delivered: 1,
  failed: 0,
  pending: 1,
  cost_rials: 3000,
  execution_status: null,
  ...overrides,
});

/** A fake service with `total` sends (newest first) and a few messages in each. */
function sendsService(total: number) {
  return fakeApi({
    'sends:list': ({ offset = 0, limit = SENDS_PAGE_SIZE }) => ({
      rows: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => sendRow(total - offset - i)),
      total,
    }),
    'sends:get': (input) =>
      'send_id' in input
        ? sendRow(input.send_id)
        : sendRow(0, { kind: 'execution', send_id: null, execution_id: input.execution_id, name: 'Yalda' }),
    'messages:count': () => ({ count: 3 }),
    'messages:list': () => ({ rows: [messageRow(3), messageRow(2), messageRow(1)], next_cursor: null }),
    'messages:export': ({ format }) => ({
      export_id: 'e1',
      format,
      rows: 3,
      path: null,
      url: '/exports/x.csv',
      file_name: 'x.csv',
    }),
  });
}

describe('messages store, by send', () => {
  it('reads the by-send list a page at a time, with the total', async () => {
    const { api, transport } = sendsService(120);
    const store = createMessagesStore(api);
    store.getState().setAccount(1);
    store.getState().showSends(0);
    await until(store, (s) => s.sendRows !== null);
    expect(store.getState().sendsTotal).toBe(120);
    expect(
      store
        .getState()
        .sendRows!.map((r) => r.send_id)
        .slice(0, 2),
    ).toEqual([120, 119]);

    store.getState().showSends(2);
    expect(store.getState().sendRows).toBeNull();
    await until(store, (s) => s.sendRows !== null);
    // The last page holds what is left: 120 - 2 * 50.
    expect(store.getState().sendRows).toHaveLength(120 - 2 * SENDS_PAGE_SIZE);
    expect(transport.calls.filter((c) => c.channel === 'sends:list').at(-1)?.input).toMatchObject({
      account_id: 1,
      offset: 2 * SENDS_PAGE_SIZE,
      limit: SENDS_PAGE_SIZE,
    });
  });

  it('narrows count, pages and export to one send, and shows its row', async () => {
    const { api, transport } = sendsService(3);
    const store = createMessagesStore(api);
    store.getState().setAccount(1);
    store.getState().setFilter({ statuses: [10] });
    store.getState().setScope({ kind: 'send', id: 7 });
    // A send opens with all its messages: the filters of the whole list are not carried over.
    expect(store.getState().filter).toEqual({});
    await until(store, (s) => s.count === 3 && s.scopeRow !== null);
    expect(store.getState().scopeRow).toMatchObject({ kind: 'send', send_id: 7 });
    expect(transport.calls.find((c) => c.channel === 'sends:get')?.input).toEqual({ account_id: 1, send_id: 7 });
    const reads = transport.calls.filter((c) => c.channel === 'messages:count' || c.channel === 'messages:list');
    expect(reads.at(-1)?.input).toMatchObject({ account_id: 1, send_id: 7 });
    expect(reads.at(-2)?.input).toMatchObject({ account_id: 1, send_id: 7 });

    // Filters inside the send keep it; clearing them keeps it too.
    store.getState().setFilter({ statuses: [11] });
    await until(store, (s) => s.count !== null);
    expect(transport.calls.at(-1)?.input).toMatchObject({ send_id: 7, status: [11] });
    store.getState().clearFilter();
    await until(store, (s) => s.count !== null);
    expect(transport.calls.at(-1)?.input).toMatchObject({ send_id: 7 });
    expect(transport.calls.at(-1)?.input).not.toHaveProperty('status');

    await store.getState().exportRows('csv', { language: 'fa', time_zone: 'Asia/Tehran' });
    expect(transport.calls.at(-1)).toMatchObject({ channel: 'messages:export', input: { account_id: 1, send_id: 7 } });
  });

  it("narrows to a campaign execution's messages, and back to every message", async () => {
    const { api, transport } = sendsService(3);
    const store = createMessagesStore(api);
    store.getState().setAccount(1);
    store.getState().setScope({ kind: 'execution', id: 5 });
    await until(store, (s) => s.count !== null && s.scopeRow !== null);
    expect(store.getState().scopeRow).toMatchObject({ kind: 'execution', execution_id: 5, name: 'Yalda' });
    expect(transport.calls.find((c) => c.channel === 'sends:get')?.input).toEqual({ account_id: 1, execution_id: 5 });
    expect(transport.calls.at(-1)?.input).toMatchObject({ execution_id: 5 });
    expect(transport.calls.at(-1)?.input).not.toHaveProperty('send_id');

    store.getState().setScope(null);
    await until(store, (s) => s.count !== null);
    expect(store.getState().scopeRow).toBeNull();
    expect(transport.calls.at(-1)?.input).not.toHaveProperty('execution_id');
  });

  it('says why a send cannot be opened', async () => {
    const { api } = fakeApi({
      'sends:get': () => {
        throw { code: 400, message: 'no such send' };
      },
      'messages:count': () => ({ count: 0 }),
      'messages:list': () => ({ rows: [], next_cursor: null }),
    });
    const store = createMessagesStore(api);
    store.getState().setAccount(1);
    store.getState().setScope({ kind: 'send', id: 99 });
    await until(store, (s) => s.scopeError !== null);
    expect(store.getState().scopeError).toContain('no such send');
  });
});

describe('messages store, sends following pushes', () => {
  it('re-reads the shown list and the open send now and once after a burst, and not without pushes', async () => {
    vi.useFakeTimers();
    try {
      const { api, transport } = sendsService(3);
      const store = createMessagesStore(api);
      const stop = followStatusChanges(api, store);
      store.getState().setAccount(1);
      store.getState().showSends(0);
      store.getState().setScope({ kind: 'send', id: 3 });
      await vi.advanceTimersByTimeAsync(SENDS_REFRESH_MS * 2);
      const count = (channel: string) => transport.calls.filter((c) => c.channel === channel).length;
      const [lists, gets] = [count('sends:list'), count('sends:get')];

      // A burst of pushes: one read at once, one more when the gap is over.
      for (let i = 0; i < 10; i++)
        transport.emit('messages:status-changed', { changes: [{ id: 1, account_id: 1, status: 4 }] });
      await vi.advanceTimersByTimeAsync(0);
      expect([count('sends:list'), count('sends:get')]).toEqual([lists + 1, gets + 1]);
      await vi.advanceTimersByTimeAsync(SENDS_REFRESH_MS);
      expect([count('sends:list'), count('sends:get')]).toEqual([lists + 2, gets + 2]);
      await vi.advanceTimersByTimeAsync(SENDS_REFRESH_MS * 5);
      expect([count('sends:list'), count('sends:get')]).toEqual([lists + 2, gets + 2]);

      // An execution of this account moving on re-reads; another account's does not.
      transport.emit('campaigns:execution', { execution_id: 4, campaign_id: 2, account_id: 9, status: 'RUNNING' });
      await vi.advanceTimersByTimeAsync(SENDS_REFRESH_MS);
      expect(count('sends:list')).toBe(lists + 2);
      transport.emit('campaigns:execution', { execution_id: 4, campaign_id: 2, account_id: 1, status: 'RUNNING' });
      await vi.advanceTimersByTimeAsync(SENDS_REFRESH_MS);
      expect(count('sends:list')).toBe(lists + 3);

      // Off screen, the list is not read again.
      store.getState().hideSends();
      transport.emit('messages:status-changed', { changes: [{ id: 1, account_id: 1, status: 10 }] });
      await vi.advanceTimersByTimeAsync(SENDS_REFRESH_MS * 2);
      expect(count('sends:list')).toBe(lists + 3);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not re-read a direct send's messages when newer messages move (a send is recorded whole)", async () => {
    const { api, transport } = sendsService(3);
    const store = createMessagesStore(api);
    store.getState().setAccount(1);
    store.getState().setScope({ kind: 'send', id: 3 });
    await until(store, (s) => s.count === 3);
    const counts = () => transport.calls.filter((c) => c.channel === 'messages:count').length;
    const before = counts();
    store.getState().applyStatusChanges([{ id: 50, account_id: 1, status: 4 }]);
    store.getState().setScope({ kind: 'execution', id: 3 });
    await until(store, (s) => s.count === 3);
    // Only setScope's reload: no head re-read for the send.
    expect(counts()).toBe(before + 1);
    store.getState().applyStatusChanges([{ id: 50, account_id: 1, status: 4 }]);
    await until(store, () => counts() === before + 2);
  });
});

/** Calls through `api` fail as a lost connection does (web mode: the server stopped) while `lost.now`. */
function losable(api: Api): { now: boolean } {
  const lost = { now: false };
  const invoke = api.invoke.bind(api);
  Object.assign(api, {
    invoke: (channel: string, input: unknown) =>
      lost.now
        ? Promise.reject(
            new IpcCallError(channel, { code: OFFLINE_CODE, message: 'connection lost', reason: OFFLINE_REASON }),
          )
        : (invoke as (channel: string, input: unknown) => Promise<unknown>)(channel, input),
  });
  return lost;
}

describe('messages store, when the core cannot be reached', () => {
  it('keeps the last rows and count on screen, marked stale, and reads them again once it answers', async () => {
    let total = 5;
    const { api } = service(() => total);
    const lost = losable(api);
    const store = createMessagesStore(api);
    store.getState().setAccount(1);
    await until(store, (s) => s.count === 5 && s.pages[0] !== undefined);

    // A push of a new message asks for the head again: it fails, and nothing goes away.
    lost.now = true;
    await store.getState().refreshHead();
    expect(store.getState()).toMatchObject({ count: 5, stale: true });
    expect(store.getState().error).not.toBeNull();
    expect(store.getState().pages[0]).toHaveLength(5);

    // Back (the transport's reconnection asks for the head): the new rows replace the old.
    lost.now = false;
    total = 6;
    await store.getState().refreshHead();
    expect(store.getState()).toMatchObject({ count: 6, stale: false, error: null });
    expect(store.getState().pages[0]).toHaveLength(6);
  });

  it('a new filter read while out of reach leaves the count unknown, never 0', async () => {
    const { api } = service(5);
    const lost = losable(api);
    const store = createMessagesStore(api);
    store.getState().setAccount(1);
    await until(store, (s) => s.count === 5);
    lost.now = true;
    store.getState().setFilter({ text: 'sale' });
    await until(store, (s) => s.stale);
    expect(store.getState().count).toBeNull();
    lost.now = false;
    await store.getState().refreshHead();
    expect(store.getState()).toMatchObject({ count: 5, stale: false });
  });

  it('the by-send list and an open send stay as they were', async () => {
    const row: SendRow = {
      kind: 'send',
      send_id: 7,
      execution_id: null,
      campaign_id: null,
      name: null,
      origin: 'panel',
      account_id: 1,
      sender: '30001111',
      text: 'hi',
      created_at: 0,
      messages: 3,
      delivered: 3,
      failed: 0,
      pending: 0,
      cost_rials: 4500,
      execution_status: null,
    };
    const { api } = fakeApi({
      'messages:count': () => ({ count: 3 }),
      'messages:list': () => ({ rows: [messageRow(3), messageRow(2), messageRow(1)], next_cursor: null }),
      'sends:list': () => ({ rows: [row], total: 1 }),
      'sends:get': () => row,
    });
    const lost = losable(api);
    const store = createMessagesStore(api);
    store.getState().setAccount(1);
    lost.now = true;
    store.getState().showSends(0);
    await until(store, (s) => s.error !== null);
    // Not "nothing sent yet": still unknown.
    expect(store.getState().sendRows).toBeNull();

    lost.now = false;
    store.getState().setScope({ kind: 'send', id: 7 });
    await until(store, (s) => s.scopeRow !== null && s.count !== null);
    lost.now = true;
    store.getState().reloadSends();
    await until(store, (s) => s.stale);
    // Out of reach is not "this send cannot be opened".
    expect(store.getState().scopeError).toBeNull();
  });
});
