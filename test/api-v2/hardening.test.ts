// Hostile traffic on the HTTP transport (issue 13): slow headers and trickled bodies are closed in
// bounded time while /health keeps answering, connections beyond the cap are refused with a 503,
// a 60 MB body of tiny objects without credentials is refused without holding the event loop,
// every 500 is logged with the request id the client got (and no secret), and the malformed-request
// answers keep spec 7 (the outbox's 501, no body on HEAD).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { buildHttpServer, type HttpOptions } from '../../electron/service/http/server';
import { conciseLine, createLogger, LOG_FILE } from '../../electron/service/log';
import { apiCodeMessage } from '../../shared/status';
import { eventually, KEY, post, spawnServe, tempDir, testSeed, type ServeProcess } from '../helpers/server';
import { ATTACKER, slowOpenings, tinyObjectsBody } from '../helpers/attacker';

/**
 * Generous: /health answered within seconds while the server is attacked (a body parsed before its
 * credentials held it about 20 s). The budget, every answer under 100 ms, is measured by
 * `npm run bench -- hostile`: a wall-clock bound that tight fails on a busy machine.
 */
const ANSWERED_WITHIN_MS = 2_000;

interface Running {
  url: string;
  port: number;
  app: FastifyInstance;
  core: Core;
}

const running: Running[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of running.splice(0)) {
    await server.app.close();
    await server.core.close();
  }
});

async function start(options: Omit<HttpOptions, 'core'> = {}): Promise<Running> {
  const core = new Core({ dataDir: tempDir(), startScheduler: false });
  applySeed(core, testSeed());
  const app = await buildHttpServer({ core, ...options });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as net.AddressInfo;
  const server = { url: `http://127.0.0.1:${port}`, port, app, core };
  running.push(server);
  return server;
}

/** A connection that records what the server answered and when the server closed it. */
interface Probe {
  socket: net.Socket;
  answer: () => string;
  closed: Promise<number>;
}

function connect(port: number, first: string | Buffer): Promise<Probe> {
  return new Promise((resolve, reject) => {
    let answer = '';
    let settle: (at: number) => void = () => {};
    const closed = new Promise<number>((done) => (settle = done));
    const socket = net.createConnection({ host: '127.0.0.1', port }, () => {
      socket.write(first);
      resolve({ socket, answer: () => answer, closed });
    });
    sockets.push(socket);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => {});
    socket.on('close', () => settle(Date.now()));
    socket.once('error', reject);
  });
}

