// The workspace IPC operations through the real dispatcher and core: the size, the retention
// setting, its preview and a run, the refusals a window can meet, and compaction; web mode never
// names the server's folders.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { createDispatcher, type IpcDispatcher } from './dispatcher';
import { ipcCalls } from '../../../test/helpers/ipc';

const DAY = 86_400_000;
let core: Core;
let clock: ManualClock;
let dataDir: string;
let account: number;
let desktopDispatcher: IpcDispatcher;
let webDispatcher: IpcDispatcher;
const desktop = ipcCalls(() => desktopDispatcher);
const web = ipcCalls(() => webDispatcher);

beforeEach(() => {
  clock = new ManualClock(Date.UTC(2025, 0, 6, 9, 0, 0));
  dataDir = tempDir('chapar-ipc-workspace-');
  core = new Core({ dataDir, clock, startScheduler: false });
  applySeed(core, testSeed());
  account = core.accounts.findByName('acme')!.id;
  desktopDispatcher = createDispatcher(core, { mode: 'desktop' });
  webDispatcher = createDispatcher(core, { mode: 'web' });
});
afterEach(async () => {
  desktopDispatcher.close();
  webDispatcher.close();
  await core.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function sendAndFinish(n: number): Promise<void> {
  core.messaging.accept.accept({
    accountId: account,
    origin: 'panel',
    sender: '30001111',
    text: 'Hello',
    receivers: Array.from(
      { length: n },
      (_, i) => `0912${String(clock.now() % 1000).padStart(3, '0')}${String(i).padStart(4, '0')}`,
    ),
    rule: 'lenient',
  });
  for (let i = 0; i < 3; i++) {
    clock.advance(60_000);
    await core.scheduler.drain();
  }
}

it('answers the size of the workspace by part, and hides its folders in web mode', async () => {
  await sendAndFinish(4);
  const size = await desktop.ok('workspace:size');
  expect(size.messages).toBe(4);
  expect(size.database_bytes).toBeGreaterThan(0);
  expect(size.total_bytes).toBeGreaterThanOrEqual(size.database_bytes + size.wal_bytes);
  expect(size.incremental).toBe(true);
  expect(size.archive_dir).toBe(path.join(path.resolve(dataDir), 'archive'));
  expect((await web.ok('workspace:size')).archive_dir).toBeNull();
});

it('keeps the setting, previews and applies it, and refuses what a window can get wrong', async () => {
  expect(await desktop.ok('workspace:retention')).toEqual({
    months: null,
    action: 'archive',
    automatic: false,
    run: null,
  });
  expect(await desktop.ok('workspace:setRetention', { months: 6, action: 'delete' })).toMatchObject({
    months: 6,
    action: 'delete',
    automatic: false,
  });
  expect((await desktop.refused('workspace:setRetention', { months: 0, action: 'delete' })).code).toBe(400);
  expect((await desktop.refused('workspace:retentionPreview', { months: 3, action: 'shred' })).code).toBe(400);

  for (let i = 0; i < 5; i++) {
    await sendAndFinish(3);
    clock.advance(30 * DAY);
  }
  await sendAndFinish(1);
  const preview = await desktop.ok('workspace:retentionPreview', { months: 2, action: 'archive' });
  expect(preview).toMatchObject({ months: 2, action: 'archive', messages: 9, held: 0, campaign_messages: 0 });
  expect(preview.cutoff % DAY).toBe(0);
  expect(preview.first_at).toBeLessThan(preview.last_at!);

  const stale = await desktop.refused('workspace:applyRetention', {
    months: 2,
    action: 'archive',
    cutoff: preview.cutoff + DAY,
  });
  expect(stale).toMatchObject({ code: 400, reason: 'retention_preview_stale' });
  const started = await desktop.ok('workspace:applyRetention', {
    months: 2,
    action: 'archive',
    cutoff: preview.cutoff,
  });
  expect(started).toMatchObject({
    months: 2,
    action: 'archive',
    automatic: true,
    run: { state: 'running', planned: 9 },
  });
  expect(
    await desktop.refused('workspace:applyRetention', { months: 2, action: 'archive', cutoff: preview.cutoff }),
  ).toMatchObject({ code: 400, reason: 'retention_running' });
  core.scheduler.start();
  await core.jobs.waitForIdle();
  const done = await desktop.ok('workspace:retention');
  expect(done.run).toMatchObject({ state: 'done', removed: 9, archives: expect.arrayContaining([]) });
  const size = await desktop.ok('workspace:size');
  expect(size.messages).toBe(7);
  expect(size.archives.map((a) => a.name)).toEqual(done.run!.archives);
  expect(size.archive_bytes).toBeGreaterThan(0);
});

it('compacts the database on request', async () => {
  await sendAndFinish(50);
  const compacted = await desktop.ok('workspace:compact');
  expect(compacted.size.compacted_at).toBe(clock.now());
  expect(compacted.size.free_bytes).toBe(0);
  expect(compacted.took_ms).toBeGreaterThanOrEqual(0);
  expect((await web.ok('workspace:compact')).size.archive_dir).toBeNull();
});
