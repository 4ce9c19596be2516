import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmailStore, emailSelectors, followEmail, newerSend, PREVIEW_AFTER_MS, ROWS_REFRESH_MS } from './email';
import { emailSend, fakeApi, fakeEmail, until, type FakeEmailSegment } from '../test/fakes';
import type { FakeHandlers } from '../../../shared/ipc';
import type { SegmentSummary } from '../api';

const CUSTOMERS: FakeEmailSegment = {
  name: 'customers',
  columns: ['PHONE', 'EMAIL', 'NAME'],
  rows: [
    { PHONE: '09120000001', EMAIL: 'sara@example.com', NAME: 'Sara' },
    { PHONE: '09120000002', EMAIL: '', NAME: 'Ali' },
    { PHONE: '09120000003', EMAIL: 'reza@example.com', NAME: 'Reza' },
    { PHONE: '09120000004', EMAIL: 'not-an-address', NAME: 'Neda' },
    { PHONE: '09120000005', EMAIL: 'omid@example.com', NAME: 'Omid' },
  ],
};

const summary = (id: number, segment: FakeEmailSegment): SegmentSummary => ({
  id,
  name: segment.name,
  columns: segment.columns,
  member_count: segment.rows.length,
  status: 'ready',
  source: { kind: 'import', label: null },
  created_at: 0,
});

function setup(extra: FakeHandlers = {}, config = {}) {
  const email = fakeEmail({ segments: { 3: CUSTOMERS }, config });
  const { api, transport } = fakeApi({
    'segments:list': () => [summary(3, CUSTOMERS)],
    ...email.handlers,
    ...extra,
  });
  const store = createEmailStore(api);
  return { email, api, transport, store };
}

const calls = (transport: { calls: Array<{ channel: string; input: unknown }> }, channel: string) =>
  transport.calls.filter((c) => c.channel === channel);

