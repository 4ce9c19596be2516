// Answers first (scheduler.ts): while programs' requests keep arriving, work that gives way (the
// lifecycle's hand-overs, the indexes) waits, until the requests pause or its hold runs out; then it
// runs everything it has due before it gives way again. Other work is never held, and drain() runs
// held work too. Real timers: the pause and the hold are the process's time. The pause is made long
// here (QUIET), so a loaded machine's late timers cannot pass for one.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { Scheduler, type Worker } from './scheduler';

const QUIET = 150;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A worker with `batches` batches due now; records when each ran (performance.now()). */
function backlog(name: string, batches: number, givesWay: boolean) {
  const runs: number[] = [];
  let left = batches;
  const worker: Worker = {
    name,
    givesWay,
    nextDueAt: () => (left > 0 ? 0 : null),
    runDue: () => {
      if (left === 0) return false;
      left--;
      runs.push(performance.now());
      return true;
    },
  };
  return { worker, runs, add: (n: number) => (left += n) };
}

const stops: Array<() => unknown> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** Requests arriving every 2 ms until stopped (a flood), as the API's inGroup reports them. */
function flood(scheduler: Scheduler): () => void {
  scheduler.requestArrived();
  const timer = setInterval(() => scheduler.requestArrived(), 2);
  const stop = () => clearInterval(timer);
  stops.push(stop);
  return stop;
}

function started(holdMs: number, ...workers: Worker[]): Scheduler {
  const scheduler = new Scheduler(new ManualClock(), undefined, { quietMs: QUIET, holdMs });
  for (const worker of workers) scheduler.register(worker);
  stops.push(() => scheduler.stop());
  return scheduler;
}

describe('Scheduler: work that gives way to a flood of requests', () => {
  it('waits while requests keep coming, and runs all it has due once they pause', async () => {
    const held = backlog('index', 3, true);
    const scheduler = started(60_000, held.worker);
    const endFlood = flood(scheduler);
    scheduler.start();
    await sleep(400);
    expect(held.runs).toHaveLength(0);
    endFlood();
    const ended = performance.now();
    await sleep(QUIET + 500);
    expect(held.runs).toHaveLength(3);
    // It ran after the pause, not before (the last request plus QUIET at the earliest).
    expect(held.runs[0]! - ended).toBeGreaterThanOrEqual(QUIET - 10);
  });

  it('runs at its hold’s end while the flood goes on, catching up everything due, then gives way again', async () => {
    const held = backlog('lifecycle', 4, true);
    const scheduler = started(300, held.worker);
    flood(scheduler);
    const start = performance.now();
    scheduler.start();
    await sleep(1_000);
    // The hold ran out once: all four batches ran then, one after another.
    expect(held.runs).toHaveLength(4);
    expect(held.runs[0]! - start).toBeGreaterThanOrEqual(290);
    expect(held.runs[3]! - held.runs[0]!).toBeLessThan(150);
    // New work during the same flood is held again for a whole hold.
    held.add(2);
    scheduler.poke();
    const added = performance.now();
    await sleep(100);
    expect(held.runs).toHaveLength(4);
    await sleep(900);
    expect(held.runs).toHaveLength(6);
    expect(held.runs[4]! - added).toBeGreaterThanOrEqual(290);
  });

  it('at a hold’s end runs what was due by then, not what keeps coming due while the flood goes on', async () => {
    const clock = new ManualClock();
    const due: number[] = [clock.now(), clock.now()];
    const runs: number[] = [];
    const worker: Worker = {
      name: 'lifecycle',
      givesWay: true,
      nextDueAt: () => (due.length > 0 ? Math.min(...due) : null),
      runDue: () => {
        if (due.length === 0 || Math.min(...due) > clock.now()) return false;
        due.sort((a, b) => a - b).shift();
        runs.push(performance.now());
        // A request of the flood accepted meanwhile: its message comes due a moment later.
        clock.advance(1);
        due.push(clock.now());
        return true;
      },
    };
    const scheduler = new Scheduler(clock, undefined, { quietMs: QUIET, holdMs: 300 });
    scheduler.register(worker);
    stops.push(() => scheduler.stop());
    flood(scheduler);
    const start = performance.now();
    scheduler.start();
    await sleep(500);
    // The two due at the hold's end ran; the two that came due during them wait for a new hold.
    expect(runs).toHaveLength(2);
    expect(runs[0]! - start).toBeGreaterThanOrEqual(290);
    await sleep(400);
    expect(runs).toHaveLength(4);
    expect(runs[2]! - runs[1]!).toBeGreaterThanOrEqual(290);
  });

  it('never holds work that does not give way (a provider’s pace, a job), and drain() runs held work', async () => {
    const paced = backlog('carrier', 2, false);
    const held = backlog('index', 2, true);
    const scheduler = started(60_000, paced.worker, held.worker);
    flood(scheduler);
    scheduler.start();
    await sleep(300);
    expect(paced.runs).toHaveLength(2);
    expect(held.runs).toHaveLength(0);
    await scheduler.drain();
    expect(held.runs).toHaveLength(2);
  });

  it('holds nothing without requests', async () => {
    const held = backlog('index', 2, true);
    const scheduler = started(60_000, held.worker);
    scheduler.start();
    await sleep(200);
    expect(held.runs).toHaveLength(2);
  });
});
