// The web bridge of `serve`: token and cookie flow, the contracts over HTTP (unknown channel and
// invalid input refused), server-sent events carrying a status change, export downloads, and the
// API routes untouched by the token. Real core, real HTTP on a loopback port.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../electron/service/core';
import { webUiPlugin } from '../electron/cli/web/bridge';
import { createClient, createWebTransport, uploadBackup, uploadSpreadsheet } from '../shared/ipc';
import { KEY, post, spawnServe, startServer, stubRendererBuild, tempDir, type TestServer } from './helpers/server';

const TOKEN = 'test-token-0123456789abcdef';
let server: TestServer;
let core: Core;
let base: string;
let account: number;

beforeAll(async () => {
  const dataDir = tempDir('chapar-bridge-');
  const rendererDir = stubRendererBuild(dataDir);
  server = await startServer({
    dataDir,
    plugins: (started) => [webUiPlugin({ core: started, token: TOKEN, rendererDir, url: () => base })],
  });
  ({ core, url: base } = server);
  account = core.accounts.findByName('acme')!.id;
});
afterAll(async () => {
  await server.close();
});

async function invoke(channel: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/bridge/invoke/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as { ok: boolean; value?: unknown; error?: { code: number } },
  };
}
const bearer = { authorization: `Bearer ${TOKEN}` };