/** Writes `bytes` to each socket still open every `everyMs` (a tenth of them at a time), until stopped. */
function trickle(probes: Probe[], bytes: string, everyMs: number): () => void {
  let turn = 0;
  const timer = setInterval(() => {
    for (let i = turn++ % 10; i < probes.length; i += 10) {
      const { socket } = probes[i]!;
      if (!socket.destroyed && socket.writable) socket.write(bytes);
    }
  }, everyMs / 10);
  return () => clearInterval(timer);
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

describe('slow requests', () => {
  it('closes 2,000 slow-header and slow-body connections in bounded time while /health keeps answering', async () => {
    const server = await start({
      limits: { headersTimeoutMs: 4_000, bodyTimeoutMs: 5_000, uploadWindowMs: 5_000, checkIntervalMs: 250 },
    });
    const kinds = slowOpenings(KEY);
    const attacker = spawn(process.execPath, ['-e', ATTACKER, String(server.port), '2000', JSON.stringify(kinds)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const reports: Array<{ opened?: number; open?: number; closed?: number; first?: string }> = [];
    let pending = '';
    attacker.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) reports.push(JSON.parse(line));
    });
    const exited = new Promise<number | null>((resolve) => attacker.on('exit', resolve));
    try {
      // The first fetch of a process loads its HTTP client: not the server's time.
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      const opened = await eventually(() => reports.find((report) => report.opened !== undefined), 30_000);
      const openedAt = Date.now();
      expect(opened.opened).toBe(2_000);

      // While they are held open, /health and a real send are served at once.
      const latencies: number[] = [];
      for (let i = 0; i < 10; i++) {
        const { ms, value } = await timed(() => fetch(`${server.url}/health`).then((r) => r.status));
        expect(value).toBe(200);
        latencies.push(ms);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const send = await post(`${server.url}/v2/sms/send`, {
        message: 'hi',
        sender: '30001111',
        receivers: ['09121234567'],
      });
      expect(send.status).toBe(200);
      const held = reports.at(-1)!;
      console.log(
        `2,000 slow connections; ${held.open} open during the probes; /health: ${latencies.map(Math.round).join(', ')} ms`,
      );
      expect(held.open).toBeGreaterThan(1_900);
      expect(Math.max(...latencies)).toBeLessThan(ANSWERED_WITHIN_MS);

      // Every one is closed by the server: headers after ~4 s, bodies and uploads after ~5 s.
      expect(await exited).toBe(0);
      const closedIn = Date.now() - openedAt;
      console.log(`all closed ${closedIn} ms after the last was opened`);
      expect(closedIn).toBeLessThan(12_000);
      // The slow headers were told why.
      expect(reports.at(-1)!.first).toMatch(/^HTTP\/1\.1 408 /);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      attacker.kill('SIGKILL');
    }
  }, 40_000);

  it("lets go of a request once its body is in, not at the watchdog timer's next sweep", async () => {
    // Held until the sweep, every request of a busy second outlived V8's young generation (issue 34).
    let seen: WeakRef<object> | undefined;
    const server = await start({
      limits: { checkIntervalMs: 600_000 },
      plugins: [
        async (app) => {
          app.post('/probe', async (request) => ((seen = new WeakRef(request.raw)), {}));
        },
      ],
    });
    // A connection of its own, closed after the answer: no socket keeps its last request.
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port: server.port, path: '/probe', method: 'POST', agent: false },
        (response) => response.resume().on('end', () => resolve(response.statusCode!)),
      );
      request.setHeader('content-type', 'application/json');
      request.setHeader('connection', 'close');
      request.on('error', reject).end('{"order":4512}');
    });
    expect(status).toBe(200);
    v8.setFlagsFromString('--expose-gc');
    const collect = vm.runInNewContext('gc') as () => void;
    // A WeakRef's target lives to the end of the turn that read it: collect, then look in a later one.
    await eventually(async () => {
      collect();
      await new Promise((resolve) => setTimeout(resolve, 10));
      return seen!.deref() === undefined ? true : undefined;
    }, 5_000);
  });

  it('holds uploads to a minimum rate instead of the body deadline', async () => {
    const server = await start({
      limits: {
        bodyTimeoutMs: 1_000,
        uploadMinBytesPerSecond: 2_000,
        uploadWindowMs: 500,
        checkIntervalMs: 100,
      },
      plugins: [
        (app) => {
          app.post('/test-only/upload', { config: { upload: true } }, async () => ({ ok: true }));
        },
      ],
    });
    const head = (path: string, length: number) =>
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${KEY}\r\n` +
      `Content-Length: ${length}\r\nConnection: close\r\n\r\n`;
    // 8,000 bytes in 2 s (4,000 bytes/s): twice the body deadline, twice the minimum rate.
    const steady = async (path: string) => {
      const probe = await connect(server.port, head(path, 8_000) + '"');
      let sent = 1;
      const timer = setInterval(() => {
        if (probe.socket.destroyed) return clearInterval(timer);
        const chunk = sent + 200 >= 8_000 ? 'x'.repeat(8_000 - sent - 1) + '"' : 'x'.repeat(200);
        probe.socket.write(chunk);
        sent += chunk.length;
        if (sent >= 8_000) clearInterval(timer);
      }, 50);
      await probe.closed;
      clearInterval(timer);
      return probe.answer();
    };
    expect(await steady('/test-only/upload')).toMatch(/^HTTP\/1\.1 200 /);
    // The same body on an ordinary route: cut at its 1 s deadline, without an answer.
    expect(await steady('/v2/sms/send')).toBe('');

    // A trickle of 100 bytes/s to the upload route is cut after its first window.
    const slow = await connect(server.port, head('/test-only/upload', 8_000) + '"');
    const started = Date.now();
    const stop = trickle([slow], 'xxxxxxxxxx', 100);
    try {
      const closedAt = await slow.closed;
      expect(closedAt - started).toBeLessThan(3_000);
      expect(slow.answer()).toBe('');
    } finally {
      stop();
    }
  }, 20_000);

  it('answers connections beyond the cap 503 and closes them; the freed places serve again', async () => {
    const server = await start({ limits: { maxConnections: 50, headersTimeoutMs: 20_000 } });
    const held = await Promise.all(Array.from({ length: 50 }, () => connect(server.port, 'GET /health HTTP/1.1\r\n')));
    await eventually(
      () =>
        new Promise<true | undefined>((resolve) =>
          server.app.server.getConnections((_error, count) => resolve(count === 50 ? true : undefined)),
        ),
    );
    const refused = await connect(server.port, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    await refused.closed;
    expect(refused.answer()).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(refused.answer()).toMatch(/\r\n\r\n503 too many connections/);

    for (const probe of held.slice(0, 5)) probe.socket.destroy();
    await eventually(async () => {
      const response = await fetch(`${server.url}/health`).catch(() => undefined);
      return response?.status === 200 ? true : undefined;
    });
  });
});

describe('bodies before credentials', () => {
  // The served process itself (npm run serve), so the stall measured is the server's alone: /health
  // is polled every 10 ms while the body goes in, and its slowest answer is the longest the
  // server's event loop was held.
  let served: ServeProcess;
  let port: number;
  beforeAll(async () => {
    const dir = tempDir();
    const seedFile = path.join(dir, 'seed.json');
    fs.writeFileSync(seedFile, JSON.stringify(testSeed()));
    served = await spawnServe({ dataDir: path.join(dir, 'data'), seedFile, env: { CHAPAR_WEB_UI: 'off' } });
    port = Number(new URL(served.url).port);
    // A fresh process answers its first requests slowly (code still cold): not what is measured.
    for (let i = 0; i < 20; i++) {
      await fetch(`${served.url}/health`).then((r) => r.text());
      for (const path of ['/v2/sms/outbox', '/nope', '/v2/sms/send']) await post(`${served.url}${path}`, {}, 'wrong');
    }
  }, 60_000);
  afterAll(async () => {
    await served?.stop('SIGKILL');
  });

  /** The server's resident memory in MB (Linux; 0 elsewhere). */
  function serverRss(): number {
    try {
      const status = fs.readFileSync(`/proc/${served.child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
    } catch {
      return 0;
    }
  }

  /** Sends `body`; the status line, the server's slowest /health meanwhile, and its memory growth. */
  async function refusal(path: string, auth: string, body: Buffer) {
    const rssBefore = serverRss();
    let slowest = 0;
    let maxRss = rssBefore;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const { ms } = await timed(() =>
          fetch(`${served.url}/health`)
            .then((r) => r.text())
            .catch(() => expect.fail(`/health failed:\n${served.output().slice(-2000)}`)),
        );
        slowest = Math.max(slowest, ms);
        maxRss = Math.max(maxRss, serverRss());
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const probe = await connect(
      port,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${auth}Content-Length: ${body.length}\r\n\r\n`,
    );
    try {
      probe.socket.write(body);
      await eventually(() => (probe.answer().includes('\r\n') ? true : undefined), 60_000);
      // Whatever the server still does with the rest of the body happens while /health is polled.
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      probe.socket.destroy();
      polling = false;
      await poll;
    }
    return { status: probe.answer().split('\r\n')[0]!, slowest, grewMb: maxRss - rssBefore };
  }

  it('refuses a 60 MB body of tiny objects without credentials without holding the event loop', async () => {
    // Parsing this once held the server for 20 s and took 1.7 GB.
    const tinyObjects = tinyObjectsBody(60_000_000);
    const cases: Array<[string, string, string, RegExp]> = [
      ['the outbox', '/v2/sms/outbox', '', /^HTTP\/1\.1 501 /],
      ['an unknown path', '/nope', '', /^HTTP\/1\.1 404 /],
      ['send with a wrong key', '/v2/sms/send', 'Authorization: Bearer wrong\r\n', /^HTTP\/1\.1 403 /],
      ['contacts, no key', '/v2/sms/campaigns/contacts', '', /^HTTP\/1\.1 403 /],
      ['send with the key (over 1 MB)', '/v2/sms/send', `Authorization: Bearer ${KEY}\r\n`, /^HTTP\/1\.1 414 /],
    ];
    for (const [what, path, auth, expected] of cases) {
      const { status, slowest, grewMb } = await refusal(path, auth, tinyObjects);
      console.log(
        `${what}: ${status}; slowest /health ${Math.round(slowest)} ms; server RSS +${Math.round(grewMb)} MB`,
      );
      expect(status, what).toMatch(expected);
      expect(slowest, what).toBeLessThan(ANSWERED_WITHIN_MS);
      expect(grewMb, what).toBeLessThan(200);
    }
  }, 120_000);

  it('answers an oversized body to a client that reads its answer late, instead of resetting the connection', async () => {
    // The framework closes a connection whose body it refused unread. Closing it at once, with the
    // client's bytes still arriving, made the kernel reset it, and a client that had not read its
    // 414 yet lost it (CI saw this once under load; a reader 1.5 s late lost it every time).
    const body = tinyObjectsBody(20_000_000);
    for (let i = 0; i < 3; i++) {
      const socket = net.createConnection({ host: '127.0.0.1', port });
      sockets.push(socket);
      await new Promise((resolve) => socket.once('connect', resolve));
      let failed: string | null = null;
      socket.on('error', (error: NodeJS.ErrnoException) => (failed = error.code ?? error.message));
      socket.write(
        `POST /v2/sms/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Authorization: Bearer ${KEY}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      let answer = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (answer += chunk));
      await eventually(() => (answer.includes('\r\n\r\n{') && answer.endsWith('}') ? true : (failed ?? undefined)));
      socket.destroy();
      expect(failed).toBeNull();
      expect(answer).toMatch(/^HTTP\/1\.1 414 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ return: { status: 414 } });
    }
  }, 60_000);

  it('refuses a body of too many values on the contact upload by its shape, before parsing it', async () => {
    const body = tinyObjectsBody(39_000_000); // under the route's 48 MB
    const { status, slowest, grewMb } = await refusal(
      '/v2/sms/campaigns/contacts',
      `Authorization: Bearer ${KEY}\r\n`,
      body,
    );
    console.log(
      `contacts with the key: ${status}; slowest /health ${Math.round(slowest)} ms; RSS +${Math.round(grewMb)} MB`,
    );
    expect(status).toMatch(/^HTTP\/1\.1 414 /);
    expect(slowest).toBeLessThan(ANSWERED_WITHIN_MS);
  }, 60_000);

  it('takes a real 100,000-contact upload of ten columns without holding the event loop', async () => {
    // About 29 MB: its JSON.parse alone held the main thread about 360 ms; it is parsed, checked and
    // written in the import worker now.
    const columns = ['NAME', 'CITY', 'STREET', 'SHOP', 'NOTE', 'TIER', 'CODE', 'AGENT', 'BRANCH', 'REGION'];
    const contacts = Array.from({ length: 100_000 }, (_, i) => {
      const contact: Record<string, string> = { phone_number: `0912${String(i).padStart(7, '0')}` };
      for (const column of columns) contact[column] = `مشتری ${column} ${i}`;
      return contact;
    });
    const body = Buffer.from(JSON.stringify(contacts));
    const { status, slowest } = await refusal('/v2/sms/campaigns/contacts', `Authorization: Bearer ${KEY}\r\n`, body);
    console.log(
      `100,000 contacts (${(body.length / 1e6).toFixed(1)} MB): ${status}; slowest /health ${Math.round(slowest)} ms`,
    );
    expect(status).toMatch(/^HTTP\/1\.1 201 /);
    expect(slowest).toBeLessThan(ANSWERED_WITHIN_MS);
    const done = await eventually(async () => {
      const answer = await fetch(`${served.url}/v2/sms/campaigns/contacts/1`, {
        headers: { authorization: `Bearer ${KEY}` },
      }).then((r) => r.json() as Promise<{ entries: { status: string; valid: number } }>);
      return answer.entries.status === 'PROCESSING' ? undefined : answer.entries;
    }, 60_000);
    expect(done).toMatchObject({ status: 'COMPLETED', valid: 100_000 });
  }, 120_000);

  it('refuses a large upload by the rules of spec 4.4 from the worker, with their codes', async () => {
    const upload = (contacts: unknown) =>
      post(`${served.url}/v2/sms/campaigns/contacts`, contacts, KEY).then((r) => r.status);
    const many = (n: number, extra: (i: number) => Record<string, unknown> = () => ({})) =>
      Array.from({ length: n }, (_, i) => ({
        phone_number: `0912${String(i).padStart(7, '0')}`,
        NAME: 'x'.repeat(40),
        ...extra(i),
      }));
    // Each over the quarter megabyte that sends a body to the worker.
    expect(await upload(many(100_001))).toBe(414);
    expect(await upload(many(10_000, (i) => (i === 7_000 ? { NAME: 5 } : {})))).toBe(400);
    expect(await upload(many(10_000, (i) => (i === 7_000 ? { CITY: 'x' } : {})))).toBe(400);
    expect(await upload([{ phone_number: '09120000000', name: 'x'.repeat(300_000) }])).toBe(400);
    const broken = Buffer.from(`[${JSON.stringify(many(10_000)).slice(1, -2)}`);
    const probe = await connect(
      port,
      `POST /v2/sms/campaigns/contacts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${KEY}\r\nContent-Length: ${broken.length}\r\n\r\n`,
    );
    probe.socket.write(broken);
    await eventually(() => (probe.answer().includes('\r\n') ? true : undefined), 30_000);
    expect(probe.answer().split('\r\n')[0]).toMatch(/^HTTP\/1\.1 400 /);
    probe.socket.destroy();
  }, 60_000);
});

