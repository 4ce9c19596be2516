// POST /v2/sms/send (spec 4.1, 8; PRODUCT.md pages/cost and opt-out phrase): receivers in
// submitted order, normalization, the opt-out phrase, pages and cost of the final text, and every
// refusal (400, 411, 412, 414, 418) leaving nothing recorded. The lifecycle is frozen with a
// manual clock, so balances only move by what these requests do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, unixSeconds } from '../../electron/service/clock';
import { OTHER_KEY, post, startServer, testSeed, type TestServer } from '../helpers/server';
import { MessageStatus, messageStatusText } from '../../shared/status';
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

let server: TestServer;
let clock: ManualClock;
let acme: number;
let other: number;

const send = (body: unknown, key?: string): Promise<HttpResult> => post(`${server.url}/v2/sms/send`, body, key);

/** Sends and expects a refusal with the code, and that nothing at all was recorded for the account. */
async function expectRefused(body: unknown, code: 400 | 411 | 412 | 414 | 418, key?: string, account = acme) {
  const before = counts(server.core, account);
  expectError(await send(body, key), code);
  expect(counts(server.core, account)).toEqual(before);
}

beforeAll(async () => {
  clock = new ManualClock();
  const seed = testSeed();
  seed.accounts![0]!.credit_rials = 1_000_000_000;
  server = await startServer({ clock, seed });
  acme = accountId(server.core, 'acme');
  other = accountId(server.core, 'other');
});
afterAll(() => server.close());

describe('receivers', () => {
  it('answers one entry per submitted receiver, in order: valid, invalid (echoed) and duplicate', async () => {
    const receivers = [
      '09121234567',
      'abc',
      '+989121234567',
      '9121234568',
      '۰۹۱۲۱۲۳۴۵۶۹',
      '989121234569',
      '09121234568',
      '00989121234570',
      '',
      '9121234567',
    ];
    const result = await send({ message: 'سلام', sender: SMS, receivers });
    expectEnvelope(result, 200);
    const entries = result.body.entries;
    expect(entries.map((e: { status: number }) => e.status)).toEqual([1, 0, 15, 1, 0, 1, 15, 0, 0, 15]);
    expect(entries.map((e: { receptor: string }) => e.receptor)).toEqual([
      '09121234567',
      'abc',
      '09121234567',
      '09121234568',
      '۰۹۱۲۱۲۳۴۵۶۹',
      '09121234569',
      '09121234568',
      '00989121234570',
      '',
      '09121234567',
    ]);
    const date = unixSeconds(clock.now());
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(MESSAGE_INFO_FIELDS);
      expect(entry.statustext).toBe(messageStatusText[entry.status as MessageStatus]);
      if (entry.status === MessageStatus.Queued) {
        expect(entry.messageid).toBeGreaterThan(0);
        expect(entry).toMatchObject({ message: 'سلام' + PHRASE, sender: SMS, date, cost: 1500 });
      } else {
        expect(entry).toMatchObject({ messageid: 0, message: '', sender: '', date: 0, cost: 0 });
      }
    }
    const ids = entries
      .filter((e: { messageid: number }) => e.messageid > 0)
      .map((e: { messageid: number }) => e.messageid);
    expect(new Set(ids).size).toBe(3);
    const rows = server.core.db
      .prepare(`SELECT id, receptor, status, cost_rials FROM messages WHERE id IN (${ids.join(',')}) ORDER BY id`)
      .all();
    expect(rows).toEqual([
      { id: ids[0], receptor: '09121234567', status: 1, cost_rials: 1500 },
      { id: ids[1], receptor: '09121234568', status: 1, cost_rials: 1500 },
      { id: ids[2], receptor: '09121234569', status: 1, cost_rials: 1500 },
    ]);
  });

  it.each([
    ['09351112233', '09351112233'],
    ['9351112233', '09351112233'],
    ['989351112233', '09351112233'],
    ['+989351112233', '09351112233'],
  ])('normalizes %s to %s', async (raw, canonical) => {
    const result = await send({ message: 'x', sender: SMS, receivers: [raw] });
    expectEnvelope(result, 200);
    expect(result.body.entries[0]).toMatchObject({ status: 1, receptor: canonical });
  });

  it('rejects, and echoes as received, everything the pattern does not match', async () => {
    const bad = [
      '00989121234567',
      '۰۹۱۲۱۲۳۴۵۶۷',
      '٠٩١٢١٢٣٤٥٦٧',
      '０９１２１２３４５６７',
      ' 09121234567',
      '09121234567 ',
      '0912 123 4567',
      '0912-123-4567',
      '0912123456',
      '091212345678',
      '91212345678',
      '8121234567',
      '08121234567',
      '+9121234567',
      '+09121234567',
      '0989121234567',
      '09121234567\n',
      '\u200f09121234567',
      'abc',
    ];
    const result = await send({ message: 'x', sender: SMS, receivers: [...bad, '09120000001'] });
    expectEnvelope(result, 200);
    bad.forEach((raw, i) => {
      expect(result.body.entries[i]).toEqual({
        messageid: 0,
        message: '',
        status: 0,
        statustext: 'دریافت کننده نامعتبر',
        sender: '',
        receptor: raw,
        date: 0,
        cost: 0,
      });
    });
    expect(result.body.entries[bad.length]).toMatchObject({ status: 1, receptor: '09120000001' });
  });

  it('is 411 when no valid receiver remains, recording nothing', async () => {
    await expectRefused({ message: 'x', sender: SMS, receivers: ['abc'] }, 411);
    await expectRefused({ message: 'x', sender: SMS, receivers: ['00989121234567', '۰۹۱۲۱۲۳۴۵۶۷', ''] }, 411);
  });
});

