// POST /v2/sms/send-p2p, our extension (the v2 provider's personalized send): a text per receiver
// in one all-or-nothing call with the rules and codes of /v2/sms/send (spec 4.1). One entry per
// submitted message, in order; each text made final (opt-out phrase) and priced on its own, and
// stored per message, as status lookups and the app's message list read it back; a receiver named
// again with another text sent again, with the same text a duplicate (15); every refusal (400, 401,
// 403, 411, 412, 414, 418) leaving nothing recorded. The lifecycle is frozen with a manual clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock, unixSeconds } from '../../electron/service/clock';
import { INACTIVE_KEY, OTHER_KEY, post, startServer, testSeed, type TestServer } from '../helpers/server';
import { ipcCalls } from '../helpers/ipc';
import { createDispatcher, type IpcDispatcher } from '../../electron/service/ipc/dispatcher';
import { MessageStatus, messageStatusText } from '../../shared/lifecycle';
import { envelopeOf, MessageInfoSchema, P2pSendRequestSchema } from '../../shared/api';
import {
  accountId,
  counts,
  expectEnvelope,
  expectError,
  MESSAGE_INFO_FIELDS,
  phones,
  uploadFile,
  type HttpResult,
} from './support';

const PHRASE = '\nلغو۱۱';
const SMS = '30001111';
/** The seed's page price: 150 tomans, 1,500 rials. */
const PAGE = 1500;

let server: TestServer;
let clock: ManualClock;
let dispatcher: IpcDispatcher;
let acme: number;
let other: number;
const { ok } = ipcCalls(() => dispatcher);

const p2p = (body: unknown, key?: string | null): Promise<HttpResult> =>
  post(`${server.url}/v2/sms/send-p2p`, body, key);
const messages = (receivers: readonly string[], text: (i: number) => string = (i) => `پیام ${i}`) =>
  receivers.map((receiver, i) => ({ receiver, message: text(i) }));

/** Sends and expects a refusal with the code, and that nothing at all was recorded for the account. */
async function expectRefused(
  body: unknown,
  code: 400 | 401 | 403 | 411 | 412 | 414 | 418,
  key?: string,
  account = acme,
): Promise<void> {
  const before = counts(server.core, account);
  expectError(await p2p(body, key), code);
  expect(counts(server.core, account)).toEqual(before);
}

/** The messages with these ids as the app lists them (messages:list of their sends), by id. */
async function listed(ids: readonly number[]) {
  const sends = new Set<number>();
  for (const message_id of ids) sends.add((await ok('messages:timeline', { message_id })).message.send_id);
  const rows = [];
  for (const send_id of sends)
    rows.push(...(await ok('messages:list', { account_id: acme, send_id, limit: 1000 })).rows);
  return new Map(rows.map((row) => [row.id, row]));
}

beforeAll(async () => {
  clock = new ManualClock();
  const seed = testSeed();
  seed.accounts![0]!.credit_rials = 1_000_000_000;
  server = await startServer({ clock, seed });
  dispatcher = createDispatcher(server.core, { mode: 'desktop' });
  acme = accountId(server.core, 'acme');
  other = accountId(server.core, 'other');
});
afterAll(async () => {
  dispatcher?.close();
  await server?.close();
});

