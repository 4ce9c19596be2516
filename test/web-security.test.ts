// The web bridge's defences: credentials checked before a body is read (a 60 MB body of tiny JSON
// objects without the token is refused at once, the event loop and the heap untouched), the bridge's
// own body limit, the Host header check against DNS rebinding, JSON-only invokes, no cookie-only
// state change without an Origin, and the session cookie (not the token; expires; rotated by "sign
// out other browsers"). Real core, real HTTP on a loopback port.
import fs from 'node:fs';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../electron/service/core';
import { BRIDGE_BODY_LIMIT_BYTES, webUiPlugin } from '../electron/cli/web/bridge';
import { startServer, stubRendererBuild, tempDir, type TestServer } from './helpers/server';

const TOKEN = 'security-token-0123456789abcdef';
/** The address the server was started for besides loopback (as with --host). */
const CONFIGURED_HOST = '192.0.2.10';
const LIFETIME_MS = 60_000;
let now = Date.now();
let server: TestServer;
let core: Core;
let port: number;
let account: number;

beforeAll(async () => {
  const dataDir = tempDir('chapar-security-');
  const rendererDir = stubRendererBuild(dataDir);
  server = await startServer({
    dataDir,
    plugins: (started) => [
      webUiPlugin({
        core: started,
        token: TOKEN,
        host: CONFIGURED_HOST,
        rendererDir,
        url: () => null,
        sessionLifetimeMs: LIFETIME_MS,
        now: () => now,
      }),
    ],
  });
  core = server.core;
  port = Number(new URL(server.url).port);
  account = core.accounts.findByName('acme')!.id;
});
afterAll(async () => {
  await server.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A request with any headers (fetch cannot set Host), its body a string or a Buffer. */
function request(
  method: string,
  pathAndQuery: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: pathAndQuery, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const json = { 'content-type': 'application/json' };
const bearer = { authorization: `Bearer ${TOKEN}` };
const sameOrigin = () => ({ origin: `http://127.0.0.1:${port}` });

/** Signs in as a browser does (the printed ?token= URL): the session cookie, `name=value`. */
async function signIn(): Promise<string> {
  const answer = await request('GET', `/?token=${TOKEN}`);
  expect(answer.status).toBe(302);
  const setCookie = String(answer.headers['set-cookie']?.[0] ?? '');
  return setCookie.split(';')[0]!;
}

async function invokeAs(cookie: string, channel = 'accounts:list', body = 'null'): Promise<Answer> {
  return request('POST', `/bridge/invoke/${channel}`, { ...json, ...sameOrigin(), cookie }, body);
}

describe('a huge body without credentials', () => {
  it('is refused before it is read: 401, the event loop free and the heap flat', async () => {
    // 60 MB of 20 million empty objects: parsed first, this froze the server for about 19 s.
    const body = Buffer.concat([Buffer.from('['), Buffer.alloc(20_000_000 * 3, '{},'), Buffer.from('{}]')]);
    globalThis.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let slowestHealth = 0;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const started = performance.now();
        await request('GET', '/health');
        slowestHealth = Math.max(slowestHealth, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const started = performance.now();
    const answer = await request('POST', '/bridge/invoke/x', json, body);
    const took = performance.now() - started;
    polling = false;
    await poll;
    delay.disable();
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    console.log(
      `60 MB without a token: ${answer.status} in ${took.toFixed(0)} ms; slowest /health ` +
        `${slowestHealth.toFixed(0)} ms; event loop delay max ${(delay.max / 1e6).toFixed(0)} ms; ` +
        `heap +${(heapGrowth / 1e6).toFixed(0)} MB`,
    );
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.text)).toMatchObject({ ok: false, error: { code: 401 } });
    // Generous: parsed first, the body held the loop about 19 s. The budget (both under 100 ms) is
    // measured by `npm run bench -- hostile`: a wall-clock bound that tight fails on a busy machine.
    expect(delay.max / 1e6).toBeLessThan(2_000);
    expect(slowestHealth).toBeLessThan(2_000);
    expect(heapGrowth).toBeLessThan(100 * 1024 * 1024);
  }, 60_000);

  it('is refused on the upload routes too', async () => {
    const body = Buffer.alloc(8 * 1024 * 1024, 'x');
    const octet = { 'content-type': 'application/octet-stream' };
    expect((await request('POST', '/bridge/backups', octet, body)).status).toBe(401);
    expect((await request('POST', '/bridge/uploads?name=a.csv', octet, body)).status).toBe(401);
    expect(fs.readdirSync(core.dataDir)).not.toContain('uploads');
  });
});

describe('the bridge’s body limit', () => {
  it('takes a compose of 100,000 pasted receivers, and refuses a larger body with 413', async () => {
    // The largest legitimate input: 100,000 numbers pasted in the longest common form (Persian
    // digits, +98 and spaces), one a line.
    const persian = (n: number) => String(n).replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]!);
    const lines = Array.from({ length: 100_000 }, (_, i) => `+۹۸ ۹۱۲ ${persian(10_000_000 + i).slice(1)}`);
    const input = JSON.stringify({
      account_id: account,
      sender: '30001111',
      message: 'سلام '.repeat(200),
      receivers_text: lines.join('\n'),
    });
    expect(Buffer.byteLength(input)).toBeLessThan(BRIDGE_BODY_LIMIT_BYTES);
    const preview = await request('POST', '/bridge/invoke/compose:preview', { ...json, ...bearer }, input);
    expect(preview.status).toBe(200);
    expect(JSON.parse(preview.text)).toMatchObject({ ok: true, value: { receivers: { total: 100_000 } } });

    const tooLarge = await request(
      'POST',
      '/bridge/invoke/compose:preview',
      { ...json, ...bearer },
      JSON.stringify({ receivers_text: 'x'.repeat(BRIDGE_BODY_LIMIT_BYTES) }),
    );
    expect(tooLarge.status).toBe(413);
    // The API's "too many at once", which the UI words as "send in smaller parts".
    expect(JSON.parse(tooLarge.text)).toMatchObject({ ok: false, error: { code: 414 } });
  }, 30_000);
});

