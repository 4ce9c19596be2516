// Version 1's reads over HTTP (reference/kavenegar-v1.md §1.5–1.8, 1.10, 1.11): sms/select,
// selectoutbox, latestoutbox and countoutbox see only the caller's own messages; receive and
// countinbox its inbox; each error code they answer (400, 407, 412, 414, 417) in the provider's
// envelope. The server runs on a manual clock with the scheduler stopped, so statuses stay 1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testSeed, KEY, OTHER_KEY, type TestServer } from '../helpers/server';
import { ManualClock } from '../../electron/service/clock';
import { expectV1Error, expectV1Ok, v1, type V1Params } from './calls';

const START = Date.UTC(2026, 2, 1, 8);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const seconds = (ms: number) => Math.floor(ms / 1000);

let server: TestServer;
let clock: ManualClock;
let acme: number;
let other: number;

/** A v1 call to this server: the seed's key and GET unless told otherwise. */
function call(method: string, params: V1Params = {}, options: { key?: string; method?: 'GET' | 'POST' } = {}) {
  return v1(server.url, options.key ?? KEY, method, params, options.method ?? 'GET');
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
      const entries = expectV1Ok(await call('sms/select', { messageid: ids }, { method }));
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
    const commas = expectV1Ok(await call('sms/select', { messageid: ids.join(',') }));
    expect(commas.map((e: { messageid: number }) => e.messageid)).toEqual(ids);
  });

  it('answers status 100 and nothing else for another account’s message', async () => {
    const [entry] = expectV1Ok(await call('sms/select', { messageid: theirs.firstMessageId }));
    expect(entry).toMatchObject({ messageid: theirs.firstMessageId, status: 100, receptor: '', message: '', cost: 0 });
  });

  it('refuses no ids (400), a bad id (400), more than 500 (414) and an account without an allow-list (407)', async () => {
    expectV1Error(await call('sms/select'), 400);
    expectV1Error(await call('sms/select', { messageid: 'abc' }), 400);
    const many = Array.from({ length: 501 }, (_, i) => i + 1).join(',');
    expectV1Error(await call('sms/select', { messageid: many }, { method: 'POST' }), 414);
    expect(
      expectV1Ok(await call('sms/select', { messageid: many.split(',').slice(0, 500).join(',') }, { method: 'POST' })),
    ).toHaveLength(500);
    expectV1Error(await call('sms/select', { messageid: theirs.firstMessageId }, { key: OTHER_KEY }), 407);
  });
});

describe('sms/selectoutbox', () => {
  it('answers the caller’s messages of a day at most, oldest first, from a line if named', async () => {
    const range = { startdate: seconds(START), enddate: seconds(START + DAY) };
    const entries = expectV1Ok(await call('sms/selectoutbox', range));
    expect(entries.map((e: { messageid: number }) => e.messageid)).toEqual([
      a.firstMessageId,
      a.firstMessageId + 1,
      bale.firstMessageId,
    ]);
    expect(entries[2]).toMatchObject({ sender: 'bale_acme_bot', receptor: '09120000004', date: seconds(START + HOUR) });
    const fromBale = expectV1Ok(
      await call('sms/selectoutbox', { ...range, sender: 'bale_acme_bot' }, { method: 'POST' }),
    );
    expect(fromBale.map((e: { messageid: number }) => e.messageid)).toEqual([bale.firstMessageId]);
  });

  it('reads the Go client’s misspelt endate, and without an end takes a day from the start (or until now)', async () => {
    const misspelt = expectV1Ok(
      await call('sms/selectoutbox', { startdate: seconds(START), endate: seconds(START + 1000) }),
    );
    expect(misspelt.map((e: { messageid: number }) => e.messageid)).toEqual([a.firstMessageId, a.firstMessageId + 1]);
    const noEnd = expectV1Ok(await call('sms/selectoutbox', { startdate: seconds(START + HOUR) }));
    expect(noEnd.map((e: { messageid: number }) => e.messageid)).toEqual([bale.firstMessageId]);
    const untilNow = expectV1Ok(await call('sms/selectoutbox', { startdate: seconds(clock.now() - 2 * HOUR) }));
    expect(untilNow.map((e: { messageid: number }) => e.messageid)).toEqual([late.firstMessageId]);
  });

  it('refuses a missing or bad start (400), an end before the start or a range over a day (417), another’s line (412) and 407', async () => {
    expectV1Error(await call('sms/selectoutbox'), 400);
    expectV1Error(await call('sms/selectoutbox', { startdate: 'yesterday' }), 400);
    expectV1Error(await call('sms/selectoutbox', { startdate: seconds(START), enddate: seconds(START) - 1 }), 417);
    expectV1Error(
      await call('sms/selectoutbox', { startdate: seconds(START), enddate: seconds(START + DAY) + 1 }),
      417,
    );
    expectV1Error(await call('sms/selectoutbox', { startdate: seconds(START), sender: '30009999' }), 412);
    expectV1Error(await call('sms/selectoutbox', { startdate: seconds(START) }, { key: OTHER_KEY }), 407);
  });
});