describe('logging', () => {
  const boom = (app: FastifyInstance) => {
    app.post('/test-only/boom', async () => {
      throw new Error('disk on fire');
    });
  };

  it('logs every 500 with the request id the client got, and no key, token, cookie or text', async () => {
    const dir = tempDir();
    const server = await start({ logger: createLogger({ kind: 'file', dir }), plugins: [boom] });
    const response = await fetch(`${server.url}/test-only/boom?token=start-token-secret`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEY}`,
        cookie: 'chapar_token=cookie-secret',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ message: 'a private text 42', sender: '30001111' }),
    });
    expect(response.status).toBe(500);
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f]{12}$/);

    const file = path.join(dir, LOG_FILE);
    const line = await eventually(() => {
      if (!fs.existsSync(file)) return undefined;
      return fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((text) => JSON.parse(text) as Record<string, any>)
        .find((record) => record['reqId'] === id);
    });
    expect(line['level']).toBe(50);
    expect(line['err'].message).toBe('disk on fire');
    expect(line['req']).toEqual({ id, method: 'POST', path: '/test-only/boom' });
    const text = fs.readFileSync(file, 'utf8');
    for (const secret of [KEY, 'start-token-secret', 'cookie-secret', 'a private text 42'])
      expect(text).not.toContain(secret);
  });

  it('gives every answer an x-request-id, each its own', async () => {
    const server = await start();
    const ids = new Set<string | null>();
    for (const [path, method] of [
      ['/health', 'GET'],
      ['/nope', 'GET'],
      ['/v2/sms/send', 'POST'],
      ['/v2/sms/outbox', 'POST'],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, { method });
      ids.add(response.headers.get('x-request-id'));
    }
    expect(ids.size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{12}$/);
  });

  it('writes one concise console line per event, with the request id and the stack under it', () => {
    const line = conciseLine({
      level: 50,
      time: Date.UTC(2026, 0, 1, 12, 0, 1),
      reqId: 'a1b2c3d4e5f6',
      req: { id: 'a1b2c3d4e5f6', method: 'POST', path: '/v2/sms/send' },
      err: { type: 'Error', message: 'disk on fire', stack: 'Error: disk on fire\n    at send (send.ts:1:1)' },
      msg: 'unexpected error',
    });
    expect(line).toBe(
      '12:00:01 ERROR [req a1b2c3d4e5f6] POST /v2/sms/send: unexpected error (disk on fire)\n  at send (send.ts:1:1)\n',
    );
  });
});

describe('malformed requests (spec 7)', () => {
  it('the outbox stays 501 {"error":"not implemented yet"} with headers over 16 KB; other paths 400', async () => {
    const server = await start();
    const big = `X-Big: ${'a'.repeat(20 * 1024)}\r\n`;
    const outbox = await connect(server.port, `POST /v2/sms/outbox HTTP/1.1\r\nHost: x\r\n${big}\r\n`);
    await outbox.closed;
    const [head, body] = outbox.answer().split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 501 /);
    expect(JSON.parse(body!)).toEqual({ error: 'not implemented yet' });

    const send = await connect(server.port, `POST /v2/sms/send HTTP/1.1\r\nHost: x\r\n${big}\r\n`);
    await send.closed;
    const [sendHead, sendBody] = Buffer.from(send.answer(), 'latin1').toString('utf8').split('\r\n\r\n');
    expect(sendHead).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(sendBody!)).toEqual({ return: { status: 400, message: apiCodeMessage[400] }, entries: [] });
  });

  it('answers a malformed HEAD request without a body', async () => {
    const server = await start();
    const probe = await connect(server.port, 'HEAD /v2/sms/send HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n');
    await probe.closed;
    const [head, body] = probe.answer().split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(body).toBe('');
  });
});
