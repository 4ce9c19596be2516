// The app killed (SIGKILL) in the middle of its hand-overs, four times, and started again on the
// same workspace each time: once right after the provider took a call whose answer had not come
// back yet, once as a send call arrives, once while the app asks the provider by our ids what it
// holds, once at an arbitrary moment; then stopped cleanly (SIGTERM) with an answer on its way.
// Kavenegar v1: the end state is exact (one provider message per local message, all final,
// statuses, costs and local ids equal, each message taken once on the wire). Najva v2 cannot be
// asked by our ids: nothing is sent twice, and what the kills left in doubt waits for review.
import { afterAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy, type Match } from '../helpers/fault-proxy';
import {
  PROVIDER_LINES,
  startApp,
  startProvider,
  stopAll,
  until,
  type AppLine,
  type Service,
} from '../helpers/two-services';
import {
  apiSend,
  expectSameOnBothSides,
  handedOver,
  lineMessages,
  lineStates,
  phones,
  providerLineMessages,
  sendsFrom,
  startCampaign,
  untilSettled,
  uploadSegment,
} from './support';

const CAMPAIGN = 10_000;
const API = 4_000;
/** Calls a second: slow enough that the kills land while the line still has work. */
const RATE = 5;

let provider: Service | undefined;
let proxy: FaultProxy | undefined;
let app: Service | undefined;
afterAll(async () => {
  await stopAll([app, provider]);
  await proxy?.close();
});

const statusLookup: Match = ({ path }) => path.endsWith('/sms/statuslocalmessageid.json');

async function setUp(line: AppLine['kind'], number: string, at: string): Promise<{ app: Service; proxy: FaultProxy }> {
  provider = await startProvider({ credit_rials: 1_000_000_000, page_tomans: 120 });
  proxy = await startFaultProxy(provider.url);
  app = await startApp({
    lines: [{ number, kind: line, base_url: proxy.url, sender: at, rate_per_second: RATE }],
  });
  return { app, proxy };
}

/** The work of each test: a campaign (a text each) and API sends (one text), all on the line. */
async function startWork(app: Service, number: string): Promise<number> {
  const segment = await uploadSegment(app, phones(CAMPAIGN), (i) => `مشتری ${i}`);
  await startCampaign(app, number, segment, 'سلام {{NAME}}، تخفیف بهاره');
  await apiSend(app, number, phones(API, 1_000_000), 'حراج آخر هفته');
  return CAMPAIGN + API;
}

/** Kills the app, checks the line still had work when it died, and starts it again. */
async function kill(app: Service, number: string, why: string, log: string[]): Promise<void> {
  await app.stop('SIGKILL');
  const states = lineStates(app, number);
  log.push(`${why}: ${JSON.stringify(states)}`);
  await app.start();
}