describe('token', () => {
  it('refuses the bridge without the token, with 401 JSON', async () => {
    const none = await invoke('accounts:list', null);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ ok: false, error: { code: 401 } });
    expect((await invoke('accounts:list', null, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await invoke('accounts:list', null, { cookie: 'chapar_token=wrong' })).status).toBe(401);
    expect((await fetch(`${base}/bridge/events`)).status).toBe(401);
    expect((await fetch(`${base}/`)).status).toBe(401);
    expect((await fetch(`${base}/?token=wrong`, { redirect: 'manual' })).status).toBe(401);
  });

  it('trades ?token= for an HttpOnly SameSite=Strict cookie and redirects to /', async () => {
    const response = await fetch(`${base}/?token=${TOKEN}`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    const setCookie = response.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^chapar_session=/);
    expect(setCookie).not.toContain(TOKEN);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    const cookie = setCookie.split(';')[0]!;

    const page = await fetch(`${base}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<title>Chapar</title>');
    expect((await invoke('accounts:list', null, { cookie, origin: base })).body.ok).toBe(true);
    // Assets carry no data and load without the token.
    expect((await fetch(`${base}/assets/app.js`)).status).toBe(200);
  });

  it('refuses a cross-site origin even with the token', async () => {
    const result = await invoke('accounts:list', null, { ...bearer, origin: 'http://evil.example' });
    expect(result.status).toBe(403);
  });

  it('leaves the API routes alone', async () => {
    const sent = await post(
      `${base}/v2/sms/send`,
      { message: 'hi', sender: '30001111', receivers: ['09121234567'] },
      KEY,
    );
    expect(sent.status).toBe(200);
    expect((await fetch(`${base}/health`)).status).toBe(200);
    const unknown = await fetch(`${base}/no/such/path`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe('404 page not found');
  });
});

describe('contracts over HTTP', () => {
  it('answers a typed client', async () => {
    const client = createClient(createWebTransport({ baseUrl: base, token: TOKEN }));
    const balance = await client.invoke('credit:balance', { account_id: account });
    expect(balance.credit_rials).toBe(core.credit.balance(account));
    expect((await client.invoke('accounts:list')).map((a) => a.name)).toContain('acme');
  });

  it('refuses unknown channels and invalid input', async () => {
    const unknown = await invoke('nope:never', {}, bearer);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, error: { code: 404 } });
    expect((await invoke('__proto__', {}, bearer)).body.error?.code).toBe(404);
    const invalid = await invoke('credit:balance', { account_id: 'x' }, bearer);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ ok: false, error: { code: 400 } });
    const notJson = await invoke('credit:balance', '{not json', bearer);
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ ok: false, error: { code: 400 } });
    const refused = await invoke('credit:topUp', { account_id: account, amount_rials: -1e15, kind: 'adjust' }, bearer);
    expect(refused.body).toMatchObject({ ok: false, error: { code: 418 } });
  });

  it('delivers status changes as server-sent events', async () => {
    const controller = new AbortController();
    const response = await fetch(`${base}/bridge/events`, { headers: bearer, signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    const nextEvent = async (): Promise<{
      event: string;
      data: { changes: Array<{ id: number; status: number }> };
    }> => {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) return { event, data: JSON.parse(data) };
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += value;
      }
    };
    // The stream is open (its first comment arrived) before the send, so no change is missed.
    while (!buffer.includes(': connected')) buffer += (await reader.read()).value ?? '';

    const sent = await invoke(
      'messages:send',
      { account_id: account, sender: '30001111', message: 'sse', receivers: ['09127770001'] },
      bearer,
    );
    expect(sent.body.ok).toBe(true);
    const sendId = (sent.body.value as { send_id: number }).send_id;
    const id = core.db.prepare<[number], { id: number }>('SELECT id FROM messages WHERE send_id = ?').get(sendId!)!.id;
    const statuses: number[] = [];
    while (!statuses.some((s) => [10, 11, 13, 14].includes(s))) {
      const { event, data } = await nextEvent();
      if (event !== 'messages:status-changed') continue;
      for (const change of data.changes) if (change.id === id) statuses.push(change.status);
    }
    expect(statuses[0]).toBe(4);
    controller.abort();
  });

  it('exports to a download URL', async () => {
    const result = await invoke(
      'messages:export',
      { account_id: account, format: 'csv', language: 'en', time_zone: 'Asia/Tehran' },
      bearer,
    );
    expect(result.body.ok).toBe(true);
    const { url, path: filePath } = result.body.value as { url: string; path: string | null };
    expect(filePath).toBeNull();
    expect(url).toMatch(/^\/bridge\/exports\/messages-.*\.csv$/);
    expect((await fetch(`${base}${url}`)).status).toBe(401);
    const download = await fetch(`${base}${url}`, { headers: bearer });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/attachment/);
    expect(await download.text()).toContain('Receiver');
    expect((await fetch(`${base}/bridge/exports/..%2Fchapar.db`, { headers: bearer })).status).toBe(404);
  });

  it('downloads an export named in Persian (a campaign report: its name and the Jalali date)', async () => {
    const name = 'حراج یلدا 1405-09-08.csv';
    fs.mkdirSync(path.join(core.dataDir, 'exports'), { recursive: true });
    fs.writeFileSync(path.join(core.dataDir, 'exports', name), 'Receiver\n');
    const download = await fetch(`${base}/bridge/exports/${encodeURIComponent(name)}`, { headers: bearer });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="____ ____ 1405-09-08.csv"; filename*=UTF-8''${encodeURIComponent(name)}`,
    );
    expect(await download.text()).toBe('Receiver\n');
  });
});

describe('backups over the bridge', () => {
  it('downloads a backup, uploads it back and restores it', async () => {
    const created = await invoke('backup:create', null, bearer);
    const backup = created.body.value as { path: string; url: string };
    expect(backup.url).toMatch(/^\/bridge\/backups\/chapar-.*\.db$/);
    expect((await fetch(`${base}${backup.url}`)).status).toBe(401);
    const download = await fetch(`${base}${backup.url}`, { headers: bearer });
    expect(download.status).toBe(200);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 15)).toString('latin1')).toBe('SQLite format 3');

    expect((await uploadBackup(bytes, { baseUrl: base })).ok).toBe(false);
    const uploaded = await uploadBackup(bytes, { baseUrl: base, token: TOKEN });
    if (!uploaded.ok) throw new Error(uploaded.error.message);
    expect(uploaded.value.bytes).toBe(bytes.length);
    expect(path.dirname(uploaded.value.path)).toBe(path.join(core.dataDir, 'backups'));
    const listed = await invoke('backup:list', null, bearer);
    expect((listed.body.value as Array<{ path: string }>).map((b) => b.path)).toContain(uploaded.value.path);
    const restored = await invoke('backup:restore', { path: uploaded.value.path }, bearer);
    expect(restored.body).toMatchObject({ ok: true, value: { restored_from: uploaded.value.path } });

    const junk = await uploadBackup(new TextEncoder().encode('not a database'), { baseUrl: base, token: TOKEN });
    expect(junk).toMatchObject({ ok: false, error: { code: 400 } });
    expect((await fetch(`${base}/bridge/backups/..%2Fchapar.db`, { headers: bearer })).status).toBe(404);
  });
});

