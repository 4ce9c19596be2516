// POST /v3/sms/send and /v3/sms/status (spec 1 and 9; issue 14 item 3): one text over SMS and the
// messenger channels in one call. Entries channel by channel (sms, bale, rubika), one per submitted
// receiver, each with its own message id and status; SMS texts with the opt-out phrase, messenger
// texts unchanged, each channel priced as version 2 prices that line; the credit checked for the
// whole call, all or nothing; every refusal leaves nothing recorded. The lifecycle is frozen with
// a manual clock, so balances only move by what these requests do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, unixSeconds } from '../../electron/service/clock';
import { INACTIVE_KEY, OTHER_KEY, post, startServer, testSeed, type TestServer } from '../helpers/server';
import { MessageStatus, messageStatusText } from '../../shared/lifecycle';
import {
  accountId,
  counts,
  expectEnvelope,
  expectError,
  MESSAGE_INFO_FIELDS,
  phones,
  type HttpResult,
} from '../api-v2/support';

const PHRASE = '\nلغو۱۱';
const SMS = '30001111';
const BALE = 'bale_acme_bot';
const RUBIKA = 'rubika_acme';
const TIGHT_KEY = 'k-tight-1';
const V3_FIELDS = [...MESSAGE_INFO_FIELDS, 'channel'].sort();

let server: TestServer;
let clock: ManualClock;
let acme: number;
let tight: number;

const send = (body: unknown, key?: string): Promise<HttpResult> => post(`${server.url}/v3/sms/send`, body, key);
const v2 = (body: unknown, key?: string): Promise<HttpResult> => post(`${server.url}/v2/sms/send`, body, key);

/** Sends and expects a refusal with the code, and that nothing at all was recorded for the account. */
async function expectRefused(
  body: unknown,
  code: 400 | 401 | 403 | 411 | 412 | 414 | 418,
  key?: string,
  account = acme,
) {
  const before = counts(server.core, account);
  const dueBefore = server.core.db.prepare('SELECT COUNT(*) AS n FROM message_due').get();
  expectError(await send(body, key), code);
  expect(counts(server.core, account)).toEqual(before);
  expect(server.core.db.prepare('SELECT COUNT(*) AS n FROM message_due').get()).toEqual(dueBefore);
}

beforeAll(async () => {
  clock = new ManualClock();
  const seed = testSeed();
  seed.accounts![0]!.credit_rials = 1_000_000_000;
  seed.accounts![0]!.lines!.push(
    { number: 'bale_panel_only', provider: 'bale', permissions: ['can_send_panel_campaign'] },
    { number: '30004444', provider: 'sms', permissions: ['can_send_api_campaign'] },
  );
  // Three receivers cost 4,500 rials on SMS (one page each) and 1,500 on bale: 5,999 covers SMS
  // alone but not SMS and bale together.
  seed.accounts!.push({
    name: 'tight',
    active: true,
    credit_rials: 5_999,
    api_keys: [TIGHT_KEY],
    lines: [
      { number: '30007777', provider: 'sms', permissions: ['can_send_api_campaign'] },
      { number: 'tight_bot', provider: 'bale', permissions: ['can_send_api_campaign'] },
      { number: 'tight_rubika', provider: 'rubika', permissions: ['can_send_api_campaign'] },
    ],
  });
  server = await startServer({ clock, seed });
  acme = accountId(server.core, 'acme');
  tight = accountId(server.core, 'tight');
});
afterAll(() => server.close());

