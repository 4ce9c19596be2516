// The HTTP gateway client against a real local HTTP server that answers as the test says: the
// address and a POST's body filled and encoded as their types want, the success pattern deciding
// "taken", and an answer nobody recognises held as unknown with the rest of the call not made.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpGatewayClient } from './http-gateway';
import type { Endpoint, OutgoingMessage, UpstreamRecord } from './client';
import { HttpGatewayOptionsSchema, type HttpGatewayOptions } from '../../../../../shared/ipc/contracts/accounts';
import { MessageStatus } from '../../../../../shared/lifecycle';

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  body: string;
}

let server: http.Server;
let base = '';
let seen: Seen[] = [];
/** The answer for a request, by the receiver it names. */
let answer: (seen: Seen) => { status: number; body: string } = () => ({
  status: 202,
  body: '0: Accepted for delivery',
});

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const entry = { method: request.method!, url: request.url!, contentType: request.headers['content-type'], body };
      seen.push(entry);
      const { status, body: text } = answer(entry);
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  answer = () => ({ status: 202, body: '0: Accepted for delivery' });
});

function endpoint(template: string, http: Partial<HttpGatewayOptions> = {}): Endpoint {
  return {
    baseUrl: `${base}${template}`,
    apiKey: 'p&ss word',
    sender: '3000123',
    timeoutMs: 2_000,
    reportBase: 'http://127.0.0.1:1/gateway/reports/7/token',
    http: HttpGatewayOptionsSchema.parse(http),
  };
}

const message = (id: number, receptor: string, text = 'سلام "دنیا"\nخط دوم & 100%'): OutgoingMessage => ({
  id,
  localId: 1_000 + id,
  receptor,
  text,
});

async function send(at: Endpoint, messages: OutgoingMessage[]): Promise<UpstreamRecord[]> {
  const result = await httpGatewayClient(at).send(messages);
  if (result.kind !== 'ok') throw new Error(`call failed: ${JSON.stringify(result)}`);
  return result.value;
}

