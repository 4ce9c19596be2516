// A panel send of any size is one unit (issue: a 100,000-receiver send from Compose, racing API
// clients for credit, once answered 418 after 90,000 messages had been recorded and charged).
// Here four API clients keep sending over HTTP while Compose sends to 100,000 receivers: the panel
// send is recorded whole or not at all, and the credit always equals its ledger.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import { ServiceError } from '../../electron/service/errors';
import { panelSend } from '../../electron/service/messaging/compose';
import { post, startServer, testSeed, type TestServer } from '../helpers/server';
import { accountId, counts, phones } from '../api-v2/support';

const open: TestServer[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
});

const PANEL = 100_000;
const PAGE = 1500; // one page of 'x' + the opt-out phrase, at 150 tomans

async function race(creditMessages: number) {
  const seed = testSeed();
  seed.accounts![0]!.credit_rials = creditMessages * PAGE;
  // A manual clock: nothing moves or is refunded while the race runs, so every rial is accounted for.
  const server = await startServer({ seed, clock: new ManualClock() });
  open.push(server);
  const acme = accountId(server.core, 'acme');
  let stop = false;
  const client = async (n: number) => {
    let round = 0;
    while (!stop) {
      const result = await post(`${server.url}/v2/sms/send`, {
        message: 'x',
        sender: '30001111',
        receivers: phones(1000, 1_000_000 + n * 100_000 + (round++ % 90) * 1000),
      });
      if (result.status === 418) break;
      expect(result.status).toBe(200);
    }
  };
  const clients = [0, 1, 2, 3].map(client);
  let panel: { send_id: number } | { code: number };
  let heldMs: number;
  try {
    // Let the clients get going, then send from Compose in the middle of their traffic.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const receivers = phones(PANEL, 5_000_000);
    const started = performance.now();
    try {
      panel = panelSend(server.core, { account_id: acme, sender: '30001111', message: 'x', receivers });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      panel = { code: error.code };
    }
    heldMs = performance.now() - started;
  } finally {
    // Whatever happened, the clients end before the server closes under them (afterEach).
    stop = true;
    await Promise.allSettled(clients);
  }
  // A client's own failure, reported.
  await Promise.all(clients);
  const panelMessages = server.core.db
    .prepare("SELECT COUNT(*) AS n FROM messages m JOIN sends s ON s.id = m.send_id WHERE s.origin = 'panel'")
    .get() as { n: number };
  const after = counts(server.core, acme);
  return { panel, panelMessages: panelMessages.n, after, heldMs, initial: creditMessages * PAGE };
}

describe('a 100,000-receiver panel send racing API sends for credit', () => {
  for (const [label, creditMessages] of [
    ['with credit to spare, is recorded whole', PANEL + 400_000],
    ['with credit for part of it, is refused with nothing recorded', PANEL - 1],
    ['with credit about to run out, is whole or absent', PANEL + 20_000],
  ] as const)
    it(label, async () => {
      const { panel, panelMessages, after, heldMs, initial } = await race(creditMessages);
      if ('send_id' in panel) expect(panelMessages).toBe(PANEL);
      else {
        expect(panel).toEqual({ code: 418 });
        expect(panelMessages).toBe(0);
      }
      if (creditMessages > PANEL + 300_000) expect('send_id' in panel).toBe(true);
      if (creditMessages < PANEL) expect('send_id' in panel).toBe(false);
      // Every rial spent is a recorded message, and the ledger equals the balance.
      expect(after.balance).toBeGreaterThanOrEqual(0);
      expect(after.ledgerSum).toBe(after.balance);
      expect(initial - after.balance).toBe(after.messages * PAGE);
      // One synchronous transaction: generous bound, it is measured in the closing note.
      expect(heldMs).toBeLessThan(10_000);
      console.log(`panel send of ${PANEL}: ${'send_id' in panel ? 'recorded' : 'refused'} in ${heldMs.toFixed(0)} ms`);
    });
});