describe('opt-out phrase', () => {
  it('appends \\nلغو۱۱ on SMS lines and records the final text', async () => {
    const result = await send({ message: 'تخفیف ویژه', sender: SMS, receivers: ['09120000002'] });
    expectEnvelope(result, 200);
    expect(result.body.entries[0].message).toBe('تخفیف ویژه' + PHRASE);
    const row = server.core.db
      .prepare<[number], { text: string }>(
        'SELECT s.text FROM sends s JOIN messages m ON m.send_id = s.id WHERE m.id = ?',
      )
      .get(result.body.entries[0].messageid);
    expect(row?.text).toBe('تخفیف ویژه' + PHRASE);
  });

  it.each(['تخفیف لغو ۱۱', 'تخفیف لغو11', 'تخفیف laghv11', 'تخفیف LAGHV 11', 'تخفیف\nلغو۱۱', 'تخفیف لغو\u200c۱۱'])(
    'replaces the variant in %j instead of adding a second phrase',
    async (message) => {
      const result = await send({ message, sender: SMS, receivers: ['09120000003'] });
      expectEnvelope(result, 200);
      expect(result.body.entries[0].message).toBe('تخفیف' + PHRASE);
    },
  );

  it.each(['bale_acme_bot', 'rubika_acme'])('leaves texts on the messenger line %s unmodified', async (sender) => {
    for (const message of ['سلام', 'hello laghv11', 'لغو ۱۱', 'trailing   ']) {
      const result = await send({ message, sender, receivers: ['09120000004'] });
      expectEnvelope(result, 200);
      expect(result.body.entries[0]).toMatchObject({ status: 1, message, sender, cost: 500 });
    }
  });
});

