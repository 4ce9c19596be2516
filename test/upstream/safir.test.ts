// Chapar's Safir client against the local Safir: one request per receiver, the request id that
// makes a repeat harmless (the same message asked twice is sent once), a receiver refused alone,
// and the answers that pause a line (key, credit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baleSafirClient, safirRequestId } from '../../electron/service/messaging/carriers/upstream/bale-safir';
import { MessageStatus } from '../../shared/lifecycle';
import { startSafirFake, type SafirFake } from './fakes/safir';

const KEY = 'safir-access-key-0123456789';
const BOT = '1234567890';

let fake: SafirFake;
beforeAll(async () => {
  fake = await startSafirFake({ accessKey: KEY, bots: [BOT], credit: 100 });
});
afterAll(() => fake.close());

const client = (key = KEY) => baleSafirClient({ baseUrl: fake.url, apiKey: key, sender: BOT, timeoutMs: 5_000 });
const message = (id: number, receptor: string, text = 'سلام از چاپار') => ({ id, localId: 1_000 + id, receptor, text });

describe("Chapar's Safir client", () => {
  it('sends one request per receiver under our local id, and a repeat of the same message sends nothing again', async () => {
    const batch = Array.from({ length: 9 }, (_, i) => message(i + 1, `0912000000${i}`));
    const first = await client().send(batch);
    if (first.kind !== 'ok') throw new Error(JSON.stringify(first));
    expect(first.value.map((r) => [r.id, r.status])).toEqual(batch.map((m) => [m.id, MessageStatus.HandedToCarrier]));
    expect(fake.messages).toHaveLength(9);
    expect(fake.messages.map((m) => m.phoneNumber).sort()).toEqual(batch.map((m) => '98' + m.receptor.slice(1)).sort());
    expect(new Set(fake.messages.map((m) => m.requestId))).toEqual(
      new Set(batch.map((m) => safirRequestId(m.localId))),
    );

    // The same call again (its answer lost on the way): the same ids back, nothing sent twice.
    const again = await client().send(batch);
    if (again.kind !== 'ok') throw new Error(JSON.stringify(again));
    expect(again.value.map((r) => r.upstreamId)).toEqual(first.value.map((r) => r.upstreamId));
    expect(fake.messages).toHaveLength(9);
    expect(fake.requests).toBe(18);
  });

  it('refuses a bad receiver alone; the key and the credit are answers for the whole call', async () => {
    const mixed = await client().send([message(20, '09121111111'), message(21, '02112345678')]);
    if (mixed.kind !== 'ok') throw new Error(JSON.stringify(mixed));
    expect(mixed.value[0]).toMatchObject({ id: 20, status: MessageStatus.HandedToCarrier });
    expect(mixed.value[1]).toMatchObject({ id: 21, upstreamId: null, status: MessageStatus.Invalid });

    expect(await client('wrong').send([message(22, '09122222222')])).toMatchObject({ kind: 'error', code: 403 });
    expect(await client('wrong').info()).toMatchObject({ kind: 'error', code: 403 });
    expect(await client().info()).toEqual({ kind: 'ok', value: { creditRials: null } });
    // A bot the business does not have, and Safir busy: answers, never "connected".
    const stranger = baleSafirClient({ baseUrl: fake.url, apiKey: KEY, sender: 'nobody', timeoutMs: 5_000 });
    expect(await stranger.info()).toMatchObject({ kind: 'error', code: 403 });
    fake.limitPerSecond = 0;
    try {
      expect(await client().info()).toMatchObject({ kind: 'error', code: 429 });
    } finally {
      fake.limitPerSecond = Infinity;
    }

    const credit = fake.credit;
    fake.credit = 0;
    try {
      expect(await client().send([message(23, '09123333333')])).toMatchObject({ kind: 'error', code: 418 });
    } finally {
      fake.credit = credit;
    }
    const count = fake.messages.length;
    fake.limitPerSecond = 0;
    try {
      expect(await client().send([message(24, '09124444444')])).toMatchObject({ kind: 'error', code: 429 });
    } finally {
      fake.limitPerSecond = Infinity;
    }
    expect(fake.messages).toHaveLength(count);
  });
});
