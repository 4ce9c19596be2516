// The relay client against providers over HTTP (issue 15's acceptance): the embedded sandbox on a
// real server (every recipient one message, statuses polled to delivered), and a provider that
// fails on 127.0.0.1: 5xx and 429 then success (retried, Retry-After honoured, one message per
// recipient), a 4xx (not retried, recipients 'error'), a reset after the provider accepted (the
// retry carries the same Idempotency-Key and is replayed: not sent twice), 412 (a new key), 401
// (the send fails, not retried), and a cancel while a batch is in flight.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { eventually, startServer, tempDir, testSeed, type TestServer } from '../helpers/server';
import { draft, importSegment, settled, type Member } from './support';
import { FAKE_ACCOUNT, FAKE_KEY, startFakeProvider, type Behaviour, type FakeProvider } from './fake-provider';

const members = (n: number, prefix = 'p'): Member[] =>
  Array.from({ length: n }, (_, i) => ({ email: `${prefix}${i}@example.com`, name: `Name ${i}`, city: `city-${i}` }));

describe('through the embedded sandbox over HTTP', () => {
  const EMAIL_KEY = 'ek-acme-0001-secret';
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = tempDir('chapar-email-http-');
    server = await startServer({
      seed: testSeed({ email_accounts: [{ account_id: 1001, api_keys: [EMAIL_KEY], sandbox: true }] }),
    });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('tests the connection, then every recipient gets exactly one message, polled to delivered', async () => {
    const { core } = server;
    const account = core.accounts.findByName('acme')!.id;
    core.email.configure({
      transport: 'provider',
      provider: { url: server.url, account_id: '1001', key: 'wrong-key-000' },
    });
    expect(await core.email.testConnection()).toMatchObject({ ok: false, error: expect.stringContaining('401') });
    core.email.configure({ transport: 'provider', provider: { url: server.url, account_id: '1001', key: EMAIL_KEY } });
    expect(await core.email.testConnection()).toEqual({ ok: true, error: null });
    const segment = await importSegment(core, account, dir, members(1_100));
    const send = core.email.send({ ...draft(account, segment), expected_count: 1_100, request_id: 'http-send-01' });
    expect(send.transport).toBe('provider');
    const done = await settled(core, account, send.id, 60_000);
    expect(done).toMatchObject({ state: 'done', total: 1_100 });
    expect(done.counts.delivered).toBe(1_100);
    // Read back from the provider: one message per recipient, each with its own values.
    const uuid = core.db.prepare('SELECT uuid FROM email_sends WHERE id = ?').pluck().get(send.id) as string;
    const seen = new Map<string, string>();
    let after: string | undefined;
    do {
      const answer = core.emailRelay.list('1001', { tags: `chapar-send-${uuid}`, limit: '100', after });
      const body = answer.body as {
        data: Array<{ recipient: string; subject: string }>;
        pagination: { has_more: boolean; next_cursor: string | null };
      };
      for (const message of body.data) {
        expect(seen.has(message.recipient)).toBe(false);
        seen.set(message.recipient, message.subject);
      }
      after = body.pagination.has_more ? body.pagination.next_cursor! : undefined;
    } while (after);
    expect(seen.size).toBe(1_100);
    expect(seen.get('p7@example.com')).toBe('Hello Name 7');
  }, 90_000);
});

