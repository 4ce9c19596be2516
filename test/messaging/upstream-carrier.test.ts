// Real delivery through a provider account, in process: the provider is a second Chapar core with
// its real HTTP server on a loopback port (its v1 and v2 APIs), the app a core whose line's gateway
// points at it. Every message the app hands over must be held by the provider exactly once, with
// the same status and cost on both sides; a provider out of credit pauses the line until it has
// credit again. (test/upstream/ runs the same over two `npm run serve` processes, with faults.)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { createBackup, restoreBackup } from '../../electron/service/workspace/backup';
import { KEY, startServer, tempDir, testSeed, type TestServer } from '../helpers/server';
import { startFaultProxy } from '../helpers/fault-proxy';
import type { GatewayKind } from '../../shared/gateways';
import { ManualClock } from '../../electron/service/clock';
import { UpstreamCarrier } from '../../electron/service/messaging/carriers/upstream/upstream-carrier';
import { kavenegarV1Client } from '../../electron/service/messaging/carriers/upstream/kavenegar-v1';
import { carrierMessages } from '../../electron/service/messaging/carrier-messages';

const FAST = {
  timeout_ms: 5_000,
  retry_base_ms: 50,
  retry_max_ms: 500,
  poll_first_ms: 100,
  poll_max_ms: 400,
  inbox_ms: 200,
  reconcile_ms: 100,
};

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const one of opened.splice(0).reverse()) await one.close();
});

async function provider(credit = 10_000_000, pageTomans = 150): Promise<TestServer> {
  const seed = testSeed();
  seed.accounts![0]!.credit_rials = credit;
  seed.pricing = { sms_page_tomans: pageTomans, messenger_message_tomans: 50 };
  const server = await startServer({ seed });
  opened.push(server);
  return server;
}

function appCore(providerUrl: string, kind: GatewayKind, clock?: ManualClock): Core {
  const core = new Core({ dataDir: tempDir(), clock });
  opened.push(core);
  applySeed(core, {
    accounts: [
      {
        name: 'shop',
        credit_rials: 10_000_000,
        api_keys: ['k-shop-app-1'],
        lines: [
          {
            number: '30001111',
            provider: 'sms',
            permissions: ['can_send_api_campaign', 'can_send_panel_campaign'],
            upstream: { kind, base_url: providerUrl, api_key: KEY, rate_per_second: 50 },
          },
        ],
      },
    ],
    pricing: { sms_page_tomans: 150, messenger_message_tomans: 50 },
    upstream_timing: FAST,
  });
  return core;
}

/**
 * Whether the app's scheduler goes idle: a busy loop never does; the bound only ends the wait,
 * generous for a busy machine.
 */
function goesIdle(app: Core): Promise<boolean> {
  return Promise.race([
    app.scheduler.waitForIdle().then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
  ]);
}

function receivers(n: number, from = 0): string[] {
  return Array.from({ length: n }, (_, i) => `0912${String(10_000_000 + from + i).slice(1)}`);
}

