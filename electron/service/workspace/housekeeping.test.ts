// Housekeeping on a real core: retention archives exactly the messages it removes into files that
// open on their own, or deletes them; the maintained counts stay equal to a full scan; messages not
// final yet (and their 15 minutes) stay; a run closed halfway resumes after the reopen; a campaign's
// report still answers; the upkeep runs at quiet times only, and gives free pages back in steps.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expectAggregatesEqualScan } from '../../../test/helpers/counts';
import { describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { ServiceError } from '../errors';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { nativeBinding } from '../db/native';
import type { Db } from '../db/database';
import { retentionCutoff } from './retention';
import { archiveDir } from './archive-file';
import { QUIET_MS } from './maintenance';
import { createDispatcher } from '../ipc/dispatcher';
import { ipcCalls } from '../../../test/helpers/ipc';

const MINUTE = 60_000;
const DAY = 86_400_000;

const cores = testCores();

interface Opened {
  core: Core;
  clock: ManualClock;
  dataDir: string;
  account: number;
}

function open(
  options: { dataDir?: string; clock?: ManualClock; batch?: number; seed?: boolean; startScheduler?: boolean } = {},
): Opened {
  const clock = options.clock ?? new ManualClock(Date.UTC(2025, 0, 6, 9, 0, 0));
  const dataDir = options.dataDir ?? tempDir('chapar-housekeeping-');
  const core = new Core({ dataDir, clock, startScheduler: options.startScheduler ?? false });
  // Batches of a few messages: every rule is crossed many times by a small workspace.
  if (options.batch !== undefined) core.housekeeping.retention.batch = options.batch;
  cores.track(core);
  if (options.seed !== false) {
    applySeed(core, testSeed());
    core.credit.adjust(core.accounts.findByName('acme')!.id, 10_000_000_000, 'test');
  }
  return { core, clock, dataDir, account: core.accounts.findByName('acme')!.id };
}

async function close(core: Core): Promise<void> {
  cores.release(core);
  await core.close();
}

let phone = 0;
/** A send of `n` receivers now, moved on by the simulator until final. */
function send(
  t: Opened,
  n: number,
  extra: { sender?: string; localIds?: boolean; dueAt?: number; text?: (i: number) => string } = {},
) {
  const receivers = Array.from({ length: n }, () => '0912' + String(phone++ % 9_000_000).padStart(7, '0'));
  return t.core.messaging.accept.accept({
    accountId: t.account,
    origin: 'panel',
    sender: extra.sender ?? '30001111',
    text: 'Hello',
    texts: extra.text ? receivers.map((_, i) => extra.text!(i)) : undefined,
    receivers,
    rule: 'lenient',
    dueAt: extra.dueAt,
    localIds: extra.localIds ? receivers.map((r) => `local-${r}`) : undefined,
  });
}

/** Moves time on and lets the lifecycle and the simulator finish what is due. */
async function advance(t: Opened, ms: number): Promise<void> {
  t.clock.advance(ms);
  await t.core.scheduler.drain();
}

/** Lets the statuses of what was just sent move on to final (each stage is due a little after the one before). */
async function settle(t: Opened): Promise<void> {
  for (let i = 0; i < 4; i++) await advance(t, MINUTE);
}

/** Half a year of history: sends every ten days on two lines, each final soon after. */
async function history(t: Opened, options: { localIds?: boolean } = {}): Promise<void> {
  for (let i = 0; i < 18; i++) {
    send(t, 5 + (i % 4), { localIds: options.localIds && i % 3 === 0 });
    await advance(t, 7 * MINUTE);
    send(t, 3, { sender: i % 2 ? '30002222' : '30001111' });
    await advance(t, 10 * DAY);
  }
}

type Row = Record<string, unknown>;
const all = (db: Db | Database.Database, sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as Row[];

function archived(dataDir: string): { messages: Row[]; sends: Row[]; localIds: Row[]; files: string[] } {
  const dir = archiveDir(dataDir);
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  const result = { messages: [] as Row[], sends: [] as Row[], localIds: [] as Row[], files };
  for (const name of files) {
    // Each file on its own, read-only, as any SQLite tool would open it.
    const db = new Database(path.join(dir, name), { readonly: true, nativeBinding: nativeBinding() });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      result.messages.push(...all(db, 'SELECT * FROM messages ORDER BY id'));
      result.sends.push(...all(db, 'SELECT * FROM sends ORDER BY id'));
      result.localIds.push(...all(db, 'SELECT * FROM local_ids ORDER BY message_id'));
      // Every archived message has its send beside it.
      expect(all(db, 'SELECT id FROM messages WHERE send_id NOT IN (SELECT id FROM sends)')).toEqual([]);
    } finally {
      db.close();
    }
  }
  return result;
}

async function applyAndWait(t: Opened, months: number, action: 'archive' | 'delete') {
  const cutoff = retentionCutoff(t.clock.now(), months);
  const preview = await t.core.housekeeping.retentionPreview(months, action);
  await t.core.housekeeping.applyRetention(months, action, cutoff);
  const runJob = t.core.jobs.open('workspace.retention')[0]!;
  t.core.scheduler.start();
  await t.core.jobs.waitFor(runJob.id);
  return { preview, cutoff, state: t.core.housekeeping.retentionState() };
}

describe('retention', () => {
  it('finds the start of the UTC day N months back, on a 15-minute boundary', () => {
    expect(retentionCutoff(Date.UTC(2025, 6, 15, 13, 5), 3)).toBe(Date.UTC(2025, 3, 15));
    expect(retentionCutoff(Date.UTC(2025, 2, 31, 23, 59), 1)).toBe(Date.UTC(2025, 1, 28));
    expect(retentionCutoff(Date.UTC(2025, 0, 10), 13)).toBe(Date.UTC(2023, 11, 10));
    expect(retentionCutoff(Date.UTC(2025, 0, 10), 13) % 900_000).toBe(0);
  });

  it('archives exactly the messages it removes into month files that open on their own', async () => {
    const t = open({ batch: 7 });
    // A slot holding more than five batches goes in several transactions.
    send(t, 80, { localIds: true });
    await advance(t, 20 * MINUTE);
    await history(t, { localIds: true });
    const before = all(t.core.db, 'SELECT * FROM messages ORDER BY id');
    const sendsBefore = all(t.core.db, 'SELECT * FROM sends ORDER BY id');
    const localBefore = all(t.core.db, 'SELECT * FROM local_ids ORDER BY message_id');

    const { preview, cutoff, state } = await applyAndWait(t, 2, 'archive');
    const after = all(t.core.db, 'SELECT * FROM messages ORDER BY id');
    const keptIds = new Set(after.map((m) => m.id));
    const removed = before.filter((m) => !keptIds.has(m.id));

    // Everything created before the cut-off went (all final), nothing after it.
    expect(removed.length).toBeGreaterThan(50);
    expect(removed.every((m) => (m.created_at as number) < cutoff)).toBe(true);
    expect(after.every((m) => (m.created_at as number) >= cutoff)).toBe(true);
    expect(preview).toMatchObject({ messages: removed.length, held: 0, campaign_messages: 0 });
    expect(preview.first_at).toBe(removed[0]!.created_at);
    expect(preview.last_at).toBe(removed.at(-1)!.created_at);
    expect(state.run).toMatchObject({ state: 'done', removed: removed.length, planned: removed.length, held: 0 });
    expect(state).toMatchObject({ months: 2, action: 'archive', automatic: true });

    const archive = archived(t.dataDir);
    expect(archive.files.length).toBeGreaterThan(1);
    expect(archive.files.every((name) => /^messages-\d{4}-\d{2}\.db$/.test(name))).toBe(true);
    expect(state.run!.archives).toEqual(archive.files);
    expect(archive.messages).toEqual(removed);
    const removedSends = new Set(removed.map((m) => m.send_id));
    expect(archive.sends).toEqual(sendsBefore.filter((s) => removedSends.has(s.id)));
    expect(archive.localIds.length).toBeGreaterThan(0);
    expect(archive.localIds).toEqual(localBefore.filter((l) => !keptIds.has(l.message_id)));
    // Their local ids and sends left the workspace with them.
    expect(all(t.core.db, 'SELECT * FROM local_ids WHERE message_id NOT IN (SELECT id FROM messages)')).toEqual([]);
    expect(all(t.core.db, 'SELECT id FROM sends WHERE id NOT IN (SELECT send_id FROM messages)')).toEqual([]);
    expectAggregatesEqualScan(t.core.db);
    // The money's history stays whole.
    expect(
      t.core.db.prepare('SELECT SUM(amount_rials) AS sum FROM credit_ledger WHERE account_id = ?').get(t.account),
    ).toEqual({ sum: t.core.credit.balance(t.account) });
    // A new message still takes a new id.
    const next = send(t, 1);
    expect(next.firstMessageId).toBeGreaterThan(before.at(-1)!.id as number);
  });

  it('deletes without writing an archive, and keeps counts equal to a full scan', async () => {
    const t = open({ batch: 5 });
    await history(t);
    const total = t.core.db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number };
    t.core.messaging.sendTexts.indexAll();
    const upto = t.core.messaging.sendTexts.upto();
    const documents = () => t.core.db.prepare('SELECT id FROM send_texts_docsize ORDER BY id').pluck().all();
    const blocksLeft = () =>
      t.core.db.prepare('SELECT DISTINCT id / 16 FROM sends WHERE id < ? ORDER BY 1').pluck().all(upto);
    const blocksBefore = blocksLeft();
    expect(documents()).toEqual(blocksBefore);
    const { preview, cutoff, state } = await applyAndWait(t, 3, 'delete');
    expect(preview.messages).toBeGreaterThan(0);
    expect(state.run).toMatchObject({ state: 'done', action: 'delete', removed: preview.messages, archives: [] });
    expect(fs.existsSync(archiveDir(t.dataDir))).toBe(false);
    const left = t.core.db.prepare('SELECT COUNT(*) AS n, MIN(created_at) AS first FROM messages').get() as {
      n: number;
      first: number;
    };
    expect(left.n).toBe(total.n - preview.messages);
    expect(left.first).toBeGreaterThanOrEqual(cutoff);
    expectAggregatesEqualScan(t.core.db);
    expect((await t.core.housekeeping.size()).messages).toBe(left.n);
    // The send-text index keeps a document for each block with sends left, and no other.
    expect(blocksLeft().length).toBeLessThan(blocksBefore.length);
    expect(documents()).toEqual(blocksLeft());
  });

  it('never removes a message not final yet, nor the other messages of its 15 minutes', async () => {
    const t = open({ batch: 4 });
    // A send scheduled far ahead (not final for years), with an immediate one in the same minute.
    const early = t.clock.now();
    const scheduled = send(t, 2, { dueAt: early + 1000 * DAY });
    const neighbour = send(t, 3);
    await advance(t, 20 * MINUTE);
    await history(t);
    const { preview, state } = await applyAndWait(t, 1, 'archive');
    const ids = (first: number, n: number) => Array.from({ length: n }, (_, i) => first + i);
    const kept = all(t.core.db, 'SELECT id, status FROM messages WHERE created_at = ? ORDER BY id', early);
    expect(kept.map((m) => m.id)).toEqual([...ids(scheduled.firstMessageId, 2), ...ids(neighbour.firstMessageId, 3)]);
    expect(kept.slice(0, 2).every((m) => m.status === 2)).toBe(true);
    expect(preview.held).toBe(5);
    expect(state.run).toMatchObject({ held: 5, removed: preview.messages });
    expect(preview.first_at).toBeGreaterThan(early);
    expect(archived(t.dataDir).messages.every((m) => m.created_at !== early)).toBe(true);
    expectAggregatesEqualScan(t.core.db);
  });

  it('resumes after the core is closed halfway through a run, losing and repeating nothing', async () => {
    const first = open({ batch: 3 });
    await history(first, { localIds: true });
    const before = all(first.core.db, 'SELECT * FROM messages ORDER BY id');
    const cutoff = retentionCutoff(first.clock.now(), 2);
    await first.core.housekeeping.applyRetention(2, 'archive', cutoff);
    first.core.scheduler.start();
    const run = () => first.core.housekeeping.retentionState().run!;
    while (run().removed === 0) await new Promise((resolve) => setImmediate(resolve));
    await close(first.core);
    const halfway = new Database(path.join(first.dataDir, 'chapar.db'), { readonly: true });
    const stopped = halfway.prepare('SELECT state, removed, planned FROM retention_runs').get() as Row;
    halfway.close();
    expect(stopped.state).toBe('running');
    expect(stopped.removed as number).toBeLessThan(stopped.planned as number);

    const again = open({ dataDir: first.dataDir, clock: first.clock, batch: 3, seed: false, startScheduler: true });
    const job = again.core.jobs.open('workspace.retention')[0]!;
    await again.core.jobs.waitFor(job.id);
    const state = again.core.housekeeping.retentionState();
    const after = all(again.core.db, 'SELECT * FROM messages ORDER BY id');
    const keptIds = new Set(after.map((m) => m.id));
    const removed = before.filter((m) => !keptIds.has(m.id));
    expect(state.run).toMatchObject({ state: 'done', removed: removed.length });
    expect(after.every((m) => (m.created_at as number) >= cutoff)).toBe(true);
    expect(archived(again.dataDir).messages).toEqual(removed);
    expectAggregatesEqualScan(again.core.db);
  });

  it('applies a confirmed setting again each day at a quiet time, and a changed one only once confirmed', async () => {
    const t = open({ batch: 5 });
    await history(t);
    const first = await applyAndWait(t, 2, 'archive');
    expect(first.state).toMatchObject({ automatic: true, run: { automatic: false, state: 'done' } });
    // Twelve days on, more messages are older than two months.
    await advance(t, 12 * DAY);
    await settle(t);
    await advance(t, QUIET_MS + MINUTE);
    const run = t.core.housekeeping.retentionState().run!;
    expect(run).toMatchObject({ automatic: true, months: 2, action: 'archive' });
    await t.core.jobs.waitForIdle();
    const second = t.core.housekeeping.retentionState().run!;
    expect(second.state).toBe('done');
    expect(second.removed).toBeGreaterThan(0);
    expect(t.core.db.prepare('SELECT COUNT(*) FROM messages WHERE created_at < ?').pluck().get(second.cutoff)).toBe(0);
    expectAggregatesEqualScan(t.core.db);

    // Another setting is not applied by itself: it needs its own confirmation.
    expect(t.core.housekeeping.setRetention(1, 'archive')).toMatchObject({ months: 1, automatic: false });
    await advance(t, 2 * DAY);
    await settle(t);
    await advance(t, QUIET_MS + MINUTE);
    expect(t.core.housekeeping.retentionState().run!.id).toBe(second.id);
    expect(t.core.housekeeping.setRetention(null, 'archive')).toMatchObject({ months: null, automatic: false });
  });

  it('refuses a cut-off the preview did not show, and a second run while one goes on', async () => {
    const t = open();
    await history(t);
    const cutoff = retentionCutoff(t.clock.now(), 2);
    const refusal = (run: () => Promise<unknown>) =>
      run().then(
        () => null,
        (error: unknown) => (error instanceof ServiceError ? error.reason : error),
      );
    expect(await refusal(() => t.core.housekeeping.applyRetention(2, 'archive', cutoff - DAY))).toBe(
      'retention_preview_stale',
    );
    await t.core.housekeeping.applyRetention(2, 'archive', cutoff);
    expect(await refusal(() => t.core.housekeeping.applyRetention(2, 'archive', cutoff))).toBe('retention_running');
  });

  it('keeps a campaign report answering after its messages were archived', async () => {
    const t = open({ batch: 2, startScheduler: true });
    const { segment_id } = t.core.uploads.create(t.account, [
      { phone_number: '09120000001', NAME: 'Sara' },
      { phone_number: '09120000002', NAME: 'Ali' },
      { phone_number: '09120000003', NAME: 'Reza' },
    ]);
    await t.core.jobs.waitForIdle();
    const dispatcher = createDispatcher(t.core, { mode: 'desktop' });
    const created = await ipcCalls(() => dispatcher).ok('campaigns:create', {
      account_id: t.account,
      sender: '30001111',
      name: 'Spring',
      template_body: 'Hi {{NAME}}',
      send_datetime: new Date(t.clock.now() + 10 * MINUTE).toISOString(),
      inclusion_segments: [segment_id],
    });
    dispatcher.close();
    for (let i = 0; i < 6; i++) {
      t.clock.advance(10 * MINUTE);
      await t.core.jobs.waitForIdle();
      await t.core.scheduler.waitForIdle();
    }
    const report = () => t.core.campaigns.report(t.account, created.execution_id);
    const before = report();
    expect(before).toMatchObject({ execution_status: 'COMPLETED', sent: 3 });
    await advance(t, 100 * DAY);
    send(t, 1);
    const { preview, state } = await applyAndWait(t, 2, 'archive');
    expect(preview.campaign_messages).toBe(3);
    expect(state.run!.removed).toBe(3);
    const after = report();
    // Every message was final before the archive: the report had kept its outcomes (migration
    // 0020), so it answers as before, with cost, refunds and clicks.
    expect(before.pending).toBe(0);
    expect(after).toMatchObject({
      cost: before.cost,
      refunded: before.refunded,
      clicks: before.clicks,
      sent: 3,
      delivered: before.delivered,
      failed: before.failed,
      pending: 0,
    });
    expect(
      all(t.core.db, 'SELECT s.id FROM campaign_batches b JOIN sends s ON s.id = b.send_id').length,
    ).toBeGreaterThan(0);
    expect(archived(t.dataDir).messages.map((m) => m.receptor)).toEqual(['09120000001', '09120000002', '09120000003']);
    expectAggregatesEqualScan(t.core.db);
  });
});