describe('entries per receiver and channel', () => {
  it('answers channel by channel (sms, bale, rubika), one entry per submitted receiver in order', async () => {
    const receivers = ['09121234567', 'abc', '+989121234568', '9121234567'];
    // senders given in another order: the answer's order is the channels', not the object's.
    const result = await send({ message: 'سلام', receivers, senders: { rubika: RUBIKA, sms: SMS, bale: BALE } });
    expectEnvelope(result, 200);
    const entries = result.body.entries as Array<Record<string, unknown>>;
    expect(entries).toHaveLength(12);
    for (const entry of entries) expect(Object.keys(entry).sort()).toEqual(V3_FIELDS);
    expect(entries.map((e) => e.channel)).toEqual([
      ...Array(4).fill('sms'),
      ...Array(4).fill('bale'),
      ...Array(4).fill('rubika'),
    ]);
    const date = unixSeconds(clock.now());
    const block = (channel: string, sender: string, message: string, cost: number, first: number) => [
      {
        channel,
        messageid: first,
        message,
        status: 1,
        statustext: messageStatusText[1],
        sender,
        receptor: '09121234567',
        date,
        cost,
      },
      {
        channel,
        messageid: 0,
        message: '',
        status: 0,
        statustext: messageStatusText[0],
        sender: '',
        receptor: 'abc',
        date: 0,
        cost: 0,
      },
      {
        channel,
        messageid: first + 1,
        message,
        status: 1,
        statustext: messageStatusText[1],
        sender,
        receptor: '09121234568',
        date,
        cost,
      },
      {
        channel,
        messageid: 0,
        message: '',
        status: 15,
        statustext: messageStatusText[15],
        sender: '',
        receptor: '09121234567',
        date: 0,
        cost: 0,
      },
    ];
    const first = entries[0]!.messageid as number;
    expect(first).toBeGreaterThan(0);
    expect(entries).toEqual([
      ...block('sms', SMS, 'سلام' + PHRASE, 1500, first),
      ...block('bale', BALE, 'سلام', 500, first + 2),
      ...block('rubika', RUBIKA, 'سلام', 500, first + 4),
    ]);
    // Each its own message, recorded with its channel's line and final text, one send per channel.
    const ids = entries.filter((e) => e.messageid !== 0).map((e) => e.messageid as number);
    expect(new Set(ids).size).toBe(6);
    const rows = server.core.db
      .prepare<
        unknown[],
        { id: number; receptor: string; provider: string; sender: string; text: string; api_version: number }
      >(
        `SELECT m.id, m.receptor, s.provider, s.sender, COALESCE(m.text, s.text) AS text, s.api_version
         FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.id IN (${ids.join(',')}) ORDER BY m.id`,
      )
      .all();
    expect(rows.map((r) => [r.provider, r.sender, r.text, r.api_version])).toEqual([
      ['sms', SMS, 'سلام' + PHRASE, 3],
      ['sms', SMS, 'سلام' + PHRASE, 3],
      ['bale', BALE, 'سلام', 3],
      ['bale', BALE, 'سلام', 3],
      ['rubika', RUBIKA, 'سلام', 3],
      ['rubika', RUBIKA, 'سلام', 3],
    ]);
  });

  it('sends on the channels named only, any one of them alone', async () => {
    for (const senders of [
      { sms: SMS },
      { bale: BALE },
      { rubika: RUBIKA },
      { bale: BALE, rubika: RUBIKA, sms: null },
    ]) {
      const result = await send({ message: 'x', receivers: ['09121234567'], senders });
      expectEnvelope(result, 200);
      const channels = Object.entries(senders)
        .filter(([, line]) => line !== null)
        .map(([channel]) => channel)
        .sort((a, b) => ['sms', 'bale', 'rubika'].indexOf(a) - ['sms', 'bale', 'rubika'].indexOf(b));
      expect(result.body.entries.map((e: { channel: string }) => e.channel)).toEqual(channels);
    }
  });

  it('each channel answers and charges exactly what version 2 does for that line (no rule of its own)', async () => {
    const message = 'یک متن بلندتر ' + 'س'.repeat(80) + ' laghv 11';
    const receivers = ['09121234567', '09121234568', 'bad'];
    const three = await send({ message, receivers, senders: { sms: SMS, bale: BALE, rubika: RUBIKA } });
    expectEnvelope(three, 200);
    const strip = (entries: Array<Record<string, unknown>>) =>
      entries.map(({ messageid: _id, channel: _channel, ...rest }) => rest);
    for (const [i, sender] of [SMS, BALE, RUBIKA].entries()) {
      const two = await v2({ message, receivers, sender });
      expectEnvelope(two, 200);
      expect(strip(three.body.entries.slice(i * 3, i * 3 + 3))).toEqual(strip(two.body.entries));
    }
    // Two pages on SMS, the variant replaced by the phrase; the messengers' text untouched.
    expect(three.body.entries[0].message.endsWith(PHRASE)).toBe(true);
    expect(three.body.entries[0].message).not.toContain('laghv');
    expect(three.body.entries[0].cost).toBe(3000);
    expect(three.body.entries[3].message).toBe(message);
  });

  it('debits the sum of all entries of all channels, one ledger row per channel', async () => {
    const before = counts(server.core, acme);
    const result = await send({ message: 'x', receivers: phones(5), senders: { sms: SMS, bale: BALE } });
    expectEnvelope(result, 200);
    const total = result.body.entries.reduce((sum: number, e: { cost: number }) => sum + e.cost, 0);
    expect(total).toBe(5 * 1500 + 5 * 500);
    const after = counts(server.core, acme);
    expect(after.balance).toBe(before.balance - total);
    expect(after.ledgerRows).toBe(before.ledgerRows + 2);
    expect(after.sends).toBe(before.sends + 2);
    expect(after.messages).toBe(before.messages + 10);
    expect(after.ledgerSum).toBe(after.balance);
  });

  it('accepts 10,000 receivers on three channels: 30,000 entries', async () => {
    const receivers = phones(10_000, 500_000);
    const started = Date.now();
    const result = await send({ message: 'x', receivers, senders: { sms: SMS, bale: BALE, rubika: RUBIKA } });
    const elapsed = Date.now() - started;
    expectEnvelope(result, 200);
    expect(result.body.entries).toHaveLength(30_000);
    expect(result.body.entries[10_000]).toMatchObject({ channel: 'bale', receptor: receivers[0], status: 1 });
    expect(result.body.entries[29_999]).toMatchObject({ channel: 'rubika', receptor: receivers[9_999], status: 1 });
    // Generous: about a second on a laptop.
    expect(elapsed).toBeLessThan(30_000);
  });
});

