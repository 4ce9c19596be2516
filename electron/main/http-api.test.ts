// The desktop app's HTTP API switched from Settings, through the same dispatcher the window uses
// (no Electron needed: the API server and the dispatcher are plain Node).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { Core } from '../service/core';
import { createLogger, LOG_FILE } from '../service/log';
import { applySeed } from '../service/seed';
import { createDispatcher, type IpcDispatcher } from '../service/ipc/dispatcher';
import { KEY, tempDir, testSeed } from '../../test/helpers/server';
import { HttpApi } from './http-api';

let core: Core;
let api: HttpApi;
let dispatcher: IpcDispatcher;
const lines: string[] = [];

beforeEach(() => {
  core = new Core({ dataDir: tempDir('chapar-desktop-api-') });
  applySeed(core, testSeed());
  api = new HttpApi(core, (line) => lines.push(line));
  dispatcher = createDispatcher(core, {
    mode: 'desktop',
    httpApi: { url: () => api.url(), canToggle: true, apply: (config) => api.start(config) },
  });
});
afterEach(async () => {
  dispatcher.close();
  await api.stop();
  await core.close();
});

it('starts, moves and stops the API as Settings say', async () => {
  const on = await dispatcher.invoke('settings:set', { http_api: { enabled: true, host: '127.0.0.1', port: 0 } });
  if (!on.ok) throw new Error(on.error.message);
  const url = (on.value as { http_api: { url: string | null } }).http_api.url;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect((await fetch(`${url}/health`)).status).toBe(200);
  // The web UI is not part of the desktop app's API server.
  expect((await fetch(`${url}/bridge/invoke/accounts:list`, { method: 'POST' })).status).toBe(404);

  const off = await dispatcher.invoke('settings:set', { http_api: { enabled: false } });
  expect(off.ok && (off.value as { http_api: { url: string | null; enabled: boolean } }).http_api).toMatchObject({
    url: null,
    enabled: false,
  });
  await expect(fetch(`${url}/health`)).rejects.toThrow();
  const stored = await dispatcher.invoke('settings:get', undefined);
  expect(stored.ok && (stored.value as { http_api: { enabled: boolean; port: number } }).http_api).toMatchObject({
    enabled: false,
    port: 0,
  });
});

it('stays off with a line saying why when the port is taken', async () => {
  const first = await dispatcher.invoke('settings:set', { http_api: { enabled: true, host: '127.0.0.1', port: 0 } });
  const port = Number(
    new URL((first.ok && (first.value as { http_api: { url: string } }).http_api.url) || 'http://x:1').port,
  );
  const second = new HttpApi(core, (line) => lines.push(line));
  await second.start({ enabled: true, host: '127.0.0.1', port });
  expect(second.url()).toBeNull();
  expect(lines.at(-1)).toMatch(/HTTP API not started on 127\.0\.0\.1:\d+/);
});

it("writes its unexpected errors to the workspace's log file with the request id, never the key", async () => {
  const dataDir = tempDir('chapar-desktop-log-');
  const broken = new Core({ dataDir, startScheduler: false });
  applySeed(broken, testSeed(), { warn: () => {} });
  const logs = path.join(dataDir, 'logs');
  const logged = new HttpApi(broken, (line) => lines.push(line), createLogger({ kind: 'file', dir: logs }));
  try {
    await logged.start({ enabled: true, host: '127.0.0.1', port: 0 });
    // The store gone from under the API: every authenticated call fails unexpectedly.
    broken.db.close();
    const answer = await fetch(`${logged.url()}/v2/sms/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ message: 'secret text', sender: '30001111', receivers: ['09121234567'] }),
    });
    expect(answer.status).toBe(500);
    const id = answer.headers.get('x-request-id');
    expect(id).toBeTruthy();
    const file = path.join(logs, LOG_FILE);
    // The log stream writes on its own time: waited for up to seconds (vi.waitFor's default is 1 s).
    await vi.waitFor(() => expect(fs.existsSync(file) && fs.readFileSync(file, 'utf8')).toContain('unexpected error'), {
      timeout: 15_000,
    });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain(id);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('secret text');
  } finally {
    await logged.stop();
    await broken.close();
  }
});
