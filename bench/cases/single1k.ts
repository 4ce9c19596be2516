// single1k: one message per request, as most programs send (order notices, one-time codes). Twelve
// clients on keep-alive connections send 1,000 one-receiver requests (`POST /v2/sms/send`, and v1's
// `sms/send.json` with one receptor) to the headless server in its own process (as users run it,
// web UI on), next to the floor measured in the same run, interleaved: a minimal Fastify server
// (bench/support/single-floor.ts) that parses the body, looks the key up, checks the number, debits
// the credit and inserts the message in one transaction and answers the envelope.
// Also reported: how long after the last answer the last message of a round is final (simulator
// 10 ms / 10 ms), the window's round trips (credit:balance over the web bridge every 5 ms) during
// a third round of the same load, and the resting RSS of `serve` before any work. The window asks
// in a round of its own: in the timed ones both servers get the same requests and nothing else.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { PENDING_STATUSES } from '../../shared/lifecycle';
import { ROOT, postOn, spawnServe, tempDir, testSeed, KEY } from '../../test/helpers/server';
import { median, percentile, type BenchCase } from '../case';

const REQUESTS = 1_000;
const CLIENTS = 12;
const WARMUP = 2;
const RUNS = 15;
const PING_EVERY_MS = 5;
const TOKEN = 'bench-single-token';
const TEXT = 'Your order 4512 has shipped. Code: 8841';

type Generation = 'v2' | 'v1';

type Answer = { status: number; text: string };

/** A JSON body with a bearer key (the API's, or the web bridge's token). */
function postJson(agent: http.Agent, base: string, path: string, bearer: string, value: unknown): Promise<Answer> {
  return postOn(agent, base, path, JSON.stringify(value), {
    'content-type': 'application/json',
    authorization: `Bearer ${bearer}`,
  });
}

/** One request of a round: the receiver is distinct across the whole case. */
function sendOnce(agent: http.Agent, base: string, generation: Generation, receiver: string): Promise<Answer> {
  if (generation === 'v2')
    return postJson(agent, base, '/v2/sms/send', KEY, { message: TEXT, sender: '30001111', receivers: [receiver] });
  const body = new URLSearchParams({ receptor: receiver, sender: '30001111', message: TEXT }).toString();
  return postOn(agent, base, `/v1/${KEY}/sms/send.json`, body, { 'content-type': 'application/x-www-form-urlencoded' });
}

let nextReceiver = 0;

/** 1,000 requests from 12 clients; the time until the last answer, and the ids answered. */
async function round(agent: http.Agent, base: string, generation: Generation): Promise<{ ms: number; ids: number[] }> {
  const first = nextReceiver;
  nextReceiver += REQUESTS;
  let issued = 0;
  const ids: number[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (issued < REQUESTS) {
        const receiver = '0912' + String(first + issued++).padStart(7, '0');
        const answer = await sendOnce(agent, base, generation, receiver);
        if (answer.status !== 200) throw new Error(`${generation} send failed: ${answer.status} ${answer.text}`);
        ids.push((JSON.parse(answer.text) as { entries: Array<{ messageid: number }> }).entries[0]!.messageid);
      }
    }),
  );
  return { ms: performance.now() - start, ids };
}

/** The median of each round's time over its floor's, round by round. */
function pairedRatio(times: number[], floorTimes: number[]): number {
  return median(times.map((ms, i) => ms / floorTimes[i]!));
}

/** Milliseconds from now until none of `ids` is pending any more (polled every 20 ms). */
async function untilFinal(agent: http.Agent, base: string, ids: number[]): Promise<number> {
  const start = performance.now();
  const pending = new Set<number>(PENDING_STATUSES);
  for (;;) {
    const answer = await postJson(agent, base, '/v2/sms/status', KEY, { messageids: ids });
    const entries = (JSON.parse(answer.text) as { entries: Array<{ status: number }> }).entries;
    if (entries.every((entry) => !pending.has(entry.status))) return performance.now() - start;
    if (performance.now() - start > 60_000) throw new Error('messages still pending after 60 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Resolves once the process `pid` is idle: its CPU time (in clock ticks) unchanged over 100 ms.
 * The floor's round starts only then, so work a round of Chapar's left behind (the indexes run when
 * the requests pause) is not done during the floor's and counted against it.
 */
async function untilIdle(pid: number): Promise<void> {
  const cpu = () => {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  const start = performance.now();
  for (let last = cpu(); performance.now() - start < 30_000;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpu();
    if (now === last) return;
    last = now;
  }
  throw new Error('serve still busy 30 s after a round');
}

/** The window's round trips while `work` runs: credit:balance over the bridge every 5 ms. */
async function pinged<T>(agent: http.Agent, base: string, work: () => Promise<T>, times: number[]): Promise<T> {
  let done = false;
  const loop = (async () => {
    while (!done) {
      const start = performance.now();
      const answer = await postJson(agent, base, '/bridge/invoke/credit:balance', TOKEN, { account_id: 1 });
      if (answer.status !== 200) throw new Error(`bridge: ${answer.status} ${answer.text}`);
      times.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, PING_EVERY_MS));
    }
  })();
  try {
    return await work();
  } finally {
    done = true;
    await loop;
  }
}

function startFloor(file: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/support/single-floor.ts'), file], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /floor listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match)
        resolve({
          url: match[1]!,
          stop: () => new Promise<void>((done) => (child.once('exit', () => done()), child.kill('SIGTERM'))),
        });
    });
    child.once('exit', (code) => reject(new Error(`floor exited with ${code}: ${output}`)));
  });
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

