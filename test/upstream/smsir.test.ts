// The local SMS.ir against its contract, from two sides: the official TypeScript SDK
// (`sms-typescript`, unmodified; only its fixed address is routed to the fake, as a hosts entry
// would), and Chapar's own client of it (smsir.ts): sends of one text and of a text each, statuses
// as the fake's clock moves, the outbox search that stands in for an idempotency key, replies, and
// the answers that pause a line (key, credit).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Smsir } from 'sms-typescript';
import { smsIrClient } from '../../electron/service/messaging/carriers/upstream/smsir';
import type { InboxPage } from '../../electron/service/messaging/carriers/upstream/client';
import { MessageStatus } from '../../shared/lifecycle';
import { SmsIrState, startSmsIrFake, type SmsIrFake } from './fakes/smsir';

const KEY = 'smsir-test-key-0123456789';
const LINE = '30007732000000';
const SMSIR = 'https://api.sms.ir';

let fake: SmsIrFake;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  fake = await startSmsIrFake({
    apiKey: KEY,
    lines: [LINE],
    credit: 1_000,
    deliveryMs: 5_000,
    outcome: (mobile) => (mobile.endsWith('99') ? SmsIrState.Blacklisted : SmsIrState.Delivered),
  });
});
afterAll(() => fake.close());
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** The SDK's requests go to the fake: its address rewritten, nothing else touched. */
function routeSdkToFake(): void {
  globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return realFetch(url.startsWith(SMSIR) ? fake.url + url.slice(SMSIR.length) : url, init);
  }) as typeof fetch;
}

describe('the official SDK against the local SMS.ir', () => {
  it('sends, reads a pack, a message, the day and the credit, and is refused with a wrong key', async () => {
    routeSdkToFake();
    const sms = new Smsir(KEY, Number(LINE));
    const bulk = await sms.sendBulk('سلام از چاپار', ['09120000001', '09120000002']);
    expect(bulk.status).toBe(1);
    expect(bulk.data.messageIds).toHaveLength(2);
    expect(typeof bulk.data.packId).toBe('string');

    const pair = await sms.sendLikeToLike(['متن یک', 'متن دو'], ['09120000003', '09120000004']);
    expect(pair.data.messageIds).toHaveLength(2);

    const pack = await sms.reportPackById(bulk.data.packId);
    expect(pack.data.map((m) => m.deliveryState)).toEqual([SmsIrState.AtOperator, SmsIrState.AtOperator]);
    fake.advance(5_000);
    const one = await sms.reportMessage(bulk.data.messageIds[0]!);
    expect(one.data).toMatchObject({ messageText: 'سلام از چاپار', deliveryState: SmsIrState.Delivered });
    const today = await sms.reportTodayLive(1, 100);
    expect(today.data.length).toBeGreaterThanOrEqual(4);
    const credit = await sms.getCredit();
    expect(credit.data).toBe(fake.credit);

    fake.receive('09120000001', LINE, 'لغو');
    const latest = await sms.reportLatestReceive(10);
    expect(latest.data[0]).toMatchObject({ messageText: 'لغو', number: Number(LINE) });

    await expect(new Smsir('wrong-key', Number(LINE)).getCredit()).rejects.toThrow(/401/);
  });
});

