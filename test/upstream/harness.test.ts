// The harness of the delivery tests, checked on its own against one provider (`npm run serve`): the
// fault proxy's every mode with plain fetch (passed through, 500 and Kavenegar errors without
// reaching the provider, an answer dropped or held after the provider did the work, the next N
// requests or only the sends), what it counts, and the provider's bridge and read-only database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSendCall, startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import {
  PROVIDER_ACCOUNT,
  PROVIDER_KEY,
  PROVIDER_LINE,
  providerMessages,
  startProvider,
  stopAll,
  type Service,
} from '../helpers/two-services';

let provider: Service;
let proxy: FaultProxy;

beforeAll(async () => {
  provider = await startProvider({ credit_rials: 10_000_000 });
  proxy = await startFaultProxy(provider.url);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await stopAll([provider]);
});

let next = 0;
/** A v1 send of one message through the proxy, with its own receptor and local id. */
function v1Send(timeoutMs = 5_000): Promise<Response> {
  next += 1;
  const form = new URLSearchParams({
    receptor: `0912${String(1_000_000 + next).padStart(7, '0')}`,
    message: 'سلام',
    sender: PROVIDER_LINE,
    localid: `harness-${next}`,
  });
  return fetch(`${proxy.url}/v1/${PROVIDER_KEY}/sms/send.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    signal: AbortSignal.timeout(timeoutMs),
  });
}

const held = () => providerMessages(provider).length;

describe('the fault proxy in front of a provider', () => {
  it('passes requests through by default and counts them', async () => {
    const before = held();
    const answer = await v1Send();
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as any;
    expect(body.return.status).toBe(200);
    expect(body.entries).toHaveLength(1);
    expect(held()).toBe(before + 1);
    expect(proxy.counts()).toMatchObject({ received: 1, forwarded: 1, answered: 1 });
    // The log never holds the key.
    expect(proxy.log()[0]!.path).toBe('/v1/{key}/sms/send.json');
    expect(JSON.stringify(proxy.log())).not.toContain(PROVIDER_KEY);
  });

  it('answers 500 without forwarding, for the next request only', async () => {
    const before = held();
    const forwarded = proxy.counts().forwarded;
    proxy.next(1, { kind: 'fail500' });
    const failed = await v1Send();
    expect(failed.status).toBe(500);
    expect(held()).toBe(before);
    expect(proxy.counts().forwarded).toBe(forwarded);
    expect((await v1Send()).status).toBe(200);
    expect(held()).toBe(before + 1);
    expect(proxy.pending()).toBe(0);
  });

  it('answers a Kavenegar error in the v1 envelope with its HTTP status, without forwarding', async () => {
    const before = held();
    for (const code of [418, 451, 429]) {
      proxy.next(1, { kind: 'error', code });
      const answer = await v1Send();
      expect(answer.status).toBe(code);
      const body = (await answer.json()) as any;
      expect(body.return.status).toBe(code);
      expect(typeof body.return.message).toBe('string');
      expect(body.return.message.length).toBeGreaterThan(0);
      expect(body.entries).toBeNull();
    }
    expect(held()).toBe(before);
  });

  it('resets the connection without forwarding: neither side hears', async () => {
    const before = held();
    const forwarded = proxy.counts().forwarded;
    proxy.next(1, { kind: 'reset' });
    await expect(v1Send()).rejects.toThrow();
    expect(held()).toBe(before);
    expect(proxy.counts().forwarded).toBe(forwarded);
  });

  it('forwards but drops the answer: the provider took the message, the caller hears nothing', async () => {
    const before = held();
    proxy.next(1, { kind: 'drop' });
    await expect(v1Send()).rejects.toThrow();
    expect(held()).toBe(before + 1);
    expect(proxy.log().at(-1)).toMatchObject({ fault: 'drop', forwarded: true, upstreamStatus: 200 });
    // The next request on a new connection goes through.
    expect((await v1Send()).status).toBe(200);
  });

  it("delays the answer past the caller's timeout, and answers a patient caller late", async () => {
    const before = held();
    proxy.next(1, { kind: 'delay', ms: 1_500 });
    const started = Date.now();
    await expect(v1Send(500)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_400);
    // The provider already has it, although the caller gave up.
    expect(held()).toBe(before + 1);

    proxy.next(1, { kind: 'delay', ms: 700 });
    const patient = Date.now();
    const answer = await v1Send(5_000);
    expect(answer.status).toBe(200);
    expect(Date.now() - patient).toBeGreaterThanOrEqual(650);
    expect(held()).toBe(before + 2);
  });

  it('applies a standing fault to the sends only, and reports the requests it saw', async () => {
    proxy.always({ kind: 'error', code: 418 }, isSendCall);
    expect((await v1Send()).status).toBe(418);
    const info = await fetch(`${proxy.url}/v1/${PROVIDER_KEY}/account/info.json`);
    expect(info.status).toBe(200);
    proxy.always({ kind: 'pass' });
    expect((await v1Send()).status).toBe(200);
    await proxy.waitFor(3, isSendCall, 1_000);
    const counts = proxy.counts();
    expect(counts.received).toBe(Object.values(counts.byFault).reduce((sum, n) => sum + n, 0));
    expect(counts.forwarded).toBe(counts.byFault.pass + counts.byFault.drop + counts.byFault.delay);
  });

  it("the provider's bridge tops up its account's credit, seen by account/info", async () => {
    const account = provider.accountId(PROVIDER_ACCOUNT);
    const before = (await provider.invoke<{ credit_rials: number }>('credit:balance', { account_id: account }))
      .credit_rials;
    await provider.invoke('credit:topUp', { account_id: account, amount_rials: 1_000_000, note: 'harness' });
    const info = (await (await fetch(`${provider.url}/v1/${PROVIDER_KEY}/account/info.json`)).json()) as any;
    expect(info.entries.remaincredit).toBe(before + 1_000_000);
  });
});

describe('the fault proxy itself', () => {
  it('closes with an answer still held, and a provider gone is a 502', async () => {
    const own = await startFaultProxy(provider.url);
    own.always({ kind: 'delay', ms: 60_000 });
    const pending = fetch(`${own.url}/health`).then(
      () => 'answered',
      () => 'dropped',
    );
    await own.waitFor(1, undefined, 5_000);
    const started = Date.now();
    await own.close();
    expect(await pending).toBe('dropped');
    expect(Date.now() - started).toBeLessThan(2_000);

    const nowhere = await startFaultProxy('http://127.0.0.1:9');
    try {
      expect((await fetch(`${nowhere.url}/health`)).status).toBe(502);
    } finally {
      await nowhere.close();
    }
  });
});
