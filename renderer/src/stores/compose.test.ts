import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANALYZE_AFTER_MS, QUOTE_AFTER_MS, composeSelectors, createComposeStore } from './compose';
import { fakeApi, fakeQuote, line, messageRow } from '../test/fakes';

const pricing = { sms_page_tomans: 150, messenger_message_tomans: 50 };

describe('compose store', () => {
  it('loads lines and picks the first one the panel may send from', async () => {
    const { api } = fakeApi({
      'lines:list': () => [
        line({ id: 1, number: 'api_only', can_send_panel_campaign: false }),
        line({ id: 2, number: '30001111' }),
      ],
      'segments:list': () => [],
      'pricing:get': () => pricing,
    });
    const store = createComposeStore(api);
    await store.getState().load(1);
    expect(store.getState().lineNumber).toBe('30001111');
    expect(composeSelectors.line(store.getState())?.id).toBe(2);
    expect(store.getState().pricing).toEqual(pricing);
  });

  it('sends the pasted receivers and lists the send with live statuses', async () => {
    const { api, transport } = fakeApi({
      'lines:list': () => [line()],
      'segments:list': () => [],
      'pricing:get': () => pricing,
      'messages:send': () => ({
        send_id: 9,
        accepted: 2,
        total_rials: 3000,
        invalid: ['12'],
        duplicates: ['09120000001'],
      }),
      // Newest first, as the service answers.
      'messages:list': () => ({ rows: [messageRow(2), messageRow(1)], next_cursor: null }),
    });
    const store = createComposeStore(api);
    await store.getState().load(1);
    store.getState().setText('سلام');
    store.getState().setReceiversText('09120000001\n09120000001, 12\n+989120000002');
    expect(composeSelectors.canSend(store.getState())).toBe(true);
    const result = await store.getState().send();
    expect(result?.accepted).toBe(2);
    const send = transport.calls.find((c) => c.channel === 'messages:send');
    expect(send?.input).toMatchObject({ account_id: 1, sender: '30001111', message: 'سلام' });
    expect(store.getState().resultRows.map((r) => r.id)).toEqual([1, 2]);

    store.getState().applyStatusChanges([{ id: 2, status: 10 }]);
    expect(store.getState().resultRows.find((r) => r.id === 2)?.status).toBe(10);
  });

  it('keeps pushes that arrive before the result rows are read, and never moves a status back', async () => {
    // The fake service reaches the store it serves through this holder.
    const holder: { store?: ReturnType<typeof createComposeStore> } = {};
    const { api } = fakeApi({
      'lines:list': () => [line()],
      'segments:list': () => [],
      'pricing:get': () => pricing,
      'messages:send': () => {
        // The gateway is quicker than the answer: both messages move before the rows are read.
        holder.store!.getState().applyStatusChanges([
          { id: 1, status: 4 },
          { id: 2, status: 4 },
        ]);
        return { send_id: 9, accepted: 2, total_rials: 3000, invalid: [], duplicates: [] };
      },
      'messages:list': () => {
        // Message 2 turns final while the list is in flight; message 1 was read as final.
        holder.store!.getState().applyStatusChanges([{ id: 2, status: 10 }]);
        return { rows: [messageRow(2, { status: 4 }), messageRow(1, { status: 11 })], next_cursor: null };
      },
    });
    const store = (holder.store = createComposeStore(api));
    await store.getState().load(1);
    store.getState().setText('hi');
    store.getState().setReceiversText('09120000001, 09120000002');
    await store.getState().send();
    expect(store.getState().resultRows.map((r) => [r.id, r.status])).toEqual([
      [1, 11],
      [2, 10],
    ]);
    store.getState().applyStatusChanges([{ id: 1, status: 4 }]);
    expect(store.getState().resultRows.find((r) => r.id === 1)?.status).toBe(11);
  });

  it('shows the service refusal (out of credit) as the error', async () => {
    const { api } = fakeApi({
      'lines:list': () => [line()],
      'segments:list': () => [],
      'pricing:get': () => pricing,
      'messages:send': () => {
        throw { code: 418, message: 'اعتبار شما کافی نمی‌باشد' };
      },
    });
    const store = createComposeStore(api);
    await store.getState().load(1);
    store.getState().setText('x');
    store.getState().setReceiversText('09120000001');
    expect(await store.getState().send()).toBeNull();
    expect(store.getState().error).toBe('اعتبار شما کافی نمی‌باشد');
    expect(store.getState().sending).toBe(false);
  });
});

