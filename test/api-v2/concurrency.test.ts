// Concurrent sends racing for the last credit (spec 4.1 rule 3): the credit never goes negative,
// exactly what the credit allows is accepted, and sum(ledger) == balance at the end, also while
// the real gateway refunds status-13 messages in between.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import { eventually, OTHER_KEY, post, startServer, testSeed, type TestServer } from '../helpers/server';
import { accountId, counts, expectEnvelope, expectError, phones, refundRows, type HttpResult } from './support';

const open: TestServer[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
});

async function serverWithCredit(creditRials: number, manual = true) {
  const seed = testSeed();
  seed.accounts![0]!.credit_rials = creditRials;
  const server = await startServer({ seed, clock: manual ? new ManualClock() : undefined });
  open.push(server);
  return { server, acme: accountId(server.core, 'acme'), other: accountId(server.core, 'other') };
}

const byStatus = (results: HttpResult[], status: number) => results.filter((r) => r.status === status);

describe('concurrent sends', () => {
  it('accepts exactly as many one-receiver sends as the credit covers out of 3N in parallel', async () => {
    const N = 20;
    const { server, acme } = await serverWithCredit(N * 1500);
    const results = await Promise.all(
      phones(3 * N).map((receiver) =>
        post(`${server.url}/v2/sms/send`, { message: 'x', sender: '30001111', receivers: [receiver] }),
      ),
    );
    for (const result of byStatus(results, 200)) expectEnvelope(result, 200);
    for (const result of byStatus(results, 418)) expectError(result, 418);
    expect(byStatus(results, 200)).toHaveLength(N);
    expect(byStatus(results, 418)).toHaveLength(2 * N);
    const after = counts(server.core, acme);
    expect(after).toMatchObject({ balance: 0, ledgerSum: 0, messages: N, sends: N, ledgerRows: 1 + N });
    const accepted = byStatus(results, 200).map((r) => r.body.entries[0].messageid);
    expect(new Set(accepted).size).toBe(N);
  });

  it('with multi-receiver sends, never splits one: accepted sends fit, the remainder stays', async () => {
    const N = 15;
    // Credit for 2N + 1 one-page messages; every request asks for two.
    const { server, acme, other } = await serverWithCredit((2 * N + 1) * 1500);
    const otherBefore = counts(server.core, other);
    const requests = Array.from({ length: 3 * N }, (_, i) =>
      post(`${server.url}/v2/sms/send`, { message: 'x', sender: '30001111', receivers: phones(2, 100 * i) }),
    );
    // The other account sends and looks up at the same time, untouched by acme's race.
    const otherRequests = Array.from({ length: 10 }, (_, i) =>
      post(`${server.url}/v2/sms/send`, { message: 'x', sender: '30009999', receivers: phones(1, i) }, OTHER_KEY),
    );
    const lookups = Array.from({ length: 10 }, () => post(`${server.url}/v2/sms/status`, { messageids: [1, 2, 3] }));
    const [results, otherResults, lookupResults] = await Promise.all([
      Promise.all(requests),
      Promise.all(otherRequests),
      Promise.all(lookups),
    ]);
    expect(byStatus(results, 200)).toHaveLength(N);
    expect(byStatus(results, 418)).toHaveLength(2 * N);
    for (const result of byStatus(results, 200))
      expect(result.body.entries.map((e: { status: number }) => e.status)).toEqual([1, 1]);
    expect(counts(server.core, acme)).toMatchObject({ balance: 1500, ledgerSum: 1500, messages: 2 * N });
    for (const result of otherResults) expectEnvelope(result, 200);
    for (const result of lookupResults) expectEnvelope(result, 200);
    const otherAfter = counts(server.core, other);
    expect(otherAfter.balance).toBe(otherBefore.balance - 10 * 1500);
    expect(otherAfter.ledgerSum).toBe(otherAfter.balance);
  });

  it('keeps the ledger balanced while the real gateway refunds 13s between racing sends', async () => {
    const { server, acme } = await serverWithCredit(30 * 1500, false);
    server.core.settings.setSimulator({ seed: 3, handoff_ms: 5, delivery_ms: 5, outcomes: { '10': 1, '13': 1 } });
    const initial = counts(server.core, acme);
    let accepted = 0;
    // Waves of parallel sends: refunds of earlier waves land while later waves race.
    for (let wave = 0; wave < 6; wave++) {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          post(`${server.url}/v2/sms/send`, { message: 'x', sender: '30001111', receivers: phones(1, wave * 100 + i) }),
        ),
      );
      for (const result of results) expect([200, 418]).toContain(result.status);
      accepted += byStatus(results, 200).length;
      const now = counts(server.core, acme);
      expect(now.balance).toBeGreaterThanOrEqual(0);
      expect(now.ledgerSum).toBe(now.balance);
    }
    // Wait for every message to be final, then: balance = initial - cost of the unrefunded.
    await eventually(() => {
      const row = server.core.db
        .prepare('SELECT COUNT(*) AS n FROM messages WHERE status NOT IN (10, 11, 13, 14)')
        .get() as { n: number };
      return row.n === 0 ? true : undefined;
    });
    const final = counts(server.core, acme);
    const refunded = server.core.db.prepare('SELECT COUNT(*) AS n FROM messages WHERE status = 13').get() as {
      n: number;
    };
    expect(final.messages).toBe(accepted);
    expect(refundRows(server.core, acme)).toHaveLength(refunded.n);
    expect(final.balance).toBe(initial.balance - (accepted - refunded.n) * 1500);
    expect(final.ledgerSum).toBe(final.balance);
    // At least what the credit covered was accepted (more when refunds landed between waves).
    expect(accepted).toBeGreaterThanOrEqual(30);
  });
});