describe('spreadsheets over the bridge', () => {
  it('streams an upload to the server and imports it by the answered name, never by a path', async () => {
    const csv = new TextEncoder().encode('name,mobile\nSara,09120000001\nAli,۰۹۱۲۰۰۰۰۰۰۲\n');
    expect((await uploadSpreadsheet(csv, 'مشتریان.csv', { baseUrl: base })).ok).toBe(false);
    const uploaded = await uploadSpreadsheet(csv, 'مشتریان.csv', { baseUrl: base, token: TOKEN });
    if (!uploaded.ok) throw new Error(uploaded.error.message);
    expect(uploaded.value).toMatchObject({ name: 'مشتریان.csv', bytes: csv.length });
    expect(uploaded.value.file).toMatch(/^[0-9a-f]{16}-مشتریان\.csv$/);

    const preview = await invoke('imports:preview', { account_id: account, file: uploaded.value.file }, bearer);
    expect(preview.body).toMatchObject({ ok: true, value: { file_name: 'مشتریان.csv', phone_column: 1 } });
    const started = await invoke(
      'imports:start',
      { account_id: account, file: uploaded.value.file, mapping: { phone: 1, columns: [{ index: 0, name: 'NAME' }] } },
      bearer,
    );
    expect(started.body).toMatchObject({ ok: true });
    const { job_id, segment_id } = started.body.value as { job_id: number; segment_id: number };
    expect(await core.imports.wait(job_id)).toMatchObject({ status: 'done', valid: 2 });
    expect(core.segments.get(account, segment_id).name).toBe('مشتریان');

    for (const file of [path.join(core.dataDir, 'chapar.db'), '../chapar.db', 'chapar.db', uploaded.value.file + '/x'])
      expect((await invoke('imports:preview', { account_id: account, file }, bearer)).status).toBe(400);
  });
});

describe('serve', () => {
  it('prints the web UI address with its token after the listening line', async () => {
    const serve = await spawnServe({
      dataDir: tempDir('chapar-serve-web-'),
      webUi: true,
      env: { CHAPAR_WEB_TOKEN: 'spawned-token-abcdef' },
    });
    let stopped: number | null;
    try {
      expect(serve.webUrl).toBe(`${serve.url}/?token=spawned-token-abcdef`);
      const lines = serve.output().split('\n');
      const listening = lines.findIndex((line) => line.startsWith('chapar: listening on http://127.0.0.1:'));
      const webUi = lines.findIndex((line) => line.startsWith('chapar: web UI: http://127.0.0.1:'));
      expect(listening).toBeGreaterThanOrEqual(0);
      expect(webUi).toBeGreaterThan(listening);
      const response = await fetch(`${serve.url}/bridge/invoke/accounts:list`, {
        method: 'POST',
        headers: { authorization: 'Bearer spawned-token-abcdef', 'content-type': 'application/json' },
        body: 'null',
      });
      expect(((await response.json()) as { ok: boolean }).ok).toBe(true);
    } finally {
      // Stopped whatever happened above; its exit code checked after, so that a failure above is
      // the one reported, not this.
      stopped = await serve.stop();
    }
    expect(stopped).toBe(0);
  });
});
