// A line's provider key goes to the secrets store at once and nowhere else: never in the database,
// an IPC answer or push, an export, a backup or a log line; another base address forgets it. The
// provider is a real Chapar HTTP server on a loopback port, the window's calls go through the real
// IPC dispatcher, and messages really go out through the key.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { SECRETS_FILE } from '../../electron/service/secrets';
import { createDispatcher, type IpcDispatcher } from '../../electron/service/ipc/dispatcher';
import { pathOnly } from '../../electron/service/log';
import { KEY, startServer, tempDir, testSeed, type TestServer } from '../helpers/server';
import { ipcCalls } from '../helpers/ipc';

let provider: TestServer;
let core: Core;
let dispatcher: IpcDispatcher;
let account: number;
const { ok, refused } = ipcCalls(() => dispatcher);
const logged: string[] = [];
const originals = { log: console.log, error: console.error, warn: console.warn };

beforeEach(async () => {
  provider = await startServer({ seed: testSeed() });
  core = new Core({ dataDir: tempDir('chapar-gateway-secrets-') });
  applySeed(core, {
    accounts: [
      {
        name: 'shop',
        credit_rials: 10_000_000,
        lines: [{ number: '30001111', provider: 'sms', permissions: ['can_send_panel_campaign'] }],
      },
    ],
    upstream_timing: { poll_first_ms: 100, poll_max_ms: 300, inbox_ms: 200, retry_base_ms: 50, retry_max_ms: 300 },
  });
  dispatcher = createDispatcher(core, { mode: 'desktop' });
  account = core.accounts.findByName('shop')!.id;
  for (const name of ['log', 'error', 'warn'] as const)
    console[name] = (...args: unknown[]) => logged.push(args.map(String).join(' '));
});
afterEach(async () => {
  Object.assign(console, originals);
  dispatcher.close();
  await core.close();
  await provider.close();
  logged.length = 0;
});

