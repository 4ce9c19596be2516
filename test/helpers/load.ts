// The loads the responsiveness test and the `responsive` bench case put on a core, written once:
// the test keeps a generous bound on them, the bench measures them against their budget.
import { performance } from 'node:perf_hooks';
import type { Core } from '../../electron/service/core';
import type { ConnectionLimits } from '../../electron/service/http/connection-guard';

/**
 * The bridge's limits when the window's client runs in the server's own process, as in these loads.
 * One thread then holds both ends of every kept-alive connection. When that thread is held longer
 * than the keep-alive timeout (5 s), the server's idle-connection timer and the next round trip fall
 * in the same turn: the call is written onto a connection the server is closing, and the window
 * reads "connection lost" (as one run of the 800,000-recipient campaign test did, with four suites
 * on two cores; the pause itself was not measured there). Holding the thread 6 s reproduced that
 * error in 3 of 5 tries; with 60 s, 0 of 5 with 8 s. A window in
 * another process never shares the server's thread, and a browser resends a request that found a
 * reused connection closed: the product keeps Node's 5 s.
 */
export const SAME_PROCESS_LIMITS: Partial<ConnectionLimits> = { keepAliveTimeoutMs: 60_000 };

/** Calls `call` again `pauseMs` after each answer until stopped, recording each round trip (ms). */
export function repeat(call: () => Promise<unknown>, pauseMs: number): { latencies: number[]; stop(): Promise<void> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await call();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  })();
  return {
    latencies,
    stop: () => {
      running = false;
      return loop;
    },
  };
}

/**
 * The campaign1m bench's campaign (A ∪ B − C, one personalized column, one tracked link), due at
 * once; resolves with its execution once the execution has recorded its whole audience. Waits on
 * the execution's own row, not the report (which counts the messages): only the campaign's work is
 * measured.
 */
export async function recordCampaign(
  core: Core,
  account: number,
  segments: { a: number; b: number; c: number },
): Promise<number> {
  const created = core.campaigns.create(account, {
    sender: '30001111',
    name: 'load',
    template_body: 'سلام {{NAME}}، حراج جمعه: https://shop.example/friday',
    send_datetime: '2026-01-01T00:00:00Z',
    inclusion_segments: [String(segments.a), String(segments.b)],
    exclusion_segments: [String(segments.c)],
    links: [{ index: 0, actual_url: 'https://shop.example/friday', has_utm: 'true' }],
    utm: {},
  });
  await new Promise<void>((resolve) => {
    const check = () => {
      const row = core.db
        .prepare<[number], { audience: number | null; recorded: number }>(
          'SELECT audience, recorded FROM campaign_executions WHERE id = ?',
        )
        .get(created.execution_id)!;
      if (row.audience !== null && row.recorded === row.audience) {
        core.campaigns.events.off('execution', check);
        resolve();
      }
    };
    core.campaigns.events.on('execution', check);
  });
  return created.execution_id;
}
