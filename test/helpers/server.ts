// Test servers: the real core over a real SQLite file in a temp folder, the real HTTP server on a
// free loopback port. `startServer` runs in-process (a manual clock is possible); `spawnServe`
// runs `npm run serve` itself as a child process, for restart and signal tests.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Core, type CoreOptions } from '../../electron/service/core';
import type { Clock } from '../../electron/service/clock';
import { applySeed, type Seed } from '../../electron/service/seed';
import { buildHttpServer, type HttpOptions } from '../../electron/service/http/server';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const KEY = 'k-acme-1';
export const OTHER_KEY = 'k-other-1';
export const INACTIVE_KEY = 'k-sleepy-1';

/** PRODUCT.md's example seed plus a second account and an inactive one; fast simulator. */
export function testSeed(overrides: Partial<Seed> = {}): Seed {
  return {
    accounts: [
      {
        name: 'acme',
        active: true,
        credit_rials: 10_000_000,
        api_keys: [KEY],
        ip_allowlist: ['127.0.0.1'],
        lines: [
          { number: '30001111', provider: 'sms', permissions: ['can_send_api_campaign', 'can_send_panel_campaign'] },
          { number: '30002222', provider: 'sms', permissions: ['can_send_panel_campaign'] },
          { number: 'bale_acme_bot', provider: 'bale', permissions: ['can_send_api_campaign'] },
          { number: 'rubika_acme', provider: 'rubika', permissions: ['can_send_api_campaign'] },
        ],
      },
      {
        name: 'other',
        credit_rials: 1_000_000,
        api_keys: [OTHER_KEY],
        lines: [{ number: '30009999', provider: 'sms', permissions: ['can_send_api_campaign'] }],
      },
      { name: 'sleepy', active: false, credit_rials: 1_000_000, api_keys: [INACTIVE_KEY], lines: [] },
    ],
    pricing: { sms_page_tomans: 150, messenger_message_tomans: 50 },
    simulator: {
      seed: 7,
      handoff_ms: 20,
      delivery_ms: 40,
      outcomes: { '10': 0.85, '11': 0.08, '13': 0.03, '14': 0.04 },
    },
    ...overrides,
  };
}

export function tempDir(prefix = 'chapar-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface TestServer {
  url: string;
  core: Core;
  app: FastifyInstance;
  dataDir: string;
  close(): Promise<void>;
}

export async function startServer(
  options: {
    seed?: Seed;
    clock?: Clock;
    dataDir?: string;
    startScheduler?: boolean;
    /** The scheduler's flood thresholds (jobs/scheduler.ts). */
    giveWay?: CoreOptions['giveWay'];
    /** Route plugins beside the API (the web UI and its bridge), made for the started core. */
    plugins?: (core: Core) => HttpOptions['plugins'];
  } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir();
  const core = new Core({
    dataDir,
    clock: options.clock,
    startScheduler: options.startScheduler,
    giveWay: options.giveWay,
  });
  applySeed(core, options.seed ?? testSeed());
  const app = await buildHttpServer({ core, plugins: options.plugins?.(core) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  core.setLocalAddress(`http://127.0.0.1:${address.port}`);
  return {
    url: `http://127.0.0.1:${address.port}`,
    core,
    app,
    dataDir,
    async close() {
      await app.close();
      await core.close();
    },
  };
}

/** A stand-in for the built renderer (an index page and one asset) for the web UI to serve. */
export function stubRendererBuild(dir: string): string {
  const rendererDir = path.join(dir, 'renderer-build');
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(rendererDir, 'index.html'),
    '<!doctype html><title>Chapar</title><script type="module" src="./assets/app.js"></script>',
  );
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log("chapar")');
  return rendererDir;
}

/** POST a JSON body (or a raw string) with a Bearer key; returns status and parsed body. */
export async function post(
  url: string,
  body: unknown,
  key: string | null = KEY,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text };
}

/**
 * POSTs `body` over `agent`'s connections (kept alive, as a program's HTTP client keeps them, where
 * fetch would use a pool of its own): the status and the text of the answer.
 */
export function postOn(
  agent: http.Agent,
  url: string,
  path: string,
  body: string,
  headers: http.OutgoingHttpHeaders,
): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: hostname,
        port,
        path,
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface ServeProcess {
  url: string;
  /** The web UI's address with its start token (`webUi: true`). */
  webUrl?: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Resolves once the child process has exited (at once if it has, even by a signal, whose 'exit'
 * came before this call): its exit code, null when a signal ended it.
 */
export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (hasExited(child)) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
  });
}

/**
 * Runs the headless command from its sources (serve.ts under tsx) and waits for its URL line; with
 * `webUi`, also for the `web UI: http://…/?token=…` line (returned as `webUrl`). With `buildDir`,
 * as `npm run serve` runs it: electron/cli/serve.mjs, from a build of it kept in that folder (made
 * there first when missing or stale).
 */
export async function spawnServe(args: {
  dataDir: string;
  seedFile?: string;
  port?: number;
  webUi?: boolean;
  env?: NodeJS.ProcessEnv;
  buildDir?: string;
}): Promise<ServeProcess> {
  const argv = [
    ...(args.buildDir ? [] : ['--import', 'tsx']),
    path.join(ROOT, args.buildDir ? 'electron/cli/serve.mjs' : 'electron/cli/serve.ts'),
    '--host',
    '127.0.0.1',
    '--port',
    String(args.port ?? 0),
    '--data',
    args.dataDir,
  ];
  if (args.seedFile) argv.push('--seed', args.seedFile);
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...(args.buildDir ? { CHAPAR_SERVE_BUILD: args.buildDir } : {}), ...args.env },
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  let webUrl: string | undefined;
  const url = await new Promise<string>((resolve, reject) => {
    // A first start may build the web UI before listening: allow for it. One that never does is
    // killed, and the caller hears of it once it has exited: it writes into dataDir no more.
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        child.kill('SIGKILL');
      },
      args.webUi ? 120_000 : 30_000,
    );
    const check = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output) ?? /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      const web = /web UI: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output);
      if (match && (!args.webUi || web)) {
        clearTimeout(timer);
        webUrl = web?.[1];
        resolve(match[1] ?? match[0]);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(timedOut ? `serve did not start:\n${output}` : `serve exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    webUrl,
    child,
    output: () => output,
    stop(signal: NodeJS.Signals = 'SIGTERM') {
      // Already ended (by an earlier stop, SIGKILL included: its exitCode stays null, and 'exit' was
      // emitted before this call): nothing to wait for.
      if (hasExited(child)) return Promise.resolve(child.exitCode);
      const done = exited(child);
      child.kill(signal);
      return done;
    },
  };
}

/** Polls until `check` returns a value (not undefined), at short intervals, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