describe("a line's provider key", () => {
  it('is kept in the secrets store only, never answered, exported, backed up or logged', async () => {
    const pushes: unknown[] = [];
    dispatcher.services.events.subscribe((_event, payload) => pushes.push(payload));
    const answers: unknown[] = [];
    const call = async <C extends Parameters<typeof ok>[0]>(channel: C, input?: Parameters<typeof ok<C>>[1]) => {
      const value = await ok(channel, input);
      answers.push(value);
      return value;
    };

    const line = await call('lines:setGateway', {
      account_id: account,
      number: '30001111',
      kind: 'kavenegar-v1',
      base_url: provider.url,
      api_key: KEY,
      rate_per_second: 20,
    });
    expect(line.gateway).toMatchObject({ kind: 'kavenegar-v1', base_url: provider.url, key_set: true });
    const secretsFile = path.join(core.dataDir, SECRETS_FILE);
    expect(fs.readFileSync(secretsFile, 'utf8')).toContain(KEY);
    expect(fs.statSync(secretsFile).mode & 0o777).toBe(0o600);

    const test = await call('lines:testGateway', { account_id: account, number: '30001111' });
    expect(test).toMatchObject({ ok: true, code: null });
    expect(test.credit_rials).toBe(provider.core.credit.balance(provider.core.accounts.findByName('acme')!.id));

    // Messages go out through the key, and come back final.
    await call('compose:preview', {
      account_id: account,
      sender: '30001111',
      message: 'سلام',
      receivers: ['09121234567', '09121234568'],
    });
    await call('messages:send', {
      account_id: account,
      sender: '30001111',
      message: 'سلام',
      receivers: ['09121234567', '09121234568'],
    });
    const deadline = Date.now() + 20_000;
    while ((await call('gateways:queues', { account_id: account }))[0]!.counts.final < 2) {
      if (Date.now() > deadline) throw new Error('not delivered');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await call('lines:list', { account_id: account });
    await call('gateways:handovers', { account_id: account, number: '30001111', state: 'final', limit: 10 });
    await call('messages:list', { account_id: account } as never);

    // An export of the messages and a backup of the workspace.
    const exported = await call('messages:export', { account_id: account, format: 'csv' } as never);
    const backup = await call('backup:create');

    for (const answer of [...answers, ...pushes]) expect(JSON.stringify(answer)).not.toContain(KEY);
    expect(exported.rows).toBe(2);
    const files = [core.dataDir, path.dirname(backup.path), ...(exported.path ? [exported.path] : [])];
    for (const file of walk(files)) {
      // The secrets store itself, and only the workspace's own.
      if (file === secretsFile) continue;
      expect(fs.readFileSync(file).includes(KEY), file).toBe(false);
    }
    for (const line of logged) expect(line).not.toContain(KEY);
    // A version 1 path carries its caller's key: the log keeps the path without it.
    expect(pathOnly(`/v1/${KEY}/sms/send.json?x=1`)).toBe('/v1/[redacted]/sms/send.json');
  });

  it('is forgotten when the base address changes, and removed by an empty key', async () => {
    const set = (input: Record<string, unknown>) =>
      ok('lines:setGateway', { account_id: account, number: '30001111', kind: 'kavenegar-v1', ...input } as never);
    expect((await set({ base_url: provider.url, api_key: KEY })).gateway.key_set).toBe(true);
    // The same address again keeps it.
    expect((await set({ base_url: `${provider.url}/` })).gateway.key_set).toBe(true);
    expect((await set({ base_url: 'http://127.0.0.1:9' })).gateway.key_set).toBe(false);
    expect(fs.readFileSync(path.join(core.dataDir, SECRETS_FILE), 'utf8')).not.toContain(KEY);
    expect((await set({ base_url: provider.url, api_key: KEY })).gateway.key_set).toBe(true);
    expect((await set({ api_key: '' })).gateway.key_set).toBe(false);
    // An address that is no http(s) address is refused, naming why.
    expect(
      (
        await refused('lines:setGateway', {
          account_id: account,
          number: '30001111',
          kind: 'kavenegar-v1',
          base_url: 'ftp://example.com',
        })
      ).reason,
    ).toBe('gateway_base_url_invalid');
  });
});

describe("an HTTP gateway's request", () => {
  const set = (input: Record<string, unknown>) =>
    ok('lines:setGateway', { account_id: account, number: '30001111', kind: 'http-gateway', ...input } as never);
  const refusal = async (input: Record<string, unknown>) =>
    (
      await refused('lines:setGateway', {
        account_id: account,
        number: '30001111',
        kind: 'http-gateway',
        ...input,
      } as never)
    ).reason;

  it('is GET with the address alone unless told; a POST body, its type and a success pattern are kept and kept again', async () => {
    const get = await set({ base_url: 'http://127.0.0.1:13013/cgi-bin/sendsms?to={to}&text={text}&password={key}' });
    expect(get.gateway.http).toEqual({
      method: 'GET',
      body: '',
      content_type: 'application/x-www-form-urlencoded',
      success: '',
    });
    const post = {
      method: 'POST',
      body: '{"receiver": "{to}", "message": "{text}"}',
      content_type: 'application/json',
      success: '"status":\\s*"ok"',
    };
    const posted = await set({ base_url: 'https://gateway.example/api/send?key={key}', http: post });
    expect(posted.gateway.http).toEqual(post);
    // Absent keeps the line's request (the same gateway), as the address and the sender are kept.
    expect((await set({ rate_per_second: 20 })).gateway.http).toEqual(post);
    expect(core.accounts.findLine(account, '30001111')!.gateway.http).toEqual(post);
    // Another gateway forgets it.
    expect(
      (await ok('lines:setGateway', { account_id: account, number: '30001111', kind: 'simulator' })).gateway.http,
    ).toBe(null);
  });

  it('is refused, naming why: no receiver or text, an unknown placeholder, a body on a GET, a pattern that is no regular expression', async () => {
    expect(await refusal({ base_url: 'http://127.0.0.1:13013/send?text={text}' })).toBe('gateway_template_invalid');
    expect(await refusal({ base_url: 'http://127.0.0.1:13013/send?to={to}&text={text}&id={messageid}' })).toBe(
      'gateway_template_invalid',
    );
    // The body holds the receiver only on a POST: a GET's body is not sent.
    expect(
      await refusal({ base_url: 'http://127.0.0.1:13013/send', http: { method: 'GET', body: 'to={to}&text={text}' } }),
    ).toBe('gateway_template_invalid');
    expect(
      await refusal({ base_url: 'http://127.0.0.1:13013/send?to={to}&text={text}', http: { success: '(unclosed' } }),
    ).toBe('gateway_success_invalid');
    expect(await refusal({ base_url: 'http://user:secret@127.0.0.1:13013/send?to={to}&text={text}' })).toBe(
      'gateway_template_invalid',
    );
    expect(await refusal({ base_url: '' })).toBe('gateway_base_url_invalid');
    // Nothing was kept by the refusals.
    expect(core.accounts.findLine(account, '30001111')!.gateway.kind).toBe('simulator');
  });
});

function* walk(roots: readonly string[]): Generator<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (seen.has(at) || !fs.existsSync(at)) continue;
    seen.add(at);
    const stat = fs.statSync(at);
    if (stat.isDirectory()) for (const name of fs.readdirSync(at)) stack.push(path.join(at, name));
    else if (stat.isFile()) yield at;
  }
}
