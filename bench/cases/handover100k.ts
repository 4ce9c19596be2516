// handover100k: 100,000 accepted messages of a line whose gateway is a provider account
// (kavenegar-v1), from accepted to accepted at the provider, against the floor measured in the
// same run: the provider's own acceptance of the same batches (200 receptors with their local ids,
// the same text, two calls at a time, as the carrier makes them) called directly, with no carrier,
// no pacing and no state machine, alternating with the app's runs (medians compared). The
// provider is a second Chapar in its own process (`npm run serve`); the app is a core in this
// process, as the desktop app's main process holds it, and a UI round trip (credit:balance
// through the IPC dispatcher) is timed every 5 ms while it works.
import fs from 'node:fs';
import path from 'node:path';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { createDispatcher } from '../../electron/service/ipc/dispatcher';
import { kavenegarV1Client } from '../../electron/service/messaging/carriers/upstream/kavenegar-v1';
import type { OutgoingMessage } from '../../electron/service/messaging/carriers/upstream/client';
import { KEY, spawnServe, tempDir, testSeed } from '../../test/helpers/server';
import { median, percentile, type BenchCase } from '../case';

const MESSAGES = Number(process.env.CHAPAR_BENCH_HANDOVER ?? 100_000);
const PER_CALL = 200;
/** The app's runs, each between two floors. */
const ROUNDS = Number(process.env.CHAPAR_BENCH_HANDOVER_ROUNDS ?? 3);
const SEND = 2_500;
const TEXT = 'Spring sale: 20% off everything this week';
const PING_EVERY_MS = 5;

const receptor = (i: number) => '0912' + String(i).padStart(7, '0');

/** The floor: the same batches straight to the provider, two calls at a time. */
async function floor(url: string, first: number): Promise<number> {
  const client = kavenegarV1Client({ baseUrl: url, apiKey: KEY, sender: '30001111', timeoutMs: 60_000 });
  let next = 0;
  const start = performance.now();
  const lane = async () => {
    while (next < MESSAGES) {
      const from = next;
      next += PER_CALL;
      const batch: OutgoingMessage[] = [];
      for (let i = from; i < Math.min(MESSAGES, from + PER_CALL); i++)
        batch.push({ id: first + i, localId: first + i, receptor: receptor(i), text: `${TEXT}\nلغو۱۱` });
      const answer = await client.send(batch);
      if (answer.kind !== 'ok') throw new Error(`floor call failed: ${JSON.stringify(answer)}`);
    }
  };
  await Promise.all([lane(), lane()]);
  return performance.now() - start;
}

