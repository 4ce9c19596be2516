// The gateways store over the typed fake client: the queues of the account, a pause pushed and
// shown at once, the messages waiting for the user, the actions (one at a time, with the ids the
// confirmation counted), the timer that reads again only while the window is visible; and the
// settings store's gateway operations (the key never read back, refusals in the UI's language).
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGatewaysStore, followGateways, gatewaysSelectors, REFRESH_EVERY_MS } from './gateways';
import { createSettingsStore } from './settings';
import { fakeApi, line, lineQueue, until } from '../test/fakes';
import type { Handover } from '../../../shared/ipc/contracts/gateways';
import { i18n, resources } from '../i18n';
import { en } from '../i18n/en';
import { fa } from '../i18n/fa';

beforeAll(async () => {
  await i18n.init({ resources, lng: 'en', fallbackLng: false, interpolation: { escapeValue: false } });
});

afterEach(() => {
  vi.useRealTimers();
});

const PAUSE = { code: 418, text: 'اعتبار شما کافی نمی‌باشد', at: 1_700_000_000_000 };

const handover = (id: number, overrides: Partial<Handover> = {}): Handover => ({
  message_id: id,
  receptor: `0912000000${id}`,
  state: 'review',
  code: null,
  detail: 'no answer came',
  upstream_id: null,
  attempts: 1,
  updated_at: 1_700_000_000_000 + id,
  ...overrides,
});

function withCounts(review: number, unknown: number) {
  const queue = lineQueue();
  return lineQueue({ counts: { ...queue.counts, review, unknown } });
}

describe('gateways store', () => {
  it('reads the queues of the account; the selectors name the paused lines, the real ones and each line’s kind', async () => {
    const { api } = fakeApi({
      'gateways:queues': ({ account_id }) =>
        account_id === 1
          ? [
              lineQueue({ line_id: 1, number: '30001111', paused: PAUSE }),
              lineQueue({ line_id: 2, number: '30002222', kind: 'simulator' }),
              lineQueue({ line_id: 3, number: '30003333', kind: 'najva-v2' }),
            ]
          : [],
    });
    const store = createGatewaysStore(api);
    store.getState().setAccount(1);
    const state = await until(store, (s) => s.queues !== null);
    expect(gatewaysSelectors.paused(state).map((q) => q.number)).toEqual(['30001111']);
    expect(gatewaysSelectors.upstream(state).map((q) => q.number)).toEqual(['30001111', '30003333']);
    expect(gatewaysSelectors.kindOf('30003333', 'simulator')(state)).toBe('najva-v2');
    // A line the queues do not know yet: the form's own reading.
    expect(gatewaysSelectors.kindOf('30009999', 'kavenegar-v1')(state)).toBe('kavenegar-v1');
    store.getState().setAccount(2);
    await until(store, (s) => s.queues !== null);
    expect(gatewaysSelectors.paused(store.getState())).toEqual([]);
  });

  it('shows a pushed pause at once, reads the queues again, and ignores other accounts’ pushes', async () => {
    let paused: typeof PAUSE | null = null;
    const { api, transport } = fakeApi({ 'gateways:queues': () => [lineQueue({ paused })] });
    const store = createGatewaysStore(api);
    const stop = followGateways(api, store, { visible: () => true });
    store.getState().setAccount(1);
    await until(store, (s) => s.queues !== null);
    const reads = () => transport.calls.filter((c) => c.channel === 'gateways:queues').length;
    const before = reads();

    transport.emit('gateways:changed', { account_id: 2, line_id: 1, paused: PAUSE });
    expect(gatewaysSelectors.paused(store.getState())).toEqual([]);

    paused = PAUSE;
    transport.emit('gateways:changed', { account_id: 1, line_id: 1, paused: PAUSE });
    // Before any read: the push alone.
    expect(gatewaysSelectors.paused(store.getState()).map((q) => q.paused)).toEqual([PAUSE]);
    await vi.waitFor(() => expect(reads()).toBe(before + 1));
    stop();
  });

  it('reads again every REFRESH_EVERY_MS while the window is visible only', async () => {
    vi.useFakeTimers();
    const { api, transport } = fakeApi({ 'gateways:queues': () => [lineQueue()] });
    const store = createGatewaysStore(api);
    let visible = true;
    const stop = followGateways(api, store, { visible: () => visible });
    store.getState().setAccount(1);
    const reads = () => transport.calls.filter((c) => c.channel === 'gateways:queues').length;
    expect(reads()).toBe(1);
    await vi.advanceTimersByTimeAsync(REFRESH_EVERY_MS);
    expect(reads()).toBe(2);
    visible = false;
    await vi.advanceTimersByTimeAsync(3 * REFRESH_EVERY_MS);
    expect(reads()).toBe(2);
    visible = true;
    await vi.advanceTimersByTimeAsync(REFRESH_EVERY_MS);
    expect(reads()).toBe(3);
    stop();
    await vi.advanceTimersByTimeAsync(3 * REFRESH_EVERY_MS);
    expect(reads()).toBe(3);
  });

  it('lists the messages needing review and unknown, the longest waiting first', async () => {
    const { api, transport } = fakeApi({
      'gateways:queues': () => [withCounts(2, 1)],
      'gateways:handovers': ({ state }) =>
        state === 'review'
          ? [handover(5, { updated_at: 30 }), handover(4, { updated_at: 10 })]
          : [handover(6, { state: 'unknown', updated_at: 20, code: 502 })],
    });
    const store = createGatewaysStore(api);
    store.getState().setAccount(1);
    await store.getState().loadHandovers('30001111');
    expect(store.getState().handovers['30001111']!.map((h) => h.message_id)).toEqual([4, 6, 5]);
    const asked = transport.calls.filter((c) => c.channel === 'gateways:handovers').map((c) => c.input);
    expect(asked).toEqual([
      { account_id: 1, number: '30001111', state: 'review', limit: 100 },
      { account_id: 1, number: '30001111', state: 'unknown', limit: 100 },
    ]);
  });

  it('sends again and marks failed with the ids given, one action at a time, and reads the list again', async () => {
    let release: () => void = () => undefined;
    const { api, transport } = fakeApi({
      'gateways:queues': () => [withCounts(2, 0)],
      'gateways:handovers': () => [],
      'gateways:retry': () =>
        new Promise((resolve) => {
          release = () => resolve(withCounts(0, 0));
        }),
      'gateways:markFailed': () => withCounts(0, 0),
    });
    const store = createGatewaysStore(api);
    store.getState().setAccount(1);
    await until(store, (s) => s.queues !== null);
    const first = store.getState().retry('30001111', [4, 5]);
    expect(store.getState().busy).toEqual({ '30001111': 'retry' });
    // A second click while the first is out asks nothing.
    expect(await store.getState().markFailed('30001111')).toBeNull();
    release();
    expect(await first).toBeNull();
    expect(store.getState().busy).toEqual({});
    expect(store.getState().queues![0]!.counts.review).toBe(0);
    const calls = transport.calls.map((c) => c.channel);
    expect(calls.filter((c) => c === 'gateways:retry')).toHaveLength(1);
    expect(calls.filter((c) => c === 'gateways:markFailed')).toHaveLength(0);
    expect(transport.calls.find((c) => c.channel === 'gateways:retry')!.input).toEqual({
      account_id: 1,
      number: '30001111',
      message_ids: [4, 5],
    });
    expect(calls.filter((c) => c === 'gateways:handovers')).toHaveLength(2);
    // Without ids: all of them, as the core has them.
    expect(await store.getState().markFailed('30001111')).toBeNull();
    expect(transport.calls.find((c) => c.channel === 'gateways:markFailed')!.input).toEqual({
      account_id: 1,
      number: '30001111',
    });
  });

  it('answers a refusal as its sentence; resume replaces the line’s queue', async () => {
    const { api } = fakeApi({
      'gateways:queues': () => [lineQueue({ paused: PAUSE })],
      'gateways:resume': () => lineQueue(),
      'gateways:retry': () => {
        throw { code: 404, message: 'line', reason: 'line_not_found' };
      },
    });
    const store = createGatewaysStore(api);
    store.getState().setAccount(1);
    await until(store, (s) => s.queues !== null);
    expect(await store.getState().resume('30001111')).toBeNull();
    expect(gatewaysSelectors.paused(store.getState())).toEqual([]);
    expect(await store.getState().retry('30001111')).toBe(en.errors.reasons.line_not_found);
  });
});

