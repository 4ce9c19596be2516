// Chapar's IPPanel Edge client (ippanel-edge.ts) against the local IPPanel (fakes/ippanel.ts), both
// written from the Edge documentation: sends of one text (one bulk) and of a text each (a bulk
// each), statuses given only once a bulk has finished and followed as the fake's clock moves, a
// bulk that ends unsent, costs shared out of a bulk's, the outbox search that stands in for an
// idempotency key, replies, the credit, and the answers that pause a line (key, credit), split a
// call or are tried again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ippanelEdgeClient, ippanelLine } from '../../electron/service/messaging/carriers/upstream/ippanel-edge';
import type { InboxPage } from '../../electron/service/messaging/carriers/upstream/client';
import { MessageStatus } from '../../shared/lifecycle';
import { IPPANEL_PRICES, IppanelBulkState, IppanelStatus, startIppanelFake, type IppanelFake } from './fakes/ippanel';

const KEY = 'ippanel-test-key-0123456789';
/** The line as the app keeps it (digits) and as IPPanel names it. */
const LINE = '983000505';
const LINE_E164 = '+983000505';
const BULK_MS = 2_000;
const DELIVERY_MS = 5_000;

let fake: IppanelFake;

beforeAll(async () => {
  fake = await startIppanelFake({
    apiKey: KEY,
    lines: [LINE_E164, '+983000999'],
    bulkMs: BULK_MS,
    deliveryMs: DELIVERY_MS,
    outcome: (mobile) =>
      mobile.endsWith('99')
        ? IppanelStatus.Blacklisted
        : mobile.endsWith('77')
          ? IppanelStatus.NotDelivered
          : IppanelStatus.Delivered,
  });
});
afterAll(() => fake.close());

const client = (key = KEY) => ippanelEdgeClient({ baseUrl: fake.url, apiKey: key, sender: LINE, timeoutMs: 5_000 });

