// Bad input never gives a 500 or a crash (PRODUCT.md "What done looks like"): malformed and
// oversized bodies, wrong types, Unicode oddities, huge numbers. Each answer is the envelope with
// the right code, and the server still answers /health afterwards.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCodeMessage } from '../../shared/status';
import { ManualClock } from '../../electron/service/clock';
import { HEALTH_MESSAGE } from '../../electron/service/http/routes/health';
import { KEY, post, startServer, type TestServer } from '../helpers/server';
import { accountId, counts, expectEnvelope, expectError, request, type HttpResult } from './support';

const PHRASE = '\nلغو۱۱';
const MB = 1024 * 1024;
/** Just under the send route's 1 MB body limit. */
const NEAR_LIMIT = 900 * 1024;

let server: TestServer;
let acme: number;
const send = (body: unknown, headers: Record<string, string> = {}): Promise<HttpResult> =>
  post(`${server.url}/v2/sms/send`, body, KEY, headers);

beforeAll(async () => {
  server = await startServer({ clock: new ManualClock() });
  acme = accountId(server.core, 'acme');
});
afterAll(async () => {
  // Whatever was thrown at it, the server is alive and answers.
  const health = await request(`${server.url}/health`);
  expect(health.body).toEqual({ message: HEALTH_MESSAGE });
  await server.close();
});

describe('oversized bodies', () => {
  it('a 900 KB message is read and refused for credit (418), recording nothing', async () => {
    const before = counts(server.core, acme);
    const body = `{"message":"${'a'.repeat(NEAR_LIMIT)}","sender":"30001111","receivers":["09121234567"]}`;
    expectError(await send(body), 418);
    expect(counts(server.core, acme)).toEqual(before);
  });

  it('a 900 KB message of white space does not stall the server', async () => {
    // Long runs of white space once made the opt-out phrase quadratic: minutes for one request.
    const trailing = await send(
      `{"message":"x${' '.repeat(NEAR_LIMIT)}","sender":"30001111","receivers":["09121234567"]}`,
    );
    expectEnvelope(trailing, 200);
    expect(trailing.body.entries[0].message).toBe('x' + PHRASE);
    const inner = `{"message":"${' '.repeat(NEAR_LIMIT / 2)}x${' \\u200c'.repeat(NEAR_LIMIT / 16)}","sender":"30001111","receivers":["09121234567"]}`;
    expectError(await send(inner), 418);
  });

  it('a 900 KB body that is not JSON is 400; with a bad key it is 403 before the body is read', async () => {
    const garbage = '{' + 'x'.repeat(NEAR_LIMIT);
    expectError(await send(garbage), 400);
    expectError(await post(`${server.url}/v2/sms/send`, garbage, 'nope'), 403);
  });

  it('a body above the size limit (1 MB on send) is 414 in the envelope', async () => {
    const body = `{"message":"${'a'.repeat(MB)}","sender":"30001111","receivers":["09121234567"]}`;
    expectError(await send(body), 414);
  });

  it('a 100,000-receiver array is 414 on send, a 100,000-id array 414 on status', async () => {
    expectError(await send({ message: 'x', sender: '30001111', receivers: Array(100_000).fill('09121234567') }), 414);
    expectError(await post(`${server.url}/v2/sms/status`, { messageids: Array(100_000).fill(1) }), 414);
  });
});