describe('the HTTP gateway client', () => {
  it('GET: every placeholder of the address URL-encoded, the report address naming our message', async () => {
    const records = await send(endpoint('/send?u=chapar&p={key}&from={from}&to={to}&text={text}&dlr={report}'), [
      message(1, '09120000001'),
    ]);
    expect(records).toEqual([{ id: 1, upstreamId: '1001', status: MessageStatus.HandedToCarrier, costRials: null }]);
    const url = new URL(seen[0]!.url, base);
    expect(seen[0]!.method).toBe('GET');
    expect(url.searchParams.get('p')).toBe('p&ss word');
    expect(url.searchParams.get('text')).toBe('سلام "دنیا"\nخط دوم & 100%');
    expect(url.searchParams.get('dlr')).toBe('http://127.0.0.1:1/gateway/reports/7/token?m=1&l=1001&type=%d');
  });

  it('POST with a JSON body: values written inside JSON strings, so quotes and line breaks stay the text', async () => {
    await send(
      endpoint('/api/send?key={key}', {
        method: 'POST',
        content_type: 'application/json',
        body: '{"to": "{to}", "from": "{from}", "message": "{text}"}',
      }),
      [message(1, '09120000001')],
    );
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.contentType).toBe('application/json');
    expect(JSON.parse(seen[0]!.body)).toEqual({
      to: '09120000001',
      from: '3000123',
      message: 'سلام "دنیا"\nخط دوم & 100%',
    });
  });

  it('POST with a form body: values URL-encoded', async () => {
    await send(endpoint('/api/send', { method: 'POST', body: 'to={to}&text={text}&password={key}' }), [
      message(1, '09120000001'),
    ]);
    expect(seen[0]!.contentType).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(seen[0]!.body);
    expect(form.get('text')).toBe('سلام "دنیا"\nخط دوم & 100%');
    expect(form.get('password')).toBe('p&ss word');
  });

  it('a success pattern: a 2xx whose words match is taken; one whose words do not is unknown, and the call stops', async () => {
    // The gateway answers 200 to a refusal, in words: only the pattern tells them apart.
    answer = ({ url }) =>
      url.includes('09120000002') ? { status: 200, body: 'ERROR: no credit' } : { status: 200, body: 'OK id=55' };
    const at = endpoint('/send?to={to}&text={text}', { success: '^OK' });
    const client = httpGatewayClient(at);
    const taken = await client.send([message(1, '09120000001')]);
    expect(taken).toMatchObject({ kind: 'ok', value: [{ id: 1, status: MessageStatus.HandedToCarrier }] });

    // After the unmatched answer no further request starts (those in flight finish and count).
    const many = Array.from({ length: 30 }, (_, i) => message(10 + i, i === 0 ? '09120000002' : `0912000010${i % 10}`));
    seen = [];
    const result = await client.send(many);
    if (result.kind !== 'ok') throw new Error('call failed');
    // The unmatched message is left out (the carrier holds it as unknown: it may have been taken)…
    expect(result.value.find((record) => record.id === 10)).toBeUndefined();
    // …and the ones not asked are not taken, with the gateway's words, which pause the line.
    const notTaken = result.value.filter((record) => record.notTaken);
    expect(notTaken.length).toBeGreaterThan(0);
    expect(notTaken[0]!.notTaken).toMatchObject({ kind: 'error', code: 299 });
    expect(notTaken[0]!.notTaken!.kind === 'error' && notTaken[0]!.notTaken!.text).toContain('ERROR: no credit');
    expect(seen.length).toBeLessThan(many.length);
    expect(seen.length).toBe(result.value.filter((record) => !record.notTaken).length + 1);
  });

  it('a 4xx refuses the receiver; 403 and 503 stop the call without refusing anyone', async () => {
    answer = ({ url }) =>
      url.includes('09120000002')
        ? { status: 400, body: 'Invalid receiver' }
        : url.includes('09120000003')
          ? { status: 403, body: 'Authorization failed' }
          : { status: 202, body: '0: Accepted' };
    const records = await send(endpoint('/send?to={to}&text={text}'), [message(1, '09120000002')]);
    expect(records).toEqual([{ id: 1, upstreamId: null, status: MessageStatus.Invalid, costRials: null }]);
    const stopped = await send(endpoint('/send?to={to}&text={text}'), [message(2, '09120000003')]);
    expect(stopped[0]!.notTaken).toEqual({ kind: 'error', code: 403, text: 'Authorization failed' });
  });

  it('the connection test: a gateway that answers at all with the key holding is there', async () => {
    answer = () => ({ status: 400, body: 'Missing receiver' });
    expect(await httpGatewayClient(endpoint('/send?to={to}&text={text}')).info()).toEqual({
      kind: 'ok',
      value: { creditRials: null },
    });
    answer = () => ({ status: 403, body: 'Authorization failed' });
    expect(await httpGatewayClient(endpoint('/send?to={to}&text={text}')).info()).toMatchObject({
      kind: 'error',
      code: 403,
    });
    // A 401 is the key too; a wrong path (404, 405) or a busy gateway (429) is not "there".
    answer = () => ({ status: 401, body: 'Unauthorized' });
    expect(await httpGatewayClient(endpoint('/send?to={to}&text={text}')).info()).toMatchObject({
      kind: 'error',
      code: 403,
    });
    for (const status of [404, 405, 429]) {
      answer = () => ({ status, body: 'no' });
      expect(await httpGatewayClient(endpoint('/send?to={to}&text={text}')).info()).toMatchObject({
        kind: 'error',
        code: status,
      });
    }
    const gone = { ...endpoint('/send?to={to}&text={text}'), baseUrl: 'http://127.0.0.1:1/send?to={to}&text={text}' };
    expect((await httpGatewayClient(gone).info()).kind).toBe('not-sent');
  });
});