describe('compose store, segments', () => {
  it('re-reads segments and drops a picked one that went away', async () => {
    const segment = (id: number) => ({
      id,
      name: `s${id}`,
      columns: [],
      member_count: 3,
      status: 'ready',
      source: { kind: 'upload' as const, label: null },
      created_at: 0,
    });
    let segments = [segment(1)];
    const { api } = fakeApi({
      'lines:list': () => [line()],
      'segments:list': () => segments,
      'pricing:get': () => pricing,
    });
    const store = createComposeStore(api);
    await store.getState().load(1);
    store.getState().setSegment(1);
    segments = [segment(2)];
    await store.getState().refreshSegments();
    expect(store.getState().segments.map((s) => s.id)).toEqual([2]);
    expect(store.getState().segmentId).toBeNull();
  });

  it("takes the core's quote as the authority: the receivers it counts, the credit, a line it refuses", async () => {
    const { api } = fakeApi({
      'lines:list': () => [line(), line({ id: 2, number: 'bale_bot', provider: 'bale' })],
      'segments:list': () => [],
      'pricing:get': () => pricing,
      // 3,000 rials: two one-page messages, not three.
      'compose:preview': fakeQuote(pricing, 3000),
    });
    const store = createComposeStore(api);
    await store.getState().load(1);
    store.getState().setText('سلام');
    store.getState().setReceiversText('09120000001\n09120000002');
    await store.getState().refreshQuote();
    expect(store.getState().quote).toMatchObject({ total_cost_rials: 3000, enough_credit: true });
    expect(store.getState().quote?.receivers.total).toBe(2);
    store.getState().setReceiversText('09120000001\n09120000002\n09120000003');
    await store.getState().refreshQuote();
    expect(store.getState().quote).toMatchObject({ total_cost_rials: 4500, enough_credit: false });
    expect(composeSelectors.canSend(store.getState())).toBe(true);
    // A line the core refuses for the panel: said, and Send is off.
    store.getState().setLine('bale_bot');
    await store.getState().refreshQuote();
    expect(store.getState().lineRefused).toBe(true);
    expect(store.getState().quote).toBeNull();
    expect(composeSelectors.canSend(store.getState())).toBe(false);
    store.getState().setLine('30001111');
    await store.getState().refreshQuote();
    expect(store.getState().lineRefused).toBe(false);
  });

  it('has the segment counted by the core: its members, deduplicated against the pasted numbers', async () => {
    const { api } = fakeApi({
      'lines:list': () => [line()],
      'segments:list': () => [
        {
          id: 7,
          name: 'club',
          columns: [],
          member_count: 3,
          status: 'ready',
          source: { kind: 'upload', label: null },
          created_at: 0,
        },
      ],
      'pricing:get': () => pricing,
      'compose:preview': fakeQuote(pricing, 1_000_000, undefined, {
        7: ['09120000001', '09120000005', '09120000006'],
      }),
    });
    const store = createComposeStore(api);
    await store.getState().load(1);
    store.getState().setText('سلام');
    store.getState().setReceiversText('09120000001, 12');
    store.getState().setSegment(7);
    await store.getState().refreshQuote();
    const quote = composeSelectors.currentQuote(store.getState());
    expect(quote?.receivers).toEqual({
      valid: ['09120000001'],
      invalid: ['12'],
      duplicates: [],
      segment_members: 2,
      total: 3,
    });
    expect(quote?.total_cost_rials).toBe(4500);
    // Once the draft changes, that answer no longer describes it.
    store.getState().setReceiversText('09120000001');
    expect(composeSelectors.currentQuote(store.getState())).toBeNull();
    expect(store.getState().quote).toBe(quote);
  });
});

describe("compose store, the core's quote as the draft is typed", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks once the typing pauses, with the draft as it is then', async () => {
    vi.useFakeTimers();
    const asked: string[] = [];
    const quote = fakeQuote(pricing, 1_000_000);
    const { api } = fakeApi({
      'lines:list': () => [line()],
      'segments:list': () => [],
      'pricing:get': () => pricing,
      'compose:preview': (input) => {
        asked.push(input.message);
        return quote(input);
      },
    });
    const store = createComposeStore(api);
    await store.getState().load(1);
    await vi.runAllTimersAsync();
    asked.length = 0;
    for (const text of ['s', 'sa', 'sal', 'salam']) {
      store.getState().setText(text);
      await vi.advanceTimersByTimeAsync(QUOTE_AFTER_MS / 2);
    }
    store.getState().setReceiversText('09120000001');
    expect(asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(QUOTE_AFTER_MS);
    expect(asked).toEqual(['salam']);
    expect(composeSelectors.currentQuote(store.getState())?.receivers.total).toBe(1);
    // A draft that did not change is not asked about again.
    store.getState().setText('salam');
    await vi.advanceTimersByTimeAsync(QUOTE_AFTER_MS * 2);
    expect(asked).toEqual(['salam']);
  });

  it('keeps the answer to the latest question when answers cross', async () => {
    const quote = fakeQuote(pricing, 1_000_000);
    const answers: Array<() => void> = [];
    const { api } = fakeApi({
      'lines:list': () => [line()],
      'segments:list': () => [],
      'pricing:get': () => pricing,
      // Each answer waits until the test lets it go.
      'compose:preview': (input) => new Promise((resolve) => answers.push(() => resolve(quote(input)))),
    });
    const store = createComposeStore(api);
    await store.getState().load(1);
    store.getState().setText('first');
    store.getState().setReceiversText('09120000001');
    const first = store.getState().refreshQuote();
    store.getState().setReceiversText('09120000001, 09120000002');
    const second = store.getState().refreshQuote();
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]!();
    await second;
    answers[0]!();
    await first;
    expect(store.getState().quote?.receivers.total).toBe(2);
    expect(composeSelectors.currentQuote(store.getState())).toBe(store.getState().quote);
  });
});

