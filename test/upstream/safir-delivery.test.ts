// Bale messages to phone numbers through Safir, against the local Safir (fakes/safir.ts) behind the
// fault proxy, with the app as users run it. Safir's request_id is what keeps "exactly once" here:
// a request cut off by a kill or a dropped connection is asked again under the same id, and the
// fake, which deduplicates only by it, counts one message per local message. Safir reports no
// statuses: every message ends handed over with its status unknown (never made up).
import { afterAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy, type Match } from '../helpers/fault-proxy';
import { PROVIDER_KEY, startApp, stopAll, until, type Service } from '../helpers/two-services';
import {
  apiSend,
  dropAnswers,
  killAnywhere,
  killer,
  killMidCall,
  lineMessages,
  phones,
  startCampaign,
  untilSettled,
  uploadSegment,
} from './support';
import { startSafirFake, type SafirFake } from './fakes/safir';
import { safirRequestId } from '../../electron/service/messaging/carriers/upstream/bale-safir';

const BOT = '4455667788';
const CAMPAIGN = 10_000;
const API = 1_000;
const MESSAGES = CAMPAIGN + API;
const RATE = 25;

const isSend: Match = ({ path }) => path === '/api/v3/send_message';

let fake: SafirFake | undefined;
let proxy: FaultProxy | undefined;
let app: Service | undefined;
afterAll(async () => {
  await stopAll([app]);
  await proxy?.close();
  await fake?.close();
});

async function setUp(number: string): Promise<{ fake: SafirFake; proxy: FaultProxy; app: Service }> {
  await stopAll([app]);
  await proxy?.close();
  await fake?.close();
  fake = await startSafirFake({ accessKey: PROVIDER_KEY, bots: [BOT] });
  proxy = await startFaultProxy(fake.url);
  app = await startApp({
    lines: [{ number, kind: 'bale-safir', provider: 'bale', base_url: proxy.url, sender: BOT, rate_per_second: RATE }],
  });
  return { fake, proxy, app };
}

describe('Safir as a Bale line’s gateway', () => {
  it('a 10,000-recipient campaign: after three kills and dropped answers, exactly one Safir message per local message, each under its request id', async () => {
    const number = '40001111';
    const { fake, proxy, app } = await setUp(number);
    const log: string[] = [];
    const kill = killer(app, number, log);
    const segment = await uploadSegment(app, phones(CAMPAIGN), (i) => `مشتری ${i}`);
    await startCampaign(app, number, segment, 'سلام {{NAME}}، سفارش شما آماده است');
    await apiSend(app, number, phones(API, 1_000_000), 'پیام بله');

    await dropAnswers(proxy, [isSend, isSend]);
    await killMidCall(proxy, isSend, kill);
    await killAnywhere(kill);

    const states = await untilSettled(app, number, MESSAGES, 240_000);
    console.log(`safir kills:\n  ${log.join('\n  ')}\n  end: ${JSON.stringify(states)}`);
    // No statuses at Safir: each message handed over, its status unknown.
    expect(states).toEqual({ expired: MESSAGES });
    const local = lineMessages(app, number);
    expect(local).toHaveLength(MESSAGES);
    // Exactly once at Safir, and each local message named by its own request id there.
    expect(fake.messages).toHaveLength(MESSAGES);
    const byRequest = new Map(fake.messages.map((m) => [m.requestId, m]));
    expect(byRequest.size).toBe(MESSAGES);
    const mismatches = local.filter((mine) => {
      const theirs = byRequest.get(safirRequestId(Number(mine.local_id)));
      return !theirs || theirs.messageId !== mine.upstream_id || theirs.phoneNumber !== '98' + mine.receptor.slice(1);
    });
    expect(mismatches.slice(0, 10)).toEqual([]);
    // The requests cut off were asked again: more requests than messages, never more messages.
    expect(fake.requests).toBeGreaterThan(MESSAGES);
  }, 420_000);

  it('pauses the line when Safir says the credit ran out, and goes on by itself once it takes messages again; retries 429 and 500', async () => {
    const number = '40002222';
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
    expect(fake.messages).toHaveLength(150);
    fake.limitPerSecond = 2;
    proxy.next(3, { kind: 'fail500' }, isSend);
    fake.credit = 10_000;
    // Safir has no read of the credit: the carrier tries the line again after a while by itself.
    await until('a 429', () => proxy.log().some((call) => call.upstreamStatus === 429), Boolean, 60_000, 100);
    fake.limitPerSecond = Infinity;
    expect(await untilSettled(app, number, 300, 120_000)).toEqual({ expired: 300 });
    expect(fake.messages).toHaveLength(300);
    expect(new Set(fake.messages.map((message) => message.requestId)).size).toBe(300);
    expect(proxy.counts().byFault.fail500).toBe(3);
  }, 240_000);
});
