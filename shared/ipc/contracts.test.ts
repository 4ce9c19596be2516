import { describe, expect, expectTypeOf, it } from 'vitest';
import { CHANNEL_NAMES } from './channels';
import {
  CHANNELS,
  EVENT_NAMES,
  contracts,
  events,
  createClient,
  createFakeTransport,
  IpcCallError,
  isChannel,
} from './index';

describe('ipc contracts', () => {
  it('names every contract by its own key, and the allowlist holds exactly the contracts', () => {
    for (const channel of CHANNELS) expect(contracts[channel].channel).toBe(channel);
    expect([...CHANNEL_NAMES].sort()).toEqual(Object.keys(contracts).sort());
    expect([...EVENT_NAMES].sort()).toEqual(Object.keys(events).sort());
    expect(EVENT_NAMES).toContain('messages:status-changed');
    expect(isChannel('toString')).toBe(false);
    expect(isChannel('messages:list')).toBe(true);
  });

  it('gives a typed client over a fake transport', async () => {
    const transport = createFakeTransport({
      'credit:balance': ({ account_id }) => ({ account_id, credit_rials: 5000 }),
    });
    const client = createClient(transport);
    const balance = await client.invoke('credit:balance', { account_id: 1 });
    expectTypeOf(balance.credit_rials).toEqualTypeOf<number>();
    expect(balance).toEqual({ account_id: 1, credit_rials: 5000 });

    const refused = await client.call('accounts:list');
    expect(refused).toMatchObject({ ok: false, error: { code: 501 } });
    await expect(client.invoke('pricing:get')).rejects.toBeInstanceOf(IpcCallError);

    const seen: number[] = [];
    const off = client.on('messages:status-changed', (payload) => seen.push(...payload.changes.map((c) => c.id)));
    transport.emit('messages:status-changed', { changes: [{ id: 7, account_id: 1, status: 4 }] });
    off();
    transport.emit('messages:status-changed', { changes: [{ id: 8, account_id: 1, status: 4 }] });
    expect(seen).toEqual([7]);
  });

  it('refuses unknown channels before the transport', async () => {
    const transport = createFakeTransport();
    const client = createClient(transport);
    // @ts-expect-error not a channel
    const result = await client.call('nope:never', {});
    expect(result).toMatchObject({ ok: false, error: { code: 404 } });
    expect(transport.calls).toHaveLength(0);
  });
});