describe('the app killed in the middle of its hand-overs', () => {
  it('kavenegar-v1: after four kills, a clean stop and restarts, exactly one provider message per local message, all final', async () => {
    const number = '30001111';
    const at = PROVIDER_LINES[0];
    const { app, proxy } = await setUp('kavenegar-v1', number, at);
    const sends = sendsFrom(at);
    const log: string[] = [];
    let total = await startWork(app, number);

    // 1. The provider took a call; its answer is held on the way back when the app dies.
    proxy.next(1, { kind: 'delay', ms: 1_000 }, sends);
    const held = await until(
      'a held answer',
      () => proxy.log(sends).find((call) => call.fault === 'delay' && call.upstreamStatus !== null),
      (call) => call !== undefined,
      60_000,
      5,
    );
    expect(held!.upstreamStatus).toBe(200);
    await kill(app, number, 'killed with an answer on its way', log);

    // 2. As a send call arrives at the provider.
    const seen = proxy.log(sends).length;
    await proxy.waitFor(seen + 1, sends, 60_000);
    await kill(app, number, 'killed as a call arrives', log);

    // 3. While it asks the provider what it holds of the calls cut off (statuslocalmessageid): the
    // restart finds them unknown and asks at once.
    const lookups = proxy.log(statusLookup).length;
    const asked = await proxy.waitFor(lookups + 1, statusLookup, 15_000).then(
      () => true,
      () => false,
    );
    await kill(app, number, asked ? 'killed during the lookup by our ids' : 'killed (no lookup came)', log);

    // 4. At an arbitrary moment of its work.
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    await kill(app, number, 'killed at an arbitrary moment', log);

    // And a clean stop (SIGTERM) with an answer held on the way: it waits for it, within the call's
    // timeout, and exits 0. A fresh send makes sure a call is still to come (on a fast machine the
    // rest of the work may all be handed over by now).
    proxy.next(1, { kind: 'delay', ms: 1_000 }, sends);
    await apiSend(app, number, phones(200, 2_000_000), 'آخرین فرصت');
    total += 200;
    await until(
      'a held answer',
      () =>
        proxy.log(sends).some((call) => call.fault === 'delay' && call.upstreamStatus !== null && call.seq > held!.seq),
      Boolean,
      60_000,
      5,
    );
    const stopping = Date.now();
    expect(await app.stop('SIGTERM')).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(10_000);
    log.push(`stopped cleanly in ${Date.now() - stopping} ms: ${JSON.stringify(lineStates(app, number))}`);
    expect(lineStates(app, number).handing_over ?? 0).toBe(0);
    await app.start();

    const states = await untilSettled(app, number, total, 180_000);
    console.log(`kavenegar-v1 kills:\n  ${log.join('\n  ')}\n  end: ${JSON.stringify(states)}`);
    expect(states).toEqual({ final: total });
    const comparison = expectSameOnBothSides(app, number, provider!, at, { localIds: true });
    expect(comparison.local).toBe(total);
    // Each message taken by the provider once on the wire, although calls were cut off four times.
    const taken = handedOver(proxy, at).calls.flat();
    expect(taken).toHaveLength(total);
    // Every local message had been handed over or was still waiting at each kill: none left behind.
    expect(lineMessages(app, number).filter((message) => message.state === null)).toEqual([]);
    // The restarts did look our cut-off calls up by our ids.
    expect(proxy.log(statusLookup).length).toBeGreaterThan(0);
  }, 420_000);

  it('najva-v2: after three kills nothing is sent twice; what the kills left in doubt waits for review', async () => {
    await stopAll([app, provider]);
    await proxy?.close();
    const number = '30002222';
    const at = PROVIDER_LINES[1];
    const { app: v2app, proxy: v2proxy } = await setUp('najva-v2', number, at);
    const sends = sendsFrom(at);
    const log: string[] = [];
    const total = await startWork(v2app, number);

    v2proxy.next(1, { kind: 'delay', ms: 1_000 }, sends);
    await until(
      'a held answer',
      () => v2proxy.log(sends).find((call) => call.fault === 'delay' && call.upstreamStatus !== null),
      (call) => call !== undefined,
      60_000,
      5,
    );
    await kill(v2app, number, 'killed with an answer on its way', log);
    const seen = v2proxy.log(sends).length;
    await v2proxy.waitFor(seen + 1, sends, 60_000);
    await kill(v2app, number, 'killed as a call arrives', log);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    await kill(v2app, number, 'killed at an arbitrary moment', log);

    const states = await until(
      'final or in review',
      () => lineStates(v2app, number),
      (counts) => (counts.final ?? 0) + (counts.review ?? 0) === total,
      180_000,
      500,
    );
    console.log(`najva-v2 kills:\n  ${log.join('\n  ')}\n  end: ${JSON.stringify(states)}`);
    expect(states.review ?? 0).toBeGreaterThan(0);
    const local = lineMessages(v2app, number);
    const remote = providerLineMessages(provider!, at);
    // Nothing twice at the provider: one message a receptor (each has one here), no more than we have.
    expect(new Set(remote.map((message) => message.receptor)).size).toBe(remote.length);
    expect(remote.length).toBeLessThanOrEqual(local.length);
    // Each final message is the provider's, once; the ones in review are with it or not (the user decides).
    const final = local.filter((message) => message.state === 'final');
    const byId = new Map(remote.map((message) => [String(message.id), message]));
    const mismatches = final
      .filter((mine) => {
        const theirs = byId.get(mine.upstream_id ?? '');
        return !theirs || theirs.receptor !== mine.receptor || theirs.status !== mine.status;
      })
      .map((mine) => mine.id);
    expect(mismatches).toEqual([]);
    expect(new Set(final.map((message) => message.upstream_id)).size).toBe(final.length);
    expect(remote.length - final.length).toBeLessThanOrEqual(states.review ?? 0);
    expect(handedOver(v2proxy, at).messages).toBe(remote.length);
  }, 420_000);
});
