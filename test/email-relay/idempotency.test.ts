// Idempotency-Key on the provider's POST (the reference): the same key and body answer the first
// answer again with `Idempotent-Replayed: true` and no new message; another body is 409; a request
// with the key still arriving is 409 (claimed before its body is read: a raw socket sends half a
// body); after a failed first request 412; scoped to the account; forgotten after 24 hours; the
// in-process API shares the keys and answers.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/server';
import {
  ACCOUNT,
  EMAIL_KEY,
  OTHER_ACCOUNT,
  OTHER_EMAIL_KEY,
  call,
  expectMessage,
  messagesUrl,
  sendBody,
  startEmailServer,
  type EmailServer,
} from './support';

let server: EmailServer;
beforeAll(async () => {
  server = await startEmailServer();
});
afterAll(() => server.close());

const count = () => (server.core.db.prepare('SELECT COUNT(*) AS n FROM email_relay_messages').get() as { n: number }).n;
const withKey = (key: string, body: unknown, extra: { key?: string; account?: string } = {}) =>
  call(messagesUrl(server, extra.account), { body, key: extra.key, headers: { 'idempotency-key': key } });

describe('Idempotency-Key', () => {
  it('answers the same key and body with the first answer again, marked replayed, and sends nothing more', async () => {
    const body = sendBody(3);
    const first = await withKey('order-1', body);
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const before = count();
    const again = await withKey('order-1', body);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    // The same JSON written differently is the same body.
    const spaced = await withKey('order-1', JSON.stringify(body, null, 2));
    expect(spaced.body).toEqual(first.body);
    expect(count()).toBe(before);
  });

  it('answers 409 for the same key with another body', async () => {
    expect((await withKey('order-2', sendBody(1))).status).toBe(202);
    expectMessage(await withKey('order-2', sendBody(2)), 409, /another body/);
    // The first answer still replays.
    expect((await withKey('order-2', sendBody(1))).headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers 412 after the first request with the key failed (a bad body, invalid JSON)', async () => {
    expectMessage(await withKey('order-3', { ...sendBody(1), subject: '' }), 400);
    expectMessage(await withKey('order-3', sendBody(1)), 412, /first request with this Idempotency-Key failed/);
    expectMessage(await withKey('order-4', '{"broken'), 400, /not valid JSON/);
    expectMessage(await withKey('order-4', sendBody(1)), 412);
  });

  it('is not used up by a refused key (401, 403)', async () => {
    expectMessage(await withKey('order-5', sendBody(1), { key: 'ek-wrong' }), 401);
    expectMessage(await withKey('order-5', sendBody(1), { key: OTHER_EMAIL_KEY }), 403);
    expect((await withKey('order-5', sendBody(1))).status).toBe(202);
  });

  it('is scoped to the account', async () => {
    expect((await withKey('shared', sendBody(1))).status).toBe(202);
    const other = await withKey('shared', sendBody(2), { key: OTHER_EMAIL_KEY, account: OTHER_ACCOUNT });
    expect(other.status).toBe(202);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a key longer than 255 characters with 400, and takes one of 255', async () => {
    expectMessage(await withKey('k'.repeat(256), sendBody(1)), 400, /longer than 255/);
    expect((await withKey('k'.repeat(255), sendBody(1))).status).toBe(202);
  });

  it('answers 409 while a request with the key is still being processed, then the first answer', async () => {
    const body = JSON.stringify(sendBody(2));
    const half = Math.floor(body.length / 2);
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    let response = '';
    socket.on('data', (chunk) => (response += chunk.toString('utf8')));
    socket.write(
      `POST /v2/accounts/${ACCOUNT}/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${EMAIL_KEY}\r\n` +
        `Idempotency-Key: slow-1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
        body.slice(0, half),
    );
    // The server claims the key once it has the headers (probed in process: a claim taken is released untouched).
    const relay = server.core.emailRelay;
    await eventually(() => {
      const probe = relay.claimIdempotency(ACCOUNT, 'slow-1');
      if (relay.isClaim(probe)) return void probe.release();
      return probe;
    });
    expectMessage(await withKey('slow-1', body), 409, /still being processed/);
    socket.write(body.slice(half));
    const first = await eventually(() => (/\r\n\r\n\{.*\}$/s.test(response) ? response : undefined));
    socket.destroy();
    expect(first).toMatch(/^HTTP\/1\.1 202/);
    const firstBody = JSON.parse(first.slice(first.indexOf('\r\n\r\n') + 4));
    const replay = await withKey('slow-1', body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(firstBody);
  });

  it('frees the key of a request whose client went away mid-body', async () => {
    const body = JSON.stringify(sendBody(1));
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.write(
      `POST /v2/accounts/${ACCOUNT}/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${EMAIL_KEY}\r\n` +
        `Idempotency-Key: gone-1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n` +
        body.slice(0, 10),
    );
    const relay = server.core.emailRelay;
    await eventually(() => {
      const probe = relay.claimIdempotency(ACCOUNT, 'gone-1');
      if (relay.isClaim(probe)) return void probe.release();
      return probe;
    });
    socket.destroy();
    const answer = await eventually(async () => {
      const attempt = await withKey('gone-1', body);
      return attempt.status === 409 ? undefined : attempt;
    });
    expect(answer.status).toBe(202);
  });

  it('forgets keys after 24 hours (and purges them)', async () => {
    expect((await withKey('day-1', sendBody(1))).status).toBe(202);
    await server.advance(24 * 60 * 60 * 1000 - 1000);
    expectMessage(await withKey('day-1', sendBody(2)), 409);
    await server.advance(2000);
    const rows = () =>
      (
        server.core.db.prepare("SELECT COUNT(*) AS n FROM email_relay_idempotency WHERE key = 'day-1'").get() as {
          n: number;
        }
      ).n;
    expect(rows()).toBe(0);
    const fresh = await withKey('day-1', sendBody(2));
    expect(fresh.status).toBe(202);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
  });

  it('shares keys and answers with the in-process API', async () => {
    const relay = server.core.emailRelay;
    const body = sendBody(2);
    const http = await withKey('both-1', body);
    const local = await relay.send(ACCOUNT, body, { idempotencyKey: 'both-1' });
    expect({ status: local.status, body: local.body, headers: local.headers }).toEqual({
      status: 202,
      body: http.body,
      headers: { 'Idempotent-Replayed': 'true' },
    });
    expect((await relay.send(ACCOUNT, sendBody(1), { idempotencyKey: 'both-1' })).status).toBe(409);

    const first = await relay.send(ACCOUNT, body, { idempotencyKey: 'both-2' });
    expect(first.status).toBe(202);
    expect(first.headers).toBeUndefined();
    const overHttp = await withKey('both-2', body);
    expect(overHttp.headers.get('idempotent-replayed')).toBe('true');
    expect(overHttp.body).toEqual(first.body);

    expect((await relay.send(ACCOUNT, [body], { idempotencyKey: 'both-3' })).status).toBe(400);
    expect((await relay.send(ACCOUNT, body, { idempotencyKey: 'both-3' })).status).toBe(412);
    expectMessage(await withKey('both-3', body), 412);
    expect((await relay.send(ACCOUNT, body, { idempotencyKey: 'x'.repeat(256) })).status).toBe(400);
  });
});
