import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInboxStore, followInbox, PAGE_SIZE, REFRESH_MS } from './inbox';
import { fakeApi, fakeInbox, inboxItem, until } from '../test/fakes';

const replies = (count: number, accountId = 1, overrides = {}) =>
  Array.from({ length: count }, (_, i) => ({ ...inboxItem(i + 1, overrides), account_id: accountId }));

afterEach(() => {
  vi.useRealTimers();
});

describe('inbox store', () => {
  it('reads the counts for the account, and the list only once the page is shown', async () => {
    const inbox = fakeInbox(replies(3));
    const { api, transport } = fakeApi(inbox.handlers);
    const store = createInboxStore(api);
    store.getState().setAccount(1);
    await until(store, (s) => s.counts !== null);
    expect(store.getState().counts).toMatchObject({ unread: 3, total: 3 });
    expect(transport.calls.some((c) => c.channel === 'inbox:list')).toBe(false);
    store.getState().setShown(true);
    await until(store, (s) => s.loaded);
    expect(store.getState().items.map((i) => i.id)).toEqual([3, 2, 1]);
  });

  it('pages by cursor, and a filter reads afresh from the newest', async () => {
    const inbox = fakeInbox([
      ...replies(PAGE_SIZE + 5),
      { ...inboxItem(100, { opt_out: true, text: '11', sender: '09127777777' }), account_id: 1 },
    ]);
    const { api, transport } = fakeApi(inbox.handlers);
    const store = createInboxStore(api);
    store.getState().setAccount(1);
    store.getState().setShown(true);
    await until(store, (s) => s.loaded);
    expect(store.getState().items).toHaveLength(PAGE_SIZE);
    await store.getState().loadMore();
    expect(store.getState().items).toHaveLength(PAGE_SIZE + 6);
    expect(store.getState().next).toBeNull();
    store.getState().setFilter({ optOutsOnly: true });
    await until(store, (s) => s.loaded);
    expect(store.getState().items.map((i) => i.id)).toEqual([100]);
    expect(transport.calls.at(-1)).toEqual({
      channel: 'inbox:list',
      input: { account_id: 1, view: 'open', opt_outs_only: true, limit: PAGE_SIZE },
    });
    store.getState().setFilter({ optOutsOnly: false, search: ' 7777 ' });
    await until(store, (s) => s.loaded);
    expect(transport.calls.at(-1)?.input).toEqual({ account_id: 1, view: 'open', search: '7777', limit: PAGE_SIZE });
  });

  it('marks one read, then all, and the count follows', async () => {
    const inbox = fakeInbox(replies(3));
    const { api, transport } = fakeApi(inbox.handlers);
    const store = createInboxStore(api);
    store.getState().setAccount(1);
    store.getState().setShown(true);
    await until(store, (s) => s.loaded && s.counts !== null);
    await store.getState().markRead([2]);
    expect(store.getState().items.find((i) => i.id === 2)?.read_at).not.toBeNull();
    expect(store.getState().counts?.unread).toBe(2);
    // An already read one is not sent again.
    const calls = transport.calls.length;
    await store.getState().markRead([2]);
    expect(transport.calls.length).toBe(calls);
    await store.getState().markRead();
    expect(store.getState().items.every((i) => i.read_at !== null)).toBe(true);
    expect(store.getState().counts).toEqual({ unread: 0, total: 3, unread_by_line: [] });
  });

  it('follows pushed replies of its account: the count, and the list while shown; a burst is read once more, not per push', async () => {
    vi.useFakeTimers();
    const inbox = fakeInbox(replies(1));
    const { api, transport } = fakeApi(inbox.handlers);
    const store = createInboxStore(api);
    const stop = followInbox(api, store);
    store.getState().setAccount(1);
    store.getState().setShown(true);
    await vi.waitFor(() => expect(store.getState().loaded).toBe(true));
    const reads = () => transport.calls.filter((c) => c.channel === 'inbox:list').length;
    const before = reads();
    inbox.rows.push(...replies(3, 1).map((r) => ({ ...r, id: r.id + 10 })));
    for (let i = 0; i < 10; i++) transport.emit('inbox:received', { account_id: 1, ids: [11 + i], opt_outs: 0 });
    transport.emit('inbox:received', { account_id: 2, ids: [99], opt_outs: 0 });
    await vi.advanceTimersByTimeAsync(REFRESH_MS * 2);
    expect(reads() - before).toBe(2);
    expect(store.getState().items.map((i) => i.id)).toEqual([13, 12, 11, 1]);
    expect(store.getState().counts).toMatchObject({ unread: 4, total: 4 });
    stop();
  });

  it('drops the answers of the account it left', async () => {
    let answer: (value: unknown) => void = () => undefined;
    const inbox = fakeInbox([...replies(2, 1), ...replies(1, 2).map((r) => ({ ...r, id: 50 }))]);
    const { api } = fakeApi({
      ...inbox.handlers,
      'inbox:list': (input) =>
        input.account_id === 1
          ? new Promise((resolve) => (answer = () => resolve(inbox.handlers['inbox:list']!(input))))
          : inbox.handlers['inbox:list']!(input),
    });
    const store = createInboxStore(api);
    store.getState().setAccount(1);
    store.getState().setShown(true);
    store.getState().setAccount(2);
    await until(store, (s) => s.loaded);
    answer(undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getState().items.map((i) => i.id)).toEqual([50]);
  });
});

