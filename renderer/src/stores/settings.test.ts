import { describe, expect, it } from 'vitest';
import { createSettingsStore, settingsSelectors } from './settings';
import { fakeApi, line } from '../test/fakes';
import type { ApiKeyInfo } from '../api';

const keyInfo = (id: number, revoked_at: number | null = null): ApiKeyInfo => ({
  id,
  account_id: 1,
  hint: 'abcd',
  label: 'web',
  created_at: 0,
  revoked_at,
});

function api() {
  return fakeApi({
    'pricing:get': () => ({ sms_page_tomans: 150, messenger_message_tomans: 50 }),
    'simulator:get': () => ({ seed: 7, handoff_ms: 300, delivery_ms: 1500, outcomes: { '10': 1 } }),
    'apiKeys:list': () => [keyInfo(1)],
    'apiKeys:create': () => ({ key: 'chp_secret', info: keyInfo(2) }),
    'apiKeys:revoke': ({ id }) => keyInfo(id, 5),
    'lines:list': () => [line()],
    'credit:balance': () => ({ account_id: 1, credit_rials: 100 }),
    'credit:ledger': () => ({ entries: [], next_before_id: null }),
    'credit:topUp': ({ amount_rials }) => ({ account_id: 1, credit_rials: 100 + amount_rials }),
  });
}

describe('settings store', () => {
  it('loads the account settings', async () => {
    const store = createSettingsStore(api().api);
    await store.getState().load(1);
    expect(store.getState()).toMatchObject({ balance: 100, lines: [line()], keys: [keyInfo(1)] });
    expect(store.getState().pricing?.sms_page_tomans).toBe(150);
  });

  it('holds a new key in clear only until dismissed; revokes', async () => {
    const store = createSettingsStore(api().api);
    await store.getState().load(1);
    expect(await store.getState().createKey('site')).toBe('chp_secret');
    expect(store.getState().newKey).toBe('chp_secret');
    store.getState().dismissNewKey();
    expect(store.getState().newKey).toBeNull();
    await store.getState().revokeKey(1);
    expect(settingsSelectors.activeKeys(store.getState()).map((k) => k.id)).toEqual([2]);
  });

  it('tops up and shows the new balance', async () => {
    const { api: client, transport } = api();
    const store = createSettingsStore(client);
    await store.getState().load(1);
    expect(await store.getState().topUp(5000, 'cash')).toBeNull();
    expect(store.getState().balance).toBe(5100);
    expect(transport.calls.find((c) => c.channel === 'credit:topUp')?.input).toEqual({
      account_id: 1,
      amount_rials: 5000,
      note: 'cash',
      kind: 'topup',
    });
    // Undone by a correction, never by deleting the top-up.
    expect(await store.getState().topUp(-5000, 'undo', 'adjust')).toBeNull();
    expect(transport.calls.filter((c) => c.channel === 'credit:topUp').at(-1)?.input).toEqual({
      account_id: 1,
      amount_rials: -5000,
      note: 'undo',
      kind: 'adjust',
    });
  });
});

describe('settings store, ledger pages', () => {
  it('loads older ledger entries until there are none', async () => {
    const entry = (id: number) => ({
      id,
      account_id: 1,
      amount_rials: -1500,
      kind: 'send' as const,
      send_id: id,
      message_id: null,
      note: '',
      created_at: 0,
      group: null,
    });
    const { api: client } = fakeApi({
      'pricing:get': () => ({ sms_page_tomans: 150, messenger_message_tomans: 50 }),
      'simulator:get': () => ({ seed: 7, handoff_ms: 300, delivery_ms: 1500, outcomes: { '10': 1 } }),
      'apiKeys:list': () => [],
      'lines:list': () => [],
      'credit:balance': () => ({ account_id: 1, credit_rials: 100 }),
      'credit:ledger': ({ before_id }) =>
        before_id === undefined
          ? { entries: [entry(4), entry(3)], next_before_id: 3 }
          : { entries: [entry(2), entry(1)], next_before_id: null },
    });
    const store = createSettingsStore(client);
    await store.getState().load(1);
    expect(store.getState().ledgerBefore).toBe(3);
    await store.getState().loadOlderLedger();
    expect(store.getState().ledger.map((e) => e.id)).toEqual([4, 3, 2, 1]);
    expect(store.getState().ledgerBefore).toBeNull();
  });
});

describe('settings store, credit re-read after pushes', () => {
  it('reads balance and ledger once more after a burst of calls, not once per call', async () => {
    let credit = 100;
    const { api: client, transport } = fakeApi({
      'pricing:get': () => ({ sms_page_tomans: 150, messenger_message_tomans: 50 }),
      'simulator:get': () => ({ seed: 7, handoff_ms: 300, delivery_ms: 1500, outcomes: { '10': 1 } }),
      'apiKeys:list': () => [],
      'lines:list': () => [],
      'credit:balance': () => ({ account_id: 1, credit_rials: credit }),
      'credit:ledger': () => ({ entries: [], next_before_id: null }),
    });
    const store = createSettingsStore(client);
    await store.getState().load(1);
    const reads = () => transport.calls.filter((c) => c.channel === 'credit:ledger').length;
    const before = reads();
    credit = 500;
    await Promise.all(Array.from({ length: 10 }, () => store.getState().refreshCredit()));
    expect(reads() - before).toBe(2);
    // The last read saw the last change.
    expect(store.getState().balance).toBe(500);
  });
});

