// hostile: how long /health waits while the server is attacked (issue 13's budgets, which
// test/api-v2/hardening.test.ts and test/web-security.test.ts asserted before the suite kept only a
// generous bound). Each attack is timed with /health polled beside it, its slowest answer reported:
// - slow: 2,000 slow-header and slow-body connections held open by a process of their own
//   (test/helpers/attacker.ts), /health probed 10 times while they are open;
// - a 60 MB body of tiny JSON objects to the outbox, an unknown path, the send with a wrong key,
//   the contact upload without a key and the send with the key (over its 1 MB), a 39 MB one to the
//   contact upload with the key (refused by its shape), and a real 100,000-contact upload of ten
//   columns, each to the served process (`npm run serve`, so the stall is the server's alone; its
//   RSS growth is reported too);
// - bridge: a 60 MB body to the web bridge without its token (in this process: the event loop's
//   longest hold is reported too).
// Next to the floor measured in the same run: /health's slowest answer of as many polls with the
// served process idle. `ms` is the slowest answer under any attack. CHAPAR_BENCH_HOSTILE_SCALE=0.05
// sends a twentieth of every body and opens a twentieth of the connections (a quick check that the
// case runs; its figures are not the budget's).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { buildHttpServer, type HttpOptions } from '../../electron/service/http/server';
import { webUiPlugin } from '../../electron/cli/web/bridge';
import { eventually, KEY, spawnServe, tempDir, testSeed, type ServeProcess } from '../../test/helpers/server';
import { ATTACKER, slowOpenings, tinyObjectsBody } from '../../test/helpers/attacker';
import type { BenchCase } from '../case';

const SCALE = Number(process.env.CHAPAR_BENCH_HOSTILE_SCALE ?? 1);
const size = (n: number) => Math.max(1_000, Math.round(n * SCALE));
const CONNECTIONS = Math.max(80, Math.round(2_000 * SCALE));
const CONTACTS = Math.max(100, Math.round(100_000 * SCALE));
const POLL_EVERY_MS = 10;
const TOKEN = 'bench-hostile-token-0123456789ab';

/** The slowest of `call`'s round trips, repeated `everyMs` apart while `work` runs. */
async function slowestDuring(call: () => Promise<unknown>, everyMs: number, work: () => Promise<void>) {
  let slowest = 0;
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const started = performance.now();
      await call();
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  try {
    await work();
  } finally {
    polling = false;
    await poll;
  }
  return slowest;
}

const health = (url: string) => () => fetch(`${url}/health`).then((r) => r.text());

let servers = 0;
/** A server in this process, on a loopback port, over a seeded workspace of its own. */
async function inProcess(dir: string, options: (core: Core) => Omit<HttpOptions, 'core'>) {
  const core = new Core({ dataDir: path.join(dir, `in-process-${servers++}`), startScheduler: false });
  applySeed(core, testSeed());
  const app: FastifyInstance = await buildHttpServer({ core, ...options(core) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      await app.close();
      await core.close();
    },
  };
}

/** 2,000 slow connections from a process of their own; /health probed 10 times while they are open. */
async function slowConnections(dir: string): Promise<number> {
  const server = await inProcess(dir, () => ({
    limits: { headersTimeoutMs: 4_000, bodyTimeoutMs: 5_000, uploadWindowMs: 5_000, checkIntervalMs: 250 },
  }));
  const attacker = spawn(
    process.execPath,
    ['-e', ATTACKER, String(server.port), String(CONNECTIONS), JSON.stringify(slowOpenings(KEY))],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((resolve) => attacker.on('exit', resolve));
  try {
    let opened = false;
    attacker.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('"opened"')) opened = true;
    });
    // The first fetch of a process loads its HTTP client: not the server's time.
    await health(server.url)();
    await eventually(() => (opened ? true : undefined), 30_000);
    let slowest = 0;
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      await health(server.url)();
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Every connection is closed by the server in bounded time (the test checks how).
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    return slowest;
  } finally {
    attacker.kill('SIGKILL');
    await server.close();
  }
}