describe('against a provider that fails', () => {
  let core: Core;
  let dir: string;
  let account: number;
  let small: number;
  const providers: FakeProvider[] = [];

  beforeAll(async () => {
    dir = tempDir('chapar-email-fail-');
    fs.mkdirSync(path.join(dir, 'data'));
    core = new Core({ dataDir: path.join(dir, 'data') });
    applySeed(core, testSeed());
    account = core.accounts.findByName('acme')!.id;
    small = await importSegment(core, account, dir, members(3, 's'), 'small.csv');
  });
  afterAll(async () => {
    await core.close();
    for (const provider of providers) await provider.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  let requestCount = 0;
  async function sendThrough(
    behave: (n: number, key: string) => Behaviour,
    options: { failedKeys412?: boolean; segment?: number; count?: number; key?: string } = {},
  ) {
    const provider = await startFakeProvider(behave, options);
    providers.push(provider);
    core.email.configure({
      transport: 'provider',
      provider: { url: provider.url, account_id: FAKE_ACCOUNT, key: options.key ?? FAKE_KEY },
    });
    const send = core.email.send({
      ...draft(account, options.segment ?? small),
      expected_count: options.count ?? 3,
      request_id: `fail-request-${++requestCount}`,
    });
    return { provider, send };
  }
  const recipients = (sendId: number) => core.email.recipients(account, sendId).rows;

  it('5xx, then 429 with Retry-After, then success: retried with the same key, one message per recipient', async () => {
    const { provider, send } = await sendThrough((n) =>
      n === 1 ? { status: 503 } : n === 2 ? { status: 429, headers: { 'retry-after': '2' } } : 'accept',
    );
    const done = await settled(core, account, send.id);
    expect(done).toMatchObject({ state: 'done' });
    expect(done.counts.delivered).toBe(3);
    expect(provider.posts.map((p) => p.status)).toEqual([503, 429, 202]);
    expect(new Set(provider.posts.map((p) => p.key)).size).toBe(1);
    expect(provider.posts[0]!.key).toMatch(/^chapar-[0-9a-f-]{36}-0$/);
    // Retry-After: 2 s honoured (a generous lower bound).
    expect(provider.posts[2]!.at - provider.posts[1]!.at).toBeGreaterThanOrEqual(1_900);
    expect(provider.messages.map((m) => m.email).sort()).toEqual([
      's0@example.com',
      's1@example.com',
      's2@example.com',
    ]);
    expect(provider.messages.find((m) => m.email === 's1@example.com')!.substitutions).toEqual({
      name: 'Name 1',
      Name: 'Name 1',
      CITY: 'city-1',
      PHONE_NUMBER: expect.stringMatching(/^0912/),
    });
  }, 30_000);

  it('a 4xx is not retried: one request, the batch\'s recipients end "error" with the provider\'s message', async () => {
    const { provider, send } = await sendThrough(() => ({ status: 400, body: { message: 'subject is too long' } }));
    const done = await settled(core, account, send.id);
    expect(done.state).toBe('done');
    expect(provider.posts).toHaveLength(1);
    expect(done.counts.error).toBe(3);
    expect(recipients(send.id).map((r) => r.error)).toEqual(Array(3).fill('400: subject is too long'));
  });

  it('a reset after the provider accepted: the retry carries the same key, is replayed, nothing is sent twice', async () => {
    const { provider, send } = await sendThrough((n) => (n === 1 ? 'reset-after-accept' : 'accept'));
    const done = await settled(core, account, send.id);
    expect(done.state).toBe('done');
    expect(provider.posts.map((p) => p.status)).toEqual(['reset', 202]);
    expect(provider.posts[0]!.key).toBe(provider.posts[1]!.key);
    expect(provider.messages).toHaveLength(3);
    expect(
      recipients(send.id)
        .map((r) => r.message_id)
        .sort(),
    ).toEqual(provider.messages.map((m) => m.id).sort());
  });

  it("412 (the key's first request failed): the batch goes again under a new key, once", async () => {
    const { provider, send } = await sendThrough((n) => (n === 1 ? { status: 500 } : 'accept'), {
      failedKeys412: true,
    });
    const done = await settled(core, account, send.id);
    expect(done.state).toBe('done');
    expect(provider.posts.map((p) => p.status)).toEqual([500, 412, 202]);
    expect(provider.posts[2]!.key).toBe(`${provider.posts[0]!.key}-g1`);
    expect(provider.messages).toHaveLength(3);
  });

  it('401: the send fails at once, not retried, its recipients "error"', async () => {
    const { provider, send } = await sendThrough(() => 'accept', { key: 'not-the-key' });
    const done = await settled(core, account, send.id);
    expect(done.state).toBe('failed');
    expect(done.error).toContain('refused the key');
    expect(provider.posts).toHaveLength(0);
    expect(done.counts.error).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(provider.unauthorized()).toBe(1);
    expect(core.email.get(account, send.id).state).toBe('failed');
  });

  it('cancel while a batch is in flight: later batches are never sent, what the provider took is cancelled there', async () => {
    const big = await importSegment(core, account, dir, members(1_100, 'c'), 'big.csv');
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    const { provider, send } = await sendThrough(
      (n) => {
        if (n !== 2) return 'accept';
        held = true;
        return { hold };
      },
      { segment: big, count: 1_100 },
    );
    await eventually(() => (provider.posts.length === 1 && provider.messages.length === 500 ? true : undefined));
    await eventually(() =>
      core.email.recipients(account, send.id, { statuses: ['queued'] }).total === 500 ? true : undefined,
    );
    // The second batch's request has arrived and waits (seen arriving, not assumed to within 200 ms).
    await eventually(() => (held ? true : undefined));
    const cancelled = core.email.cancel(account, send.id);
    expect(cancelled.state).toBe('cancelled');
    release();
    await eventually(() => (core.email.get(account, send.id).counts.cancelled === 1_100 ? true : undefined), 20_000);
    expect(provider.posts).toHaveLength(2);
    expect(provider.messages).toHaveLength(1_000);
    expect(provider.cancels).toHaveLength(1_000);
    expect(core.email.get(account, send.id).state).toBe('cancelled');
  }, 40_000);
});
