// Issue #4's acceptance line: the UI's calls stay quick while the core accepts 200,000 messages;
// and issue #3's: the process stays responsive while a spreadsheet is imported.
// One process holds the core, its gateway and the web bridge on a real loopback socket, as the
// desktop app's main process does. Twenty 10,000-receiver panel sends go in over the bridge while
// a stream of round trips (credit:balance every 5 ms, the dashboard refreshing beside it) measures
// how long a UI call waits, until the gateway has moved every message to a final status. The same
// during an import (whose commits run on the same thread), a campaign and the wizard's import.
// The budgets (round trips' p99 under 100 ms, the event loop held under 100 ms at once) are
// measured by `npm run bench -- responsive`: a wall-clock bound that tight fails on a busy machine
// for no fault of the code. Here the bound is generous: the UI keeps being answered within seconds
// (a call queued behind the whole import or campaign would take far longer), and the work is done.
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Core } from '../electron/service/core';
import { applySeed } from '../electron/service/seed';
import { buildHttpServer } from '../electron/service/http/server';
import { webUiPlugin } from '../electron/cli/web/bridge';
import { createClient, createWebTransport, uploadSpreadsheet, type Client } from '../shared/ipc';
import { tempDir, testSeed } from './helpers/server';
import { writeSegment } from './helpers/segments';
import { recordCampaign, repeat, SAME_PROCESS_LIMITS } from './helpers/load';
import { PENDING_STATUSES } from '../shared/lifecycle';

const SENDS = 20;
const RECEIVERS = 10_000;
const PING_EVERY_MS = 5;
const TOKEN = 'responsiveness-token';
/** Generous: far above the 100 ms budget the bench measures, far below a call that waits for the work. */
const ANSWERED_WITHIN_MS = 2_000;

let core: Core;
let app: FastifyInstance;
let client: Client;
let account: number;

beforeAll(async () => {
  core = new Core({ dataDir: tempDir('chapar-responsive-') });
  // The default simulator's delays: handed on after 300 ms, final 1.5 s later.
  applySeed(
    core,
    testSeed({
      simulator: {
        seed: 7,
        handoff_ms: 300,
        delivery_ms: 1500,
        outcomes: { '10': 0.85, '11': 0.08, '13': 0.03, '14': 0.04 },
      },
    }),
  );
  account = core.accounts.findByName('acme')!.id;
  core.credit.adjust(account, SENDS * RECEIVERS * 1500 * 2, 'load test');
  app = await buildHttpServer({
    core,
    plugins: [webUiPlugin({ core, token: TOKEN, rendererDir: null, url: () => null })],
    limits: SAME_PROCESS_LIMITS,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  client = createClient(createWebTransport({ baseUrl: `http://127.0.0.1:${address.port}`, token: TOKEN }));
});
afterAll(async () => {
  await app.close();
  await core.close();
});

// Round trips a failed test left going are stopped, and their last call awaited, before the next
// test or afterAll closes the server and the core under them.
const repeating: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.allSettled(repeating.splice(0).map((calls) => calls.stop()));
});