describe('malformed bodies and wrong types', () => {
  it.each<[string, string, Record<string, string>?]>([
    ['truncated JSON', '{"message":"x","sender":"30001111","receivers":["0912'],
    ['single quotes', "{'message':'x'}"],
    ['a UTF-8 BOM before the JSON', '\ufeff{"message":"x","sender":"30001111","receivers":["09121234567"]}'],
    ['deeply nested arrays', '['.repeat(100_000) + ']'.repeat(100_000)],
    ['deeply nested objects', '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000)],
    ['a deeply nested message', '{"message":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}'],
    ['NaN', 'NaN'],
    ['true', 'true'],
    ['a bare string', '"x"'],
    ['XML', '<send><message>x</message></send>', { 'content-type': 'application/xml' }],
    [
      'a form body',
      'message=x&sender=30001111&receivers=09121234567',
      { 'content-type': 'application/x-www-form-urlencoded' },
    ],
    ['gzip-labelled text', 'not gzip', { 'content-encoding': 'gzip' }],
    [
      'a multipart body',
      '--b\r\ncontent-disposition: form-data; name="message"\r\n\r\nx\r\n--b--\r\n',
      { 'content-type': 'multipart/form-data; boundary=b' },
    ],
  ])('%s is 400', async (_label, body, headers) => {
    const before = counts(server.core, acme);
    expectError(await send(body, headers), 400);
    expect(counts(server.core, acme)).toEqual(before);
  });

  it('JSON sent as text/plain or without a content type is still read as JSON', async () => {
    const body = JSON.stringify({ message: 'x', sender: '30001111', receivers: ['09121234567'] });
    expectEnvelope(await send(body, { 'content-type': 'text/plain' }), 200);
    const bare = await request(`${server.url}/v2/sms/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body,
    });
    expectEnvelope(bare, 200);
  });

  it('ignores fields it does not know, including __proto__ and constructor', async () => {
    const result = await send(
      '{"__proto__":{"message":"injected"},"constructor":{"prototype":{"x":1}},"message":"x","sender":"30001111","receivers":["09121234567"],"extra":[1,{"a":null}]}',
    );
    expectEnvelope(result, 200);
    expect(result.body.entries[0].message).toBe('x' + PHRASE);
    expect(({} as Record<string, unknown>)['message']).toBeUndefined();
  });

  it('huge and odd numbers in messageids are 400, never 500', async () => {
    for (const body of [
      '{"messageids":[1e309]}',
      '{"messageids":[123456789012345678901234567890]}',
      '{"messageids":[-0.0000001]}',
      '{"messageids":[1, 2, 1e21]}',
      '{"messageids":[' + '9'.repeat(10_000) + ']}',
    ]) {
      expectError(await post(`${server.url}/v2/sms/status`, body), 400);
    }
    // -0 is an integer: it is just an unknown id.
    const zero = await post(`${server.url}/v2/sms/status`, '{"messageids":[-0]}');
    expectEnvelope(zero, 200);
    expect(zero.body.entries[0].status).toBe(100);
  });
});

describe('Unicode oddities', () => {
  const textOf = (messageid: number) =>
    server.core.db
      .prepare<[number], { text: string }>(
        'SELECT s.text FROM sends s JOIN messages m ON m.send_id = s.id WHERE m.id = ?',
      )
      .get(messageid)?.text;

  it.each([
    ['NUL characters', 'a\u0000b\u0000'],
    ['RTL and LTR marks and overrides', '\u200fسلام\u200e \u202eabc\u202c \u2067x\u2069'],
    ['emoji and combining marks', '👨‍👩‍👧‍👦 é 🇮🇷 ﷽'],
    ['control characters', '\u0001\u0007\u001b[31m\u007f'],
    ['a 100,000-character text', 'س'.repeat(100_000)],
  ])('%s in the message are kept: the answer, the record and the cost agree', async (_label, message) => {
    const result = await send({ message, sender: '30001111', receivers: ['09121234567'] });
    expectEnvelope(result, 200);
    const entry = result.body.entries[0];
    expect(entry.message).toBe(message.replace(/\s+$/u, '') + PHRASE);
    expect(textOf(entry.messageid)).toBe(entry.message);
    expect(entry.cost).toBe((entry.message.length <= 70 ? 1 : Math.ceil(entry.message.length / 67)) * 1500);
  });

  it('lone surrogates in the message: the text answered is the text recorded', async () => {
    const result = await send({ message: 'a\ud800b\udc00c', sender: '30001111', receivers: ['09121234567'] });
    expectEnvelope(result, 200);
    const entry = result.body.entries[0];
    expect(entry.message).toBe('a\ufffdb\ufffdc' + PHRASE);
    expect(textOf(entry.messageid)).toBe(entry.message);
    // A proper pair is kept as it is.
    const pair = await send({ message: 'a\ud83d\ude00', sender: '30001111', receivers: ['09121234567'] });
    expect(pair.body.entries[0].message).toBe('a😀' + PHRASE);
  });

  it('odd receivers are echoed as received, with status 0', async () => {
    const odd = ['\ud800', '0912\u00001234567', '09121234567\u200f', '😀', 'x'.repeat(100_000), '٠٩١٢١٢٣٤٥٦٧'];
    const result = await send({ message: 'x', sender: '30001111', receivers: [...odd, '09121234567'] });
    expectEnvelope(result, 200);
    odd.forEach((receiver, i) =>
      expect(result.body.entries[i]).toMatchObject({ status: 0, messageid: 0, receptor: receiver }),
    );
  });

  it('odd senders are 412', async () => {
    for (const sender of ['\ud800', '3000\u00001111', '\u200f30001111', '😀', 'x'.repeat(100_000)]) {
      expectError(await send({ message: 'x', sender, receivers: ['09121234567'] }), 412);
    }
  });

  it('odd file_ids are 400', async () => {
    for (const file_id of ['\ud800', '\u0000', '😀'.repeat(50), 'x'.repeat(100_000)]) {
      expectError(await send({ message: 'x', sender: 'bale_acme_bot', receivers: ['09121234567'], file_id }), 400);
    }
  });
});

describe('malformed HTTP framing', () => {
  /** Writes raw bytes on a fresh connection; resolves with everything the server answered. */
  function raw(bytes: string): Promise<string> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ host: '127.0.0.1', port: Number(port) }, () => socket.write(bytes));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });
  }

  it.each([
    ['a Content-Length that is not a number', 'Content-Length: abc\r\n\r\n{}'],
    ['two different Content-Lengths', 'Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}'],
    ['a broken chunk', 'Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
  ])('%s gets the envelope 400', async (_what, rest) => {
    const answer = await raw(
      `POST /v2/sms/send HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\n${rest}`,
    );
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/content-type: application\/json; charset=utf-8/i);
    expect(JSON.parse(body!)).toEqual({ return: { status: 400, message: apiCodeMessage[400] }, entries: [] });
  });
});