describe('compose store, safety', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const sendApi = () => {
    let release: () => void = () => {};
    const { api, transport } = fakeApi({
      'lines:list': () => [line(), line({ id: 2, number: '30002222' })],
      'segments:list': () => [],
      'pricing:get': () => pricing,
      'messages:send': () =>
        new Promise((resolve) => {
          release = () => resolve({ send_id: 9, accepted: 1, total_rials: 1500, invalid: [], duplicates: [] });
        }),
      'messages:list': () => ({ rows: [messageRow(1)], next_cursor: null }),
    });
    return { api, transport, release: () => release() };
  };

  it('sends once however often it is asked while a send is under way', async () => {
    const { api, transport, release } = sendApi();
    const store = createComposeStore(api);
    await store.getState().load(1);
    store.getState().setText('hi');
    store.getState().setReceiversText('09120000001');
    const first = store.getState().send();
    const second = store.getState().send();
    expect(await second).toBeNull();
    await vi.waitFor(() => expect(transport.calls.filter((c) => c.channel === 'messages:send')).toHaveLength(1));
    release();
    expect((await first)?.send_id).toBe(9);
    expect(transport.calls.filter((c) => c.channel === 'messages:send')).toHaveLength(1);
  });

  it('clears the text, receivers and segment once sent (the line stays), keeping the result', async () => {
    const { api, release } = sendApi();
    const store = createComposeStore(api);
    await store.getState().load(1);
    store.getState().setLine('30002222');
    store.getState().setText('hi');
    store.getState().setReceiversText('09120000001');
    const sent = store.getState().send();
    release();
    await sent;
    expect(store.getState()).toMatchObject({ text: '', receiversText: '', segmentId: null, lineNumber: '30002222' });
    expect(store.getState().result?.send_id).toBe(9);
    expect(composeSelectors.canSend(store.getState())).toBe(false);
  });

  it('keeps what was typed while the send was under way', async () => {
    const { api, release } = sendApi();
    const store = createComposeStore(api);
    await store.getState().load(1);
    store.getState().setText('hi');
    store.getState().setReceiversText('09120000001');
    const sent = store.getState().send();
    store.getState().setText('next message');
    release();
    await sent;
    expect(store.getState()).toMatchObject({ text: 'next message', receiversText: '09120000001' });
  });

  it('parses the receivers once their field settles, never on a keystroke in the text', async () => {
    vi.useFakeTimers();
    const { api } = fakeApi({ 'lines:list': () => [line()], 'segments:list': () => [], 'pricing:get': () => pricing });
    const store = createComposeStore(api);
    await store.getState().load(1);
    store.getState().setReceiversText('09120000001');
    store.getState().setReceiversText('09120000001\n09120000002\n09120000001\n12');
    expect(store.getState().analysis.valid).toEqual([]);
    await vi.advanceTimersByTimeAsync(ANALYZE_AFTER_MS);
    const analysis = store.getState().analysis;
    expect([analysis.valid.length, analysis.invalid.length, analysis.duplicates.length]).toEqual([2, 1, 1]);
    store.getState().setText('typing');
    await vi.advanceTimersByTimeAsync(ANALYZE_AFTER_MS * 2);
    expect(store.getState().analysis).toBe(analysis);
    // Emptied: said at once.
    store.getState().setReceiversText('');
    expect(store.getState().analysis.valid).toEqual([]);
  });

  it("says the core's refusal to quote (a segment still importing) before anything is sent", async () => {
    const { api } = fakeApi({
      'lines:list': () => [line()],
      'segments:list': () => [],
      'pricing:get': () => pricing,
      'compose:preview': () => {
        throw { code: 400, message: 'segment 7 is importing, not ready', reason: 'segment_not_ready' };
      },
    });
    const store = createComposeStore(api);
    await store.getState().load(1);
    store.getState().setText('hi');
    store.getState().setSegment(7);
    await store.getState().refreshQuote();
    expect(composeSelectors.currentQuoteError(store.getState())).toBeTruthy();
    expect(store.getState().lineRefused).toBe(false);
    store.getState().setText('hi!');
    expect(composeSelectors.currentQuoteError(store.getState())).toBeNull();
  });
});