describe("Chapar's IPPanel Edge client", () => {
  it('names the line in E.164 however it is kept', () => {
    expect(ippanelLine('983000505')).toBe('+983000505');
    expect(ippanelLine('+983000505')).toBe('+983000505');
    expect(ippanelLine('3000505')).toBe('+983000505');
  });

  it('hands one text over as one bulk and own texts as a bulk each, and follows them once each bulk has finished', async () => {
    const shared = await client().send([
      { id: 1, localId: 1, receptor: '09121110001', text: 'حراج جمعه' },
      { id: 2, localId: 2, receptor: '09121110099', text: 'حراج جمعه' },
    ]);
    const own = await client().send([
      { id: 3, localId: 3, receptor: '09121110003', text: 'سلام علی' },
      { id: 4, localId: 4, receptor: '09121110077', text: 'سلام مریم' },
    ]);
    if (shared.kind !== 'ok' || own.kind !== 'ok') throw new Error(JSON.stringify([shared, own]));
    const records = [...shared.value, ...own.value];
    expect(records.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(records.every((r) => r.costRials === null && r.status === MessageStatus.HandedToCarrier)).toBe(true);
    const bulks = records.map((r) => r.upstreamId!.split(':')[0]);
    expect(bulks[0]).toBe(bulks[1]);
    expect(new Set(bulks).size).toBe(3);
    expect(records[0]!.upstreamId).toBe(`${bulks[0]}:+989121110001`);
    const sent = [...fake.bulks.values()].slice(-3);
    expect(sent.map((b) => [b.type, b.message, b.recipients.map((r) => r.recipient)])).toEqual([
      ['webservice', 'حراج جمعه', ['+989121110001', '+989121110099']],
      ['peer_to_peer', 'سلام علی', ['+989121110003']],
      ['peer_to_peer', 'سلام مریم', ['+989121110077']],
    ]);
    expect(sent.every((b) => b.fromNumber === LINE_E164)).toBe(true);

    const ids = records.map((r) => r.upstreamId!);
    const statuses = async () => {
      const read = await client().status(ids);
      if (read.kind !== 'ok') throw new Error(JSON.stringify(read));
      return ids.map((id) => read.value.find((s) => s.upstreamId === id)?.status);
    };
    // Not finished: no recipient status yet, nothing final.
    expect(await statuses()).toEqual(ids.map(() => MessageStatus.HandedToCarrier));
    fake.advance(BULK_MS);
    // Finished: with the operator.
    expect(await statuses()).toEqual(ids.map(() => MessageStatus.HandedToCarrier));
    fake.advance(DELIVERY_MS);
    expect(await statuses()).toEqual([
      MessageStatus.Delivered,
      MessageStatus.Blocked,
      MessageStatus.Delivered,
      MessageStatus.Undelivered,
    ]);
  });

  it('ends the messages of a bulk that IPPanel ended unsent as cancelled', async () => {
    const sent = await client().send([{ id: 5, localId: 5, receptor: '09121110005', text: 'بدون اعتبار' }]);
    if (sent.kind !== 'ok') throw new Error(JSON.stringify(sent));
    const id = sent.value[0]!.upstreamId!;
    fake.setBulkState(Number(id.split(':')[0]), IppanelBulkState.NoCredit);
    expect(await client().status([id])).toEqual({ kind: 'ok', value: [{ upstreamId: id, status: 13 }] });
  });

  it('reads what each message cost out of its bulk’s cost once the bulk has finished, adding up to it', async () => {
    // One MCI and two other operators' numbers: their prices differ, the bulk's cost is shared.
    const numbers = ['09121110010', '09351110011', '09011110012'];
    const sent = await client().send(
      numbers.map((receptor, i) => ({ id: 10 + i, localId: 10 + i, receptor, text: 'قیمت' })),
    );
    const own = await client().send([
      { id: 20, localId: 20, receptor: '09121110020', text: 'یک' },
      { id: 21, localId: 21, receptor: '09351110021', text: 'دو' },
    ]);
    if (sent.kind !== 'ok' || own.kind !== 'ok') throw new Error(JSON.stringify([sent, own]));
    const ids = [...sent.value, ...own.value].map((r) => r.upstreamId!);
    expect(await client().costs(ids)).toEqual({
      kind: 'ok',
      value: ids.map((upstreamId) => ({ upstreamId, costRials: null })),
    });
    fake.advance(BULK_MS);
    const read = await client().costs(ids);
    if (read.kind !== 'ok') throw new Error(JSON.stringify(read));
    const costs = new Map(read.value.map((c) => [c.upstreamId, c.costRials]));
    const bulk = fake.bulks.get(Number(ids[0]!.split(':')[0]))!;
    expect(bulk.cost).toBe(IPPANEL_PRICES.mci + 2 * IPPANEL_PRICES.other);
    expect(ids.slice(0, 3).reduce((sum, id) => sum + costs.get(id)!, 0)).toBe(bulk.cost);
    // A bulk of one: exactly its recipient's.
    expect([costs.get(ids[3]!), costs.get(ids[4]!)]).toEqual([IPPANEL_PRICES.mci, IPPANEL_PRICES.other]);
  });

  it('finds messages whose answer was lost in the outbox, says which are not there and which cannot be told apart', async () => {
    const from = Date.now();
    await client().send([{ id: 30, localId: 30, receptor: '09122220001', text: 'کد ۱۲۳' }]);
    // The same receiver and text twice: which send was ours cannot be said.
    await client().send([{ id: 31, localId: 31, receptor: '09122220002', text: 'یادآوری' }]);
    await client().send([{ id: 32, localId: 32, receptor: '09122220002', text: 'یادآوری' }]);
    // In one bulk with others, and own texts in one call.
    await client().send([
      { id: 33, localId: 33, receptor: '09122220003', text: 'خبرنامه' },
      { id: 34, localId: 34, receptor: '09122220004', text: 'خبرنامه' },
    ]);
    await client().send([
      { id: 35, localId: 35, receptor: '09122220005', text: 'سلام سارا' },
      { id: 36, localId: 36, receptor: '09122220006', text: 'سلام رضا' },
    ]);
    // Another line of the account sent the same text to the same number: not ours.
    const other = ippanelEdgeClient({ baseUrl: fake.url, apiKey: KEY, sender: '983000999', timeoutMs: 5_000 });
    await other.send([{ id: 99, localId: 99, receptor: '09122220007', text: 'کد ۱۲۳' }]);
    const found = await client().findSent({
      messages: [
        { id: 30, receptor: '09122220001', text: 'کد ۱۲۳' },
        { id: 31, receptor: '09122220002', text: 'یادآوری' },
        { id: 34, receptor: '09122220004', text: 'خبرنامه' },
        { id: 36, receptor: '09122220006', text: 'سلام رضا' },
        { id: 37, receptor: '09122220007', text: 'کد ۱۲۳' },
        { id: 38, receptor: '09122220008', text: 'never sent' },
      ],
      from,
      to: Date.now(),
    });
    if (found.kind !== 'ok') throw new Error(JSON.stringify(found));
    const byId = new Map(found.value.map((f) => [f.id, f]));
    const idOf = (mobile: string) => {
      const message = fake.messages.find((m) => m.mobile === mobile && m.fromNumber === LINE_E164)!;
      return `${message.bulkId}:${message.recipient}`;
    };
    expect(byId.get(30)).toEqual({ id: 30, upstreamId: idOf('09122220001'), status: MessageStatus.HandedToCarrier });
    expect(byId.get(31)).toMatchObject({ upstreamId: null, ambiguous: true });
    expect(byId.get(34)).toMatchObject({ upstreamId: idOf('09122220004') });
    expect(byId.get(36)).toMatchObject({ upstreamId: idOf('09122220006') });
    expect(byId.get(37)).toEqual({ id: 37, upstreamId: null, status: 0 });
    expect(byId.get(38)).toEqual({ id: 38, upstreamId: null, status: 0 });
    // A message found there is followed by that id, its final status found with it later.
    fake.advance(BULK_MS + DELIVERY_MS);
    const again = await client().findSent({
      messages: [{ id: 30, receptor: '09122220001', text: 'کد ۱۲۳' }],
      from,
      to: Date.now(),
    });
    expect(again).toEqual({
      kind: 'ok',
      value: [{ id: 30, upstreamId: idOf('09122220001'), status: MessageStatus.Delivered }],
    });
    expect(await client().status([idOf('09122220001')])).toEqual({
      kind: 'ok',
      value: [{ upstreamId: idOf('09122220001'), status: MessageStatus.Delivered }],
    });
  });

  it('reads replies to its line newest first, page by page, back to the time asked', async () => {
    const from = Date.now() - 1_000;
    for (let i = 0; i < 150; i++) fake.receive(`0913${String(i).padStart(7, '0')}`, LINE, `پاسخ ${i}`);
    fake.receive('09130000999', '983000999', 'به خط دیگر');
    const pages: InboxPage[] = [];
    for (let page = 1; page <= (pages.at(-1)?.totalPages ?? 1); page++) {
      const read = await client().inbox(from, Date.now() + 1_000, page);
      if (read.kind !== 'ok') throw new Error(JSON.stringify(read));
      pages.push(read.value);
    }
    expect(pages).toHaveLength(2);
    const replies = pages.flatMap((page) => page.items);
    expect(replies).toHaveLength(150);
    expect(new Set(replies.map((item) => item.upstreamId)).size).toBe(150);
    expect(replies.at(-1)).toMatchObject({ sender: '09130000000', receptor: LINE, text: 'پاسخ 0' });
    // Nothing older than asked for.
    const later = await client().inbox(Date.now() + 60_000, Date.now() + 120_000, 1);
    expect(later).toEqual({ kind: 'ok', value: { items: [], totalPages: 1 } });
  });

  it('reads the credit in rials; a wrong key pauses the line (403), so does an empty credit (418)', async () => {
    expect(await client().info()).toEqual({ kind: 'ok', value: { creditRials: fake.credit } });
    expect(await client('nope').info()).toMatchObject({ kind: 'error', code: 403 });
    expect(await client('nope').send([{ id: 40, localId: 40, receptor: '09123330001', text: 'x' }])).toMatchObject({
      kind: 'error',
      code: 403,
    });
    const credit = fake.credit;
    const before = fake.messages.length;
    fake.credit = IPPANEL_PRICES.mci - 1;
    try {
      const refused = await client().send([{ id: 41, localId: 41, receptor: '09123330001', text: 'x' }]);
      expect(refused).toMatchObject({ kind: 'error', code: 418 });
      expect(fake.messages.length).toBe(before);
      expect(await client().info()).toEqual({ kind: 'ok', value: { creditRials: IPPANEL_PRICES.mci - 1 } });
    } finally {
      fake.credit = credit;
    }
  });

  it('answers too many recipients as a call to split (414), a limit and a failure as retryable, a wrong sender as failed', async () => {
    const small = await startIppanelFake({ apiKey: KEY, lines: [LINE_E164], maxPerCall: 2 });
    try {
      const three = [1, 2, 3].map((i) => ({ id: i, localId: i, receptor: `0912444000${i}`, text: 'سه' }));
      const to = (url: string, sender = LINE) =>
        ippanelEdgeClient({ baseUrl: url, apiKey: KEY, sender, timeoutMs: 5_000 });
      expect(await to(small.url).send(three)).toMatchObject({ kind: 'error', code: 414 });
      expect(small.messages).toHaveLength(0);
      small.limitPerSecond = 0;
      expect(await to(small.url).send(three.slice(0, 2))).toMatchObject({ kind: 'error', code: 429 });
      small.limitPerSecond = Infinity;
      small.failNext(1, 502, '/v1/api/send');
      expect(await to(small.url).send(three.slice(0, 2))).toMatchObject({ kind: 'error', code: 502 });
      small.failNext(1, 500);
      expect(await to(small.url).status(['1123544244:+989124440001'])).toMatchObject({ kind: 'error', code: 500 });
      expect(await to(small.url, '983000111').send(three.slice(0, 1))).toMatchObject({ kind: 'error', code: 422 });
      expect(small.messages).toHaveLength(0);
    } finally {
      await small.close();
    }
  });
});
