// The campaigns IPC operations through the real dispatcher and core: create, report, recipients,
// link clicks, pause / resume / cancel, the short link settings, and the push event.
import fs from 'node:fs';
import Papa from 'papaparse';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import type { PayloadOf } from '../../../shared/ipc/contracts';
import { createDispatcher, type IpcDispatcher } from './dispatcher';
import { ipcCalls } from '../../../test/helpers/ipc';

let core: Core;
let clock: ManualClock;
let dispatcher: IpcDispatcher;
let account: number;

const { ok } = ipcCalls(() => dispatcher);

beforeEach(() => {
  clock = new ManualClock(Date.UTC(2026, 0, 5, 10, 0, 0));
  core = new Core({ dataDir: tempDir('chapar-ipc-campaigns-'), clock });
  applySeed(core, testSeed());
  dispatcher = createDispatcher(core, { mode: 'desktop' });
  account = core.accounts.findByName('acme')!.id;
});
afterEach(async () => {
  dispatcher.close();
  await core.close();
});

it('creates a campaign, follows it, pauses, resumes and cancels it', async () => {
  const { segment_id } = core.uploads.create(account, [
    { phone_number: '09120000001', NAME: 'Sara' },
    { phone_number: '09120000002', NAME: 'Ali' },
    { phone_number: '09120000003', NAME: 'Reza' },
  ]);
  await core.jobs.waitForIdle();
  const pushed: PayloadOf<'campaigns:execution'>[] = [];
  dispatcher.services.events.subscribe((event, payload) => {
    if (event === 'campaigns:execution') pushed.push(payload as PayloadOf<'campaigns:execution'>);
  });

  const created = await ok('campaigns:create', {
    account_id: account,
    sender: '30001111',
    name: 'IPC',
    template_body: 'Hi {{NAME}} https://shop.example/a',
    send_datetime: '2026-01-05T10:30:00Z',
    inclusion_segments: [segment_id],
    links: [{ actual_url: 'https://shop.example/a', has_utm: true }],
    send_rate: 1,
  });
  expect(created.execution_status).toBe('SCHEDULED');
  const byExecution = { account_id: account, execution_id: created.execution_id };
  expect((await ok('campaigns:report', byExecution)).audience).toBe(3);
  const [listed] = await ok('campaigns:list', { account_id: account });
  expect(listed).toMatchObject({ campaign_id: created.campaign_id, name: 'IPC', send_rate: 1 });

  clock.advance(30 * 60_000);
  await core.jobs.waitForIdle();
  let report = await ok('campaigns:report', byExecution);
  expect(report).toMatchObject({ execution_status: 'RUNNING', sent: 3 });
  const rows = await ok('campaigns:messages', { ...byExecution, size: 10 });
  expect(rows.map((r) => r.receptor)).toEqual(['09120000001', '09120000002', '09120000003']);
  expect(rows[0]!.message).toMatch(/^Hi Sara http:\/\/127\.0\.0\.1:8080\/l\/\w{8}\n/);

  report = await ok('campaigns:pause', byExecution);
  expect(report.paused).toBe(true);
  report = await ok('campaigns:resume', byExecution);
  expect(report.paused).toBe(false);
  report = await ok('campaigns:cancel', byExecution);
  expect(report.execution_status).toBe('CANCELLED');
  const refused = await dispatcher.invoke('campaigns:cancel', byExecution);
  expect(refused.ok).toBe(false);
  expect(await ok('campaigns:linkClicks', byExecution)).toEqual([
    { idx: 0, actual_url: 'https://shop.example/a', has_utm: true, clicks: 0, clickers: 0 },
  ]);
  expect(pushed.some((p) => p.execution_id === created.execution_id && p.status === 'CANCELLED')).toBe(true);

  expect(await ok('campaigns:linkSettings')).toMatchObject({ short_link_base: null, link_length: 32 });
  expect(await ok('campaigns:setLinkSettings', { short_link_base: 'https://go.shop.ir/' })).toEqual({
    short_link_base: 'https://go.shop.ir',
    effective_base: 'https://go.shop.ir',
    link_length: 29,
  });
  expect((await dispatcher.invoke('campaigns:setLinkSettings', { short_link_base: 'ftp://x' })).ok).toBe(false);
});

it('exports the report, makes a segment of the failed, and resends to them as a new campaign', async () => {
  core.settings.setSimulator({ seed: 3, handoff_ms: 10, delivery_ms: 10, outcomes: { '10': 1, '11': 1 } });
  const phones = Array.from({ length: 40 }, (_, i) => '0912' + String(i).padStart(7, '0'));
  const { segment_id } = core.uploads.create(
    account,
    phones.map((phone_number, i) => ({ phone_number, NAME: `n${i}` })),
  );
  await core.jobs.waitForIdle();
  const created = await ok('campaigns:create', {
    account_id: account,
    sender: '30001111',
    name: 'First',
    template_body: 'Hi {{NAME}}',
    send_datetime: '2026-01-05T10:00:00Z',
    inclusion_segments: [segment_id],
  });
  const byExecution = { account_id: account, execution_id: created.execution_id };
  for (let i = 0; i < 10; i++) {
    clock.advance(1_000);
    await core.jobs.waitForIdle();
    await core.scheduler.waitForIdle();
  }
  const report = await ok('campaigns:report', byExecution);
  expect(report.sent).toBe(40);
  expect(report.pending).toBe(0);
  expect(report.failed).toBeGreaterThan(5);
  expect(report.delivered + report.failed).toBe(40);

  const exported = await ok('campaigns:export', { ...byExecution, format: 'csv', language: 'en' });
  expect(exported.rows).toBe(40);
  // Texts hold a line break (the opt-out phrase): read the file as CSV, not as lines.
  const csv = Papa.parse<string[]>(fs.readFileSync(exported.path!, 'utf8').replace(/^\ufeff/, ''), {
    skipEmptyLines: true,
  }).data;
  expect(csv).toHaveLength(41);
  expect(csv[0]).toContain('Receiver');
  expect(
    csv
      .slice(1)
      .map((row) => row[1])
      .sort(),
  ).toEqual(phones);

  const failed = (await ok('campaigns:messages', { ...byExecution, status: [11], size: 100 })).map((m) => m.receptor);
  expect(failed).toHaveLength(report.failed);
  const resent = await ok('campaigns:resendFailed', byExecution);
  expect(resent.execution_status).toBe('SCHEDULED');
  for (let i = 0; i < 10; i++) {
    clock.advance(2_000);
    await core.jobs.waitForIdle();
  }
  expect(core.segments.count(account, resent.segment_id)).toBe(failed.length);
  const second = await ok('campaigns:report', { account_id: account, execution_id: resent.execution_id });
  expect(second.audience).toBe(failed.length);
  const again = await ok('campaigns:messages', { account_id: account, execution_id: resent.execution_id, size: 100 });
  expect(again.map((m) => m.receptor).sort()).toEqual([...failed].sort());
  expect(again[0]!.message).toMatch(/^Hi n\d+\n/);
});
