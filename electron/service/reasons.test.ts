// Errors a user can cause carry a reason the app translates into what to do (IpcError.reason):
// a sample from contacts, imports, campaigns and the app's settings, through the real dispatcher
// and core, as the window receives them. (That every reason has its texts in both languages is
// renderer/src/stores/errors.test.ts's.)
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from './core';
import { applySeed } from './seed';
import { tempDir, testSeed } from '../../test/helpers/server';
import { writeSegment } from '../../test/helpers/segments';
import { createDispatcher, type IpcDispatcher } from './ipc/dispatcher';
import { ipcCalls } from '../../test/helpers/ipc';
import type { AppHost } from './ipc/dispatcher';

let core: Core;
let dir: string;
let account: number;
const dispatchers: IpcDispatcher[] = [];

function dispatcher(host: AppHost = { mode: 'desktop' }): IpcDispatcher {
  const created = createDispatcher(core, host);
  dispatchers.push(created);
  return created;
}

/** A refusal on a new dispatcher of `host` (the desktop's by default). */
const refused = (channel: string, input: unknown, host?: AppHost) =>
  ipcCalls(() => dispatcher(host)).refused(channel, input);

function file(name: string, content: string | Buffer): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, content);
  return target;
}

beforeEach(() => {
  dir = tempDir('chapar-reasons-');
  core = new Core({ dataDir: path.join(dir, 'data') });
  applySeed(core, testSeed());
  account = core.accounts.findByName('acme')!.id;
});
afterEach(async () => {
  for (const each of dispatchers.splice(0)) each.close();
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('reasons of refusals', () => {
  it('segments: a missing or long name, a segment that is gone', async () => {
    const segment = writeSegment(core, account, 'customers', { from: 0, to: 10 });
    expect(await refused('segments:rename', { account_id: account, segment_id: segment, name: '  ' })).toMatchObject({
      code: 400,
      reason: 'segment_name_required',
    });
    expect(
      await refused('segments:rename', { account_id: account, segment_id: segment, name: 'x'.repeat(201) }),
    ).toMatchObject({ reason: 'segment_name_too_long' });
    expect(
      await refused('segments:combine', { account_id: account, name: '', include: [segment], exclude: [] }),
    ).toMatchObject({ reason: 'segment_name_required' });
    expect(await refused('segments:get', { account_id: account, segment_id: segment + 100 })).toMatchObject({
      code: 404,
      reason: 'segment_not_found',
    });
    // Another account's segment is "not found" too, never told apart.
    const other = core.accounts.findByName('other')!.id;
    expect(await refused('segments:get', { account_id: other, segment_id: segment })).toMatchObject({
      reason: 'segment_not_found',
    });
  });

  it('imports: a file that is not a spreadsheet, an old XLS, columns named twice', async () => {
    const binary = file('photo.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0]));
    expect(await refused('imports:preview', { account_id: account, file: binary })).toMatchObject({
      code: 400,
      reason: 'import_binary',
    });
    const xls = file('old.xls', Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0]), Buffer.alloc(600)]));
    expect(await refused('imports:preview', { account_id: account, file: xls })).toMatchObject({
      reason: 'import_xls',
    });
    const csv = file('people.csv', 'mobile,name,city\n09120000001,Sara,Tehran\n');
    expect(
      await refused('imports:start', {
        account_id: account,
        file: csv,
        mapping: {
          phone: 0,
          columns: [
            { index: 1, name: 'NAME' },
            { index: 2, name: 'NAME' },
          ],
        },
      }),
    ).toMatchObject({ reason: 'import_column_twice' });
  });

  it('campaigns: a required field, a link that is not a web address, a segment deleted meanwhile', async () => {
    const form = {
      account_id: account,
      sender: '30001111',
      name: 'Friday',
      template_body: 'Hello',
      send_datetime: '2030-01-01T10:00:00+03:30',
    };
    expect(await refused('campaigns:create', { ...form, name: ' ' })).toMatchObject({
      code: 400,
      reason: 'campaign_name_required',
    });
    expect(
      await refused('campaigns:create', { ...form, links: [{ actual_url: 'javascript:alert(1)', has_utm: false }] }),
    ).toMatchObject({ reason: 'campaign_link_not_web' });
    expect(await refused('campaigns:create', { ...form, send_datetime: 'friday 10' })).toMatchObject({
      code: 417,
      reason: 'campaign_time_invalid',
    });
    expect(await refused('campaigns:create', { ...form, inclusion_segments: [9999] })).toMatchObject({
      reason: 'campaign_segment_gone',
    });
  });

  it('app settings: what the host decides is said as such', async () => {
    const web: AppHost = { mode: 'web', httpApi: { url: () => 'http://127.0.0.1:8080', canToggle: false } };
    expect(await refused('settings:set', { http_api: { port: 9090 } }, web)).toMatchObject({
      reason: 'http_api_fixed',
    });
    expect(await refused('settings:set', { data_dir: '/elsewhere' }, web)).toMatchObject({
      reason: 'data_dir_fixed',
    });
    // A desktop whose new address cannot be listened on goes back to the one that worked.
    const applied: number[] = [];
    let running: string | null = 'http://127.0.0.1:8080';
    const desktop: AppHost = {
      mode: 'desktop',
      httpApi: {
        url: () => running,
        canToggle: true,
        apply: async (config) => {
          applied.push(config.port);
          running = config.port === 8080 ? 'http://127.0.0.1:8080' : null;
        },
      },
    };
    expect(await refused('settings:set', { http_api: { port: 80 } }, desktop)).toMatchObject({
      reason: 'http_api_address_unavailable',
    });
    expect(applied).toEqual([80, 8080]);
    expect(running).toBe('http://127.0.0.1:8080');
  });
});
