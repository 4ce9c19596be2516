// Real delivery through IPPanel Edge, against the local IPPanel (fakes/ippanel.ts) behind the fault
// proxy, with the app as users run it (`npm run serve`). IPPanel keeps no id of ours and recognises
// no repeat, so what decides "exactly once" here is the outbox search: a call cut off by a kill or a
// dropped connection is looked for in the outbox report (and its bulks' recipients) and found,
// never sent again. Counted inside the fake: one message per local message; statuses and costs
// mirrored as the fake's clock moves (each message's cost read from its bulk's, ours replaced by
// it). Then the answers that stop a line: credit (paused, and going on by itself once there is
// credit), 429 and 500 (retried).
import { afterAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy, type Match } from '../helpers/fault-proxy';
import { PROVIDER_KEY, startApp, stopAll, until, type Service } from '../helpers/two-services';
import {
  apiSend,
  dropAnswers,
  killAnywhere,
  killDuringSearch,
  killer,
  killMidCall,
  lineMessages,
  phones,
  startCampaign,
  settleWithClock,
  uploadSegment,
} from './support';
import { IPPANEL_PRICES, IppanelStatus, startIppanelFake, type IppanelFake } from './fakes/ippanel';
import { MessageStatus } from '../../shared/lifecycle';

/** The line at IPPanel: as the app keeps it (digits) and as IPPanel names it. */
const LINE_AT_IPPANEL = '983000505';
const LINE_E164 = '+983000505';
const CAMPAIGN = 10_000;
const API = 2_000;
const RATE = 5;

/** The final status the fake gives a number, by its last digit: mostly delivered, some of each other end. */
function outcome(mobile: string): number {
  const last = Number(mobile.at(-1));
  return last === 7 ? IppanelStatus.NotDelivered : last === 9 ? IppanelStatus.Blacklisted : IppanelStatus.Delivered;
}
const OURS = new Map<number, number>([
  [IppanelStatus.Delivered, MessageStatus.Delivered],
  [IppanelStatus.NotDelivered, MessageStatus.Undelivered],
  [IppanelStatus.Blacklisted, MessageStatus.Blocked],
]);

const isSend: Match = ({ method, path }) => method === 'POST' && path === '/v1/api/send';
/** A call of own texts (the campaign's): a bulk a message, looked for without a text to filter by. */
const isPeerToPeer: Match = (call) => isSend(call) && call.body.includes('"sending_type":"peer_to_peer"');
const isWebservice: Match = (call) => isSend(call) && call.body.includes('"sending_type":"webservice"');
const isOutboxRead: Match = ({ path }) => path === '/v1/api/report/new_list';

let fake: IppanelFake | undefined;
let proxy: FaultProxy | undefined;
let app: Service | undefined;
afterAll(async () => {
  await stopAll([app]);
  await proxy?.close();
  await fake?.close();
});

async function setUp(number: string): Promise<{ fake: IppanelFake; proxy: FaultProxy; app: Service }> {
  await stopAll([app]);
  await proxy?.close();
  await fake?.close();
  fake = await startIppanelFake({
    apiKey: PROVIDER_KEY,
    lines: [LINE_E164],
    credit: 100_000_000,
    bulkMs: 1_000,
    deliveryMs: 60_000,
    outcome,
  });
  proxy = await startFaultProxy(fake.url);
  app = await startApp({
    lines: [{ number, kind: 'ippanel-edge', base_url: proxy.url, sender: LINE_AT_IPPANEL, rate_per_second: RATE }],
  });
  return { fake, proxy, app };
}

/** The provider's cost of the line's messages as the app recorded them (its hand-over records). */
function lineCost(app: Service, number: string): number {
  return app.read(
    (db) =>
      db
        .prepare(
          `SELECT COALESCE(SUM(h.cost_rials), 0) FROM upstream_handovers h JOIN lines l ON l.id = h.line_id
           WHERE l.number = ?`,
        )
        .pluck()
        .get(number) as number,
  );
}

/**
 * Every local message once in the fake, under its id there (`bulk:recipient`), with the fake's final
 * status as ours and its cost as ours, the line's recorded cost the fake's whole charge.
 */
