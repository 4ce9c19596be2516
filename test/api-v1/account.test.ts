// Version 1's account methods over HTTP (reference/kavenegar-v1.md §1.15–1.17): account/info's
// credit and fixed expiry, account/config's read and update (its checks are core.accountConfig's:
// 400 for a value outside its set, 412 for a default sender that is not the account's line), and
// utils/getdate's Tehran time without a key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testSeed, KEY, INACTIVE_KEY, type TestServer } from '../helpers/server';
import { ManualClock } from '../../electron/service/clock';
import { NEVER_EXPIRES } from '../../electron/service/http/v1/account';
import { expectV1Error, expectV1Ok, v1, type V1Params } from './calls';

// 08:00 UTC is 11:30 in Tehran (UTC+3:30, no daylight saving since 2022).
const START = Date.UTC(2026, 2, 1, 8);

let server: TestServer;
let clock: ManualClock;
let acme: number;

beforeAll(async () => {
  clock = new ManualClock(START);
  server = await startServer({ seed: testSeed(), clock, startScheduler: false });
  acme = server.core.accounts.findByName('acme')!.id;
});
afterAll(async () => {
  await server?.close();
});

/** A v1 call to this server: the seed's key and GET unless told otherwise. */
function call(method: string, params: V1Params = {}, options: { key?: string; method?: 'GET' | 'POST' } = {}) {
  return v1(server.url, options.key ?? KEY, method, params, options.method ?? 'GET');
}

describe('account/info', () => {
  it('answers the credit a send may spend, in rials, a far expiry and the type master, as an object', async () => {
    const entries = expectV1Ok(await call('account/info'));
    expect(entries).toEqual({ remaincredit: 10_000_000, expiredate: NEVER_EXPIRES, type: 'master' });
    expect(new Date(NEVER_EXPIRES * 1000).toISOString()).toBe('2100-01-01T00:00:00.000Z');
    server.core.messaging.accept.accept({
      accountId: acme,
      origin: 'api-v1',
      sender: '30001111',
      text: 'hello',
      receivers: ['09120000001'],
      rule: 'strict',
    });
    const after = expectV1Ok(await call('account/info', {}, { method: 'POST' }));
    expect(after.remaincredit).toBe(server.core.credit.available(acme));
    expect(after.remaincredit).toBeLessThan(10_000_000);
  });

  it('is the frame’s 403 and 401 for a bad or inactive key', async () => {
    expectV1Error(await call('account/info', {}, { key: 'no-such-key' }), 403);
    expectV1Error(await call('account/info', {}, { key: INACTIVE_KEY }), 401);
  });
});

describe('account/config', () => {
  it('reads the six settings, defaults first; changes those named, then reads them all', async () => {
    expect(expectV1Ok(await call('account/config'))).toEqual({
      apilogs: 'justfaults',
      dailyreport: 'disabled',
      debugmode: 'disabled',
      defaultsender: '',
      mincreditalarm: 0,
      resendfailed: 'disabled',
    });
    const changed = expectV1Ok(
      await call(
        'account/config',
        { apilogs: 'enabled', mincreditalarm: 50_000, defaultsender: '30001111' },
        { method: 'POST' },
      ),
    );
    expect(changed).toEqual({
      apilogs: 'enabled',
      dailyreport: 'disabled',
      debugmode: 'disabled',
      defaultsender: '30001111',
      mincreditalarm: 50_000,
      resendfailed: 'disabled',
    });
    expect(expectV1Ok(await call('account/config'))).toEqual(changed);
    expect(server.core.accountConfig.get(acme)).toEqual(changed);
  });

  it('takes the PHP client’s `debug` for debugmode, and the Go client’s settings posted to account/info', async () => {
    expect(expectV1Ok(await call('account/config', { debug: 'enabled' }))).toMatchObject({ debugmode: 'enabled' });
    const viaInfo = expectV1Ok(await call('account/info', { dailyreport: 'enabled' }, { method: 'POST' }));
    expect(viaInfo).toMatchObject({ dailyreport: 'enabled', debugmode: 'enabled' });
    expect(viaInfo.remaincredit).toBeUndefined();
    expectV1Ok(await call('account/config', { debugmode: 'disabled', dailyreport: 'disabled' }));
  });

  it('refuses a value outside its set (400) and a default sender that is not the account’s line (412), changing nothing', async () => {
    const before = server.core.accountConfig.get(acme);
    expectV1Error(await call('account/config', { apilogs: 'loud' }), 400);
    expectV1Error(await call('account/config', { mincreditalarm: 'lots' }), 400);
    expectV1Error(await call('account/config', { resendfailed: 'enabled', defaultsender: '30009999' }), 412);
    expect(server.core.accountConfig.get(acme)).toEqual(before);
  });
});

describe('utils/getdate', () => {
  it('answers Tehran time with any key (0 included), datetime as MM/DD/YYYY hh:mm:ss with the Persian designator', async () => {
    for (const key of ['0', 'anything', KEY])
      expect(expectV1Ok(await call('utils/getdate', {}, { key }))).toEqual({
        datetime: '03/01/2026 11:30:00 ق.ظ',
        year: 2026,
        month: 3,
        day: 1,
        hour: 11,
        minute: 30,
        second: 0,
        unixtime: START / 1000,
      });
    clock.advance(5 * 3_600_000 + 7_000); // 16:30:07 in Tehran
    expect(expectV1Ok(await call('utils/getdate', {}, { key: '0', method: 'POST' }))).toMatchObject({
      datetime: '03/01/2026 04:30:07 ب.ظ',
      hour: 16,
    });
    clock.advance(7 * 3_600_000 + 30 * 60_000 - 7_000); // midnight in Tehran: the next day
    expect(expectV1Ok(await call('utils/getdate', {}, { key: '0' }))).toMatchObject({
      datetime: '03/02/2026 12:00:00 ق.ظ',
      day: 2,
      hour: 0,
      unixtime: Date.UTC(2026, 2, 1, 20, 30) / 1000,
    });
  });
});