describe('settings store, forms', () => {
  it('answers a refused top-up, line or price with its message for the form, leaving `error` alone', async () => {
    const refuse = (message: string) => () => {
      throw { code: 400, message };
    };
    const { api: client, transport } = fakeApi({
      'pricing:get': () => ({ sms_page_tomans: 150, messenger_message_tomans: 50 }),
      'simulator:get': () => ({ seed: 7, handoff_ms: 300, delivery_ms: 1500, outcomes: { '10': 1 } }),
      'apiKeys:list': () => [],
      'lines:list': () => [line()],
      'credit:balance': () => ({ account_id: 1, credit_rials: 100 }),
      'credit:ledger': () => ({ entries: [], next_before_id: null }),
      'credit:topUp': refuse('too large'),
      'lines:add': refuse('exists'),
      'lines:delete': refuse('has messages'),
      'pricing:set': refuse('out of range'),
    });
    const store = createSettingsStore(client);
    await store.getState().load(1);
    expect(await store.getState().topUp(10 ** 14, '')).toBe('too large');
    expect(await store.getState().addLine({ number: '30001111', provider: 'sms', permissions: [] })).toBe('exists');
    expect(await store.getState().deleteLine('30001111')).toBe('has messages');
    expect(await store.getState().savePricing({ sms_page_tomans: -5, messenger_message_tomans: 50 })).toBe(
      'out of range',
    );
    expect(store.getState()).toMatchObject({ error: null, balance: 100, pricing: { sms_page_tomans: 150 } });
    expect(transport.calls.find((c) => c.channel === 'lines:add')?.input).toEqual({
      account_id: 1,
      number: '30001111',
      provider: 'sms',
      permissions: [],
    });
  });
});

describe('settings store, refunds of a send', () => {
  it("loads a grouped row's refunds page by page, and forgets them when the ledger is read again", async () => {
    const refund = (id: number) => ({
      id,
      account_id: 1,
      amount_rials: 1500,
      kind: 'refund' as const,
      send_id: null,
      message_id: id,
      note: '',
      created_at: 0,
      group: null,
    });
    const { api: client, transport } = fakeApi({
      'pricing:get': () => ({ sms_page_tomans: 150, messenger_message_tomans: 50 }),
      'simulator:get': () => ({ seed: 7, handoff_ms: 300, delivery_ms: 1500, outcomes: { '10': 1 } }),
      'apiKeys:list': () => [],
      'lines:list': () => [],
      'credit:balance': () => ({ account_id: 1, credit_rials: 100 }),
      'credit:ledger': ({ send_id, before_id }) =>
        send_id === undefined
          ? {
              entries: [{ ...refund(9), kind: 'send' as const, send_id: 4, message_id: null, amount_rials: 0 }],
              next_before_id: null,
            }
          : before_id === undefined
            ? { entries: [refund(9), refund(8)], next_before_id: 8 }
            : { entries: [refund(7)], next_before_id: null },
    });
    const store = createSettingsStore(client);
    await store.getState().load(1);
    expect(store.getState().ledger[0]).toMatchObject({ send_id: 4, amount_rials: 0 });
    await store.getState().loadRefunds(4);
    await store.getState().loadRefunds(4);
    expect(store.getState().refunds[4]).toEqual({ entries: [refund(9), refund(8), refund(7)], before: null });
    // All loaded: nothing more is asked.
    await store.getState().loadRefunds(4);
    expect(transport.calls.filter((c) => c.channel === 'credit:ledger')).toHaveLength(3);
    expect(transport.calls.at(-1)?.input).toEqual({ account_id: 1, send_id: 4, limit: 50, before_id: 8 });
    await store.getState().refreshCredit();
    expect(store.getState().refunds).toEqual({});
  });
});

describe('settings store, backups', () => {
  it('uploads a backup from this computer and lists it', async () => {
    const uploaded = { path: '/data/backups/up.db', bytes: 4096, created_at: 2, url: '/bridge/backups/up.db' };
    const { api: client, transport } = fakeApi({ 'backup:list': () => [uploaded] }, [uploaded]);
    const store = createSettingsStore(client);
    expect(await store.getState().uploadBackup(new Blob(['SQLite format 3']))).toEqual(uploaded);
    expect(store.getState().backups).toEqual([uploaded]);
    expect(transport.calls.map((c) => c.channel)).toEqual(['backup:list']);
  });

  it('asks the desktop for a file and answers null when cancelled', async () => {
    const { api: client, transport } = fakeApi({
      'files:choose': ({ purpose }) => ({ path: purpose === 'data-folder' ? null : '/b.db' }),
    });
    const store = createSettingsStore(client);
    expect(await store.getState().chooseFile('backup-restore')).toBe('/b.db');
    expect(await store.getState().chooseFile('data-folder', '/old')).toBeNull();
    expect(transport.calls.at(-1)?.input).toEqual({ purpose: 'data-folder', default_path: '/old' });
  });
});