describe('pages and cost (of the final text, UCS-2 on SMS lines)', () => {
  it.each([
    ['a', 1],
    ['a'.repeat(64), 1], // + 6 units of the phrase = 70
    ['a'.repeat(65), 2], // 71: UCS-2 because the phrase is Persian
    ['س'.repeat(64), 1],
    ['س'.repeat(65), 2],
    ['س'.repeat(128), 2], // 134 = 2 x 67
    ['س'.repeat(129), 3],
    ['€'.repeat(64), 1], // extension characters count once in UCS-2
    ['a'.repeat(62) + '😀', 1], // an emoji is two UTF-16 units: 62 + 2 + 6 = 70
    ['a'.repeat(63) + '😀', 2],
    ['س'.repeat(64) + ' laghv11', 1], // the variant is replaced before counting
    ['a'.repeat(200), 4], // 206 units / 67
    ['س'.repeat(66) + '😀' + 'س'.repeat(60), 2], // 134 units = 2 x 67, wherever the emoji falls (PRODUCT.md)
  ])('%j costs %i page(s)', async (message, pages) => {
    const result = await send({ message, sender: SMS, receivers: ['09120000005', '09120000006'] });
    expectEnvelope(result, 200);
    for (const entry of result.body.entries) expect(entry.cost).toBe(pages * 150 * 10);
    const row = server.core.db
      .prepare<[number], { pages: number; total_rials: number }>(
        'SELECT s.pages, s.total_rials FROM sends s JOIN messages m ON m.send_id = s.id WHERE m.id = ?',
      )
      .get(result.body.entries[0].messageid);
    expect(row).toEqual({ pages, total_rials: 2 * pages * 1500 });
  });

  it('debits exactly the sum of the entries, with one ledger row, and the ledger stays equal to the balance', async () => {
    const before = counts(server.core, acme);
    const result = await send({
      message: 'س'.repeat(100),
      sender: SMS,
      receivers: [...phones(5, 500), 'bad', '09120000500'],
    });
    expectEnvelope(result, 200);
    const total = result.body.entries.reduce((sum: number, e: { cost: number }) => sum + e.cost, 0);
    expect(total).toBe(5 * 2 * 1500);
    const after = counts(server.core, acme);
    expect(after.balance).toBe(before.balance - total);
    expect(after.ledgerRows).toBe(before.ledgerRows + 1);
    expect(after.ledgerSum).toBe(after.balance);
    expect(after.messages).toBe(before.messages + 5);
  });

  it('uses the configured prices: SMS page price and the fixed messenger price, both x 10', async () => {
    const saved = server.core.settings.pricing();
    server.core.settings.setPricing({ sms_page_tomans: 99, messenger_message_tomans: 7 });
    try {
      const sms = await send({ message: 'س'.repeat(65), sender: SMS, receivers: ['09120000007'] });
      expect(sms.body.entries[0].cost).toBe(2 * 99 * 10);
      const bale = await send({ message: 'س'.repeat(500), sender: 'bale_acme_bot', receivers: ['09120000007'] });
      expect(bale.body.entries[0].cost).toBe(70);
    } finally {
      server.core.settings.setPricing(saved);
    }
  });
});

describe('sender (412)', () => {
  it.each([
    ['30009999', "another account's line"],
    ['30002222', 'own line without can_send_api_campaign'],
    ['30005555', 'unknown number'],
    ['', 'empty'],
    [' 30001111', 'number with a space'],
    ['30001111\u0000', 'number with NUL'],
  ])('refuses %j (%s) with 412 and records nothing', async (sender) => {
    await expectRefused({ message: 'x', sender, receivers: ['09121234567'] }, 412);
  });

  it('refuses a deactivated line', async () => {
    server.core.accounts.upsertLine(acme, {
      number: '30003333',
      provider: 'sms',
      permissions: ['can_send_api_campaign'],
    });
    expectEnvelope(await send({ message: 'x', sender: '30003333', receivers: ['09121234567'] }), 200);
    server.core.accounts.removeLine(acme, '30003333');
    await expectRefused({ message: 'x', sender: '30003333', receivers: ['09121234567'] }, 412);
  });

  it('checks the line against the caller: the other account cannot use acme lines', async () => {
    await expectRefused({ message: 'x', sender: SMS, receivers: ['09121234567'] }, 412, OTHER_KEY, other);
    await expectRefused({ message: 'x', sender: 'bale_acme_bot', receivers: ['09121234567'] }, 412, OTHER_KEY, other);
  });
});