describe('personalized texts', () => {
  it('sends each receiver its own final text, priced by its own pages, stored per message', async () => {
    const long = 'سلام'.repeat(37); // 148 characters: with the phrase, 3 pages of 67
    const sent = [
      { receiver: '09121110001', message: 'علی جان، سفارش ۱۰۲۴ ارسال شد' },
      { receiver: '+989121110002', message: 'Hi Sara, order 1025 shipped' },
      { receiver: '9121110003', message: 'کد تخفیف شما: ۷۷۱۲ لغو ۱۱' },
      { receiver: '989121110004', message: long },
    ];
    const before = server.core.credit.balance(acme);
    const result = await p2p({ sender: SMS, messages: sent });
    expectEnvelope(result, 200);
    const entries = result.body.entries;
    // The phrase goes after every text, a variant in it replaced.
    const finals = [sent[0]!.message + PHRASE, sent[1]!.message + PHRASE, 'کد تخفیف شما: ۷۷۱۲' + PHRASE, long + PHRASE];
    const costs = [PAGE, PAGE, PAGE, 3 * PAGE];
    expect(entries).toEqual(
      finals.map((message, i) => ({
        messageid: entries[0].messageid + i,
        message,
        status: MessageStatus.Queued,
        statustext: messageStatusText[MessageStatus.Queued],
        sender: SMS,
        receptor: `0912111000${i + 1}`,
        date: unixSeconds(clock.now()),
        cost: costs[i],
      })),
    );
    for (const entry of entries) expect(Object.keys(entry).sort()).toEqual(MESSAGE_INFO_FIELDS);
    expect(server.core.credit.balance(acme)).toBe(before - 6 * PAGE);

    // Read back: the status lookup knows every message, and the app lists each with its own text.
    const ids: number[] = entries.map((entry: { messageid: number }) => entry.messageid);
    const status = await post(`${server.url}/v2/sms/status`, { messageids: ids });
    expectEnvelope(status, 200);
    expect(status.body.entries).toEqual(
      ids.map((messageid) => ({ messageid, status: 1, statustext: messageStatusText[MessageStatus.Queued] })),
    );
    const rows = await listed(ids);
    expect(ids.map((id) => [rows.get(id)?.receptor, rows.get(id)?.text, rows.get(id)?.cost_rials])).toEqual(
      finals.map((text, i) => [`0912111000${i + 1}`, text, costs[i]]),
    );
    expect(rows.get(ids[0]!)!.origin).toBe('api');
  });

  it('sends a messenger line’s texts as written, at the fixed price each', async () => {
    const result = await p2p({ sender: 'bale_acme_bot', messages: messages(['09121110011', '09121110012']) });
    expectEnvelope(result, 200);
    expect(result.body.entries.map((e: { message: string; cost: number }) => [e.message, e.cost])).toEqual([
      ['پیام 0', 500],
      ['پیام 1', 500],
    ]);
  });
});

describe('a mixed list', () => {
  it('reports invalid (0) and duplicate (15) entries in place and sends a receiver each of its own texts', async () => {
    const before = counts(server.core, acme);
    const list = [
      { receiver: '09121120001', message: 'الف' },
      { receiver: 'abc', message: 'الف' },
      { receiver: '09121120001', message: 'ب' }, // the same receiver, another text: a message of its own
      { receiver: '+989121120001', message: 'الف' }, // the same receiver and text: a duplicate
      { receiver: '09121120002', message: 'الف' },
      { receiver: '0912112000', message: 'ج' },
      { receiver: '9121120001', message: 'ب' }, // the second pair again: a duplicate
      { receiver: '09121120001', message: 'د' }, // a third text
    ];
    const result = await p2p({ sender: SMS, messages: list });
    expectEnvelope(result, 200);
    const entries = result.body.entries;
    expect(entries.map((e: { status: number }) => e.status)).toEqual([1, 0, 1, 15, 1, 0, 15, 1]);
    expect(entries.map((e: { receptor: string }) => e.receptor)).toEqual([
      '09121120001',
      'abc',
      '09121120001',
      '09121120001',
      '09121120002',
      '0912112000',
      '09121120001',
      '09121120001',
    ]);
    for (const i of [1, 3, 5, 6])
      expect(entries[i]).toMatchObject({ messageid: 0, message: '', sender: '', date: 0, cost: 0 });
    expect([0, 2, 4, 7].map((i) => entries[i].message)).toEqual(['الف', 'ب', 'الف', 'د'].map((t) => t + PHRASE));

    // Four messages, each its own id, in three sends (the first occurrences, then each repeat).
    const ids: number[] = [0, 2, 4, 7].map((i) => entries[i].messageid);
    expect(new Set(ids).size).toBe(4);
    const after = counts(server.core, acme);
    expect(after.messages - before.messages).toBe(4);
    expect(after.sends - before.sends).toBe(3);
    expect(before.balance - after.balance).toBe(4 * PAGE);
    expect(after.ledgerSum).toBe(after.balance);
    const rows = await listed(ids);
    expect(ids.map((id) => [rows.get(id)?.receptor, rows.get(id)?.text])).toEqual([
      ['09121120001', 'الف' + PHRASE],
      ['09121120001', 'ب' + PHRASE],
      ['09121120002', 'الف' + PHRASE],
      ['09121120001', 'د' + PHRASE],
    ]);
  });

  it('is 411 when no receiver is valid, recording nothing', async () => {
    await expectRefused({ sender: SMS, messages: messages(['abc', '0912', '+98912']) }, 411);
  });
});

