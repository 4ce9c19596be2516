// Bale messages to phone numbers through Safir, against the local Safir (fakes/safir.ts) behind the
// fault proxy, with the app as users run it. Safir's request_id is what keeps "exactly once" here:
// a request cut off by a kill or a dropped connection is asked again under the same id, and the
// fake, which deduplicates only by it, counts one message per local message. Safir reports no
// statuses: every message ends handed over with its status unknown (never made up).
import { afterAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy, type Match } from '../helpers/fault-proxy';
import { PROVIDER_KEY, startApp, stopAll, until, type Service } from '../helpers/two-services';
import { apiSend, lineMessages, lineStates, phones, untilSettled } from './support';
import { startSafirFake, type SafirFake } from './fakes/safir';
import { safirRequestId } from '../../electron/service/messaging/carriers/upstream/bale-safir';

const BOT = '4455667788';
const MESSAGES = 2_000;
const RATE = 5;

const isSend: Match = ({ path }) => path === '/api/v3/send_message';

let fake: SafirFake | undefined;
let proxy: FaultProxy | undefined;
let app: Service | undefined;
afterAll(async () => {
  await stopAll([app]);
  await proxy?.close();
  await fake?.close();
});

describe('Safir as a Bale line’s gateway', () => {
  it('after three kills and a dropped answer, exactly one Safir message per local message, each under its request id', async () => {
    const number = '40001111';
    fake = await startSafirFake({ accessKey: PROVIDER_KEY, bots: [BOT] });
    proxy = await startFaultProxy(fake.url);
    app = await startApp({
      lines: [
        { number, kind: 'bale-safir', provider: 'bale', base_url: proxy.url, sender: BOT, rate_per_second: RATE },
      ],
    });
    const log: string[] = [];
    const kill = async (why: string) => {
      await app!.stop('SIGKILL');
      log.push(`${why}: ${JSON.stringify(lineStates(app!, number))}`);
      await app!.start();
    };
    for (let i = 0; i < MESSAGES / 500; i++) await apiSend(app, number, phones(500, i * 500), `پیام بله ${i}`);

    proxy.next(2, { kind: 'drop' }, isSend);
    await until(
      'dropped answers',
      () => proxy!.counts().byFault.drop,
      (n) => n >= 2,
      60_000,
      5,
    );
    proxy.next(1, { kind: 'delay', ms: 1_000 }, isSend);
    await until(
      'a held answer',
      () => proxy!.log(isSend).find((call) => call.fault === 'delay' && call.upstreamStatus !== null),
      (call) => call !== undefined,
      60_000,
      5,
    );
    await kill('killed with an answer on its way');
    await proxy.waitFor(proxy.log(isSend).length + 1, isSend, 60_000);
    await kill('killed as a request arrives');
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    await kill('killed at an arbitrary moment');

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
});
