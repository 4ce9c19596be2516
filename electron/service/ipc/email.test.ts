// Email over IPC, through the real dispatcher and core: the connection settings (a key or password
// goes in and never comes back out of any channel), the connection test against a local SMTP
// server and an unreachable one, a segment's preview, a send through the embedded sandbox followed
// to its results, recipients, cancel, export, the email:progress push, and refusals.
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { eventually, tempDir, testSeed } from '../../../test/helpers/server';
import { ipcCalls } from '../../../test/helpers/ipc';
import type { PayloadOf } from '../../../shared/ipc/contracts';
import { createDispatcher, type IpcDispatcher } from './dispatcher';
import { SECRETS_FILE } from '../secrets';

let core: Core;
let clock: ManualClock;
let dispatcher: IpcDispatcher;
let account: number;
let other: number;
const closers: Array<() => Promise<void>> = [];
const { ok, refused } = ipcCalls(() => dispatcher);

beforeEach(() => {
  clock = new ManualClock(Date.UTC(2026, 0, 5, 10, 0, 0));
  core = new Core({ dataDir: tempDir('chapar-ipc-email-'), clock });
  applySeed(core, testSeed());
  dispatcher = createDispatcher(core, { mode: 'desktop' });
  account = core.accounts.findByName('acme')!.id;
  other = core.accounts.findByName('other')!.id;
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  dispatcher.close();
  await core.close();
});

const KEY = 'ek-very-secret-provider-key-7d1f';
const PASSWORD = 'pw-very-secret-smtp-password-c02a';

/** An SMTP server on a free loopback port that takes `user`/PASSWORD and keeps what it receives. */
async function smtpServer(user = 'shop') {
  const received: Array<{ to: string[]; raw: string }> = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === PASSWORD) callback(null, { user });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { port, received };
}