describe('inbox store: a conversation', () => {
  const sent = (id: number, at: number, status = 1) => ({
    kind: 'sent' as const,
    id,
    line_number: '30001111',
    text: `out ${id}`,
    status,
    status_text: '',
    origin: 'panel',
    pages: 1,
    cost_rials: 1500,
    at,
  });
  const received = (id: number, at: number) => ({
    kind: 'received' as const,
    id,
    line_number: '30001111',
    text: `in ${id}`,
    read: true,
    opt_out: false,
    at,
  });

  it('opens a thread (its replies read), follows its messages’ statuses, and keeps older pages on a refresh', async () => {
    const inbox = fakeInbox(replies(1));
    let newest = [received(1, 300), sent(7, 200)];
    const { api, transport } = fakeApi({
      ...inbox.handlers,
      'inbox:markSenderRead': () => 1,
      'inbox:conversation': ({ phone }) => ({
        phone,
        contact: { phone, name: 'Sara', segments: [], segment_count: 0 },
        lines: [{ line_number: '30001111', done: false, unread: 0, last_at: 300 }],
      }),
      'inbox:thread': ({ phone, before }) =>
        before === undefined
          ? { phone, entries: newest, next: { sent_before: 7, received_before: 1 } }
          : { phone, entries: [sent(6, 100)], next: null },
    });
    const store = createInboxStore(api);
    store.getState().setAccount(1);
    await store.getState().openConversation('09120000000');
    expect(transport.calls.find((c) => c.channel === 'inbox:markSenderRead')?.input).toEqual({
      account_id: 1,
      phone: '09120000000',
    });
    await store.getState().loadOlderThread();
    expect(store.getState().conversation?.entries.map((e) => e.id)).toEqual([1, 7, 6]);

    store.getState().applyStatusChanges([{ id: 7, status: 10 }]);
    expect(store.getState().conversation?.entries.find((e) => e.kind === 'sent' && e.id === 7)).toMatchObject({
      status: 10,
    });

    // An answer came: the newest page changes, the older page read before stays below it.
    newest = [sent(8, 400), received(1, 300)];
    await store.getState().refreshConversation();
    expect(store.getState().conversation?.entries.map((e) => `${e.kind}:${e.id}`)).toEqual([
      'sent:8',
      'received:1',
      'sent:7',
      'sent:6',
    ]);
    expect(store.getState().conversation?.next).toBeNull();
  });

  it('takes a conversation marked done out of the open view at once', async () => {
    const inbox = fakeInbox([
      ...replies(2, 1, { sender: '09120000001' }),
      { ...inboxItem(3, { sender: '09120000002' }), account_id: 1 },
    ]);
    const { api, transport } = fakeApi({ ...inbox.handlers, 'inbox:setDone': ({ done }) => ({ done }) });
    const store = createInboxStore(api);
    store.getState().setAccount(1);
    store.getState().setShown(true);
    await until(store, (s) => s.loaded);
    await store.getState().setDone('30001111', '09120000001', true);
    expect(transport.calls.find((c) => c.channel === 'inbox:setDone')?.input).toEqual({
      account_id: 1,
      line_number: '30001111',
      phone: '09120000001',
      done: true,
    });
    expect(store.getState().items.map((i) => i.id)).toEqual([3]);
  });
});