function repeated(call: () => Promise<unknown>, pauseMs: number): ReturnType<typeof repeat> {
  const calls = repeat(call, pauseMs);
  repeating.push(calls);
  return calls;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

it('keeps answering IPC round trips while 200,000 messages are accepted and delivered', async () => {
  // One small send first, so the measurement is of the work and not of the JIT warming up.
  await client.invoke('messages:send', {
    account_id: account,
    sender: '30001111',
    message: 'warm-up',
    receivers: ['09350000000'],
  });

  const pinger = repeated(() => client.invoke('credit:balance', { account_id: account }), PING_EVERY_MS);
  const dashboard = repeated(() => client.invoke('dashboard:stats', { account_id: account }), 250);
  const latencies = pinger.latencies;
  const dashboardLatencies = dashboard.latencies;

  const sendTimes: number[] = [];
  for (let s = 0; s < SENDS; s++) {
    const receivers = Array.from(
      { length: RECEIVERS },
      (_, i) => '09' + String(100_000_000 + s * RECEIVERS + i).slice(0, 9),
    );
    const started = performance.now();
    const result = await client.invoke('messages:send', {
      account_id: account,
      sender: '30001111',
      message: `load ${s}`,
      receivers,
    });
    sendTimes.push(performance.now() - started);
    expect(result.accepted).toBe(RECEIVERS);
  }
  // Until the gateway has moved every message on (the count is one more UI call being measured).
  for (;;) {
    const started = performance.now();
    const { count } = await client.invoke('messages:count', { account_id: account, status: [...PENDING_STATUSES] });
    latencies.push(performance.now() - started);
    if (count === 0) break;
    await new Promise((resolve) => setTimeout(resolve, PING_EVERY_MS));
  }
  await Promise.all([pinger.stop(), dashboard.stop()]);

  expect((await client.invoke('messages:count', { account_id: account })).count).toBe(SENDS * RECEIVERS + 1);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  console.log(
    `responsiveness: ${latencies.length} round trips, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, ` +
      `max ${Math.max(...latencies).toFixed(1)} ms; 10,000-receiver panel send median ${percentile(sendTimes, 50).toFixed(0)} ms; ` +
      `dashboard:stats p50 ${percentile(dashboardLatencies, 50).toFixed(0)} ms (${dashboardLatencies.length} refreshes)`,
  );
  expect(latencies.length).toBeGreaterThan(100);
  expect(p99).toBeLessThan(ANSWERED_WITHIN_MS);
}, 300_000);

it('keeps answering IPC round trips while a 1,500,000-row spreadsheet is imported', async () => {
  // Enough rows that the import outlasts 50 round trips on a fast machine (1,000,000 rows took
  // under 3 s here, 700,000 gave 49 samples).
  const ROWS = 1_500_000;
  const dir = tempDir('chapar-responsive-import-');
  const file = path.join(dir, 'customers.csv');
  // Written in chunks: one string of the whole file left a major collection to run during the
  // measurement, which the first round trip paid for (600 ms), not the import.
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, 'phone,NAME,CITY\n');
  for (let start = 0; start < ROWS; start += 50_000) {
    let chunk = '';
    for (let i = start; i < Math.min(ROWS, start + 50_000); i++)
      chunk += `09${String(100_000_000 + ((i * 7_919) % 900_000_000)).padStart(9, '0')},customer ${i},city ${i % 97}\n`;
    fs.writeSync(fd, chunk);
  }
  fs.closeSync(fd);

  const pinger = repeated(() => client.invoke('credit:balance', { account_id: account }), PING_EVERY_MS);
  const latencies = pinger.latencies;
  // How long the event loop was held at once: the import's commits run on this thread.
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const { jobId } = await core.imports.start(account, { file, name: 'responsive' });
  const job = await core.imports.wait(jobId);
  loop.disable();
  await pinger.stop();
  fs.rmSync(dir, { recursive: true, force: true });

  expect(job).toMatchObject({ status: 'done', valid: ROWS });
  const p99 = percentile(latencies, 99);
  console.log(
    `responsiveness during import: ${latencies.length} round trips, p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
      `p99 ${p99.toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms; event loop held at most ${(loop.max / 1e6).toFixed(0)} ms`,
  );
  expect(latencies.length).toBeGreaterThan(50);
  expect(p99).toBeLessThan(ANSWERED_WITHIN_MS);
  // Held at most 41-46 ms (commits of 5,000 members); 68-96 ms with commits of 20,000; 167-177 ms
  // when the WAL checkpoint (past 600,000 members) still ran inside a commit, before the import
  // worker took it over: the bench's responsive case reports it against its 100 ms budget.
  expect(loop.max / 1e6).toBeLessThan(ANSWERED_WITHIN_MS);
}, 300_000);

it('keeps answering IPC round trips while a campaign to 800,000 recipients is executed', async () => {
  // The campaign1m bench's audience: two overlapping 600,000-member inclusion segments minus a
  // 200,000-member exclusion segment, one personalized column and one tracked link. The segments
  // are written directly, as an import leaves them.
  const segment = (name: string, from: number, to: number) => writeSegment(core, account, name, { from, to });
  const a = segment('A', 0, 600_000);
  const b = segment('B', 400_000, 1_000_000);
  const c = segment('C', 300_000, 500_000);
  core.credit.adjust(account, 800_000 * 4_500, 'campaign load test');

  const pinger = repeated(() => client.invoke('credit:balance', { account_id: account }), PING_EVERY_MS);
  const latencies = pinger.latencies;
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const executionId = await recordCampaign(core, account, { a, b, c });
  loop.disable();
  await pinger.stop();

  const report = core.campaigns.report(account, executionId);
  expect(report.audience).toBe(800_000);
  expect(report.sent).toBe(800_000);
  const p99 = percentile(latencies, 99);
  console.log(
    `responsiveness during a campaign: ${latencies.length} round trips, p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
      `p99 ${p99.toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms; event loop held at most ${(loop.max / 1e6).toFixed(0)} ms`,
  );
  expect(latencies.length).toBeGreaterThan(50);
  expect(p99).toBeLessThan(ANSWERED_WITHIN_MS);
}, 300_000);

it('keeps answering IPC round trips while the import wizard imports a 1,000,000-row CSV uploaded over the bridge; a cancel in the middle leaves no segment', async () => {
  // What the wizard does in web mode: the file streamed to POST /bridge/uploads, imports:preview,
  // imports:start, import:progress until done; and a second import cancelled half-way.
  const ROWS = 1_000_000;
  const dir = tempDir('chapar-responsive-wizard-');
  const file = path.join(dir, 'مشتریان.csv');
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, 'نام,موبایل,شهر\n');
  for (let start = 0; start < ROWS; start += 50_000) {
    let chunk = '';
    for (let i = start; i < Math.min(ROWS, start + 50_000); i++)
      chunk += `مشتری ${i},09${String(200_000_000 + ((i * 7_919) % 700_000_000)).padStart(9, '0')},شهر ${i % 31}\n`;
    fs.writeSync(fd, chunk);
  }
  fs.closeSync(fd);
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const upload = async () => {
    const uploaded = await uploadSpreadsheet(await fs.openAsBlob(file), 'مشتریان.csv', {
      baseUrl: `http://127.0.0.1:${address.port}`,
      token: TOKEN,
    });
    if (!uploaded.ok) throw new Error(uploaded.error.message);
    return uploaded.value.file;
  };

  const uploaded = await upload();
  const preview = await client.invoke('imports:preview', { account_id: account, file: uploaded });
  expect(preview).toMatchObject({ columns: ['نام', 'موبایل', 'شهر'], phone_column: 1, header_row: 1 });
  const mapping = {
    phone: 1,
    columns: [
      { index: 0, name: 'NAME' },
      { index: 2, name: 'CITY' },
    ],
  };

  const progress: number[] = [];
  const pinger = repeated(() => client.invoke('credit:balance', { account_id: account }), PING_EVERY_MS);
  const latencies = pinger.latencies;
  const started = await client.invoke('imports:start', { account_id: account, file: uploaded, mapping });
  const onProgress = (event: { jobId: number; fraction: number }) => {
    if (event.jobId === started.job_id) progress.push(event.fraction);
  };
  core.imports.events.on('progress', onProgress);
  await core.imports.wait(started.job_id);
  core.imports.events.off('progress', onProgress);
  await pinger.stop();

  const job = await client.invoke('imports:get', { account_id: account, job_id: started.job_id });
  expect(job).toMatchObject({ status: 'done', valid: ROWS, fraction: 1 });
  // Progress moved forward to the end, many times on the way.
  expect(progress.length).toBeGreaterThan(10);
  expect(progress.every((fraction, i) => i === 0 || fraction >= progress[i - 1]!)).toBe(true);
  expect(progress.at(-1)).toBe(1);
  const p99 = percentile(latencies, 99);
  console.log(
    `responsiveness during the wizard's import: ${latencies.length} round trips, p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
      `p99 ${p99.toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
  );
  expect(latencies.length).toBeGreaterThan(50);
  expect(p99).toBeLessThan(ANSWERED_WITHIN_MS);

  // The same file again, cancelled half-way: no segment is left.
  const again = await client.invoke('imports:start', { account_id: account, file: await upload(), mapping });
  await new Promise<void>((resolve) => {
    const listener = (event: { jobId: number; fraction: number }) => {
      if (event.jobId === again.job_id && event.fraction >= 0.5) {
        core.imports.events.off('progress', listener);
        resolve();
      }
    };
    core.imports.events.on('progress', listener);
  });
  expect(await client.invoke('imports:cancel', { account_id: account, job_id: again.job_id })).toEqual({
    cancelled: true,
  });
  expect((await core.imports.wait(again.job_id)).status).toBe('cancelled');
  const segments = await client.invoke('segments:list', { account_id: account });
  expect(segments.map((segment) => segment.id)).toContain(started.segment_id);
  expect(segments.map((segment) => segment.id)).not.toContain(again.segment_id);
  fs.rmSync(dir, { recursive: true, force: true });
}, 300_000);