async function until<T>(what: string, read: () => T, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Row {
  id: number;
  status: number;
  cost_rials: number;
  receptor: string;
}

const FINAL = '(10, 11, 13, 14, 6)';

function messagesOf(core: Core): Row[] {
  return core.db.prepare<[], Row>('SELECT id, status, cost_rials, receptor FROM messages ORDER BY id').all();
}

function settled(core: Core): number {
  return core.db
    .prepare<[], number>(
      `SELECT COUNT(*) FROM upstream_handovers WHERE state IN ('final', 'rejected', 'expired')
         OR message_id IN (SELECT id FROM messages WHERE status IN ${FINAL})`,
    )
    .pluck()
    .get()!;
}

/** Every local message against the provider's record of it: one each, same status, same cost. */
function compare(app: Core, providerCore: Core): void {
  const local = messagesOf(app);
  const handovers = app.db
    .prepare<[], { message_id: number; upstream_id: string; state: string; cost_rials: number }>(
      'SELECT message_id, upstream_id, state, cost_rials FROM upstream_handovers ORDER BY message_id',
    )
    .all();
  expect(handovers).toHaveLength(local.length);
  const remote = new Map(messagesOf(providerCore).map((row) => [String(row.id), row]));
  // Exactly one provider message per local one: as many, and each local one names a distinct one.
  expect(remote.size).toBe(local.length);
  expect(new Set(handovers.map((h) => h.upstream_id)).size).toBe(local.length);
  const byId = new Map(local.map((row) => [row.id, row]));
  for (const handover of handovers) {
    const mine = byId.get(handover.message_id)!;
    const theirs = remote.get(handover.upstream_id)!;
    expect(theirs.receptor).toBe(mine.receptor);
    expect(mine.status).toBe(theirs.status);
    expect(mine.cost_rials).toBe(theirs.cost_rials);
    expect(handover.cost_rials).toBe(theirs.cost_rials);
  }
}

describe('delivery through a provider account', () => {
  for (const kind of ['kavenegar-v1', 'najva-v2'] as const)
    it(`${kind}: a shared text and own texts reach the provider once each, statuses and costs mirrored`, async () => {
      const server = await provider();
      const app = appCore(server.url, kind);
      const account = app.accounts.findByName('shop')!;
      app.messaging.accept.accept({
        accountId: account.id,
        origin: 'api-v2',
        sender: '30001111',
        text: 'تخفیف امروز',
        receivers: receivers(450),
        rule: 'strict',
      });
      app.messaging.accept.accept({
        accountId: account.id,
        origin: 'panel',
        sender: '30001111',
        text: 'سلام',
        texts: receivers(30, 1000).map((_, i) => `سلام مشتری ${i}`),
        receivers: receivers(30, 1000),
        rule: 'lenient',
      });
      await until(
        'all settled',
        () => settled(app),
        (n) => n === 480,
      );
      compare(app, server.core);
      // The ledger mirrors what was charged: the balance is the opening credit less the kept costs
      // (a provider's 13 and 14 are refunded [reference/sms-upstreams.md], each exactly once).
      const kept = messagesOf(app)
        .filter((row) => row.status !== 13 && row.status !== 14)
        .reduce((sum, row) => sum + row.cost_rials, 0);
      expect(app.credit.balance(account.id)).toBe(10_000_000 - kept);
      const [queue] = app.gateways.queues(account.id);
      expect(queue!.kind).toBe(kind);
      expect(queue!.paused).toBeNull();
      expect(queue!.counts.final).toBe(480);
    });

  it('a provider charging otherwise than our price list: each message costs what it charged, the ledger says so', async () => {
    const server = await provider(10_000_000, 120);
    const app = appCore(server.url, 'kavenegar-v1');
    const account = app.accounts.findByName('shop')!;
    app.messaging.accept.accept({
      accountId: account.id,
      origin: 'api-v2',
      sender: '30001111',
      text: 'سلام',
      receivers: receivers(250),
      rule: 'strict',
    });
    await until(
      'all settled',
      () => settled(app),
      (n) => n === 250,
    );
    compare(app, server.core);
    const kept = messagesOf(app)
      .filter((row) => row.status !== 13 && row.status !== 14)
      .reduce((sum, row) => sum + row.cost_rials, 0);
    expect(messagesOf(app)[0]!.cost_rials).toBe(1_200);
    expect(app.credit.balance(account.id)).toBe(10_000_000 - kept);
    const mirrored = app.credit
      .ledger(account.id, { limit: 50 })
      .entries.filter((entry) => entry.note.startsWith("provider's cost"));
    expect(mirrored.reduce((sum, entry) => sum + entry.amount_rials, 0)).toBe(250 * 300);
    expect(app.gateways.queues(account.id)[0]!.provider_cost_rials).toBe(250 * 1_200);
    // The dashboard tells the provider's costs from the price list's.
    expect(app.messaging.dashboard.stats({ account_id: account.id }).week_cost).toEqual({
      provider_rials: kept,
      price_list_rials: 0,
    });
  });

  it('a provider out of credit pauses the line with its words; credit again resumes it, nothing sent twice', async () => {
    // Enough for two calls of 200 at 150 tomans a page and 50 messages more, not for 600 messages.
    const server = await provider(450 * 1_500);
    const app = appCore(server.url, 'kavenegar-v1');
    const account = app.accounts.findByName('shop')!;
    app.messaging.accept.accept({
      accountId: account.id,
      origin: 'api-v2',
      sender: '30001111',
      text: 'hi',
      receivers: receivers(600),
      rule: 'strict',
    });
    const paused = await until(
      'paused',
      () => app.gateways.queues(account.id)[0]!.paused,
      (pause) => pause !== null,
    );
    expect(paused!.code).toBe(418);
    expect(paused!.text).toBe('اعتبار شما کافی نمی‌باشد');
    const waiting = app.gateways.queues(account.id)[0]!.counts.waiting;
    expect(waiting).toBeGreaterThan(0);
    // Some credit there, but less than its next call costs: it stays paused (no 418 call after call).
    const short = await app.gateways.test(account.id, '30001111');
    expect(short.ok).toBe(true);
    expect(short.credit_rials).toBeGreaterThan(0);
    expect(short.credit_rials).toBeLessThan(200 * 1_500);
    expect(app.gateways.queues(account.id)[0]!.paused).not.toBeNull();
    // The provider's account is topped up; "test connection" sees credit and the line goes on.
    const remoteAccount = server.core.accounts.findByName('acme')!;
    server.core.credit.adjust(remoteAccount.id, 5_000_000, 'top-up');
    const test = await app.gateways.test(account.id, '30001111');
    expect(test.ok).toBe(true);
    expect(test.credit_rials).toBeGreaterThan(0);
    expect(app.gateways.queues(account.id)[0]!.paused).toBeNull();
    await until(
      'all settled',
      () => settled(app),
      (n) => n === 600,
    );
    compare(app, server.core);
  });

  it('past the provider\'s status window a message is "status unknown", never failed, and nothing polls it again', async () => {
    // The provider keeps its messages at 4 (its own gateway far away): never final there.
    const seed = testSeed();
    seed.simulator = { seed: 7, handoff_ms: 3_600_000, delivery_ms: 3_600_000, outcomes: { '10': 1 } };
    const server = await startServer({ seed });
    opened.push(server);
    const clock = new ManualClock(Date.now());
    const app = appCore(server.url, 'kavenegar-v1', clock);
    const account = app.accounts.findByName('shop')!;
    app.messaging.accept.accept({
      accountId: account.id,
      origin: 'api-v2',
      sender: '30001111',
      text: 'hi',
      receivers: receivers(20),
      rule: 'strict',
    });
    const counts = () => app.gateways.queues(account.id)[0]!.counts;
    await until(
      'accepted',
      () => (clock.advance(200), counts().accepted),
      (n) => n === 20,
    );
    // Polled at growing intervals while the window lasts; then, 48 hours on, expired.
    clock.advance(47 * 3_600_000);
    for (let i = 0; i < 10; i++) {
      clock.advance(500);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(counts().accepted).toBe(20);
    expect(counts().expired).toBe(0);
    clock.advance(2 * 3_600_000);
    await until(
      'expired',
      () => (clock.advance(500), counts().expired),
      (n) => n === 20,
    );
    const statuses = messagesOf(app).map((row) => row.status);
    expect(new Set(statuses)).toEqual(new Set([4]));
    const [handover] = app.gateways.handovers(account.id, '30001111', 'expired', 1);
    expect(handover!.detail).toMatch(/no longer reports/);
  });

  it('a Bale line on najva-v2 copies its file to the provider once and sends it with every message', async () => {
    const server = await provider();
    // The upload answers slowly: both sends' calls (the line runs two at once) start before it ends.
    const proxy = await startFaultProxy(server.url);
    opened.push(proxy);
    proxy.always({ kind: 'delay', ms: 300 }, ({ path }) => path.includes('upload-file'));
    const app = appCore(proxy.url, 'najva-v2');
    const account = app.accounts.findByName('shop')!;
    app.accounts.upsertLine(account.id, {
      number: 'shop_bot',
      provider: 'bale',
      permissions: ['can_send_panel_campaign'],
    });
    app.gateways.set({
      account_id: account.id,
      number: 'shop_bot',
      kind: 'najva-v2',
      base_url: proxy.url,
      api_key: KEY,
      sender: 'bale_acme_bot',
      rate_per_second: 50,
    });
    const image = Buffer.from('GIF89a-a-small-picture');
    const file = app.files.save(account.id, 'bale', { name: 'sale.gif', mime: 'image/gif', data: image });
    for (const [from, text] of [
      [0, 'حراج'],
      [100, 'حراج دوم'],
    ] as const)
      app.messaging.accept.accept({
        accountId: account.id,
        origin: 'panel',
        sender: 'shop_bot',
        text,
        receivers: receivers(5, from),
        rule: 'lenient',
        fileId: file.id,
      });
    await until(
      'all settled',
      () => settled(app),
      (n) => n === 10,
    );
    compare(app, server.core);
    const remoteFiles = server.core.db.prepare<[], { id: string; size: number }>('SELECT id, size FROM files').all();
    expect(remoteFiles).toEqual([{ id: expect.any(String), size: image.length }]);
    const attached = server.core.db
      .prepare<[], { file_id: string | null; sender: string }>('SELECT DISTINCT file_id, sender FROM sends')
      .all();
    expect(attached).toEqual([{ file_id: remoteFiles[0]!.id, sender: 'bale_acme_bot' }]);
  });

  it('replies at the provider come into the Inbox once each, and an opt-out there opts the number out here', async () => {
    const seed = testSeed();
    seed.simulator = {
      seed: 7,
      handoff_ms: 10,
      delivery_ms: 20,
      outcomes: { '10': 1 },
      reply_share: 1,
      optout_share: 0.5,
      reply_ms: 10,
    };
    const server = await startServer({ seed });
    opened.push(server);
    const app = appCore(server.url, 'kavenegar-v1');
    const account = app.accounts.findByName('shop')!;
    const to = receivers(30);
    app.messaging.accept.accept({
      accountId: account.id,
      origin: 'api-v2',
      sender: '30001111',
      text: 'hi',
      receivers: to,
      rule: 'strict',
    });
    const inbound = () =>
      app.db
        .prepare<[], { sender: string; text: string; opt_out: number }>(
          'SELECT sender, text, opt_out FROM inbound_messages ORDER BY id',
        )
        .all();
    await until(
      'replies',
      () => inbound().length,
      (n) => n === 30,
    );
    // Read again and again (the overlap of each read): still once each.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const replies = inbound();
    expect(replies).toHaveLength(30);
    const remote = server.core.db
      .prepare<[], { sender: string; text: string }>('SELECT sender, text FROM inbound_messages ORDER BY id')
      .all();
    expect(replies.map(({ sender, text }) => ({ sender, text }))).toEqual(remote);
    const optedOut = replies.filter((reply) => reply.opt_out === 1).map((reply) => reply.sender);
    expect(optedOut.length).toBeGreaterThan(0);
    for (const phone of optedOut) expect(app.optouts.has(account.id, phone)).toBe(true);
  });

  it('a line whose key was removed waits quietly (no busy loop) and pauses, saying why, when it has messages to hand over', async () => {
    const seed = testSeed();
    seed.simulator = { seed: 7, handoff_ms: 3_600_000, delivery_ms: 3_600_000, outcomes: { '10': 1 } };
    const server = await startServer({ seed });
    opened.push(server);
    const app = appCore(server.url, 'kavenegar-v1');
    const account = app.accounts.findByName('shop')!;
    const send = () =>
      app.messaging.accept.accept({
        accountId: account.id,
        origin: 'api-v2',
        sender: '30001111',
        text: 'hi',
        receivers: receivers(3),
        rule: 'strict',
      });
    send();
    const queue = () => app.gateways.queues(account.id)[0]!;
    await until(
      'accepted',
      () => queue().counts.accepted,
      (n) => n === 3,
    );
    app.gateways.set({ account_id: account.id, number: '30001111', kind: 'kavenegar-v1', api_key: '' });
    // Their polls fall due and cannot run: the scheduler goes idle all the same.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await goesIdle(app)).toBe(true);
    send();
    const paused = await until(
      'paused',
      () => queue().paused,
      (pause) => pause !== null,
    );
    expect(paused).toMatchObject({ code: 403, text: 'no API key is kept for this line' });
    // The key given again is the user's answer: the line goes on.
    app.gateways.set({ account_id: account.id, number: '30001111', kind: 'kavenegar-v1', api_key: KEY });
    expect(queue().paused).toBeNull();
    await until(
      'accepted',
      () => queue().counts.accepted,
      (n) => n === 6,
    );
  });

  it('after a restore brings message ids back, a new message is never taken for an earlier one at the provider', async () => {
    const server = await provider();
    const app = appCore(server.url, 'kavenegar-v1');
    const account = app.accounts.findByName('shop')!;
    const backup = await createBackup(app);
    const send = (from: number) =>
      app.messaging.accept.accept({
        accountId: account.id,
        origin: 'api-v2',
        sender: '30001111',
        text: `hi ${from}`,
        receivers: receivers(5, from),
        rule: 'strict',
      });
    const first = send(0);
    await until(
      'all settled',
      () => settled(app),
      (n) => n === 5,
    );
    await restoreBackup(app, backup.path);
    const again = send(100);
    // The same message ids as before the restore …
    expect(again.firstMessageId).toBe(first.firstMessageId);
    await until(
      'all settled',
      () => settled(app),
      (n) => n === 5,
    );
    // … and yet ten messages at the provider: the new ones, to the new numbers, are its 6th to 10th.
    const remote = messagesOf(server.core);
    expect(remote).toHaveLength(10);
    const handovers = app.db
      .prepare<[], { message_id: number; upstream_id: string }>(
        'SELECT message_id, upstream_id FROM upstream_handovers ORDER BY message_id',
      )
      .all();
    const remoteById = new Map(remote.map((row) => [String(row.id), row]));
    expect(handovers.map((h) => remoteById.get(h.upstream_id)!.receptor)).toEqual(receivers(5, 100));
    expect(handovers.map((h) => h.upstream_id)).toEqual(['6', '7', '8', '9', '10']);
  });

  it("a line's calls keep to its pace: a token bucket of rate_per_second", async () => {
    const server = await provider();
    const app = appCore(server.url, 'kavenegar-v1');
    const account = app.accounts.findByName('shop')!;
    app.gateways.set({ account_id: account.id, number: '30001111', kind: 'kavenegar-v1', rate_per_second: 4 });
    app.messaging.accept.accept({
      accountId: account.id,
      origin: 'api-v2',
      sender: '30001111',
      text: 'hi',
      receivers: receivers(2_400),
      rule: 'strict',
    });
    await until(
      'accepted',
      () => app.gateways.queues(account.id)[0]!.counts.accepted,
      (n) => n === 2_400,
    );
    // At least twelve calls at the provider (200 a call at most): at most 4 at once, then 4 a second,
    // so any 9 in a row span at least 1.25 s.
    const sends = server.core.db.prepare<[], number>('SELECT created_at FROM sends ORDER BY id').pluck().all();
    expect(sends.length).toBeGreaterThanOrEqual(12);
    expect(messagesOf(server.core)).toHaveLength(2_400);
    for (let i = 0; i + 8 < sends.length; i++) expect(sends[i + 8]! - sends[i]!).toBeGreaterThanOrEqual(1_200);
  });

  it('a line keeps its gateway while messages are on their way, and its key never comes back', async () => {
    const server = await provider();
    const app = appCore(server.url, 'kavenegar-v1');
    const account = app.accounts.findByName('shop')!;
    const line = app.accounts.findLine(account.id, '30001111')!;
    expect(line.gateway).toMatchObject({ kind: 'kavenegar-v1', base_url: server.url, key_set: true });
    expect(JSON.stringify(line)).not.toContain(KEY);
    app.messaging.accept.accept({
      accountId: account.id,
      origin: 'api-v2',
      sender: '30001111',
      text: 'hi',
      receivers: receivers(5),
      rule: 'strict',
      dueAt: Date.now() + 3_600_000,
    });
    expect(() => app.gateways.set({ account_id: account.id, number: '30001111', kind: 'simulator' })).toThrow(
      /on their way/,
    );
    // Another address forgets the key given for the old one.
    const moved = app.gateways.set({
      account_id: account.id,
      number: '30001111',
      kind: 'kavenegar-v1',
      base_url: 'http://127.0.0.1:9',
    });
    expect(moved.gateway.key_set).toBe(false);
    // Kavenegar's v1 carries SMS only; Najva's v2 SMS and Bale; Rubika no provider yet.
    app.accounts.upsertLine(account.id, { number: 'shop_bot', provider: 'bale', permissions: [] });
    app.accounts.upsertLine(account.id, { number: 'shop_rubika', provider: 'rubika', permissions: [] });
    const refusal = (number: string, kind: GatewayKind) => {
      try {
        app.gateways.set({ account_id: account.id, number, kind, base_url: server.url });
        return null;
      } catch (error) {
        return (error as { reason?: string }).reason;
      }
    };
    expect(refusal('shop_bot', 'kavenegar-v1')).toBe('gateway_provider_mismatch');
    expect(refusal('shop_rubika', 'najva-v2')).toBe('gateway_provider_mismatch');
    expect(refusal('shop_bot', 'najva-v2')).toBeNull();
  });
});

describe('an answer that leaves messages out', () => {
  it('keeps them in sight as unknown (found again before any resend), never dropped', async () => {
    const server = await provider();
    const app = appCore(server.url, 'kavenegar-v1');
    // Only the carrier below works: the app's own is left idle.
    await app.scheduler.stop();
    const account = app.accounts.findByName('shop')!;
    // A client whose answer names only the first half of each call's messages: the real clients
    // answer for all or say "unknown", so this is a provider client gone wrong.
    const real = kavenegarV1Client({ baseUrl: server.url, apiKey: KEY, sender: '30001111', timeoutMs: 5_000 });
    const carrier = new UpstreamCarrier({
      db: app.db,
      clock: app.clock,
      settings: app.settings,
      accounts: app.accounts,
      files: app.files,
      secrets: app.secrets,
      reports: app.messaging.lifecycle,
      messages: carrierMessages(app.db),
      poke: () => {},
      client: () => ({
        ...real,
        send: async (messages) => {
          const answer = await real.send(messages);
          return answer.kind === 'ok' ? { kind: 'ok', value: answer.value.slice(0, messages.length / 2) } : answer;
        },
      }),
    });
    opened.push({ close: () => carrier.stop() });
    app.messaging.accept.accept({
      accountId: account.id,
      origin: 'api-v2',
      sender: '30001111',
      text: 'hi',
      receivers: receivers(10),
      rule: 'strict',
    });
    // The lifecycle hands them over (when due); this carrier makes the call.
    const line = app.accounts.findLine(account.id, '30001111')!.id;
    const states = () => Object.fromEntries(carrier.handovers.counts(line));
    await until(
      'handed over',
      () => {
        app.messaging.lifecycle.step();
        return states();
      },
      (counts) => counts.waiting === 10,
    );
    await carrier.worker.runDue();
    await until('the call answered', states, (counts) => counts.handing_over === undefined);
    expect(states()).toEqual({ accepted: 5, unknown: 5 });
    expect(app.db.prepare('SELECT COUNT(*) FROM upstream_calls').pluck().get()).toBe(0);
    // Looked up by their local ids, they are found at the provider: taken, nothing sent twice. The
    // lookup is due reconcile_ms after the answer: the carrier is asked again until it has run
    // (once, right after a sleep of that long, it could still be a millisecond early).
    await new Promise((resolve) => setTimeout(resolve, FAST.reconcile_ms));
    await until(
      'reconciled',
      () => {
        // Starts what is due and returns (this carrier's answer is a boolean, not a promise).
        void carrier.worker.runDue();
        return states();
      },
      (counts) => counts.unknown === undefined && (counts.accepted ?? 0) + (counts.final ?? 0) === 10,
    );
    expect(messagesOf(server.core)).toHaveLength(10);
  });

  it('an HTTP gateway line waits (idle, no busy loop) until the app has its own address, so every request names where to report', async () => {
    const requests: string[] = [];
    const gateway = http.createServer((request, response) => {
      requests.push(request.url!);
      response.writeHead(202).end('0: Accepted for delivery');
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    opened.push({ close: () => new Promise<void>((resolve) => gateway.close(() => resolve())) });
    const base = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    const app = appCore(`${base}/cgi-bin/sendsms?to={to}&text={text}&dlr-url={report}`, 'http-gateway');
    const account = app.accounts.findByName('shop')!;
    app.messaging.accept.accept({
      accountId: account.id,
      origin: 'api-v2',
      sender: '30001111',
      text: 'hi',
      receivers: receivers(3),
      rule: 'strict',
    });
    // No address yet (the server not listening): nothing goes out, and the scheduler goes idle.
    expect(await goesIdle(app)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests).toEqual([]);
    expect(app.gateways.queues(account.id)[0]!.paused).toBeNull();
    app.setLocalAddress('http://127.0.0.1:18080');
    await until(
      'handed over',
      () => requests.length,
      (n) => n === 3,
    );
    for (const url of requests)
      expect(new URL(url, base).searchParams.get('dlr-url')).toMatch(
        /^http:\/\/127\.0\.0\.1:18080\/gateway\/reports\/\d+\/[\w-]{32}\?m=\d+&l=\d+&type=%d$/,
      );
  });
});
