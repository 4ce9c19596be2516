// Version 1 on the wire, as the previous provider's clients speak it (reference/kavenegar-v1.md §0):
// GET and POST, the query merged with the body, repeated keys, empty values, `date=0`, a trailing
// slash, absolute-form targets; the key in the path (403, 401), the IP allow-list (416, loopback
// included), the limits (414), the error envelope, plain 404s, and no key in any log line.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, INACTIVE_KEY, KEY, startServer, tempDir, testSeed, type TestServer } from '../helpers/server';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { buildHttpServer } from '../../electron/service/http/server';
import { createLogger, LOG_FILE } from '../../electron/service/log';
import { MessageStatus } from '../../shared/lifecycle';
import { apiCodeMessage } from '../../shared/status';
import { expectV1Error, expectV1Ok, form, receptors, v1, type V1Result } from './calls';

const WALLED_KEY = 'k-walled-v1-wire';
const SIX_KEY = 'k-six-v1-wire';
const NONE_KEY = 'k-none-v1-wire';

let server: TestServer;
beforeAll(async () => {
  const seed = testSeed();
  const line = (number: string) => [
    { number, provider: 'sms' as const, permissions: ['can_send_api_campaign' as const] },
  ];
  seed.accounts!.push(
    // A list without this machine's address.
    {
      name: 'walled',
      credit_rials: 100_000,
      api_keys: [WALLED_KEY],
      ip_allowlist: ['10.0.0.0/8'],
      lines: line('30007771'),
    },
    // IPv6 loopback only: 127.0.0.1 is another address.
    { name: 'six', credit_rials: 100_000, api_keys: [SIX_KEY], ip_allowlist: ['::1'], lines: line('30007772') },
    // No address registered at all.
    { name: 'none', credit_rials: 100_000, api_keys: [NONE_KEY], ip_allowlist: [], lines: line('30007773') },
  );
  server = await startServer({ seed, startScheduler: false });
});
afterAll(async () => server?.close());

const messages = () => (server.core.db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n;

/** A request as from another address (Fastify's injection sets the socket's remote address). */
async function from(remoteAddress: string, key: string, params: Record<string, string>): Promise<V1Result> {
  const response = await server.app.inject({
    method: 'POST',
    url: `/v1/${key}/sms/send.json`,
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form(params).toString(),
  });
  return { status: response.statusCode, body: response.json(), text: response.body, contentType: null };
}

/** Writes a raw request on a socket and reads the whole answer (the server closes: Connection: close). */
function raw(request: string): Promise<{ status: number; body: any }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.createConnection({ host: '127.0.0.1', port: Number(port) }, () => socket.write(request));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head, body] = [answer.slice(0, answer.indexOf('\r\n\r\n')), answer.slice(answer.indexOf('\r\n\r\n') + 4)];
      resolve({ status: Number(head.split(' ')[1]), body: JSON.parse(body) });
    });
  });
}