/** The served process's resident memory in MB (Linux; 0 elsewhere). */
function rssMb(served: ServeProcess): number {
  try {
    const status = fs.readFileSync(`/proc/${served.child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
  } catch {
    return 0;
  }
}

/** `body` sent to `route` of the served process; /health's slowest meanwhile and its RSS growth. */
async function refusal(served: ServeProcess, route: string, auth: string, body: Buffer) {
  const before = rssMb(served);
  let peak = before;
  let status = '';
  const slowest = await slowestDuring(
    async () => {
      await health(served.url)();
      peak = Math.max(peak, rssMb(served));
    },
    POLL_EVERY_MS,
    async () => {
      const socket = net.createConnection({ host: '127.0.0.1', port: Number(new URL(served.url).port) });
      let answer = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('error', () => {});
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST ${route} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${auth}Content-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body);
      try {
        await eventually(() => (answer.includes('\r\n') ? true : undefined), 60_000);
        // Whatever the server still does with the rest of the body happens while /health is polled.
        await new Promise((resolve) => setTimeout(resolve, 500));
      } finally {
        socket.destroy();
      }
      status = answer.split('\r\n')[0]!;
    },
  );
  return { status, slowest, grewMb: peak - before };
}

/** A 60 MB body to the bridge without its token, in this process: /health's slowest, the loop's longest hold. */
async function bridge(dir: string): Promise<{ slowest: number; loopMaxMs: number }> {
  const server = await inProcess(dir, (core) => ({
    plugins: [webUiPlugin({ core, token: TOKEN, rendererDir: null, url: () => null })],
  }));
  try {
    await health(server.url)();
    const body = tinyObjectsBody(size(60_000_000));
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const slowest = await slowestDuring(health(server.url), 20, async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port: server.port,
            method: 'POST',
            path: '/bridge/invoke/x',
            headers: { 'content-type': 'application/json' },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode!));
          },
        );
        request.on('error', reject);
        request.end(body);
      });
      if (status !== 401) throw new Error(`the bridge answered ${status} without its token`);
    });
    loop.disable();
    return { slowest, loopMaxMs: loop.max / 1e6 };
  } finally {
    await server.close();
  }
}

const hostile: BenchCase = {
  name: 'hostile',
  async run() {
    const dir = tempDir('chapar-bench-hostile-');
    const seedFile = path.join(dir, 'seed.json');
    fs.writeFileSync(seedFile, JSON.stringify(testSeed()));
    let served: ServeProcess | undefined;
    try {
      const slow = await slowConnections(dir);
      const bridged = await bridge(dir);

      served = await spawnServe({ dataDir: path.join(dir, 'served'), seedFile, env: { CHAPAR_WEB_UI: 'off' } });
      const url = served.url;
      // A fresh process answers its first requests slowly (code still cold): not what is measured.
      for (let i = 0; i < 20; i++) {
        await health(url)();
        for (const route of ['/v2/sms/outbox', '/nope', '/v2/sms/send'])
          await fetch(`${url}${route}`, { method: 'POST', body: '{}', headers: { authorization: 'Bearer wrong' } });
      }
      const idle = await slowestDuring(health(url), POLL_EVERY_MS, () => new Promise((r) => setTimeout(r, 3_000)));

      const tinyObjects = tinyObjectsBody(size(60_000_000));
      const withKey = `Authorization: Bearer ${KEY}\r\n`;
      const columns = ['NAME', 'CITY', 'STREET', 'SHOP', 'NOTE', 'TIER', 'CODE', 'AGENT', 'BRANCH', 'REGION'];
      const contacts = Buffer.from(
        JSON.stringify(
          Array.from({ length: CONTACTS }, (_, i) => {
            const contact: Record<string, string> = { phone_number: `0912${String(i).padStart(7, '0')}` };
            for (const column of columns) contact[column] = `مشتری ${column} ${i}`;
            return contact;
          }),
        ),
      );
      const attacks: Array<[string, string, string, Buffer, RegExp]> = [
        ['outbox', '/v2/sms/outbox', '', tinyObjects, / 501 /],
        ['unknown path', '/nope', '', tinyObjects, / 404 /],
        ['send, wrong key', '/v2/sms/send', 'Authorization: Bearer wrong\r\n', tinyObjects, / 403 /],
        ['contacts, no key', '/v2/sms/campaigns/contacts', '', tinyObjects, / 403 /],
        ['send, over 1 MB', '/v2/sms/send', withKey, tinyObjects, / 414 /],
        ['contacts by shape', '/v2/sms/campaigns/contacts', withKey, tinyObjectsBody(size(39_000_000)), / 414 /],
        ['100,000 contacts', '/v2/sms/campaigns/contacts', withKey, contacts, / 201 /],
      ];
      const extra: Record<string, number | string> = {
        'slow connections /health max ms': Math.round(slow),
        'bridge /health max ms': Math.round(bridged.slowest),
        'bridge loop held max ms': Math.round(bridged.loopMaxMs),
      };
      let worst = Math.max(slow, bridged.slowest);
      let grew = 0;
      for (const [what, route, auth, body, expected] of attacks) {
        const { status, slowest, grewMb } = await refusal(served, route, auth, body);
        if (!expected.test(status)) throw new Error(`${what}: answered ${status}`);
        extra[`${what} /health max ms`] = Math.round(slowest);
        worst = Math.max(worst, slowest);
        grew = Math.max(grew, grewMb);
      }
      extra['served RSS growth max MB'] = Math.round(grew);
      if (SCALE !== 1) extra.scale = SCALE;
      return {
        name: 'hostile',
        ms: worst,
        floorMs: idle,
        ratio: worst / idle,
        target: '/health < 100 ms under every attack; the bridge holds the loop < 100 ms; RSS growth < 200 MB',
        extra,
      };
    } finally {
      await served?.stop('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default hostile;