describe('size (414)', () => {
  it('accepts exactly 10,000 receivers', async () => {
    const result = await send({ message: 'x', sender: 'bale_acme_bot', receivers: phones(10_000, 1_000_000) });
    expectEnvelope(result, 200);
    expect(result.body.entries).toHaveLength(10_000);
    expect(result.body.entries.every((e: { status: number }) => e.status === 1)).toBe(true);
  });

  it('takes 10,000 copies of one number as one message and 9,999 duplicates', async () => {
    const before = counts(server.core, acme);
    const result = await send({ message: 'x', sender: SMS, receivers: Array(10_000).fill('+989127770000') });
    expectEnvelope(result, 200);
    expect(result.body.entries[0]).toMatchObject({ status: 1, receptor: '09127770000' });
    expect(
      result.body.entries
        .slice(1)
        .every((e: { status: number; messageid: number }) => e.status === 15 && e.messageid === 0),
    ).toBe(true);
    expect(counts(server.core, acme).messages).toBe(before.messages + 1);
    expect(counts(server.core, acme).balance).toBe(before.balance - 1500);
  });

  it('refuses 10,001 receivers, even when all are duplicates or invalid, and a 100,000-receiver array', async () => {
    await expectRefused({ message: 'x', sender: SMS, receivers: phones(10_001) }, 414);
    await expectRefused({ message: 'x', sender: SMS, receivers: Array(10_001).fill('09121234567') }, 414);
    await expectRefused({ message: 'x', sender: SMS, receivers: Array(10_001).fill('bad') }, 414);
    await expectRefused({ message: 'x', sender: SMS, receivers: phones(100_000) }, 414);
  });
});

describe('credit (418)', () => {
  it('refuses a send the credit does not cover and records nothing; the exact amount is accepted', async () => {
    // other: 1,000,000 rials; one page on an SMS line is 1,500, so 666 messages fit and 667 do not.
    expect(server.core.credit.balance(other)).toBe(1_000_000);
    await expectRefused({ message: 'x', sender: '30009999', receivers: phones(667) }, 418, OTHER_KEY, other);
    // Two pages each: the cost is counted on the final text before the credit check.
    await expectRefused({ message: 'س'.repeat(65), sender: '30009999', receivers: phones(334) }, 418, OTHER_KEY, other);
    const ok = await send({ message: 'x', sender: '30009999', receivers: phones(666) }, OTHER_KEY);
    expectEnvelope(ok, 200);
    expect(server.core.credit.balance(other)).toBe(1000);
    await expectRefused({ message: 'x', sender: '30009999', receivers: ['09121234567'] }, 418, OTHER_KEY, other);
    expect(server.core.credit.ledgerSum(other)).toBe(1000);
  });
});

describe('validation (400)', () => {
  const valid = { message: 'x', sender: SMS, receivers: ['09121234567'] };
  it.each<[string, unknown]>([
    ['malformed JSON', '{"message": "x", "sender": '],
    ['JSON with a trailing comma', '{"message":"x","sender":"30001111","receivers":["09121234567"],}'],
    ['an array body', [valid]],
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"hello"'],
    ['an empty body', ''],
    ['message missing', { sender: SMS, receivers: ['09121234567'] }],
    ['sender missing', { message: 'x', receivers: ['09121234567'] }],
    ['receivers missing', { message: 'x', sender: SMS }],
    ['message empty', { ...valid, message: '' }],
    ['message a number', { ...valid, message: 5 }],
    ['message null', { ...valid, message: null }],
    ['message an array', { ...valid, message: ['x'] }],
    ['sender a number', { ...valid, sender: 30001111 }],
    ['receivers empty', { ...valid, receivers: [] }],
    ['receivers a string', { ...valid, receivers: '09121234567' }],
    ['receivers with a number', { ...valid, receivers: [9121234567] }],
    ['receivers with null', { ...valid, receivers: ['09121234567', null] }],
    ['receivers an object', { ...valid, receivers: { 0: '09121234567' } }],
    ['file_id a number', { ...valid, file_id: 5 }],
    ['file_id of 101 characters', { ...valid, sender: 'bale_acme_bot', file_id: 'a'.repeat(101) }],
  ])('refuses %s with 400 and records nothing', async (_label, body) => {
    await expectRefused(body, 400);
  });
});