describe('sms/latestoutbox', () => {
  it('answers the caller’s newest messages, newest first, pagesize of them (500 by default), from a line if named', async () => {
    const all = expectV1Ok(await call('sms/latestoutbox'));
    expect(all.map((e: { messageid: number }) => e.messageid)).toEqual([
      late.firstMessageId,
      bale.firstMessageId,
      a.firstMessageId + 1,
      a.firstMessageId,
    ]);
    const two = expectV1Ok(await call('sms/latestoutbox', { pagesize: 2 }, { method: 'POST' }));
    expect(two.map((e: { messageid: number }) => e.messageid)).toEqual([late.firstMessageId, bale.firstMessageId]);
    const fromLine = expectV1Ok(await call('sms/latestoutbox', { sender: '30001111' }));
    expect(fromLine.map((e: { receptor: string }) => e.receptor)).toEqual([
      '09120000005',
      '09120000002',
      '09120000001',
    ]);
  });

  it('refuses a pagesize over 500 (414) or under 1 (400), another’s line (412) and 407', async () => {
    expectV1Error(await call('sms/latestoutbox', { pagesize: 501 }), 414);
    expectV1Error(await call('sms/latestoutbox', { pagesize: -1 }), 400);
    expectV1Error(await call('sms/latestoutbox', { pagesize: 'ten' }), 400);
    expectV1Error(await call('sms/latestoutbox', { sender: '30009999' }), 412);
    expectV1Error(await call('sms/latestoutbox', {}, { key: OTHER_KEY }), 407);
  });
});

describe('sms/countoutbox', () => {
  it('counts the caller’s messages, pages and cost in the range, of a status if named', async () => {
    const range = { startdate: seconds(START), enddate: seconds(START + DAY) };
    expect(expectV1Ok(await call('sms/countoutbox', range))).toEqual([
      { ...range, sumcount: 3, sumpart: 2 * a.price.pages + 1, cost: a.totalRials + bale.totalRials },
    ]);
    expect(expectV1Ok(await call('sms/countoutbox', { ...range, status: 1 }))[0]).toMatchObject({ sumcount: 3 });
    expect(expectV1Ok(await call('sms/countoutbox', { ...range, status: 10 }))[0]).toMatchObject({
      sumcount: 0,
      sumpart: 0,
      cost: 0,
    });
    const lateDay = expectV1Ok(
      await call('sms/countoutbox', { startdate: seconds(START + 2 * DAY) }, { method: 'POST' }),
    );
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
    expectV1Error(await call('sms/countoutbox'), 400);
    expectV1Error(await call('sms/countoutbox', { startdate: seconds(START), enddate: seconds(START + 2 * DAY) }), 417);
    expectV1Error(await call('sms/countoutbox', { startdate: seconds(START), status: 'x' }), 400);
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
    expect(expectV1Ok(await call('sms/countinbox', { ...range, isread: 0 }))).toEqual([{ ...range, sumcount: 3 }]);

    const unread = expectV1Ok(await call('sms/receive', { linenumber: '30001111', isread: 0 }, { method: 'POST' }));
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
    expect(expectV1Ok(await call('sms/receive', { linenumber: '30001111', isread: 0 }))).toEqual([]);
    const read = expectV1Ok(await call('sms/receive', { linenumber: '30001111', isread: 1 }));
    expect(read.map((e: { message: string }) => e.message).sort()).toEqual(['hi', 'thanks']);

    expect(expectV1Ok(await call('sms/countinbox', range))[0].sumcount).toBe(3);
    expect(expectV1Ok(await call('sms/countinbox', { ...range, isread: 1 }))[0].sumcount).toBe(2);
    expect(expectV1Ok(await call('sms/countinbox', { ...range, isread: 0 }))[0].sumcount).toBe(1);
    expect(expectV1Ok(await call('sms/countinbox', { ...range, linenumber: '30002222' }))[0].sumcount).toBe(1);
    expect(expectV1Ok(await call('sms/countinbox', { startdate: seconds(START + HOUR) }))).toEqual([
      { startdate: seconds(START + HOUR), enddate: seconds(START + HOUR + DAY), sumcount: 1 },
    ]);
  });

  it('refuses a missing line or isread (400), isread other than 0 or 1 (400), another’s line (412) and bad ranges (400, 417)', async () => {
    expectV1Error(await call('sms/receive', { isread: 0 }), 400);
    expectV1Error(await call('sms/receive', { linenumber: '30001111' }), 400);
    expectV1Error(await call('sms/receive', { linenumber: '30001111', isread: 2 }), 400);
    expectV1Error(await call('sms/receive', { linenumber: '30009999', isread: 0 }), 412);
    expectV1Error(await call('sms/countinbox', { isread: 0 }), 400);
    expectV1Error(await call('sms/countinbox', { startdate: seconds(START), enddate: seconds(START + DAY) + 1 }), 417);
    expectV1Error(await call('sms/countinbox', { startdate: seconds(START), linenumber: '30009999' }), 412);
    expectV1Error(await call('sms/countinbox', { startdate: seconds(START), isread: 5 }), 400);
  });
});