describe('the Host header', () => {
  it('answers the page, the assets and the bridge only for the names it was started for', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${CONFIGURED_HOST}:${port}`]) {
      expect((await request('GET', '/assets/app.js', { host })).status).toBe(200);
      expect((await request('GET', '/', { host })).status).toBe(401);
      expect((await request('POST', '/bridge/invoke/accounts:list', { host, ...json, ...bearer }, 'null')).status).toBe(
        200,
      );
    }
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `[::2]:${port}`]) {
      const page = await request('GET', `/?token=${TOKEN}`, { host });
      expect(page.status).toBe(421);
      expect(page.headers['content-type']).toMatch(/^text\/plain/);
      expect(page.headers['set-cookie']).toBeUndefined();
      expect((await request('GET', '/index.html', { host })).status).toBe(421);
      expect((await request('GET', '/assets/app.js', { host })).status).toBe(421);
      expect((await request('POST', '/bridge/invoke/accounts:list', { host, ...json, ...bearer }, 'null')).status).toBe(
        421,
      );
      expect((await request('GET', '/bridge/events', { host, ...bearer })).status).toBe(421);
    }
  });

  it('leaves the API routes alone', async () => {
    const host = 'evil.example';
    expect((await request('GET', '/health', { host })).status).toBe(200);
    const sent = await request(
      'POST',
      '/v2/sms/send',
      { host, ...json, authorization: 'Bearer k-acme-1' },
      JSON.stringify({ message: 'hi', sender: '30001111', receivers: ['09121234567'] }),
    );
    expect(sent.status).toBe(200);
    expect((await request('GET', '/no/such/path', { host })).text).toBe('404 page not found');
  });
});

describe('invokes', () => {
  it('take only application/json', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const answer = await request('POST', '/bridge/invoke/accounts:list', { 'content-type': type, ...bearer }, 'null');
      expect(answer.status).toBe(415);
      expect(JSON.parse(answer.text)).toMatchObject({ ok: false, error: { code: 400 } });
    }
    const none = await request('POST', '/bridge/invoke/accounts:list', bearer, 'null');
    expect(none.status).toBe(415);
    const charset = { 'content-type': 'application/json; charset=utf-8', ...bearer };
    expect((await request('POST', '/bridge/invoke/accounts:list', charset, 'null')).status).toBe(200);
  });

  it('are guarded however their path is written', async () => {
    for (const written of [
      '/%62ridge/invoke/accounts:list',
      '/bridge/invoke/accounts:list/',
      '/bridge/%69nvoke/accounts:list',
    ])
      expect((await request('POST', written, json, 'null')).status).toBeOneOf([401, 404]);
  });

  it('refuse a change with the cookie but no Origin, unless the bearer token comes with it', async () => {
    const cookie = await signIn();
    const noOrigin = await request('POST', '/bridge/invoke/accounts:list', { ...json, cookie }, 'null');
    expect(noOrigin.status).toBe(403);
    expect(JSON.parse(noOrigin.text)).toMatchObject({ ok: false, error: { code: 403 } });
    expect((await invokeAs(cookie)).status).toBe(200);
    expect((await request('POST', '/bridge/invoke/accounts:list', { ...json, ...bearer }, 'null')).status).toBe(200);
    const crossSite = { ...json, cookie, origin: 'http://evil.example' };
    expect((await request('POST', '/bridge/invoke/accounts:list', crossSite, 'null')).status).toBe(403);
    // Reading (the event stream, downloads) needs no Origin: browsers send none on a GET.
    const events = http.get({ host: '127.0.0.1', port, path: '/bridge/events', headers: { cookie } });
    const status = await new Promise<number>((resolve) => events.on('response', (res) => resolve(res.statusCode!)));
    events.destroy();
    expect(status).toBe(200);
  });
});

describe('the session cookie', () => {
  it('is not the token, and is HttpOnly, SameSite=Strict and expiring', async () => {
    const answer = await request('GET', `/?token=${TOKEN}`);
    const setCookie = String(answer.headers['set-cookie']);
    expect(setCookie).not.toContain(TOKEN);
    expect(setCookie).toMatch(/^chapar_session=\d+\.[\w-]{12}\.[\w-]{43};/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toContain(`Max-Age=${LIFETIME_MS / 1000}`);
    // The token itself as a cookie opens nothing.
    expect((await invokeAs(`chapar_session=${TOKEN}`)).status).toBe(401);
    expect((await invokeAs(`chapar_token=${TOKEN}`)).status).toBe(401);
  });

  it('signs out every other browser on rotation; the one that asked stays signed in', async () => {
    const mine = await signIn();
    const other = await signIn();
    expect((await invokeAs(other)).status).toBe(200);
    const rotated = await request('POST', '/bridge/session/rotate', { ...sameOrigin(), cookie: mine });
    expect(rotated.status).toBe(200);
    const fresh = String(rotated.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
    expect(fresh).toMatch(/^chapar_session=/);
    expect(fresh).not.toBe(mine);

    const refused = await invokeAs(other);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text)).toMatchObject({ ok: false, error: { code: 401, reason: 'signed_out' } });
    expect((await request('GET', '/', { cookie: other })).status).toBe(401);
    expect((await request('GET', '/bridge/session', { cookie: other })).status).toBe(401);
    expect((await invokeAs(mine)).status).toBe(401);
    expect((await invokeAs(fresh)).status).toBe(200);
    expect((await request('GET', '/', { cookie: fresh })).status).toBe(200);
    expect((await request('GET', '/bridge/session', { cookie: fresh })).status).toBe(204);
    // The printed address signs a browser in again; the token itself still opens the bridge.
    expect((await invokeAs(await signIn())).status).toBe(200);
    expect((await request('POST', '/bridge/invoke/accounts:list', { ...json, ...bearer }, 'null')).status).toBe(200);
  });

  it('ends the event streams of the browsers signed out', async () => {
    const mine = await signIn();
    const other = await signIn();
    const open = (cookie: string) =>
      new Promise<http.IncomingMessage>((resolve) =>
        http.get({ host: '127.0.0.1', port, path: '/bridge/events', headers: { cookie } }, resolve),
      );
    const [myStream, otherStream] = await Promise.all([open(mine), open(other)]);
    const otherEnded = new Promise((resolve) => otherStream.on('end', resolve).resume());
    myStream.resume();
    expect((await request('POST', '/bridge/session/rotate', { ...sameOrigin(), cookie: mine })).status).toBe(200);
    await otherEnded;
    expect(myStream.complete).toBe(false);
    myStream.destroy();
  });

  it('expires after its lifetime', async () => {
    const cookie = await signIn();
    now += LIFETIME_MS - 1000;
    expect((await invokeAs(cookie)).status).toBe(200);
    now += 2000;
    expect((await invokeAs(cookie)).status).toBe(401);
    expect((await request('GET', '/', { cookie })).status).toBe(401);
    expect((await invokeAs(await signIn())).status).toBe(200);
  });
});
