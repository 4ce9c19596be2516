// Real delivery through SMS.ir, against the local SMS.ir (fakes/smsir.ts) behind the fault proxy,
// with the app as users run it (`npm run serve`). SMS.ir keeps no id of ours, so what decides
// "exactly once" here is the outbox search: a call cut off by a kill or a dropped connection is
// looked for in the day's outbox and found, never sent again. Counted inside the fake: one message
// per local message; statuses mirrored as the fake's clock moves. Then the answers that stop a
// line: credit (paused, and going on by itself once there is credit), 429 and 500 (retried).
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
import { SmsIrState, startSmsIrFake, type SmsIrFake } from './fakes/smsir';
import { MessageStatus } from '../../shared/lifecycle';

const LINE_AT_SMSIR = '30007732000000';
const CAMPAIGN = 10_000;
const API = 2_000;
const RATE = 5;

/** The final state the fake gives a number, by its last digit: mostly delivered, some of each other end. */
function outcome(mobile: string): number {
  const last = Number(mobile.at(-1));
  return last === 7
    ? SmsIrState.NotDelivered
    : last === 8
      ? SmsIrState.Failed
      : last === 9
        ? SmsIrState.Blacklisted
        : SmsIrState.Delivered;
}
const OURS = new Map<number, number>([
  [SmsIrState.Delivered, MessageStatus.Delivered],
  [SmsIrState.NotDelivered, MessageStatus.Undelivered],
  [SmsIrState.Failed, MessageStatus.SendError],
  [SmsIrState.Blacklisted, MessageStatus.Blocked],
]);

const isSend: Match = ({ method, path }) => method === 'POST' && /^\/v1\/send\/(bulk|liketolike)$/i.test(path);
const isOutboxRead: Match = ({ path }) => path === '/v1/send/live';

let fake: SmsIrFake | undefined;
let proxy: FaultProxy | undefined;
let app: Service | undefined;
afterAll(async () => {
  await stopAll([app]);
  await proxy?.close();
  await fake?.close();
});

async function setUp(number: string): Promise<{ fake: SmsIrFake; proxy: FaultProxy; app: Service }> {
  await stopAll([app]);
  await proxy?.close();
  await fake?.close();
  fake = await startSmsIrFake({
    apiKey: PROVIDER_KEY,
    lines: [LINE_AT_SMSIR],
    credit: 10_000_000,
    deliveryMs: 60_000,
    outcome,
  });
  proxy = await startFaultProxy(fake.url);
  app = await startApp({
    lines: [{ number, kind: 'smsir', base_url: proxy.url, sender: LINE_AT_SMSIR, rate_per_second: RATE }],
  });
  return { fake, proxy, app };
}

/** Every local message once in the fake, under its id there, with the fake's final state as ours. */
function expectExactlyOnce(fake: SmsIrFake, app: Service, number: string): void {
  const local = lineMessages(app, number);
  const remote = fake.messages;
  expect(remote.length).toBe(local.length);
  const byId = new Map(remote.map((m) => [String(m.messageId), m]));
  const mismatches: string[] = [];
  const named = new Set<string>();
  for (const mine of local) {
    const id = mine.upstream_id?.slice(mine.upstream_id.lastIndexOf(':') + 1) ?? '';
    const theirs = byId.get(id);
    if (!theirs) mismatches.push(`local ${mine.id}: no SMS.ir message ${mine.upstream_id}`);
    else if (named.has(id)) mismatches.push(`local ${mine.id}: SMS.ir message ${id} named twice`);
    else if (theirs.mobile !== mine.receptor) mismatches.push(`local ${mine.id}: ${mine.receptor} vs ${theirs.mobile}`);
    else if (OURS.get(theirs.finalState) !== mine.status)
      mismatches.push(`local ${mine.id}: status ${mine.status}, SMS.ir ${theirs.finalState}`);
    named.add(id);
  }
  expect(mismatches.slice(0, 20), `${mismatches.length} mismatches`).toEqual([]);
  // One message a receiver and text at SMS.ir: nothing went out twice.
  expect(new Set(remote.map((m) => `${m.mobile}\n${m.messageText}`)).size).toBe(remote.length);
}

describe('SMS.ir as a line’s gateway', () => {
  it('after four kills and a dropped answer, exactly one SMS.ir message per local message, statuses mirrored', async () => {
    const number = '30003333';
    const { fake, proxy, app } = await setUp(number);
    const log: string[] = [];
    const kill = killer(app, number, log);
    const segment = await uploadSegment(app, phones(CAMPAIGN), (i) => `مشتری ${i}`);
    await startCampaign(app, number, segment, 'سلام {{NAME}}، تخفیف بهاره');
    await apiSend(app, number, phones(API, 1_000_000), 'حراج آخر هفته');
    const total = CAMPAIGN + API;

    // SMS.ir took a call; the connection drops before its answer: found in the outbox.
    await dropAnswers(proxy, [isSend]);
    await killMidCall(proxy, isSend, kill);
    await killDuringSearch(proxy, isOutboxRead, kill, 15_000);
    await killAnywhere(kill);

    const states = await settleWithClock(fake, app, number, total);
    console.log(`smsir kills:\n  ${log.join('\n  ')}\n  end: ${JSON.stringify(states)}`);
    expect(states).toEqual({ final: total });
    expectExactlyOnce(fake, app, number);
    expect(proxy.log(isOutboxRead).length).toBeGreaterThan(0);
  }, 480_000);

  it('pauses the line when the credit runs out and goes on by itself when there is credit; retries 429 and 500', async () => {
    const number = '30004444';
    const { fake, proxy, app } = await setUp(number);
    fake.credit = 150;
    await apiSend(app, number, phones(300, 3_000_000), 'یادآوری نوبت');
    const paused = await until(
      'the line paused',
      () => app.read((db) => db.prepare('SELECT paused_code FROM upstream_lines').pluck().get() as number | null),
      (code) => code === 418,
      60_000,
      100,
    );
    expect(paused).toBe(418);
    expect(fake.messages.length).toBeLessThanOrEqual(150);
    // Rate-limited and failing for a while as well: retried, never sent twice.
    fake.limitPerSecond = 1;
    proxy.next(3, { kind: 'fail500' }, isSend);
    fake.credit = 10_000;
    await until('a 429', () => proxy!.log().some((call) => call.upstreamStatus === 429), Boolean, 30_000, 100);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    fake.limitPerSecond = Infinity;
    const states = await settleWithClock(fake, app, number, 300);
    expect(states).toEqual({ final: 300 });
    expectExactlyOnce(fake, app, number);
    expect(proxy.counts().byFault.fail500).toBe(3);
  }, 240_000);
});