describe('all or nothing', () => {
  const body = { message: 'x', receivers: phones(3, 900), senders: { sms: '30007777', bale: 'tight_bot' } };

  it('refuses with 418 when the credit covers SMS alone but not SMS and bale; nothing recorded, credit unchanged', async () => {
    expect(server.core.credit.balance(tight)).toBe(5_999);
    await expectRefused(body, 418, TIGHT_KEY, tight);
    expect(server.core.credit.balance(tight)).toBe(5_999);
    // The same SMS part alone is covered: the refusal was the whole call's.
    const smsOnly = await send({ ...body, senders: { sms: '30007777' } }, TIGHT_KEY);
    expectEnvelope(smsOnly, 200);
    expect(server.core.credit.balance(tight)).toBe(1_499);
  });

  it('accepts the exact amount of all channels together, leaving 0', async () => {
    server.core.credit.adjust(tight, 6_000 - 1_499, 'test', 'topup');
    const before = counts(server.core, tight);
    expectEnvelope(await send(body, TIGHT_KEY), 200);
    expect(server.core.credit.balance(tight)).toBe(0);
    expect(counts(server.core, tight).messages).toBe(before.messages + 6);
    await expectRefused({ ...body, senders: { bale: 'tight_bot' } }, 418, TIGHT_KEY, tight);
  });

  it('rolls back the earlier channels when a later one is refused (412, 411)', async () => {
    const receivers = ['09121234567'];
    // rubika is accepted last: the SMS and bale sends before it are undone.
    await expectRefused({ message: 'x', receivers, senders: { sms: SMS, bale: BALE, rubika: 'nobody_here' } }, 412);
    await expectRefused({ message: 'x', receivers, senders: { sms: SMS, bale: 'bale_panel_only' } }, 412);
    await expectRefused({ message: 'x', receivers: ['bad'], senders: { sms: SMS, bale: BALE } }, 411);
  });

  it('leaves the next send the message ids a refused one would have taken', async () => {
    const probe = await send({ message: 'x', receivers: ['09121234567'], senders: { sms: SMS } });
    const next = probe.body.entries[0].messageid + 1;
    await expectRefused({ message: 'x', receivers: ['09121234567'], senders: { sms: SMS, bale: 'nobody_here' } }, 412);
    const after = await send({ message: 'x', receivers: ['09121234567'], senders: { sms: SMS } });
    expect(after.body.entries[0].messageid).toBe(next);
  });
});

describe('senders (412)', () => {
  const receivers = ['09121234567'];
  it.each<[string, Record<string, string>]>([
    ['an SMS line under bale', { sms: SMS, bale: '30004444' }],
    ['a bale line under sms', { sms: BALE }],
    ['a rubika line under bale', { bale: RUBIKA }],
    ['a bale line under rubika', { rubika: BALE }],
    ['a line of another account', { sms: '30009999' }],
    ['an unknown line', { bale: 'nobody_here' }],
    ['a line without the API permission', { sms: '30002222' }],
    ['a bale line without the API permission, after a good SMS line', { sms: SMS, bale: 'bale_panel_only' }],
  ])('refuses %s with 412 and records nothing', async (_label, senders) => {
    await expectRefused({ message: 'x', receivers, senders }, 412);
  });

  it('the other account cannot use acme lines', async () => {
    await expectRefused(
      { message: 'x', receivers, senders: { sms: SMS } },
      412,
      OTHER_KEY,
      accountId(server.core, 'other'),
    );
  });
});