function expectExactlyOnce(fake: IppanelFake, app: Service, number: string): void {
  const local = lineMessages(app, number);
  const remote = fake.messages;
  expect(remote.length).toBe(local.length);
  const byId = new Map(remote.map((m) => [`${m.bulkId}:${m.recipient}`, m]));
  const mismatches: string[] = [];
  const costs: string[] = [];
  const named = new Set<string>();
  for (const mine of local) {
    const id = mine.upstream_id ?? '';
    const theirs = byId.get(id);
    if (!theirs) mismatches.push(`local ${mine.id}: no IPPanel message ${mine.upstream_id} (${mine.state})`);
    else if (named.has(id)) mismatches.push(`local ${mine.id}: IPPanel message ${id} named twice`);
    else if (theirs.mobile !== mine.receptor) mismatches.push(`local ${mine.id}: ${mine.receptor} vs ${theirs.mobile}`);
    else if (OURS.get(theirs.finalStatus) !== mine.status)
      mismatches.push(`local ${mine.id}: status ${mine.status}, IPPanel ${theirs.finalStatus}`);
    else if (mine.handover_cost !== theirs.cost || mine.cost_rials !== theirs.cost)
      costs.push(`local ${mine.id}: cost ${mine.cost_rials} (hand-over ${mine.handover_cost}), IPPanel ${theirs.cost}`);
    named.add(id);
  }
  expect(mismatches.slice(0, 20), `${mismatches.length} mismatches`).toEqual([]);
  expect(costs.slice(0, 20), `${costs.length} costs differ`).toEqual([]);
  expect(lineCost(app, number)).toBe(remote.reduce((sum, m) => sum + m.cost, 0));
  // One message a receiver and text at IPPanel: nothing went out twice.
  expect(new Set(remote.map((m) => `${m.mobile}\n${m.message}`)).size).toBe(remote.length);
}

describe('IPPanel Edge as a line’s gateway', () => {
  it('after two dropped answers and four kills, exactly one IPPanel message per local message, statuses and costs mirrored', async () => {
    const number = '30003535';
    const { fake, proxy, app } = await setUp(number);
    const started = Date.now();
    const log: string[] = [];
    const kill = killer(app, number, log);
    const segment = await uploadSegment(app, phones(CAMPAIGN), (i) => `مشتری ${i}`);
    // A text each: peer-to-peer calls, a bulk a message.
    await startCampaign(app, number, segment, 'سلام {{NAME}}، تخفیف بهاره');
    // One text: webservice calls, a bulk a call.
    await apiSend(app, number, phones(API, 1_000_000), 'حراج آخر هفته');
    const total = CAMPAIGN + API;

    // IPPanel took a call of each kind; the connection drops before its answer: found in the outbox.
    await dropAnswers(proxy, [isWebservice, isPeerToPeer]);
    await killMidCall(proxy, isSend, kill, isPeerToPeer);
    await killDuringSearch(proxy, isOutboxRead, kill, 120_000);
    await killAnywhere(kill);

    const states = await settleWithClock(fake, app, number, total);
    const bulks = new Map<string, number>();
    for (const bulk of fake.bulks.values()) bulks.set(bulk.type, (bulks.get(bulk.type) ?? 0) + 1);
    console.log(
      `ippanel kills:\n  ${log.join('\n  ')}\n  end: ${JSON.stringify(states)} after ${Date.now() - started} ms;` +
        ` ${fake.messages.length} messages in ${JSON.stringify(Object.fromEntries(bulks))} bulks,` +
        ` ${fake.requests.length} requests, ${proxy.log(isOutboxRead).length} outbox reads`,
    );
    expect(states).toEqual({ final: total });
    expectExactlyOnce(fake, app, number);
    expect(proxy.log(isOutboxRead).length).toBeGreaterThan(0);
    // The provider's price, not ours (150 tomans a page), is what each message cost.
    expect(fake.messages.every((m) => m.cost === IPPANEL_PRICES.mci)).toBe(true);
  }, 600_000);

  it('pauses the line when the credit runs out and goes on by itself when there is credit; retries 429 and 500', async () => {
    const number = '30004545';
    const { fake, proxy, app } = await setUp(number);
    const pausedCode = () =>
      app.read((db) => db.prepare('SELECT paused_code FROM upstream_lines').pluck().get() as number | null);
    // Enough for 150 messages: the second call of 100 is refused.
    fake.credit = 150 * IPPANEL_PRICES.mci;
    await apiSend(app, number, phones(300, 3_000_000), 'یادآوری نوبت');
    expect(await until('the line paused', pausedCode, (code) => code === 418, 60_000, 100)).toBe(418);
    expect(fake.messages.length).toBe(100);
    // Rate-limited and failing for a while as well (sends and status reads): retried, never sent twice.
    fake.limitPerSecond = 1;
    proxy.next(3, { kind: 'fail500' }, isSend);
    fake.failNext(2, 503, '/v1/api/report/recipients');
    fake.credit = 10_000_000;
    await until('a 429', () => proxy.log().some((call) => call.upstreamStatus === 429), Boolean, 30_000, 100);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    fake.limitPerSecond = Infinity;
    const states = await settleWithClock(fake, app, number, 300);
    expect(states).toEqual({ final: 300 });
    expectExactlyOnce(fake, app, number);
    expect(proxy.counts().byFault.fail500).toBe(3);
    expect(proxy.log().filter((call) => call.upstreamStatus === 503)).toHaveLength(2);
    expect(pausedCode()).toBeNull();
  }, 240_000);
});
