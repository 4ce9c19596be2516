// Version 1's reads over HTTP (reference/kavenegar-v1.md §1.5–1.8, 1.10, 1.11): sms/select,
// selectoutbox, latestoutbox and countoutbox see only the caller's own messages; receive and
// countinbox its inbox; each error code they answer (400, 407, 412, 414, 417) in the provider's
// envelope. The server runs on a manual clock with the scheduler stopped, so statuses stay 1.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testSeed, KEY, OTHER_KEY, type TestServer } from '../helpers/server';
import { ManualClock } from '../../electron/service/clock';
import { apiCodeMessage, type ApiCode } from '../../shared/status';

const START = Date.UTC(2026, 2, 1, 8);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const seconds = (ms: number) => Math.floor(ms / 1000);

let server: TestServer;
let clock: ManualClock;
let acme: number;
let other: number;

interface V1Result {
  status: number;
  body: any;
}

/**
 * A v1 call: GET with a query, or POST with a form body; repeated keys from arrays. Over node:http,
 * not fetch: fetch (undici) turns any 407 answer into a network error without reading it.
 */
async function v1(
  path: string,
  params: Record<string, string | number | Array<string | number>> = {},
  options: { key?: string; method?: 'GET' | 'POST' } = {},
): Promise<V1Result> {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    for (const one of Array.isArray(value) ? value : [value]) form.append(name, String(one));
  const base = `${server.url}/v1/${options.key ?? KEY}/${path}.json`;
  const post = options.method === 'POST';
  return new Promise((resolve, reject) => {
    const request = http.request(
      post ? base : `${base}?${form.toString()}`,
      {
        method: post ? 'POST' : 'GET',
        headers: post ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(post ? form.toString() : undefined);
  });
}

function expectError(result: V1Result, code: ApiCode) {
  expect(result.status).toBe(code);
  expect(result.body).toEqual({ return: { status: code, message: apiCodeMessage[code] }, entries: null });
}

function expectOk(result: V1Result) {
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  expect(result.body.return).toEqual({ status: 200, message: apiCodeMessage[200] });
  return result.body.entries;
}

function send(accountId: number, sender: string, receivers: string[], text = 'hello') {
  return server.core.messaging.accept.accept({ accountId, origin: 'api-v1', sender, text, receivers, rule: 'strict' });
}

// Sends: at START (acme: a, other), START+1h (acme from bale), START+2d (acme: late).
let a: ReturnType<typeof send>;
let theirs: ReturnType<typeof send>;
let bale: ReturnType<typeof send>;
let late: ReturnType<typeof send>;

beforeAll(async () => {
  clock = new ManualClock(START);
  server = await startServer({ seed: testSeed(), clock, startScheduler: false });
  acme = server.core.accounts.findByName('acme')!.id;
  other = server.core.accounts.findByName('other')!.id;
  a = send(acme, '30001111', ['09120000001', '09120000002']);
  theirs = send(other, '30009999', ['09120000003']);
  clock.advance(HOUR);
  bale = send(acme, 'bale_acme_bot', ['09120000004']);
  clock.advance(2 * DAY);
  late = send(acme, '30001111', ['09120000005'], 'س'.repeat(100));
  clock.advance(HOUR);
});
afterAll(async () => {
  await server?.close();
});

describe('sms/select', () => {
  it('answers full entries of the caller’s own messages, in the order asked, by GET and POST with repeated keys', async () => {
    const ids = [a.firstMessageId + 1, a.firstMessageId];
    for (const method of ['GET', 'POST'] as const) {
      const entries = expectOk(await v1('sms/select', { messageid: ids }, { method }));
      expect(entries).toEqual([
        {
          messageid: a.firstMessageId + 1,
          message: a.price.text,
          status: 1,
          statustext: 'در صف ارسال',
          sender: '30001111',
          receptor: '09120000002',
          date: seconds(START),
          cost: a.price.costRials,
        },
        expect.objectContaining({ messageid: a.firstMessageId, receptor: '09120000001' }),
      ]);
    }
    const commas = expectOk(await v1('sms/select', { messageid: ids.join(',') }));
    expect(commas.map((e: { messageid: number }) => e.messageid)).toEqual(ids);
  });

  it('answers status 100 and nothing else for another account’s message', async () => {
    const [entry] = expectOk(await v1('sms/select', { messageid: theirs.firstMessageId }));
    expect(entry).toMatchObject({ messageid: theirs.firstMessageId, status: 100, receptor: '', message: '', cost: 0 });
  });

  it('refuses no ids (400), a bad id (400), more than 500 (414) and an account without an allow-list (407)', async () => {
    expectError(await v1('sms/select'), 400);
    expectError(await v1('sms/select', { messageid: 'abc' }), 400);
    const many = Array.from({ length: 501 }, (_, i) => i + 1).join(',');
    expectError(await v1('sms/select', { messageid: many }, { method: 'POST' }), 414);
    expect(
      expectOk(await v1('sms/select', { messageid: many.split(',').slice(0, 500).join(',') }, { method: 'POST' })),
    ).toHaveLength(500);
    expectError(await v1('sms/select', { messageid: theirs.firstMessageId }, { key: OTHER_KEY }), 407);
  });
});

describe('sms/selectoutbox', () => {
  it('answers the caller’s messages of a day at most, oldest first, from a line if named', async () => {
    const range = { startdate: seconds(START), enddate: seconds(START + DAY) };
    const entries = expectOk(await v1('sms/selectoutbox', range));
    expect(entries.map((e: { messageid: number }) => e.messageid)).toEqual([
      a.firstMessageId,
      a.firstMessageId + 1,
      bale.firstMessageId,
    ]);
    expect(entries[2]).toMatchObject({ sender: 'bale_acme_bot', receptor: '09120000004', date: seconds(START + HOUR) });
    const fromBale = expectOk(await v1('sms/selectoutbox', { ...range, sender: 'bale_acme_bot' }, { method: 'POST' }));
    expect(fromBale.map((e: { messageid: number }) => e.messageid)).toEqual([bale.firstMessageId]);
  });

  it('reads the Go client’s misspelt endate, and without an end takes a day from the start (or until now)', async () => {
    const misspelt = expectOk(
      await v1('sms/selectoutbox', { startdate: seconds(START), endate: seconds(START + 1000) }),
    );
    expect(misspelt.map((e: { messageid: number }) => e.messageid)).toEqual([a.firstMessageId, a.firstMessageId + 1]);
    const noEnd = expectOk(await v1('sms/selectoutbox', { startdate: seconds(START + HOUR) }));
    expect(noEnd.map((e: { messageid: number }) => e.messageid)).toEqual([bale.firstMessageId]);
    const untilNow = expectOk(await v1('sms/selectoutbox', { startdate: seconds(clock.now() - 2 * HOUR) }));
    expect(untilNow.map((e: { messageid: number }) => e.messageid)).toEqual([late.firstMessageId]);
  });

  it('refuses a missing or bad start (400), an end before the start or a range over a day (417), another’s line (412) and 407', async () => {
    expectError(await v1('sms/selectoutbox'), 400);
    expectError(await v1('sms/selectoutbox', { startdate: 'yesterday' }), 400);
    expectError(await v1('sms/selectoutbox', { startdate: seconds(START), enddate: seconds(START) - 1 }), 417);
    expectError(await v1('sms/selectoutbox', { startdate: seconds(START), enddate: seconds(START + DAY) + 1 }), 417);
    expectError(await v1('sms/selectoutbox', { startdate: seconds(START), sender: '30009999' }), 412);
    expectError(await v1('sms/selectoutbox', { startdate: seconds(START) }, { key: OTHER_KEY }), 407);
  });
});

describe('sms/latestoutbox', () => {
  it('answers the caller’s newest messages, newest first, pagesize of them (500 by default), from a line if named', async () => {
    const all = expectOk(await v1('sms/latestoutbox'));
    expect(all.map((e: { messageid: number }) => e.messageid)).toEqual([
      late.firstMessageId,
      bale.firstMessageId,
      a.firstMessageId + 1,
      a.firstMessageId,
    ]);
    const two = expectOk(await v1('sms/latestoutbox', { pagesize: 2 }, { method: 'POST' }));
    expect(two.map((e: { messageid: number }) => e.messageid)).toEqual([late.firstMessageId, bale.firstMessageId]);
    const fromLine = expectOk(await v1('sms/latestoutbox', { sender: '30001111' }));
    expect(fromLine.map((e: { receptor: string }) => e.receptor)).toEqual([
      '09120000005',
      '09120000002',
      '09120000001',
    ]);
  });

  it('refuses a pagesize over 500 (414) or under 1 (400), another’s line (412) and 407', async () => {
    expectError(await v1('sms/latestoutbox', { pagesize: 501 }), 414);
    expectError(await v1('sms/latestoutbox', { pagesize: 0 }), 400);
    expectError(await v1('sms/latestoutbox', { pagesize: 'ten' }), 400);
    expectError(await v1('sms/latestoutbox', { sender: '30009999' }), 412);
    expectError(await v1('sms/latestoutbox', {}, { key: OTHER_KEY }), 407);
  });
});

describe('sms/countoutbox', () => {
  it('counts the caller’s messages, pages and cost in the range, of a status if named', async () => {
    const range = { startdate: seconds(START), enddate: seconds(START + DAY) };
    expect(expectOk(await v1('sms/countoutbox', range))).toEqual([
      { ...range, sumcount: 3, sumpart: 2 * a.price.pages + 1, cost: a.totalRials + bale.totalRials },
    ]);
    expect(expectOk(await v1('sms/countoutbox', { ...range, status: 1 }))[0]).toMatchObject({ sumcount: 3 });
    expect(expectOk(await v1('sms/countoutbox', { ...range, status: 10 }))[0]).toMatchObject({
      sumcount: 0,
      sumpart: 0,
      cost: 0,
    });
    const lateDay = expectOk(await v1('sms/countoutbox', { startdate: seconds(START + 2 * DAY) }, { method: 'POST' }));
    expect(lateDay).toEqual([
      {
        startdate: seconds(START + 2 * DAY),
        // No end: a day on, or now when that is sooner.
        enddate: seconds(clock.now()),
        sumcount: 1,
        sumpart: late.price.pages,
        cost: late.totalRials,
      },
    ]);
    expect(late.price.pages).toBe(2);
  });

  it('refuses a missing start (400) and a bad range (417); needs no allow-list of its own beyond the account’s', async () => {
    expectError(await v1('sms/countoutbox'), 400);
    expectError(await v1('sms/countoutbox', { startdate: seconds(START), enddate: seconds(START + 2 * DAY) }), 417);
    expectError(await v1('sms/countoutbox', { startdate: seconds(START), status: 'x' }), 400);
  });
});

describe('sms/receive and sms/countinbox', () => {
  it('answers unread replies to a line and marks them read, then the read ones; counts them by range, line and read state', async () => {
    const inbox = server.core.inbox;
    inbox.record({ accountId: acme, lineNumber: '30001111', sender: '09351112233', text: 'thanks', receivedAt: START });
    inbox.record({
      accountId: acme,
      lineNumber: '30001111',
      sender: '09351112244',
      text: 'hi',
      receivedAt: START + HOUR,
    });
    inbox.record({
      accountId: acme,
      lineNumber: '30002222',
      sender: '09351112255',
      text: 'other line',
      receivedAt: START,
    });
    inbox.record({
      accountId: other,
      lineNumber: '30009999',
      sender: '09351112266',
      text: 'theirs',
      receivedAt: START,
    });

    const range = { startdate: seconds(START), enddate: seconds(START + DAY) };
    expect(expectOk(await v1('sms/countinbox', { ...range, isread: 0 }))).toEqual([{ ...range, sumcount: 3 }]);

    const unread = expectOk(await v1('sms/receive', { linenumber: '30001111', isread: 0 }, { method: 'POST' }));
    expect(unread).toEqual([
      {
        messageid: expect.any(Number),
        message: 'thanks',
        sender: '09351112233',
        receptor: '30001111',
        date: seconds(START),
      },
      {
        messageid: expect.any(Number),
        message: 'hi',
        sender: '09351112244',
        receptor: '30001111',
        date: seconds(START + HOUR),
      },
    ]);
    expect(expectOk(await v1('sms/receive', { linenumber: '30001111', isread: 0 }))).toEqual([]);
    const read = expectOk(await v1('sms/receive', { linenumber: '30001111', isread: 1 }));
    expect(read.map((e: { message: string }) => e.message).sort()).toEqual(['hi', 'thanks']);

    expect(expectOk(await v1('sms/countinbox', range))[0].sumcount).toBe(3);
    expect(expectOk(await v1('sms/countinbox', { ...range, isread: 1 }))[0].sumcount).toBe(2);
    expect(expectOk(await v1('sms/countinbox', { ...range, isread: 0 }))[0].sumcount).toBe(1);
    expect(expectOk(await v1('sms/countinbox', { ...range, linenumber: '30002222' }))[0].sumcount).toBe(1);
    expect(expectOk(await v1('sms/countinbox', { startdate: seconds(START + HOUR) }))).toEqual([
      { startdate: seconds(START + HOUR), enddate: seconds(START + HOUR + DAY), sumcount: 1 },
    ]);
  });

  it('refuses a missing line or isread (400), isread other than 0 or 1 (400), another’s line (412) and bad ranges (400, 417)', async () => {
    expectError(await v1('sms/receive', { isread: 0 }), 400);
    expectError(await v1('sms/receive', { linenumber: '30001111' }), 400);
    expectError(await v1('sms/receive', { linenumber: '30001111', isread: 2 }), 400);
    expectError(await v1('sms/receive', { linenumber: '30009999', isread: 0 }), 412);
    expectError(await v1('sms/countinbox', { isread: 0 }), 400);
    expectError(await v1('sms/countinbox', { startdate: seconds(START), enddate: seconds(START + DAY) + 1 }), 417);
    expectError(await v1('sms/countinbox', { startdate: seconds(START), linenumber: '30009999' }), 412);
    expectError(await v1('sms/countinbox', { startdate: seconds(START), isread: 5 }), 400);
  });
});