describe('validation (400), size (414), keys (401, 403)', () => {
  const valid = { message: 'x', receivers: ['09121234567'], senders: { sms: SMS } };
  it.each<[string, unknown]>([
    ['malformed JSON', '{"message": "x", "senders": '],
    ['an array body', [valid]],
    ['an empty body', ''],
    ['message missing', { receivers: valid.receivers, senders: valid.senders }],
    ['message empty', { ...valid, message: '' }],
    ['receivers missing', { message: 'x', senders: valid.senders }],
    ['receivers empty', { ...valid, receivers: [] }],
    ['receivers with a number', { ...valid, receivers: [9121234567] }],
    ['senders missing', { message: 'x', receivers: valid.receivers }],
    ['senders empty', { ...valid, senders: {} }],
    ['senders all null', { ...valid, senders: { sms: null, bale: null } }],
    ['senders an array', { ...valid, senders: [SMS] }],
    ['senders a string', { ...valid, senders: SMS }],
    ['a channel we do not have', { ...valid, senders: { sms: SMS, eitaa: 'x' } }],
    ['a sender a number', { ...valid, senders: { sms: 30001111 } }],
    ['a sender empty', { ...valid, senders: { sms: '' } }],
    ['version 2 sender instead of senders', { message: 'x', receivers: valid.receivers, sender: SMS }],
    ['files an array', { ...valid, files: ['x'] }],
    ['a file for sms', { ...valid, files: { sms: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' } }],
  ])('refuses %s with 400 and records nothing', async (_label, body) => {
    await expectRefused(body, 400);
  });

  it('refuses more than 10,000 receivers with 414, even duplicates or invalid ones', async () => {
    await expectRefused({ ...valid, receivers: Array(10_001).fill('09121234567') }, 414);
    await expectRefused({ ...valid, receivers: Array(10_001).fill('bad'), senders: { sms: SMS, bale: BALE } }, 414);
  });

  it('checks the Bearer key like version 2: 403 unknown or missing, 401 inactive account', async () => {
    await expectRefused(valid, 403, 'k-nobody');
    await expectRefused(valid, 403, null as unknown as string);
    expectError(await send(valid, INACTIVE_KEY), 401);
    expectError(await post(`${server.url}/v3/sms/status`, { messageids: [1] }, 'k-nobody'), 403);
    expectError(await post(`${server.url}/v3/sms/status`, { messageids: [1] }, INACTIVE_KEY), 401);
  });

  it('is 405 for GET and a plain 404 for an unknown v3 path', async () => {
    const get = await fetch(`${server.url}/v3/sms/send`);
    expect(get.status).toBe(405);
    const unknown = await fetch(`${server.url}/v3/sms/outbox`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe('404 page not found');
  });
});

describe('POST /v3/sms/status', () => {
  it('answers the status of each channel’s messages as version 2 does; foreign and unknown ids are 100', async () => {
    const sent = await send({ message: 'x', receivers: ['09121234567', 'bad'], senders: { sms: SMS, rubika: RUBIKA } });
    const ids = sent.body.entries.map((e: { messageid: number }) => e.messageid).filter((id: number) => id > 0);
    expect(ids).toHaveLength(2);
    const asked = [...ids, 0, 999_999_999];
    const three = await post(`${server.url}/v3/sms/status`, { messageids: asked });
    expectEnvelope(three, 200);
    expect(three.body.entries).toEqual([
      { messageid: ids[0], status: MessageStatus.Queued, statustext: messageStatusText[MessageStatus.Queued] },
      { messageid: ids[1], status: MessageStatus.Queued, statustext: messageStatusText[MessageStatus.Queued] },
      { messageid: 0, status: 100, statustext: messageStatusText[100] },
      { messageid: 999_999_999, status: 100, statustext: messageStatusText[100] },
    ]);
    const two = await post(`${server.url}/v2/sms/status`, { messageids: asked });
    expect(three.body).toEqual(two.body);
    const foreign = await post(`${server.url}/v3/sms/status`, { messageids: ids }, OTHER_KEY);
    expect(foreign.body.entries.map((e: { status: number }) => e.status)).toEqual([100, 100]);
  });

  it('refuses a malformed body with 400 and more than 10,000 ids with 414', async () => {
    expectError(await post(`${server.url}/v3/sms/status`, { messageids: 'x' }), 400);
    expectError(await post(`${server.url}/v3/sms/status`, {}), 400);
    expectError(await post(`${server.url}/v3/sms/status`, { messageids: Array(10_001).fill(1) }), 414);
  });
});