describe('upkeep at quiet times', () => {
  it('switches a new workspace to incremental vacuum and optimizes only once the app is quiet', async () => {
    const t = open();
    expect((await t.core.housekeeping.size()).incremental).toBe(true);
    const maintenance = t.core.housekeeping.maintenance;
    send(t, 3);
    await advance(t, MINUTE);
    // Statuses just moved: not quiet for another QUIET_MS.
    expect(maintenance.lastRun('optimize')).toBeNull();
    expect(maintenance.nextDueAt()).toBeGreaterThanOrEqual(t.clock.now() + QUIET_MS - 2 * MINUTE);
    await advance(t, QUIET_MS / 2);
    expect(maintenance.lastRun('optimize')).toBeNull();
    await advance(t, QUIET_MS);
    expect(maintenance.lastRun('optimize')).toMatchObject({ at: t.clock.now() });
    // Once a day.
    const optimizedAt = t.clock.now();
    await advance(t, 6 * 60 * MINUTE);
    expect(maintenance.lastRun('optimize')!.at).toBe(optimizedAt);
    await advance(t, DAY);
    expect(maintenance.lastRun('optimize')!.at).toBeGreaterThan(optimizedAt);
  });

  it('waits while a scheduled send is about to go', async () => {
    const t = open();
    await advance(t, DAY);
    const optimized = t.core.housekeeping.maintenance.lastRun('optimize')!.at;
    send(t, 2, { dueAt: t.clock.now() + DAY + 2 * MINUTE });
    await advance(t, DAY);
    // Due in two minutes: the day's optimize waits until it has gone and things are quiet again.
    expect(t.core.housekeeping.maintenance.lastRun('optimize')!.at).toBe(optimized);
    await settle(t);
    expect(t.core.db.prepare('SELECT status FROM messages WHERE status < 10').pluck().all()).toEqual([]);
    await advance(t, QUIET_MS + MINUTE);
    expect(t.core.housekeeping.maintenance.lastRun('optimize')!.at).toBeGreaterThan(optimized);
  });

  it('gives the space retention freed back in small steps, and compacts on request', async () => {
    const t = open({ batch: 500 });
    // About 6 MB of texts, months ago.
    for (let i = 0; i < 6; i++) {
      send(t, 1000, { text: (n) => `${i} ${n} ` + 'x'.repeat(1000) });
      await advance(t, 10 * MINUTE);
    }
    await advance(t, 90 * DAY);
    send(t, 1);
    const { state } = await applyAndWait(t, 1, 'delete');
    expect(state.run!.removed).toBe(6000);
    const freed = (await t.core.housekeeping.size()).free_bytes;
    expect(freed).toBeGreaterThan(4 * 1024 * 1024);
    const steps: number[] = [];
    const maintenance = t.core.housekeeping.maintenance;
    const runDue = maintenance.runDue.bind(maintenance);
    maintenance.runDue = async () => {
      const free = maintenance.pageStats().freePages;
      const ran = await runDue();
      steps.push(free - maintenance.pageStats().freePages);
      return ran;
    };
    // The last send's statuses move first; quiet comes QUIET_MS after them.
    await settle(t);
    await advance(t, QUIET_MS + MINUTE);
    const size = await t.core.housekeeping.size();
    expect(size.free_bytes).toBeLessThan(4 * 1024 * 1024);
    expect(size.vacuumed_at).toBe(t.clock.now());
    expect(size.optimized_at).toBe(t.clock.now());
    // Several steps of about a megabyte each, not one long one.
    expect(steps.filter((pages) => pages > 0).length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...steps) * maintenance.pageStats().pageSize).toBeLessThanOrEqual(1024 * 1024);

    const compacted = await t.core.housekeeping.compact();
    expect(compacted.size.free_bytes).toBe(0);
    expect(compacted.size.compacted_at).toBe(t.clock.now());
    expect(compacted.freed_bytes).toBeGreaterThan(0);
  });
});