const single1k: BenchCase = {
  name: 'single1k',
  async run() {
    const dir = tempDir('chapar-bench-');
    const seedFile = path.join(dir, 'seed.json');
    const seed = testSeed();
    seed.accounts![0]!.credit_rials = 1_000_000_000_000;
    seed.simulator = { seed: 7, handoff_ms: 10, delivery_ms: 10, outcomes: { '10': 1 } };
    fs.writeFileSync(seedFile, JSON.stringify(seed));
    const server = await spawnServe({
      dataDir: path.join(dir, 'data'),
      seedFile,
      // As `npm run serve` runs it: from its build, without a TypeScript loader in the process.
      buildDir: path.join(ROOT, 'out', 'serve'),
      env: { CHAPAR_WEB_TOKEN: TOKEN },
    });
    const floor = await startFloor(path.join(dir, 'floor.db'));
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS + 2 });
    const chapar = server.url;
    const floorUrl = floor.url;
    const times: Record<string, number[]> = { v2: [], v1: [], floorV2: [], floorV1: [], windowV2: [], windowV1: [] };
    const finals: number[] = [];
    const roundTrips: number[] = [];
    // Resting: started, seeded, nothing sent yet (a moment for start-up work to settle).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const restingRss = rssMb(server.child.pid!);
    try {
      for (let run = 0; run < WARMUP + RUNS; run++) {
        for (const generation of ['v2', 'v1'] as const) {
          const chaparRound = await round(agent, chapar, generation);
          const final = await untilFinal(agent, chapar, chaparRound.ids);
          await untilIdle(server.child.pid!);
          const floorRound = await round(agent, floorUrl, generation);
          // The same load again with the window asking all along: its round trips, and the round's
          // time beside it (not in the ratio, which puts the same load on both servers).
          const windowRound = await pinged(
            agent,
            chapar,
            () => round(agent, chapar, generation),
            run >= WARMUP ? roundTrips : [],
          );
          const windowFinal = await untilFinal(agent, chapar, windowRound.ids);
          await untilIdle(server.child.pid!);
          if (run < WARMUP) continue;
          times[generation]!.push(chaparRound.ms);
          times[generation === 'v2' ? 'floorV2' : 'floorV1']!.push(floorRound.ms);
          times[generation === 'v2' ? 'windowV2' : 'windowV1']!.push(windowRound.ms);
          finals.push(final, windowFinal);
        }
      }
    } finally {
      agent.destroy();
      await server.stop();
      await floor.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const ms = median(times.v2!);
    const floorMs = median(times.floorV2!);
    const v1Ratio = median(times.v1!) / median(times.floorV1!);
    return {
      name: 'single1k',
      ms,
      floorMs,
      ratio: ms / floorMs,
      target: 'ratio <= 1.5 (v2 and v1), last final <= 1 s after the last answer, IPC p99 < 100 ms',
      extra: {
        'v2 req/s': Math.round((REQUESTS / ms) * 1000),
        'floor v2 req/s': Math.round((REQUESTS / floorMs) * 1000),
        'v1 ratio': v1Ratio.toFixed(2),
        'v1 req/s': Math.round((REQUESTS / median(times.v1!)) * 1000),
        'v2 req/s, window asking': Math.round((REQUESTS / median(times.windowV2!)) * 1000),
        'v1 req/s, window asking': Math.round((REQUESTS / median(times.windowV1!)) * 1000),
        // Each round of Chapar's against the floor's round right after it: the machine's drift
        // over the case (the floor alone moves by a fifth from run to run here) cancels in a pair.
        'v2 ratio (pairs)': pairedRatio(times.v2!, times.floorV2!).toFixed(2),
        'v1 ratio (pairs)': pairedRatio(times.v1!, times.floorV1!).toFixed(2),
        'final after last answer ms (max)': Math.round(Math.max(...finals)),
        'IPC p99 ms': percentile(roundTrips, 99).toFixed(1),
        'resting RSS MB': restingRss,
        runs: RUNS,
      },
    };
  },
};

export default single1k;