describe('settings store, gateways', () => {
  const kavenegar = line({
    gateway: { kind: 'kavenegar-v1', base_url: null, sender: null, rate_per_second: 5, key_set: true, http: null },
  });

  function api(refusal?: { code: number; message: string; reason: string }) {
    return fakeApi({
      'pricing:get': () => ({ sms_page_tomans: 150, messenger_message_tomans: 50 }),
      'simulator:get': () => ({ seed: 7, handoff_ms: 300, delivery_ms: 1500, outcomes: { '10': 1 } }),
      'apiKeys:list': () => [],
      'lines:list': () => [line()],
      'credit:balance': () => ({ account_id: 1, credit_rials: 100 }),
      'credit:ledger': () => ({ entries: [], next_before_id: null }),
      'lines:setGateway': () => {
        if (refusal) throw refusal;
        return kavenegar;
      },
      'lines:testGateway': () => ({ ok: true, credit_rials: 5_000_000, code: null, detail: null }),
    });
  }

  it('sets a gateway: the line as answered (key_set, never the key) replaces the old one', async () => {
    const { api: client, transport } = api();
    const store = createSettingsStore(client);
    await store.getState().load(1);
    expect(
      await store.getState().setGateway({ number: '30001111', kind: 'kavenegar-v1', api_key: 'secret-at-provider' }),
    ).toBeNull();
    expect(store.getState().lines).toEqual([kavenegar]);
    expect(JSON.stringify(store.getState())).not.toContain('secret-at-provider');
    expect(transport.calls.find((c) => c.channel === 'lines:setGateway')!.input).toEqual({
      account_id: 1,
      number: '30001111',
      kind: 'kavenegar-v1',
      api_key: 'secret-at-provider',
    });
    expect(await store.getState().testGateway('30001111')).toEqual({
      test: { ok: true, credit_rials: 5_000_000, code: null, detail: null },
    });
  });

  it('says what to do when the line has messages on their way, in both languages', async () => {
    const { api: client } = api({
      code: 400,
      message: 'line 30001111 has messages on their way',
      reason: 'gateway_in_flight',
    });
    const store = createSettingsStore(client);
    await store.getState().load(1);
    await i18n.changeLanguage('fa');
    expect(await store.getState().setGateway({ number: '30001111', kind: 'najva-v2' })).toBe(
      fa.errors.reasons.gateway_in_flight,
    );
    await i18n.changeLanguage('en');
    expect(await store.getState().setGateway({ number: '30001111', kind: 'najva-v2' })).toBe(
      en.errors.reasons.gateway_in_flight,
    );
    expect(store.getState().lines).toEqual([line()]);
  });
});