/** A draft for the customers, written as a person would. */
async function compose(store: ReturnType<typeof setup>['store']) {
  await store.getState().load(1);
  store.getState().setFields({
    segmentId: 3,
    fromEmail: 'shop@example.com',
    fromName: 'Shop',
    subject: 'Hi {{NAME}}',
    html: '<p>Dear {{NAME}}</p>',
  });
  await until(store, (s) => s.preview !== null && !s.previewing);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('email store', () => {
  it('starts the sender from the last one used, and keeps what the user typed', async () => {
    const { store } = setup({}, { default_from: { email: 'news@shop.example', name: 'Shop news' } });
    await store.getState().load(1);
    expect(store.getState().fields).toMatchObject({ fromEmail: 'news@shop.example', fromName: 'Shop news' });
    expect(store.getState().segments.map((s) => s.id)).toEqual([3]);
    store.getState().setFields({ fromEmail: 'me@shop.example' });
    await store.getState().load(1);
    expect(store.getState().fields.fromEmail).toBe('me@shop.example');
  });

  it('asks for the preview once the draft settles, and steps through the valid recipients', async () => {
    vi.useFakeTimers();
    const { store, transport } = setup();
    await store.getState().load(1);
    store.getState().setFields({ segmentId: 3, fromEmail: 'shop@example.com' });
    store.getState().setFields({ subject: 'Hi {{NAME}}' });
    store.getState().setFields({ html: '<p>Dear {{NAME}} {{CITY}}</p>' });
    expect(calls(transport, 'email:preview')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(PREVIEW_AFTER_MS);
    // One question for the three changes: the draft as it settled.
    expect(calls(transport, 'email:preview')).toHaveLength(1);
    vi.useRealTimers();
    const preview = store.getState().preview!;
    expect(preview).toMatchObject({ total: 5, valid: 3, skipped_count: 2, unknown_variables: ['CITY'] });
    expect(preview.skipped.map((s) => [s.row, s.reason])).toEqual([
      [2, 'missing'],
      [4, 'invalid'],
    ]);
    expect(preview.samples[0]).toMatchObject({ row: 1, subject: 'Hi Sara' });

    await store.getState().showRecipient(1);
    expect(store.getState().previewIndex).toBe(1);
    expect(store.getState().preview!.samples[0]).toMatchObject({ row: 3, subject: 'Hi Reza' });
    expect(calls(transport, 'email:preview').at(-1)!.input).toMatchObject({ offset: 1, limit: 1 });
    // Past the last one: the last one.
    await store.getState().showRecipient(99);
    expect(store.getState().previewIndex).toBe(2);
    expect(store.getState().preview!.samples[0]!.subject).toBe('Hi Omid');

    // Another draft starts again at its first recipient.
    store.getState().setFields({ subject: 'Hello {{NAME}}' });
    await until(store, (s) => s.preview?.samples[0]?.subject === 'Hello Sara');
    expect(store.getState().previewIndex).toBe(0);
  });

  it('drops a preview answer the draft has moved past', async () => {
    let release: () => void = () => undefined;
    const { store, email } = setup({
      'email:preview': (input) =>
        input.subject === 'old'
          ? new Promise((resolve) => (release = () => resolve(email.handlers['email:preview']!(input))))
          : email.handlers['email:preview']!(input),
    });
    await store.getState().load(1);
    store.getState().setFields({ segmentId: 3, fromEmail: 'shop@example.com', subject: 'old', text: 'x' });
    const first = store.getState().refreshPreview();
    store.getState().setFields({ subject: 'new' });
    await store.getState().refreshPreview();
    release();
    await first;
    expect(store.getState().preview!.samples[0]!.subject).toBe('new');
  });

  it('says why the core refuses the draft, in place of the preview', async () => {
    const { store } = setup();
    await store.getState().load(1);
    store.getState().setFields({ segmentId: 3, fromEmail: 'nope', subject: 's', text: 't' });
    await store.getState().refreshPreview();
    // The counts show at once; the problem is said in place of the sample, and nothing can be confirmed.
    expect(store.getState().preview).toMatchObject({ problems: ['email_from_invalid'] });
    expect(store.getState().previewReason).toBe('email_from_invalid');
    expect(store.getState().previewError).not.toBeNull();
    expect(await store.getState().openConfirmation()).toBe(false);
    expect(store.getState().confirmation).toBeNull();
    store.getState().setFields({ fromEmail: 'shop@example.com' });
    await store.getState().refreshPreview();
    expect(store.getState().previewError).toBeNull();
    expect(await store.getState().openConfirmation()).toBe(true);
  });

  it('tells a segment without an EMAIL column from the other refusals', async () => {
    const { store } = setup({
      'email:preview': () => {
        throw { code: 400, message: 'no column', reason: 'email_column_missing' };
      },
    });
    await store.getState().load(1);
    store.getState().setFields({ segmentId: 3, fromEmail: 'shop@example.com', subject: 's', text: 't' });
    await store.getState().refreshPreview();
    expect(emailSelectors.noEmailColumn(store.getState())).toBe(true);
    // Said of the draft it answered only.
    store.getState().setFields({ segmentId: null });
    expect(emailSelectors.noEmailColumn(store.getState())).toBe(false);
  });

  it('confirms the count of the draft as it is, and sends once however often confirm is pressed', async () => {
    const { store, transport } = setup();
    await compose(store);
    expect(await store.getState().openConfirmation()).toBe(true);
    const confirmation = store.getState().confirmation!;
    expect(confirmation).toMatchObject({ count: 3, segmentName: 'customers' });
    expect(confirmation.requestId).toMatch(/^[0-9a-f]{32}$/);

    const [a, b] = await Promise.all([store.getState().confirmSend(), store.getState().confirmSend()]);
    expect(calls(transport, 'email:send')).toHaveLength(1);
    expect(calls(transport, 'email:send')[0]!.input).toMatchObject({
      segment_id: 3,
      expected_count: 3,
      request_id: confirmation.requestId,
      from: { email: 'shop@example.com', name: 'Shop' },
      html: '<p>Dear {{NAME}}</p>',
    });
    expect(a?.id).toBe(1);
    expect(b).toBeNull();
    // The draft that went out cannot go again: the dialog is closed, the segment and message cleared.
    const state = store.getState();
    expect(state.confirmation).toBeNull();
    expect(state.fields).toMatchObject({ segmentId: null, subject: '', html: '', fromEmail: 'shop@example.com' });
    expect(state.sends.map((s) => s.id)).toEqual([1]);
    expect(await store.getState().confirmSend()).toBeNull();
    expect(calls(transport, 'email:send')).toHaveLength(1);
    // A new confirmation is a new request.
    store.getState().setFields({ segmentId: 3, subject: 'Again', text: 'again' });
    await until(store, (s) => s.preview !== null && !s.previewing);
    await store.getState().openConfirmation();
    expect(store.getState().confirmation!.requestId).not.toBe(confirmation.requestId);
  });

  it('asks the core again before confirming a draft changed since its preview', async () => {
    const { store, transport } = setup();
    await compose(store);
    store.getState().setFields({ subject: 'Changed {{NAME}}' });
    const before = calls(transport, 'email:preview').length;
    expect(await store.getState().openConfirmation()).toBe(true);
    expect(calls(transport, 'email:preview').length).toBe(before + 1);
    expect(store.getState().confirmation!.draft.subject).toBe('Changed {{NAME}}');
  });

  it('keeps the dialog with the reason when the send fails; trying again names the same request', async () => {
    let fail = true;
    const { store, transport, email } = setup({
      'email:send': (input) => {
        if (fail) {
          fail = false;
          throw { code: 500, message: 'lost', reason: 'offline_test' };
        }
        return email.handlers['email:send']!(input);
      },
    });
    await compose(store);
    await store.getState().openConfirmation();
    expect(await store.getState().confirmSend()).toBeNull();
    expect(store.getState().sendError).not.toBeNull();
    expect(store.getState().confirmation).not.toBeNull();
    expect(store.getState().fields.subject).toBe('Hi {{NAME}}');
    expect(await store.getState().confirmSend()).not.toBeNull();
    const sent = calls(transport, 'email:send').map((c) => (c.input as { request_id: string }).request_id);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toBe(sent[1]);
  });

  it('refuses a count that changed since it was confirmed', async () => {
    const { store, email } = setup();
    await compose(store);
    await store.getState().openConfirmation();
    CUSTOMERS.rows.push({ PHONE: '09120000006', EMAIL: 'kaveh@example.com', NAME: 'Kaveh' });
    try {
      expect(await store.getState().confirmSend()).toBeNull();
      expect(store.getState().sendError).not.toBeNull();
      expect(email.state.sends).toHaveLength(0);
    } finally {
      CUSTOMERS.rows.pop();
    }
  });

  it('follows a send live: pushes move its counts and the list, an older copy never takes them back', async () => {
    const { store, email, api, transport } = setup();
    const stop = followEmail(api, store);
    await compose(store);
    await store.getState().openConfirmation();
    const send = (await store.getState().confirmSend())!;
    vi.useFakeTimers();
    await store.getState().openSend(send.id);
    expect(store.getState().current).toMatchObject({ id: send.id, state: 'sending' });
    const version = store.getState().version;

    const two = email.settle(send.id, 'delivered', [1, 3]);
    transport.emit('email:progress', two);
    expect(store.getState().current!.counts.delivered).toBe(2);
    expect(store.getState().sends[0]!.counts.delivered).toBe(2);
    // A copy read before that push, arriving after it: ignored.
    transport.emit('email:progress', { ...two, counts: { ...two.counts, delivered: 0, pending: 3 } });
    expect(store.getState().current!.counts.delivered).toBe(2);
    // Another account's send: not this list's.
    transport.emit('email:progress', emailSend({ id: 50, account_id: 2 }));
    expect(store.getState().sends.map((s) => s.id)).toEqual([send.id]);

    const done = email.settle(send.id, 'bounced');
    transport.emit('email:progress', done);
    expect(store.getState().current).toMatchObject({ state: 'done' });
    expect(store.getState().current!.counts).toMatchObject({ delivered: 2, bounced: 1 });
    // The rows in view are read again once for the burst, not once per push.
    await vi.advanceTimersByTimeAsync(ROWS_REFRESH_MS);
    expect(store.getState().version).toBe(version + 1);
    stop();
    store.getState().closeSend();
  });

  it('keeps a send that ended ended, whatever a late copy says', () => {
    const done = emailSend({ state: 'done', counts: { ...emailSend().counts, delivered: 2 } });
    const late = emailSend({ state: 'sending', counts: { ...emailSend().counts, delivered: 2 } });
    expect(newerSend(done, late)).toBe(done);
    expect(newerSend(late, done)).toBe(done);
  });

  it('reads the results by status group and address, and exports what the filter shows', async () => {
    const { store, email, transport } = setup();
    await compose(store);
    await store.getState().openConfirmation();
    const send = (await store.getState().confirmSend())!;
    email.settle(send.id, 'delivered', [1]);
    email.settle(send.id, 'bounced', [3]);
    await store.getState().openSend(send.id);
    expect((await store.getState().recipients(0, 200))!.map((r) => r.row)).toEqual([1, 3, 5]);
    store.getState().setFilter({ group: 'failed' });
    expect(store.getState().recipientsTotal).toBeNull();
    expect((await store.getState().recipients(0, 200))!.map((r) => r.email)).toEqual(['reza@example.com']);
    expect(store.getState().recipientsTotal).toBe(1);
    store.getState().setFilter({ group: 'all', search: ' OMID ' });
    expect((await store.getState().recipients(0, 200))!.map((r) => r.row)).toEqual([5]);
    expect(calls(transport, 'email:recipients').at(-1)!.input).toMatchObject({ search: 'OMID' });

    store.getState().setFilter({ group: 'delivered', search: '' });
    const exported = await store.getState().exportResults('xlsx', 'fa', 'Asia/Tehran');
    expect(exported).toMatchObject({ rows: 1, format: 'xlsx' });
    expect(calls(transport, 'email:export').at(-1)!.input).toMatchObject({
      language: 'fa',
      time_zone: 'Asia/Tehran',
      statuses: ['delivered', 'sent'],
    });
  });

  it('cancels the open send', async () => {
    const { store } = setup();
    await compose(store);
    await store.getState().openConfirmation();
    const send = (await store.getState().confirmSend())!;
    await store.getState().openSend(send.id);
    await store.getState().cancelSend();
    expect(store.getState().current).toMatchObject({ state: 'cancelled' });
    expect(store.getState().current!.counts.cancelled).toBe(3);
    store.getState().closeSend();
  });

  it('lists the sends newest first, and a missing send says so', async () => {
    const { store } = setup();
    await compose(store);
    for (const subject of ['one', 'two']) {
      store.getState().setFields({ segmentId: 3, subject, text: subject });
      await until(store, (s) => s.preview !== null && !s.previewing);
      await store.getState().openConfirmation();
      await store.getState().confirmSend();
    }
    await store.getState().loadSends();
    expect(store.getState().sends.map((s) => s.subject)).toEqual(['two', 'one']);
    await store.getState().openSend(99);
    expect(store.getState().missing).toBe(true);
  });
});