describe('file_id (spec 4.1 rule 7)', () => {
  let baleFile: string;
  let rubikaFile: string;
  let othersBaleFile: string;

  beforeAll(async () => {
    const bale = await uploadFile(server.url, 'bale');
    expect(bale.status).toBe(201);
    expect(bale.body.return).toEqual({ status: 200, message: 'تایید شد' });
    expect(bale.body.entries.file_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    baleFile = bale.body.entries.file_id;
    const rubika = await uploadFile(server.url, 'rubika', { name: 'voice.ogg', type: 'audio/ogg' });
    expect(rubika.status).toBe(201);
    rubikaFile = rubika.body.entries.file_id;
    const others = await uploadFile(server.url, 'bale', { key: OTHER_KEY });
    expect(others.status).toBe(201);
    othersBaleFile = others.body.entries.file_id;
  });

  it('accepts a bale file on the bale line and a rubika file on the rubika line, texts unmodified', async () => {
    const bale = await send({
      message: 'عکس جدید',
      sender: 'bale_acme_bot',
      receivers: ['09121234567'],
      file_id: baleFile,
    });
    expectEnvelope(bale, 200);
    expect(bale.body.entries[0]).toMatchObject({ status: 1, message: 'عکس جدید', cost: 500 });
    const row = server.core.db
      .prepare<[number], { file_id: string }>(
        'SELECT s.file_id FROM sends s JOIN messages m ON m.send_id = s.id WHERE m.id = ?',
      )
      .get(bale.body.entries[0].messageid);
    expect(row?.file_id).toBe(baleFile);
    const rubika = await send({
      message: 'صدا',
      sender: 'rubika_acme',
      receivers: ['09121234567'],
      file_id: rubikaFile,
    });
    expectEnvelope(rubika, 200);
  });

  it('accepts file_id null or absent', async () => {
    expectEnvelope(await send({ message: 'x', sender: SMS, receivers: ['09121234567'], file_id: null }), 200);
    expectEnvelope(await send({ message: 'x', sender: 'bale_acme_bot', receivers: ['09121234567'] }), 200);
  });

  it.each([
    ['a bale file on an SMS line', () => ({ sender: SMS, file_id: baleFile })],
    ['a bale file on the rubika line', () => ({ sender: 'rubika_acme', file_id: baleFile })],
    ['a rubika file on the bale line', () => ({ sender: 'bale_acme_bot', file_id: rubikaFile })],
    ["another account's bale file", () => ({ sender: 'bale_acme_bot', file_id: othersBaleFile })],
    ['an unknown UUID', () => ({ sender: 'bale_acme_bot', file_id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' })],
    ['an unknown id of exactly 100 characters', () => ({ sender: 'bale_acme_bot', file_id: 'f'.repeat(100) })],
  ])('refuses %s with 400', async (_label, fields) => {
    await expectRefused({ message: 'x', receivers: ['09121234567'], ...fields() }, 400);
  });

  it('upload refuses unknown file types and empty files with 400, and unknown providers with a plain 404', async () => {
    expectError(await uploadFile(server.url, 'bale', { name: 'tool.exe' }), 400);
    expectError(await uploadFile(server.url, 'bale', { bytes: new Uint8Array(0) }), 400);
    expectError(await post(`${server.url}/upload-file/bale`, { file: 'x' }), 400);
    const sms = await uploadFile(server.url, 'sms');
    expect(sms.status).toBe(404);
    expect(sms.body).toBeUndefined();
  });
});