/** A provider that refuses every key (401, a bare {message}), on a free loopback port. */
async function refusingProvider() {
  const server = http.createServer((_request, response) => {
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: 'invalid API key' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port nothing listens on (taken and released at once). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function segment(accountId: number, rows: Array<Record<string, string>>): Promise<number> {
  const { segment_id } = core.uploads.create(accountId, rows);
  return core.jobs.waitForIdle().then(() => segment_id);
}

const customers = () =>
  segment(account, [
    { phone_number: '09120000001', EMAIL: 'sara@example.com', NAME: 'Sara' },
    { phone_number: '09120000002', EMAIL: 'not-an-address', NAME: 'Ali' },
    { phone_number: '09120000003', EMAIL: '', NAME: 'Reza' },
    { phone_number: '09120000004', EMAIL: 'SARA@example.com', NAME: 'Sara again' },
    { phone_number: '09120000005', EMAIL: 'mina@example.com', NAME: 'Mina' },
  ]);

/** Lets the core's jobs run (batches, the sandbox's results, polls) until `done` holds. */
async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
  return eventually(async () => {
    const value = await check();
    if (value !== undefined) return value;
    clock.advance(60_000);
    await core.jobs.waitForIdle();
    return undefined;
  });
}

describe('email settings over IPC', () => {
  it('starts with the sandbox, saves settings, and keeps the key and password to the core', async () => {
    expect(await ok('email:config')).toEqual({
      transport: 'sandbox',
      provider: { url: '', account_id: '', key_set: false },
      smtp: expect.objectContaining({ host: '', password_set: false }),
      default_from: null,
      secret_storage: 'file',
    });
    const saved = await ok('email:configure', {
      transport: 'provider',
      provider: { url: 'https://api.example.com', account_id: '1001', key: KEY },
      default_from: { email: 'shop@example.com', name: 'Shop' },
    });
    expect(saved).toMatchObject({
      transport: 'provider',
      provider: { url: 'https://api.example.com', account_id: '1001', key_set: true },
      default_from: { email: 'shop@example.com', name: 'Shop' },
    });
    // Kept in the secret store (serve's: a file only this user can read), not in the database.
    const secretsFile = path.join(core.dataDir, SECRETS_FILE);
    expect(fs.readFileSync(secretsFile, 'utf8')).toContain(KEY);
    expect(fs.statSync(secretsFile).mode & 0o777).toBe(0o600);
    expect(JSON.stringify(core.db.prepare('SELECT value FROM settings').all())).not.toContain(KEY);
    // Absent keeps the stored key; another transport keeps it too; '' removes it.
    expect((await ok('email:configure', { transport: 'sandbox' })).provider.key_set).toBe(true);
    const removed = await ok('email:configure', {
      transport: 'provider',
      provider: { url: 'https://api.example.com', account_id: '1001', key: '' },
    });
    expect(removed.provider.key_set).toBe(false);
  });

  it('tests the SMTP connection against a local server, and says why one fails', async () => {
    const smtp = await smtpServer();
    const configure = (port: number, password?: string) =>
      ok('email:configure', {
        transport: 'smtp',
        smtp: { host: '127.0.0.1', port, secure: false, user: 'shop', ...(password === undefined ? {} : { password }) },
      });
    expect((await configure(smtp.port, PASSWORD)).smtp).toMatchObject({ host: '127.0.0.1', password_set: true });
    expect(await ok('email:testConnection')).toEqual({ ok: true, error: null });

    await configure(smtp.port, 'wrong-password');
    const wrong = await ok('email:testConnection');
    expect(wrong.ok).toBe(false);
    expect(wrong.error).toEqual(expect.any(String));
    expect(wrong.error).not.toContain('wrong-password');

    await configure(await closedPort(), PASSWORD);
    const unreachable = await ok('email:testConnection');
    expect(unreachable.ok).toBe(false);
    expect(unreachable.error).toEqual(expect.any(String));
    expect(smtp.received).toEqual([]);
  });

  it('tests the embedded sandbox without any setting', async () => {
    expect(await ok('email:testConnection')).toEqual({ ok: true, error: null });
  });

  it('never answers the stored key or password on any email channel', async () => {
    const smtp = await smtpServer();
    const provider = await refusingProvider();
    const pushes: unknown[] = [];
    dispatcher.services.events.subscribe((_event, payload) => pushes.push(payload));
    const answers: unknown[] = [];
    const call = async <C extends Parameters<typeof ok>[0]>(channel: C, input?: Parameters<typeof ok<C>>[1]) => {
      const result = await dispatcher.invoke(channel, input);
      answers.push(result);
      expect(result.ok, `${channel}: ${JSON.stringify(result)}`).toBe(true);
      return (result as { value: Awaited<ReturnType<typeof ok<C>>> }).value;
    };

    await call('email:configure', {
      transport: 'provider',
      provider: { url: provider, account_id: '1001', key: KEY },
      default_from: { email: 'shop@example.com' },
    });
    await call('email:config');
    const refusedKey = await call('email:testConnection');
    expect(refusedKey.ok).toBe(false);

    await call('email:configure', {
      transport: 'smtp',
      smtp: { host: '127.0.0.1', port: smtp.port, secure: false, user: 'shop', password: PASSWORD },
    });
    await call('email:config');
    expect((await call('email:testConnection')).ok).toBe(true);

    const segmentId = await customers();
    const draft = {
      account_id: account,
      segment_id: segmentId,
      from: { email: 'shop@example.com', name: 'Shop' },
      subject: 'Hello {{ NAME }}',
      text: 'Hi {{ NAME }}',
    };
    const preview = await call('email:preview', draft);
    const send = await call('email:send', { ...draft, expected_count: preview.valid, request_id: 'request-secret-1' });
    const done = await until(async () => {
      const current = await call('email:get', { account_id: account, send_id: send.id });
      return current.state === 'sending' ? undefined : current;
    });
    expect(done).toMatchObject({ state: 'done', transport: 'smtp', total: 2 });
    expect(smtp.received.map((m) => m.to)).toEqual([['sara@example.com'], ['mina@example.com']]);
    await call('email:sends', { account_id: account });
    await call('email:recipients', { account_id: account, send_id: send.id });
    const exported = await call('email:export', {
      account_id: account,
      send_id: send.id,
      format: 'csv',
      language: 'en',
      time_zone: 'Asia/Tehran',
    });
    await call('email:cancel', { account_id: account, send_id: send.id });

    const everything = JSON.stringify([answers, pushes]) + fs.readFileSync(exported.path!, 'utf8');
    expect(answers.length).toBeGreaterThanOrEqual(12);
    expect(pushes.length).toBeGreaterThan(0);
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(PASSWORD);
    expect(JSON.stringify(core.db.prepare('SELECT value FROM settings').all())).not.toContain(PASSWORD);
  });
});

describe('email sends over IPC', () => {
  it('previews a segment, sends through the sandbox and follows the results', async () => {
    const segmentId = await customers();
    const pushed: PayloadOf<'email:progress'>[] = [];
    dispatcher.services.events.subscribe((event, payload) => {
      if (event === 'email:progress') pushed.push(payload as PayloadOf<'email:progress'>);
    });
    const draft = {
      account_id: account,
      segment_id: segmentId,
      from: { email: 'shop@example.com', name: 'Shop' },
      subject: 'Hello {{ NAME }}',
      text: 'Hi {{ NAME }}, {{ COUPON }}',
      html: '<p>Hi {{ NAME }}</p>',
    };
    const preview = await ok('email:preview', { ...draft, limit: 2 });
    expect(preview).toMatchObject({
      total: 5,
      valid: 2,
      skipped_count: 3,
      email_column: 'EMAIL',
      unknown_variables: ['COUPON'],
    });
    expect(preview.skipped.map((s) => [s.row, s.reason])).toEqual([
      [2, 'invalid'],
      [3, 'missing'],
      [4, 'duplicate'],
    ]);
    expect(preview.samples.map((s) => [s.email, s.subject, s.text])).toEqual([
      ['sara@example.com', 'Hello Sara', 'Hi Sara, '],
      ['mina@example.com', 'Hello Mina', 'Hi Mina, '],
    ]);
    expect((await ok('email:preview', { ...draft, offset: 1 })).samples.map((s) => s.row)).toEqual([5]);

    const send = await ok('email:send', { ...draft, expected_count: 2, request_id: 'request-0001' });
    expect(send).toMatchObject({ account_id: account, segment_id: segmentId, transport: 'sandbox', total: 2 });
    // The same confirmation again answers the same send.
    expect((await ok('email:send', { ...draft, expected_count: 2, request_id: 'request-0001' })).id).toBe(send.id);
    const done = await until(async () => {
      const current = await ok('email:get', { account_id: account, send_id: send.id });
      return current.state === 'done' ? current : undefined;
    });
    expect(done.counts.delivered).toBe(2);
    expect(pushed.some((p) => p.id === send.id && p.state === 'done')).toBe(true);

    expect((await ok('email:sends', { account_id: account })).map((s) => s.id)).toEqual([send.id]);
    expect(await ok('email:sends', { account_id: other })).toEqual([]);
    const recipients = await ok('email:recipients', { account_id: account, send_id: send.id });
    expect(recipients.total).toBe(2);
    expect(recipients.rows.map((r) => [r.row, r.email, r.status])).toEqual([
      [1, 'sara@example.com', 'delivered'],
      [5, 'mina@example.com', 'delivered'],
    ]);
    expect(
      (await ok('email:recipients', { account_id: account, send_id: send.id, search: 'mina' })).rows.map((r) => r.row),
    ).toEqual([5]);
    expect((await ok('email:recipients', { account_id: account, send_id: send.id, statuses: ['bounced'] })).total).toBe(
      0,
    );

    const exports: PayloadOf<'export:progress'>[] = [];
    dispatcher.services.events.subscribe((event, payload) => {
      if (event === 'export:progress') exports.push(payload as PayloadOf<'export:progress'>);
    });
    const exported = await ok('email:export', {
      account_id: account,
      send_id: send.id,
      format: 'csv',
      language: 'en',
      time_zone: 'Asia/Tehran',
      export_id: 'email-export-1',
    });
    expect(exported).toMatchObject({ export_id: 'email-export-1', format: 'csv', rows: 2, url: null });
    expect(exported.file_name).toMatch(new RegExp(`^email-${send.id}-.*\\.csv$`));
    const csv = fs.readFileSync(exported.path!, 'utf8');
    expect(csv).toContain('sara@example.com');
    expect(csv).toContain('mina@example.com');
    expect(exports.at(-1)).toMatchObject({ export_id: 'email-export-1', state: 'done', done: 2 });
  });

  it('answers a web-mode export as a download address', async () => {
    dispatcher.close();
    dispatcher = createDispatcher(core, { mode: 'web', exportUrl: (name) => `/bridge/exports/${name}` });
    const segmentId = await customers();
    const send = await ok('email:send', {
      account_id: account,
      segment_id: segmentId,
      from: { email: 'shop@example.com' },
      subject: 'Hi',
      text: 'Hi',
      expected_count: 2,
      request_id: 'request-web-1',
    });
    const exported = await ok('email:export', {
      account_id: account,
      send_id: send.id,
      format: 'xlsx',
      language: 'fa',
      time_zone: 'Asia/Tehran',
    });
    expect(exported).toMatchObject({ format: 'xlsx', path: null, url: `/bridge/exports/${exported.file_name}` });
  });

  it('cancels a send: what was not handed over is not sent', async () => {
    const segmentId = await customers();
    const send = await ok('email:send', {
      account_id: account,
      segment_id: segmentId,
      from: { email: 'shop@example.com' },
      subject: 'Hi',
      text: 'Hi',
      expected_count: 2,
      request_id: 'request-cancel-1',
    });
    const cancelled = await ok('email:cancel', { account_id: account, send_id: send.id });
    expect(cancelled.id).toBe(send.id);
    expect(['cancelled', 'done']).toContain(cancelled.state);
  });

  it('refuses input outside the contract, another account’s send, and a count that changed', async () => {
    const segmentId = await customers();
    const draft = {
      account_id: account,
      segment_id: segmentId,
      from: { email: 'shop@example.com' },
      subject: 'Hi',
      text: 'x',
    };
    expect((await refused('email:preview', { ...draft, limit: 500 })).code).toBe(400);
    expect((await refused('email:send', { ...draft, expected_count: 2, request_id: 'short' })).code).toBe(400);
    expect((await refused('email:configure', { transport: 'pigeon' })).code).toBe(400);
    expect((await refused('email:recipients', { account_id: account })).code).toBe(400);

    const changed = await refused('email:send', { ...draft, expected_count: 3, request_id: 'request-count-1' });
    expect(changed.code).toBeGreaterThanOrEqual(400);
    expect(changed.reason).toEqual(expect.any(String));
    expect(await ok('email:sends', { account_id: account })).toEqual([]);

    const send = await ok('email:send', { ...draft, expected_count: 2, request_id: 'request-mine-1' });
    for (const channel of ['email:get', 'email:recipients', 'email:cancel'] as const)
      expect((await refused(channel, { account_id: other, send_id: send.id })).code).toBe(404);
    expect(
      (
        await refused('email:export', {
          account_id: other,
          send_id: send.id,
          format: 'csv',
          language: 'en',
          time_zone: 'Asia/Tehran',
        })
      ).code,
    ).toBe(404);
    // Another account's segment is not this account's to preview.
    expect((await refused('email:preview', { ...draft, account_id: other })).code).toBe(404);
  });

  it('refuses settings the core cannot use, with a reason the window translates', async () => {
    const url = await refused('email:configure', {
      transport: 'provider',
      provider: { url: 'not a url', account_id: '1001', key: KEY },
    });
    expect(url).toMatchObject({ code: 400, reason: 'email_provider_url_invalid' });
    const host = await refused('email:configure', {
      transport: 'smtp',
      smtp: { host: ' ', port: 587, secure: false, user: '' },
    });
    expect(host).toMatchObject({ code: 400, reason: 'email_smtp_host_missing' });
    const from = await refused('email:configure', { transport: 'sandbox', default_from: { email: 'shop' } });
    expect(from).toMatchObject({ code: 400, reason: 'email_from_invalid' });
    expect(JSON.stringify([url, host, from])).not.toContain(KEY);
    expect((await ok('email:config')).transport).toBe('sandbox');
  });
});