const handover100k: BenchCase = {
  name: 'handover100k',
  async run() {
    const dir = tempDir('chapar-bench-handover-');
    const seedFile = path.join(dir, 'seed.json');
    const seed = testSeed();
    seed.accounts![0]!.credit_rials = 1_000_000_000_000;
    // The provider's own gateway idle while measured: its deliveries are not part of either side.
    seed.simulator = { seed: 7, handoff_ms: 600_000, delivery_ms: 600_000, outcomes: { '10': 1 } };
    fs.writeFileSync(seedFile, JSON.stringify(seed));
    const provider = await spawnServe({ dataDir: path.join(dir, 'provider'), seedFile });
    const core = new Core({ dataDir: path.join(dir, 'app'), startScheduler: false });
    const dispatcher = createDispatcher(core, { mode: 'desktop' });
    try {
      applySeed(core, {
        accounts: [
          {
            name: 'shop',
            credit_rials: 1_000_000_000_000,
            lines: [
              {
                number: '30001111',
                provider: 'sms',
                permissions: ['can_send_panel_campaign'],
                upstream: { kind: 'kavenegar-v1', base_url: provider.url, api_key: KEY, rate_per_second: 1_000 },
              },
            ],
          },
        ],
        simulator: { seed: 7, handoff_ms: 0, delivery_ms: 600_000, outcomes: { '10': 1 } },
        // Statuses are not polled while measured: the case is the hand-over.
        upstream_timing: { poll_first_ms: 3_600_000, inbox_ms: 3_600_000, concurrency: 2 },
      });
      const account = core.accounts.findByName('shop')!.id;
      const line = core.accounts.findLine(account, '30001111')!.id;
      // Done when no message is left before the hand-over and none of the line's waits for an answer:
      // none waiting (in runs, or as rows sent again), in a call, or unknown (index seeks: the case's
      // own check must not scan the table it measures).
      const open = core.db
        .prepare<[number, number, number], number>(
          `SELECT 1 FROM upstream_waiting WHERE line_id = ?
           UNION ALL SELECT 1 FROM upstream_calls WHERE line_id = ?
           UNION ALL SELECT 1 FROM upstream_handovers WHERE line_id = ? AND state IN ('waiting', 'handing_over', 'unknown')
           LIMIT 1`,
        )
        .pluck();
      const accepted = core.db
        .prepare<[number], number>("SELECT COUNT(*) FROM upstream_handovers WHERE line_id = ? AND state = 'accepted'")
        .pluck();
      const roundTrips: number[] = [];
      const runs: number[] = [];
      const busy: number[] = [];
      const cpu: number[] = [];
      // Floors and the app's runs alternate (floor, app, floor, app, ...floor), on local ids the
      // app's messages never use: the provider's tables grow under each run and its acceptance slows
      // as they do, and this machine's speed drifts; each side's median is compared.
      const floors = [await floor(provider.url, 1_000_000_000)];
      for (let round = 1; round <= ROUNDS; round++) {
        for (let from = 0; from < MESSAGES; from += SEND)
          core.messaging.accept.accept({
            accountId: account,
            origin: 'campaign',
            sender: '30001111',
            text: TEXT,
            receivers: Array.from({ length: Math.min(SEND, MESSAGES - from) }, (_, i) => receptor(from + i)),
            rule: 'strict',
          });
        let pinging = true;
        const pinger = (async () => {
          while (pinging) {
            const start = performance.now();
            await dispatcher.invoke('credit:balance', { account_id: account });
            roundTrips.push(performance.now() - start);
            await new Promise((resolve) => setTimeout(resolve, PING_EVERY_MS));
          }
        })();
        const start = performance.now();
        const busyBefore = performance.eventLoopUtilization();
        const cpuBefore = process.cpuUsage();
        core.scheduler.start();
        while (core.messaging.lifecycle.nextDueAt() !== null || open.get(line, line, line) !== undefined)
          await new Promise((resolve) => setTimeout(resolve, 20));
        runs.push(performance.now() - start);
        busy.push(performance.eventLoopUtilization(busyBefore).utilization);
        const used = process.cpuUsage(cpuBefore);
        cpu.push((used.user + used.system) / 1000);
        if (accepted.get(line) !== MESSAGES * round)
          throw new Error(`${accepted.get(line)} of ${MESSAGES * round} accepted`);
        pinging = false;
        await pinger;
        // The app rests meanwhile (its background work, such as the receiver index, waits too).
        await core.scheduler.stop();
        floors.push(await floor(provider.url, 1_000_000_000 + round * 10_000_000));
      }
      const ms = median(runs);
      const floorMs = median(floors);
      return {
        name: 'handover100k',
        ms,
        floorMs,
        ratio: ms / floorMs,
        target: 'ratio <= 1.5, IPC p99 < 100 ms',
        extra: {
          messages: MESSAGES,
          rounds: ROUNDS,
          runs_ms: runs.map(Math.round).join(' '),
          floors_ms: floors.map(Math.round).join(' '),
          messages_per_s: Math.round((MESSAGES / ms) * 1000),
          ipc_p99_ms: Math.round(percentile(roundTrips, 99) * 10) / 10,
          ipc_median_ms: Math.round(median(roundTrips) * 10) / 10,
          // How much of the time this process's main thread was busy (the provider's is its own).
          main_thread_busy: Math.round(median(busy) * 100) / 100,
          // This process's CPU time (all its threads) per run: steadier than the wall clock here.
          app_cpu_ms: Math.round(median(cpu)),
        },
      };
    } finally {
      dispatcher.close();
      await core.close();
      await provider.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default handover100k;