describe("Chapar's SMS.ir client", () => {
  const client = () => smsIrClient({ baseUrl: fake.url, apiKey: KEY, sender: LINE, timeoutMs: 5_000 });

  it('hands one text and own texts over, each message its id, and follows them to their final status', async () => {
    const shared = await client().send([
      { id: 1, localId: 1, receptor: '09121110001', text: 'حراج جمعه' },
      { id: 2, localId: 2, receptor: '09121110099', text: 'حراج جمعه' },
    ]);
    expect(shared.kind).toBe('ok');
    const own = await client().send([
      { id: 3, localId: 3, receptor: '09121110003', text: 'سلام علی' },
      { id: 4, localId: 4, receptor: '09121110004', text: 'سلام مریم' },
    ]);
    if (shared.kind !== 'ok' || own.kind !== 'ok') throw new Error('not sent');
    const records = [...shared.value, ...own.value];
    expect(records.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(new Set(records.map((r) => r.upstreamId)).size).toBe(4);
    expect(fake.messages.filter((m) => m.mobile === '09121110003')[0]!.messageText).toBe('سلام علی');

    const ids = records.map((r) => r.upstreamId!);
    const before = await client().status(ids);
    expect(before.kind === 'ok' && before.value.map((s) => s.status)).toEqual(
      ids.map(() => MessageStatus.HandedToCarrier),
    );
    fake.advance(5_000);
    const after = await client().status(ids);
    expect(after.kind === 'ok' && after.value.map((s) => s.status)).toEqual([
      MessageStatus.Delivered,
      MessageStatus.Blocked,
      MessageStatus.Delivered,
      MessageStatus.Delivered,
    ]);
  });

  it('finds messages whose answer was lost in the day’s outbox, says which are not there and which cannot be told apart', async () => {
    const from = Date.now();
    await client().send([{ id: 10, localId: 10, receptor: '09122220001', text: 'کد ۱۲۳' }]);
    // The same receiver and text twice: which send was ours cannot be said.
    await client().send([{ id: 11, localId: 11, receptor: '09122220002', text: 'یادآوری' }]);
    await client().send([{ id: 12, localId: 12, receptor: '09122220002', text: 'یادآوری' }]);
    const found = await client().findSent({
      messages: [
        { id: 10, receptor: '09122220001', text: 'کد ۱۲۳' },
        { id: 11, receptor: '09122220002', text: 'یادآوری' },
        { id: 13, receptor: '09122220003', text: 'never sent' },
      ],
      from,
      to: Date.now(),
    });
    if (found.kind !== 'ok') throw new Error(JSON.stringify(found));
    const byId = new Map(found.value.map((f) => [f.id, f]));
    const sent = fake.messages.find((m) => m.mobile === '09122220001')!;
    expect(byId.get(10)).toMatchObject({ upstreamId: String(sent.messageId) });
    expect(byId.get(10)!.ambiguous).toBeUndefined();
    expect(byId.get(11)).toMatchObject({ upstreamId: null, ambiguous: true });
    expect(byId.get(13)).toMatchObject({ upstreamId: null });
    expect(byId.get(13)!.ambiguous).toBeUndefined();
    // A message found there is followed by its own id.
    fake.advance(5_000);
    const status = await client().status([String(sent.messageId)]);
    expect(status).toEqual({
      kind: 'ok',
      value: [{ upstreamId: String(sent.messageId), status: MessageStatus.Delivered }],
    });
  });

  it('reads replies by date range, page by page', async () => {
    const from = Date.now();
    for (let i = 0; i < 150; i++) fake.receive(`0913${String(i).padStart(7, '0')}`, LINE, `پاسخ ${i}`);
    const pages: InboxPage[] = [];
    for (let page = 1; page <= (pages.at(-1)?.totalPages ?? 1); page++) {
      const read = await client().inbox(from - 1_000, Date.now() + 1_000, page);
      if (read.kind !== 'ok') throw new Error(JSON.stringify(read));
      pages.push(read.value);
    }
    // Full pages of 100, then the rest (an earlier test's reply may share the first second).
    expect(pages.map((page) => page.items.length).slice(0, -1)).toEqual([100]);
    const replies = pages.flatMap((page) => page.items).filter((item) => item.text.startsWith('پاسخ'));
    expect(replies).toHaveLength(150);
    expect(new Set(replies.map((item) => item.upstreamId)).size).toBe(150);
    expect(replies[0]).toMatchObject({ sender: '09130000000', receptor: LINE, text: 'پاسخ 0' });
  });

  it('answers a wrong key as a key problem and an empty credit as a credit problem (both pause a line)', async () => {
    const wrong = await smsIrClient({ baseUrl: fake.url, apiKey: 'nope', sender: LINE, timeoutMs: 5_000 }).info();
    expect(wrong).toMatchObject({ kind: 'error', code: 403 });
    const credit = fake.credit;
    fake.credit = 0;
    try {
      const refused = await client().send([{ id: 20, localId: 20, receptor: '09123330001', text: 'x' }]);
      expect(refused).toMatchObject({ kind: 'error', code: 418 });
      expect(await client().info()).toEqual({ kind: 'ok', value: { creditRials: 0, providerCredit: 0 } });
    } finally {
      fake.credit = credit;
    }
    // Some left: not as rials (its unit is SMS.ir's own), but the number as SMS.ir says it.
    expect(await client().info()).toEqual({ kind: 'ok', value: { creditRials: null, providerCredit: credit } });
  });
});