describe('sender and key', () => {
  it('refuses a line without API permission, another account’s line, and the other account on acme’s (412)', async () => {
    await expectRefused({ sender: '30002222', messages: messages(['09121130001']) }, 412);
    await expectRefused({ sender: '30009999', messages: messages(['09121130001']) }, 412);
    await expectRefused({ sender: SMS, messages: messages(['09121130001']) }, 412, OTHER_KEY, other);
    // The sender is judged before the receivers, as in /v2/sms/send.
    await expectRefused({ sender: '30002222', messages: messages(['abc']) }, 412);
  });

  it('refuses a wrong or missing key (403) and an inactive account (401)', async () => {
    await expectRefused({ sender: SMS, messages: messages(['09121130001']) }, 403, 'k-nobody');
    await expectRefused({ sender: SMS, messages: messages(['09121130001']) }, 401, INACTIVE_KEY);
    const before = counts(server.core, acme);
    expectError(await p2p({ sender: SMS, messages: messages(['09121130001']) }, null), 403);
    expect(counts(server.core, acme)).toEqual(before);
  });
});

describe('size (414)', () => {
  it('accepts 10,000 messages of their own texts (a body over 1 MB) and refuses 10,001', async () => {
    const receivers = phones(10_000, 2_000_000);
    const text = (i: number) => `مشتری گرامی شماره ${i}، سفارش شما آماده تحویل است. ${'ممنون'.repeat(10)}`;
    const body = { sender: SMS, messages: messages(receivers, text) };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(1024 * 1024);
    const result = await p2p(body);
    expectEnvelope(result, 200);
    const entries = result.body.entries;
    expect(entries).toHaveLength(10_000);
    expect(entries.every((e: { status: number }) => e.status === 1)).toBe(true);
    for (const i of [0, 4321, 9999])
      expect(entries[i]).toMatchObject({ receptor: receivers[i], message: text(i) + PHRASE });
    const { rows } = await ok('messages:list', { account_id: acme, receptor: receivers[4321], limit: 10 });
    expect(rows.map((row) => [row.id, row.text])).toEqual([[entries[4321].messageid, text(4321) + PHRASE]]);

    await expectRefused({ sender: SMS, messages: messages(phones(10_001, 3_000_000)) }, 414);
    // However few of them are valid, and before anything else is looked at.
    await expectRefused({ sender: 'nope', messages: Array.from({ length: 10_001 }, () => ({})) }, 414);
  });
});

describe('credit (418)', () => {
  it('refuses a call the credit does not cover, even when its first send alone would fit, recording nothing', async () => {
    // other: 1,000,000 rials, 666 one-page messages. 600 receivers, then 100 of them again with
    // another text: the first send fits, the second does not, and the whole call is refused.
    expect(server.core.credit.balance(other)).toBe(1_000_000);
    const receivers = phones(600, 4_000_000);
    const list = [...messages(receivers), ...messages(receivers.slice(0, 100), (i) => `دوم ${i}`)];
    await expectRefused({ sender: '30009999', messages: list }, 418, OTHER_KEY, other);
    // The exact amount is accepted.
    expectEnvelope(await p2p({ sender: '30009999', messages: list.slice(0, 666) }, OTHER_KEY), 200);
    expect(server.core.credit.balance(other)).toBe(1000);
    await expectRefused({ sender: '30009999', messages: messages(['09121140001']) }, 418, OTHER_KEY, other);
  });
});

