// verify/lookup over HTTP (reference/kavenegar-v1.md §1.13): the template filled with the tokens and
// sent through the one acceptance path (its line, price, credit and opt-out phrase), and each code
// the reference names: 400, 411, 412, 418, 422, 424, 428, 431, 432.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testSeed, KEY, OTHER_KEY, type TestServer } from '../helpers/server';
import { ManualClock } from '../../electron/service/clock';
import { finalText } from '../../shared/optout';
import { type ApiCode } from '../../shared/status';
import { expectV1Error, expectV1Ok, v1, type V1Params } from './calls';

const START = Date.UTC(2026, 2, 1, 8);

let server: TestServer;
let acme: number;
let other: number;

beforeAll(async () => {
  server = await startServer({ seed: testSeed(), clock: new ManualClock(START), startScheduler: false });
  acme = server.core.accounts.findByName('acme')!.id;
  other = server.core.accounts.findByName('other')!.id;
  const templates = server.core.templates;
  templates.create(acme, { name: 'otp', body: 'کد ورود شما: %token' });
  templates.create(acme, { name: 'full', body: '%token %token2 %token3 | %token10 | %token20' });
  templates.create(acme, { name: 'bale', body: 'code %token', sender: 'bale_acme_bot' });
  templates.create(acme, { name: 'paused', body: 'code %token', active: false });
  templates.create(other, { name: 'theirs', body: 'code %token' });
});
afterAll(async () => {
  await server?.close();
});

/** A v1 call to this server: the seed's key and GET unless told otherwise. */
function call(method: string, params: V1Params = {}, options: { key?: string; method?: 'GET' | 'POST' } = {}) {
  return v1(server.url, options.key ?? KEY, method, params, options.method ?? 'GET');
}

function messageCount(): number {
  return (server.core.db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n;
}

describe('verify/lookup', () => {
  it('sends the template filled with the token, from the first SMS line that may send by API, with the opt-out phrase', async () => {
    const before = server.core.credit.balance(acme);
    for (const method of ['GET', 'POST'] as const) {
      const entries = expectV1Ok(
        await call('verify/lookup', { receptor: '09121234567', template: 'otp', token: '52341' }, { method }),
      );
      expect(entries).toHaveLength(1);
      const text = finalText('کد ورود شما: 52341', false);
      expect(text).toContain('لغو۱۱');
      expect(entries[0]).toEqual({
        messageid: expect.any(Number),
        message: text,
        status: 1,
        statustext: 'در صف ارسال',
        sender: '30001111',
        receptor: '09121234567',
        date: START / 1000,
        cost: expect.any(Number),
      });
      expect(entries[0].cost).toBeGreaterThan(0);
      const [stored] = server.core.messaging.outbox.select(acme, [entries[0].messageid]);
      expect(stored).toEqual(entries[0]);
    }
    expect(server.core.credit.balance(acme)).toBeLessThan(before);
  });

  it('fills token2, token3, token10 (up to 5 spaces) and token20 (up to 8); a template’s own line sends its text unchanged', async () => {
    const [full] = expectV1Ok(
      await call('verify/lookup', {
        receptor: '9121234567',
        template: 'full',
        token: 'a',
        token2: 'b',
        token3: 'c',
        token10: 'one two three four five six',
        token20: '1 2 3 4 5 6 7 8 9',
      }),
    );
    expect(full.message).toBe(finalText('a b c | one two three four five six | 1 2 3 4 5 6 7 8 9', false));
    expect(full.receptor).toBe('09121234567');
    const [bale] = expectV1Ok(await call('verify/lookup', { receptor: '09121234567', template: 'bale', token: '777' }));
    expect(bale).toMatchObject({ sender: 'bale_acme_bot', message: 'code 777' });
  });

  it('takes type sms or call in any case (the .NET client sends Sms/Call); a call needs a numeric token (428)', async () => {
    for (const type of ['sms', 'Sms', 'call', 'CALL'])
      expectV1Ok(await call('verify/lookup', { receptor: '09121234567', template: 'otp', token: '1234', type }));
    expectV1Error(
      await call('verify/lookup', { receptor: '09121234567', template: 'otp', token: 'abcd', type: 'call' }),
      428,
    );
    expectV1Error(
      await call('verify/lookup', { receptor: '09121234567', template: 'otp', token: '1234', type: 'fax' }),
      400,
    );
  });

  it('refuses with the reference’s codes and records nothing', async () => {
    const count = messageCount();
    const base = { receptor: '09121234567', template: 'otp', token: '1234' };
    const full = { ...base, template: 'full', token2: 'b', token3: 'c', token10: 'd', token20: 'e' };
    const cases: Array<[Record<string, string>, ApiCode]> = [
      [{ template: 'otp', token: '1' }, 400],
      [{ receptor: '09121234567', token: '1' }, 400],
      [{ receptor: '09121234567', template: 'otp' }, 400],
      [{ ...base, token: '' }, 400],
      [{ ...base, receptor: '09121234567,09121234568' }, 411],
      [{ ...base, receptor: '12345' }, 411],
      [{ ...base, template: 'nope' }, 424],
      [{ ...base, template: 'paused' }, 424],
      [{ ...base, template: 'theirs' }, 424],
      [{ ...base, token: '1'.repeat(101) }, 422],
      [{ ...base, token: '12 34' }, 431],
      [{ ...base, token: '12_34' }, 431],
      [{ ...base, token: '12\n34' }, 431],
      [{ ...base, token2: '5' }, 432],
      [{ ...full, token2: 'b b' }, 431],
      [{ ...full, token10: 'a b c d e f g' }, 431],
      [{ ...full, token20: '1 2 3 4 5 6 7 8 9 0' }, 431],
      [{ ...full, token20: 'x'.repeat(101) }, 422],
      [{ ...full, token3: '' }, 400],
    ];
    for (const [params, code] of cases) {
      const result = await call('verify/lookup', params, { method: 'POST' });
      expect({ params, status: result.status }).toEqual({ params, status: code });
      expectV1Error(result, code);
    }
    expect(messageCount()).toBe(count);
  });

  it('a repeated receptor key is two receptors (411)', async () => {
    expectV1Error(
      await call('verify/lookup', { receptor: ['09121234567', '09121234568'], template: 'otp', token: '1' }),
      411,
    );
  });

  it('is 412 when the template’s line may not send by API, and 418 when the credit is short', async () => {
    server.core.templates.create(acme, { name: 'panelonly', body: 'code %token', sender: '30002222' });
    expectV1Error(await call('verify/lookup', { receptor: '09121234567', template: 'panelonly', token: '1' }), 412);
    server.core.credit.adjust(other, -server.core.credit.balance(other), 'empty', 'adjust');
    // 'other' has no allow-list: give it one so the call gets past the frame.
    server.core.accounts.update(other, { ip_allowlist: ['127.0.0.1'] });
    expectV1Error(
      await call('verify/lookup', { receptor: '09121234567', template: 'theirs', token: '1' }, { key: OTHER_KEY }),
      418,
    );
  });
});
