// Real delivery end to end, over two `npm run serve` processes: the app's lines hand a campaign (a
// text per recipient, from an uploaded segment) and API sends (shared texts, v2 send and v1
// sendarray) over to the provider, one line on Kavenegar's v1 API and one on the v2 API. In the end
// every message is final, the provider holds exactly one message per local message (counted in its
// own database), and status and cost agree on both sides; the provider charges its own price, so
// each local cost is the provider's. A pass-through proxy between them sees every call: each within
// its API's cap, no receptor twice in one, and as many messages handed over as there are locally.
// 25,000 recipients a line take about 10 s each on a 2-core machine (CHAPAR_UPSTREAM_SIZE overrides).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSendCall, startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { call, dialServer } from '../api-v1/kavenegar';
import {
  PROVIDER_KEY,
  PROVIDER_LINE,
  PROVIDER_LINE_2,
  startApp,
  startProvider,
  stopAll,
  until,
  type Service,
} from '../helpers/two-services';
import {
  apiSend,
  apiSendArray,
  execution,
  expectSameOnBothSides,
  handedOver,
  lineMessages,
  phones,
  startCampaign,
  untilSettled,
  uploadSegment,
} from './support';

const SIZE = Number(process.env.CHAPAR_UPSTREAM_SIZE ?? 25_000);
const API_SHARED = 1_000;
const API_OWN = 100;
/** The provider's page price differs from the app's price list (150 tomans): its cost must win. */
const PROVIDER_PAGE_TOMANS = 120;

const V1_LINE = '30001111';
const V2_LINE = '30002222';

let provider: Service;
let app: Service;
let proxy: FaultProxy;

beforeAll(async () => {
  provider = await startProvider({ credit_rials: 1_000_000_000, page_tomans: PROVIDER_PAGE_TOMANS });
  proxy = await startFaultProxy(provider.url);
  app = await startApp({
    lines: [
      { number: V1_LINE, kind: 'kavenegar-v1', base_url: proxy.url, sender: PROVIDER_LINE, rate_per_second: 50 },
      { number: V2_LINE, kind: 'najva-v2', base_url: proxy.url, sender: PROVIDER_LINE_2, rate_per_second: 50 },
    ],
  });
}, 120_000);
afterAll(async () => {
  await stopAll([app, provider]);
  await proxy?.close();
});

const cases = [
  { line: V1_LINE, kind: 'kavenegar-v1', at: PROVIDER_LINE, offset: 0, localIds: true, cap: 200, v1: true },
  { line: V2_LINE, kind: 'najva-v2', at: PROVIDER_LINE_2, offset: 5_000_000, localIds: false, cap: 9_000, v1: false },
] as const;

describe(`a campaign of ${SIZE} recipients and API sends through the provider`, () => {
  for (const { line, kind, at, offset, localIds, cap, v1 } of cases)
    it(`${kind}: every message reaches the provider exactly once, statuses and costs equal on both sides`, async () => {
      const started = Date.now();
      const callsBefore = proxy.log(isSendCall).length;
      const audience = phones(SIZE, offset);
      const segment = await uploadSegment(app, audience, (i) => `مشتری ${i}`);
      const uploaded = Date.now();
      const executionId = await startCampaign(app, line, segment, 'سلام {{NAME}}، تخفیف بهاره این هفته');
      await apiSend(app, line, phones(API_SHARED, offset + SIZE), 'کد تایید شما ۴۸۲۱ است');
      const own = phones(API_OWN, offset + SIZE + API_SHARED);
      await apiSendArray(
        app,
        line,
        own,
        own.map((_, i) => `سفارش ${i} ارسال شد`),
      );
      const expected = SIZE + API_SHARED + API_OWN;
      const states = await untilSettled(app, line, expected, 150_000);
      const settled = Date.now();

      const comparison = expectSameOnBothSides(app, line, provider, at, { localIds });
      expect(comparison.local).toBe(expected);
      expect(states).toEqual({ final: expected });
      // The provider's own outcomes came through: more than one final status.
      expect(Object.keys(comparison.statuses).length).toBeGreaterThan(1);
      // On the wire: each call within its cap, no receptor twice in one, each message handed over once.
      const sent = handedOver(proxy);
      const mine = proxy.log(isSendCall).slice(callsBefore);
      expect(mine.every((call) => call.path.startsWith('/v1/') === v1)).toBe(true);
      expect(mine.every((call) => call.forwarded && call.upstreamStatus === 200)).toBe(true);
      const calls = sent.calls.slice(callsBefore);
      expect(calls.filter((receptors) => receptors.length > cap)).toEqual([]);
      expect(calls.filter((receptors) => new Set(receptors).size !== receptors.length)).toEqual([]);
      expect(calls.reduce((sum, receptors) => sum + receptors.length, 0)).toBe(expected);
      // Own texts went as own-text calls (the campaign), shared ones as one-text calls.
      const paths = new Set(mine.map((call) => call.path.replace(/^\/v1\/\{key\}/, '')));
      expect(paths).toEqual(
        v1 ? new Set(['/sms/send.json', '/sms/sendarray.json']) : new Set(['/v2/sms/send', '/v2/sms/send-p2p']),
      );
      // The execution ends at its job's next look after the last message left 1 and 2.
      const report = await until(
        'execution completed',
        () => execution(app, executionId),
        (entries) => entries.execution_status !== 'RUNNING',
        30_000,
      );
      expect(report.execution_status).toBe('COMPLETED');
      expect(report.audience).toBe(SIZE);
      expect(report.pending).toBe(0);
      console.log(
        `${kind}: ${expected} messages (campaign ${SIZE}): upload ${uploaded - started} ms, ` +
          `campaign and sends to all final ${settled - uploaded} ms in ${calls.length} send calls; ` +
          `statuses ${JSON.stringify(comparison.statuses)}`,
      );
    }, 240_000);

  it("the official kavenegar client, against the provider, reads the app's messages as the app has them", async () => {
    const restore = dialServer(provider.url);
    try {
      const sample = lineMessages(app, V1_LINE).filter((_, i) => i % 250 === 0);
      expect(sample.length).toBeGreaterThan(50);
      const byLocalId = await call(PROVIDER_KEY, 'StatusLocalMessageid', {
        localid: sample.map((message) => message.local_id).join(','),
      });
      expect(byLocalId.status).toBe(200);
      expect(
        byLocalId.entries.map((entry: any) => [String(entry.localid), String(entry.messageid), entry.status]),
      ).toEqual(sample.map((message) => [message.local_id, message.upstream_id, message.status]));
      const byId = await call(PROVIDER_KEY, 'Status', {
        messageid: sample.map((message) => message.upstream_id).join(','),
      });
      expect(byId.status).toBe(200);
      expect(byId.entries.map((entry: any) => [String(entry.messageid), entry.status])).toEqual(
        sample.map((message) => [message.upstream_id, message.status]),
      );
    } finally {
      restore();
    }
  });
});