describe('validation (400)', () => {
  it.each<[string, unknown]>([
    ['no messages', { sender: SMS }],
    ['an empty list', { sender: SMS, messages: [] }],
    ['an empty text', { sender: SMS, messages: [{ receiver: '09121150001', message: '' }] }],
    ['a message without a text', { sender: SMS, messages: [{ receiver: '09121150001' }] }],
    ['a message without a receiver', { sender: SMS, messages: [{ message: 'x' }] }],
    ['a number as receiver', { sender: SMS, messages: [{ receiver: 9121150001, message: 'x' }] }],
    ['a string as message', { sender: SMS, messages: ['09121150001'] }],
    ['no sender', { messages: messages(['09121150001']) }],
    ['a file id too long', { sender: SMS, messages: messages(['09121150001']), file_id: 'f'.repeat(101) }],
    ['the shared-text shape', { sender: SMS, message: 'x', receivers: ['09121150001'] }],
    ['a body that is not JSON', '{"sender": "30001111", "messages": ['],
  ])('refuses %s', async (_what, body) => {
    await expectRefused(body, 400);
  });
});

describe('file_id (spec 4.1 rule 7)', () => {
  it('attaches a bale file to a bale line’s messages, and refuses it on an SMS line or unknown', async () => {
    const upload = await uploadFile(server.url, 'bale');
    expect(upload.status).toBe(201);
    const fileId = upload.body.entries.file_id as string;
    const result = await p2p({
      sender: 'bale_acme_bot',
      file_id: fileId,
      messages: messages(['09121160001', '09121160002']),
    });
    expectEnvelope(result, 200);
    const stored = server.core.db
      .prepare<[number], { file_id: string | null }>(
        'SELECT s.file_id FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.id = ?',
      )
      .get(result.body.entries[1].messageid);
    expect(stored!.file_id).toBe(fileId);
    await expectRefused({ sender: SMS, file_id: fileId, messages: messages(['09121160001']) }, 400);
    const unknown = crypto.randomUUID();
    await expectRefused({ sender: 'bale_acme_bot', file_id: unknown, messages: messages(['09121160001']) }, 400);
  });
});

describe('OpenAPI', () => {
  it('documents POST /v2/sms/send-p2p as an extension, with examples the schemas accept and the server answers', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as any;
    const operation = doc.paths['/v2/sms/send-p2p'].post;
    expect(operation.tags).toEqual(['Extensions']);
    expect(operation.summary).toMatch(/^Extension/);
    expect(operation.description).toContain('Not in the spec');
    expect(operation.description).toContain('is a duplicate (15)');
    const request = operation.requestBody.content['application/json'];
    expect(request.schema).toEqual({ $ref: '#/components/schemas/P2pSendRequest' });
    expect(P2pSendRequestSchema.safeParse(request.example).success).toBe(true);
    const body = doc.components.schemas.P2pSendRequest;
    expect([...body.required].sort()).toEqual(['messages', 'sender']);
    expect(body.properties.messages).toMatchObject({ type: 'array', minItems: 1, maxItems: 10_000 });
    for (const code of ['200', '400', '401', '403', '411', '412', '414', '418', '500'])
      expect(operation.responses[code], code).toBeDefined();
    const answer = operation.responses['200'].content['application/json'];
    expect(envelopeOf(z.array(MessageInfoSchema)).safeParse(answer.example).success).toBe(true);
    // The example answer is the server's to the example request, but for the ids and the date.
    const sent = await p2p(request.example);
    expectEnvelope(sent, 200);
    const shape = (entries: Array<{ messageid: number; date: number }>) =>
      entries.map(({ messageid, date, ...rest }) => ({ ...rest, sent: messageid > 0, dated: date > 0 }));
    expect(shape(sent.body.entries)).toEqual(shape(answer.example.entries));
    const ids = sent.body.entries.map((e: { messageid: number }) => e.messageid);
    expect(ids[2]).toBe(ids[1] + 1);
  });
});
