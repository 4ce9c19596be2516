// The previous provider's official Node client (npm `kavenegar`), unpatched, against Chapar:
// AccountInfo and VerifyLookup, and the errors that client surfaces for them. The client dials
// api.kavenegar.com on port 80 with absolute-form targets; an http.Agent that connects to this
// server instead stands in for a hosts-file entry and a port forward, installed as Node's global
// agent for these tests only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testSeed, KEY, INACTIVE_KEY, OTHER_KEY, type TestServer } from '../helpers/server';
import { ManualClock } from '../../electron/service/clock';
import { NEVER_EXPIRES } from '../../electron/service/http/v1/account';
import { finalText } from '../../shared/optout';
import { apiCodeMessage } from '../../shared/status';
import { call, dialServer } from './kavenegar';

const START = Date.UTC(2026, 2, 1, 8);

let server: TestServer;
let acme: number;
let restoreAgent: (() => void) | undefined;

beforeAll(async () => {
  server = await startServer({ seed: testSeed(), clock: new ManualClock(START), startScheduler: false });
  acme = server.core.accounts.findByName('acme')!.id;
  server.core.templates.create(acme, { name: 'login', body: 'Your code: %token' });
  // Its line may send from the panel only.
  server.core.templates.create(acme, { name: 'panelonly', body: 'Code %token', sender: '30002222' });
  restoreAgent = dialServer(server.url);
});
afterAll(async () => {
  restoreAgent?.();
  await server?.close();
});

describe('the official Node client', () => {
  it('AccountInfo: the credit in rials, the expiry and the type, as an object', async () => {
    const answer = await call(KEY, 'AccountInfo', {});
    expect(answer).toEqual({
      entries: { remaincredit: server.core.credit.available(acme), expiredate: NEVER_EXPIRES, type: 'master' },
      status: 200,
      message: apiCodeMessage[200],
    });
  });

  it('AccountInfo: 403 for an unknown key, 401 for an inactive account, 416 for a caller outside the allow-list', async () => {
    expect(await call('not-a-key', 'AccountInfo', {})).toEqual({
      entries: null,
      status: 403,
      message: apiCodeMessage[403],
    });
    expect(await call(INACTIVE_KEY, 'AccountInfo', {})).toEqual({
      entries: null,
      status: 401,
      message: apiCodeMessage[401],
    });
    // 'other' registered no IP: this caller (127.0.0.1) is not on its list.
    expect(await call(OTHER_KEY, 'AccountInfo', {})).toEqual({
      entries: null,
      status: 416,
      message: apiCodeMessage[416],
    });
  });

  it('VerifyLookup: one message entry, the template filled, with the tokens the client sends empty (token2=&token3=)', async () => {
    const answer = await call(KEY, 'VerifyLookup', {
      receptor: '09121234567',
      token: '852596',
      token2: undefined,
      token3: null,
      template: 'login',
    });
    expect(answer.status).toBe(200);
    expect(answer.entries).toEqual([
      {
        messageid: expect.any(Number),
        message: finalText('Your code: 852596', false),
        status: 1,
        statustext: 'در صف ارسال',
        sender: '30001111',
        receptor: '09121234567',
        date: START / 1000,
        cost: expect.any(Number),
      },
    ]);
    const [stored] = server.core.messaging.outbox.select(acme, [answer.entries[0].messageid]);
    expect(stored).toEqual(answer.entries[0]);
  });

  it('VerifyLookup: the errors the client surfaces (400, 411, 412, 422, 424, 428, 431, 432)', async () => {
    const base = { receptor: '09121234567', token: '1234', template: 'login' };
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ ...base, token: undefined }, 400],
      [{ ...base, receptor: ['09121234567', '09121234568'] }, 411],
      [{ ...base, token: '9'.repeat(101) }, 422],
      [{ ...base, template: 'missing' }, 424],
      [{ ...base, token: 'abc', type: 'call' }, 428],
      [{ ...base, token: '12 34' }, 431],
      [{ ...base, token2: '5' }, 432],
      [{ ...base, template: 'panelonly' }, 412],
    ];
    for (const [data, status] of cases)
      expect({ data, answer: await call(KEY, 'VerifyLookup', data) }).toEqual({
        data,
        answer: { entries: null, status, message: apiCodeMessage[status as keyof typeof apiCodeMessage] },
      });
  });
});