describe('the wire', () => {
  it('takes GET with a query and POST with a form alike', async () => {
    const params = { receptor: '09121140001', sender: '30001111', message: 'سلام دنیا & co' };
    const viaGet = await v1(server.url, KEY, 'sms/send', params, 'GET');
    const viaPost = await v1(server.url, KEY, 'sms/send', params, 'POST');
    for (const result of [viaGet, viaPost]) {
      expectV1Ok(result);
      expect(result.contentType).toMatch(/^application\/json/);
      expect(result.body.entries[0]).toMatchObject({ receptor: '09121140001', sender: '30001111' });
      expect(result.body.entries[0].message).toContain('سلام دنیا & co');
    }
    expect(viaPost.body.entries[0].messageid).toBe(viaGet.body.entries[0].messageid + 1);
    // A JSON body too, its lists as arrays.
    const response = await fetch(`${server.url}/v1/${KEY}/sms/send.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ receptor: ['09121140013', '09121140014'], sender: '30001111', message: 'json, too' }),
    });
    const body = (await response.json()) as any;
    expect(response.status).toBe(200);
    expect(body.entries.map((entry: { receptor: string }) => entry.receptor)).toEqual(['09121140013', '09121140014']);
    expect(body.entries[0].message).toContain('json, too');
  });

  it('merges the query with the body, and joins repeated keys as a comma list', async () => {
    const response = await fetch(`${server.url}/v1/${KEY}/sms/send.json?receptor=09121140002&sender=30001111`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'receptor=09121140003&receptor=09121140004,09121140005&message=merged',
    });
    const body = (await response.json()) as any;
    expect(response.status).toBe(200);
    expect(body.entries.map((entry: { receptor: string }) => entry.receptor)).toEqual([
      '09121140002',
      '09121140003',
      '09121140004',
      '09121140005',
    ]);
    const ids = body.entries.map((entry: { messageid: number }) => entry.messageid);
    const status = await fetch(
      `${server.url}/v1/${KEY}/sms/status.json?${ids.map((id: number) => `messageid=${id}`).join('&')}`,
    );
    expect(((await status.json()) as any).entries.map((entry: { messageid: number }) => entry.messageid)).toEqual(ids);
  });

  it('takes empty values as absent and date=0 as now', async () => {
    const result = await v1(
      server.url,
      KEY,
      'sms/send',
      { receptor: '09121140006', message: 'empties', sender: '', localid: '', date: '', type: '', tag: '' },
      'GET',
    );
    expectV1Ok(result);
    expect(result.body.entries[0]).toMatchObject({ sender: '30001111', status: MessageStatus.Queued });
    const zero = await v1(server.url, KEY, 'sms/send', { receptor: '09121140007', message: 'zero', date: 0 });
    expect(zero.body.entries[0].status).toBe(MessageStatus.Queued);
  });

  it('routes a trailing slash after .json', async () => {
    for (const verb of ['GET', 'POST']) {
      const response = await fetch(`${server.url}/v1/${KEY}/sms/status.json/?messageid=1`, { method: verb });
      expect(response.status).toBe(200);
      expect(((await response.json()) as any).return.status).toBe(200);
    }
  });

  it('routes an absolute-form target by its path', async () => {
    const body = form({ receptor: '09121140008', sender: '30001111', message: 'absolute' }).toString();
    const answer = await raw(
      `POST http://api.kavenegar.com/v1/${KEY}/sms/send.json HTTP/1.1\r\nHost: api.kavenegar.com\r\n` +
        `Content-Type: application/x-www-form-urlencoded; charset=UTF-8\r\nContent-Length: ${body.length}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.entries[0]).toMatchObject({ receptor: '09121140008', sender: '30001111' });
  });

  it("answers a target Node cannot parse (a raw Persian letter in the query) in the provider's shape", async () => {
    for (const target of [
      `/v1/${KEY}/sms/send.json?message=سلام`,
      `http://api.kavenegar.com/v1/${KEY}/sms/send.json?message=سلام`,
    ]) {
      const answer = await raw(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ return: { status: 400, message: apiCodeMessage[400] }, entries: null });
    }
    // Other paths keep spec 7's envelope.
    const other = await raw(`GET /v2/sms/status?x=سلام HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(other.body).toEqual({ return: { status: 400, message: apiCodeMessage[400] }, entries: [] });
  });
});

describe('the key and the caller', () => {
  it('refuses an unknown key (403) and a key of an inactive account (401), for every method', async () => {
    for (const method of ['sms/send', 'sms/sendarray', 'sms/status', 'sms/statuslocalmessageid', 'sms/cancel']) {
      expectV1Error(await v1(server.url, 'not-a-key', method, { receptor: '09121140010', message: 'x' }), 403);
      expectV1Error(await v1(server.url, INACTIVE_KEY, method, { receptor: '09121140010', message: 'x' }), 401);
    }
  });

  it('refuses a caller whose address is not on the account’s list (416), loopback included, sending nothing', async () => {
    const before = messages();
    const params = { receptor: '09121140011', message: 'x' };
    expectV1Error(await v1(server.url, WALLED_KEY, 'sms/send', params), 416);
    expectV1Error(await v1(server.url, SIX_KEY, 'sms/send', params), 416);
    expectV1Error(await v1(server.url, NONE_KEY, 'sms/send', params), 416);
    expectV1Error(await v1(server.url, WALLED_KEY, 'sms/status', { messageid: 1 }), 416);
    expect(messages()).toBe(before);
  });

  it('compares IPv4-mapped IPv6 callers as their IPv4 selves, and ::1 as an address of its own', async () => {
    const params = { receptor: '09121140012', message: 'x' };
    expectV1Ok(await from('::ffff:127.0.0.1', KEY, params));
    expectV1Error(await from('::1', KEY, params), 416);
    expectV1Ok(await from('::1', SIX_KEY, params));
    expectV1Error(await from('::ffff:127.0.0.1', SIX_KEY, params), 416);
    expectV1Ok(await from('::ffff:10.20.30.40', WALLED_KEY, params));
    expectV1Ok(await from('10.1.2.3', WALLED_KEY, params));
    expectV1Error(await from('11.1.2.3', WALLED_KEY, params), 416);
  });
});

describe('limits, envelope and paths', () => {
  it('refuses 201 receptors and 501 ids (414) in the provider’s envelope', async () => {
    const over = await v1(server.url, KEY, 'sms/send', { receptor: receptors(201).join(','), message: 'x' });
    expectV1Error(over, 414);
    expect(over.contentType).toMatch(/^application\/json/);
    const ids = Array.from({ length: 501 }, (_, i) => i + 1).join(',');
    for (const method of ['sms/status', 'sms/cancel'])
      expectV1Error(await v1(server.url, KEY, method, { messageid: ids }), 414);
  });

  it('answers an unknown method or format under /v1 with the plain 404', async () => {
    for (const target of [
      `/v1/${KEY}/sms/nothing.json`,
      `/v1/${KEY}/sms/send.xml`,
      `/v1/${KEY}/sms/send`,
      `/v1/${KEY}/nope/send.json`,
    ]) {
      const response = await fetch(`${server.url}${target}`, { method: 'POST' });
      expect(response.status, target).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).not.toContain('return');
    }
  });

  it('never writes the key into a log line, even for an unexpected error', async () => {
    const dir = tempDir();
    const core = new Core({ dataDir: tempDir(), startScheduler: false });
    applySeed(core, testSeed(), { warn: () => {} });
    const app = await buildHttpServer({ core, logger: createLogger({ kind: 'file', dir }) });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = app.server.address() as net.AddressInfo;
      const base = `http://127.0.0.1:${port}`;
      core.messaging.statusLookup.lookup = () => {
        throw new Error('disk on fire');
      };
      const failed = await v1(base, KEY, 'sms/status', { messageid: 1 });
      expect(failed.status).toBe(500);
      expect(failed.text).not.toContain(KEY);
      expectV1Ok(await v1(base, KEY, 'sms/send', { receptor: '09121140020', message: 'x' }));
      expectV1Error(await v1(base, KEY, 'sms/send', { message: 'x' }), 400);
      expectV1Error(await v1(base, 'k-unknown-secret-key', 'sms/send', { message: 'x' }), 403);

      const file = path.join(dir, LOG_FILE);
      const text = await eventually(() => {
        const now = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
        return now.includes('disk on fire') ? now : undefined;
      });
      expect(text).toContain('/v1/***/sms/status.json');
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('k-unknown-secret-key');
    } finally {
      await app.close();
      await core.close();
    }
  });
});
