// A campaign on a segment an import is writing into, over the real core, import worker, job
// runner and SQLite, with the scheduler's manual clock: the import is held after its first commit
// (its job type paused, as a stop leaves it), so the campaign reads the segment mid-import for
// sure. Rows being added to an existing segment are not in it for an audience until the import is
// done (a cancel takes them out again); the quote, the live count and the frozen audience agree;
// a segment still being created by an import is waited for.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import { IMPORT_JOB } from '../../electron/service/contacts/imports';
import { KIND_CANDIDATE, produceCombine, type JobRow } from '../../electron/service/contacts/pipeline';
import { CampaignDraftFieldsSchema } from '../../shared/campaigns';
import { eventually, startServer, testSeed, type TestServer } from '../helpers/server';
import { writeSegment } from '../helpers/segments';
import { accountId } from '../api-v2/support';
import { campaignFields, createCampaign } from './support';

let server: TestServer;
let clock: ManualClock;

afterEach(async () => {
  await server?.close();
});

// 2026-11-27 10:00 in Tehran.
const FRIDAY_10 = '2026-11-27T10:00:00+03:30';
const FRIDAY_10_MS = Date.UTC(2026, 10, 27, 6, 30);
/** Members of the existing segment (writeSegment's numbers, all 091…). */
const CLUB = 1_000;
/** Rows of each file: three of the import's batches, so holding it after the first leaves it mid-way. */
const FILE_ROWS = 12_000;

async function start() {
  clock = new ManualClock(Date.UTC(2026, 10, 23, 8, 0));
  server = await startServer({ clock, seed: testSeed() });
  // Room for every row of the file and the segment twice over, a page each.
  server.core.credit.adjust(acme(), 2 * (CLUB + FILE_ROWS) * 1_500);
}

const acme = () => accountId(server.core, 'acme');
const core = () => server.core;

/** A CSV of FILE_ROWS numbers 093… (none of writeSegment's), with a NAME and a CITY column. */
function writeFile(name: string): string {
  const lines = ['mobile,name,city'];
  for (let i = 0; i < FILE_ROWS; i++) lines.push(`0930${String(i).padStart(7, '0')},new ${i},c${i % 7}`);
  const file = path.join(server.dataDir, name);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/**
 * Starts an import of a file (into `segmentId`, or a new segment) and holds it after its first
 * commit: the import's job type is paused from inside the progress report of that commit, so no
 * later batch lands. Resolves with the job still running and its first rows in the segment.
 */
async function importHeldMidway(segmentId?: number) {
  let held: Promise<void> | null = null;
  const started = await core().imports.start(
    acme(),
    {
      file: writeFile(`rows-${segmentId ?? 'new'}.csv`),
      mapping: {
        phone: 0,
        columns: [
          { index: 1, name: 'NAME' },
          { index: 2, name: 'CITY' },
        ],
      },
      segmentId,
    },
    (progress) => {
      if (held === null && progress.status === 'running' && progress.valid > 0) held = core().jobs.pause(IMPORT_JOB);
    },
  );
  await eventually(() => (held === null ? undefined : true), 30_000);
  await held;
  expect(core().imports.get(acme(), started.jobId)!.status).toBe('running');
  const written = segmentId === undefined ? membersOf(started.segmentId) : addedBy(started.jobId);
  expect(written.length).toBeGreaterThan(0);
  expect(written.length).toBeLessThan(FILE_ROWS);
  return started;
}

/** The numbers an import added to an existing segment so far (what a cancel takes out again). */
const addedBy = (jobId: number) =>
  core().db.prepare<[number], string>('SELECT phone FROM import_added WHERE job_id = ?').pluck().all(jobId);

const membersOf = (segmentId: number) =>
  core().db.prepare<[number], string>('SELECT phone FROM segment_members WHERE segment_id = ?').pluck().all(segmentId);

const recipientsOf = (executionId: number) =>
  core()
    .db.prepare<[number], string>('SELECT phone FROM campaign_recipients WHERE execution_id = ? ORDER BY seq')
    .pluck()
    .all(executionId);

const sentTo = (executionId: number) =>
  core()
    .db.prepare<[number], string>(
      `SELECT m.receptor FROM campaign_batches b JOIN messages m ON m.id BETWEEN b.first_message_id AND b.first_message_id + b.count - 1
       WHERE b.execution_id = ?`,
    )
    .pluck()
    .all(executionId);

const report = (executionId: number) => core().campaigns.report(acme(), executionId);

async function campaignOn(segmentId: number, sendAt = FRIDAY_10, exclude: number[] = []) {
  const created = await createCampaign(
    server.url,
    campaignFields({
      inclusion_segments: String(segmentId),
      exclusion_segments: exclude.map(String),
      send_datetime: sendAt,
    }),
  );
  expect(created.status, created.text).toBe(201);
  return created.body.entries as { campaign_id: number; execution_id: number };
}

/** The editor's dry run of a campaign on the segment (less `exclude`). */
const quote = (segmentId: number, exclude: number[] = []) =>
  core().campaigns.quote(
    acme(),
    CampaignDraftFieldsSchema.parse({
      sender: '30001111',
      name: 'draft',
      template_body: 'Hello {{NAME}}',
      inclusion_segments: [segmentId],
      exclusion_segments: exclude,
    }),
  );

/** Lets every due job (the held import's type aside) and the purge worker run. */
async function settle() {
  for (let i = 0; i < 5; i++) {
    await core().jobs.waitForIdle();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function runUntil(at: number) {
  clock.advance(at - clock.now());
  await settle();
}

/** Moves the clock a second at a time (the carrier's simulator answers in its own steps). */
async function runFor(ms: number) {
  for (let t = 0; t < ms; t += 1_000) await runUntil(clock.now() + 1_000);
}

/** Cancels the held import and waits until its rows are taken out again (the segment ready). */
async function cancelImport(jobId: number, segmentId: number) {
  expect(core().imports.cancel(acme(), jobId)).toBe(true);
  core().jobs.resume(IMPORT_JOB);
  await eventually(() => (core().segments.get(acme(), segmentId).status === 'ready' ? true : undefined));
  expect(addedBy(jobId)).toEqual([]);
}

describe('a campaign on a segment being imported into', () => {
  it('an execution started before the import freezes none of its rows; a cancel leaves its recipients as they were', async () => {
    await start();
    const club = writeSegment(core(), acme(), 'club', { from: 0, to: CLUB });
    const before = new Set(membersOf(club));
    const { execution_id } = await campaignOn(club);
    // Paused the moment it starts: RUNNING, its columns fixed, nothing frozen yet.
    const pauseAtStart = (event: { execution_id: number; status: string }) => {
      if (event.execution_id !== execution_id || event.status !== 'RUNNING') return;
      core().campaigns.events.off('execution', pauseAtStart);
      core().campaigns.pause(acme(), execution_id);
    };
    core().campaigns.events.on('execution', pauseAtStart);
    await runUntil(FRIDAY_10_MS);
    expect(report(execution_id)).toMatchObject({ execution_status: 'RUNNING', paused: true });
    expect(recipientsOf(execution_id)).toEqual([]);

    const { jobId } = await importHeldMidway(club);
    expect(core().segments.get(acme(), club).status).toBe('importing');
    const added = addedBy(jobId);
    // The live count and the quote see the segment as it was.
    expect(report(execution_id).audience).toBe(CLUB);
    expect(core().segments.audienceCount(acme(), { include: [club] })).toBe(CLUB);
    const dryRun = await quote(club);
    expect(dryRun.audience).toMatchObject({ included: CLUB, recipients: CLUB });
    expect(dryRun.audience.segments).toEqual([expect.objectContaining({ segment_id: club, ready: true })]);
    expect(dryRun.columns).toEqual(['NAME', 'PHONE_NUMBER']);

    // Resumed while the import is held: the freeze reads the segment mid-import.
    core().campaigns.resume(acme(), execution_id);
    await settle();
    expect(report(execution_id).audience).toBe(CLUB);
    await cancelImport(jobId, club);
    await runFor(10_000);

    const r = report(execution_id);
    expect(r).toMatchObject({ execution_status: 'COMPLETED', audience: CLUB, sent: CLUB });
    const recipients = recipientsOf(execution_id);
    expect(new Set(recipients)).toEqual(before);
    expect(new Set(sentTo(execution_id))).toEqual(before);
    expect(recipients.filter((phone) => added.includes(phone))).toEqual([]);
  });

  it('an execution due mid-import sends to the segment as it was; once the import is done a new one sees every row', async () => {
    await start();
    const club = writeSegment(core(), acme(), 'club', { from: 0, to: CLUB });
    const before = new Set(membersOf(club));
    const first = await campaignOn(club);
    const { jobId } = await importHeldMidway(club);

    expect(report(first.execution_id).audience).toBe(CLUB);
    expect((await quote(club)).audience.recipients).toBe(CLUB);
    await runUntil(FRIDAY_10_MS);
    await runFor(10_000);
    expect(report(first.execution_id)).toMatchObject({ execution_status: 'COMPLETED', audience: CLUB, sent: CLUB });
    expect(new Set(recipientsOf(first.execution_id))).toEqual(before);

    // The import goes on and is done: its rows are members like any.
    core().jobs.resume(IMPORT_JOB);
    expect(await core().imports.wait(jobId)).toMatchObject({ status: 'done', valid: FILE_ROWS });
    await settle();
    expect(core().segments.get(acme(), club)).toMatchObject({ status: 'ready', member_count: CLUB + FILE_ROWS });
    expect(core().segments.audienceCount(acme(), { include: [club] })).toBe(CLUB + FILE_ROWS);
    expect((await quote(club)).audience.recipients).toBe(CLUB + FILE_ROWS);
    const inAMinute = clock.now() + 60_000;
    const second = await campaignOn(club, new Date(inAMinute).toISOString());
    expect(report(second.execution_id).audience).toBe(CLUB + FILE_ROWS);
    await runUntil(inAMinute);
    await runFor(2_000);
    expect(report(second.execution_id)).toMatchObject({ audience: CLUB + FILE_ROWS, sent: CLUB + FILE_ROWS });
    expect(new Set(recipientsOf(second.execution_id))).toEqual(new Set(membersOf(club)));
  });

  it('rows still being added to an exclusion segment exclude no one', async () => {
    await start();
    const fresh = await core().imports.start(acme(), {
      file: writeFile('fresh.csv'),
      mapping: { phone: 0, columns: [{ index: 1, name: 'NAME' }] },
    });
    expect(await core().imports.wait(fresh.jobId)).toMatchObject({ status: 'done', valid: FILE_ROWS });
    const club = writeSegment(core(), acme(), 'club', { from: 0, to: CLUB });
    const { execution_id } = await campaignOn(fresh.segmentId, FRIDAY_10, [club]);
    // The same file into the club: its first rows are numbers of `fresh`, not the club's yet.
    const { jobId } = await importHeldMidway(club);
    expect(addedBy(jobId).length).toBeGreaterThan(0);

    expect(core().segments.audienceCount(acme(), { include: [fresh.segmentId], exclude: [club] })).toBe(FILE_ROWS);
    expect((await quote(fresh.segmentId, [club])).audience).toMatchObject({ excluded: 0, recipients: FILE_ROWS });
    expect(report(execution_id).audience).toBe(FILE_ROWS);
    await runUntil(FRIDAY_10_MS);
    await runFor(2_000);
    expect(report(execution_id)).toMatchObject({ audience: FILE_ROWS, sent: FILE_ROWS });
    await cancelImport(jobId, club);
  });

  it('a campaign on a segment still being created waits for it, and fails with nothing sent when the import is cancelled', async () => {
    await start();
    const { jobId, segmentId } = await importHeldMidway();
    expect(core().segments.get(acme(), segmentId).status).toBe('importing');
    const { execution_id } = await campaignOn(segmentId);
    expect(report(execution_id).audience).toBe(0);
    const dryRun = await quote(segmentId);
    expect(dryRun.audience).toMatchObject({ included: 0, recipients: 0 });
    expect(dryRun.audience.segments).toEqual([expect.objectContaining({ segment_id: segmentId, ready: false })]);

    await runUntil(FRIDAY_10_MS);
    await runUntil(clock.now() + 5_000);
    expect(report(execution_id)).toMatchObject({ execution_status: 'SCHEDULED', sent: 0 });
    expect(recipientsOf(execution_id)).toEqual([]);

    expect(core().imports.cancel(acme(), jobId)).toBe(true);
    core().jobs.resume(IMPORT_JOB);
    // The execution's next try (its job's backoff) finds the segment gone.
    for (let i = 0; i < 10 && report(execution_id).execution_status === 'SCHEDULED'; i++)
      await runUntil(clock.now() + 60_000);
    expect(report(execution_id)).toMatchObject({ execution_status: 'FAILED', sent: 0 });
    expect(recipientsOf(execution_id)).toEqual([]);
  });
});

describe('a union or difference of a segment being imported into', () => {
  it('copies the segment as it was before the import: no row a cancel takes out outlives it in the new segment', async () => {
    await start();
    const club = writeSegment(core(), acme(), 'club', { from: 0, to: CLUB });
    const staff = writeSegment(core(), acme(), 'staff', { from: 0, to: 10 });
    const before = membersOf(club);
    // Combines are refused on a segment already importing; one started before an import reads its
    // sources page by page while the import commits. Their jobs, read again mid-import below, are
    // what their worker would read at that moment.
    const union = core().segments.union(acme(), { name: 'club+', segmentIds: [club] });
    const difference = core().segments.difference(acme(), { name: 'club-staff', from: [club], minus: [staff] });
    await core().imports.wait(union.jobId);
    await core().imports.wait(difference.jobId);
    const { jobId } = await importHeldMidway(club);
    const added = addedBy(jobId);
    expect(added.some((phone) => before.includes(phone))).toBe(false);
    const copied = (combineJob: number) => {
      const job = core().db.prepare<[number], JobRow>('SELECT * FROM import_jobs WHERE id = ?').get(combineJob)!;
      const phones: string[] = [];
      produceCombine(core().db, job, {
        emit: (batch) => batch.phones.forEach((phone, i) => batch.kinds[i] === KIND_CANDIDATE && phones.push(phone)),
      });
      return phones;
    };
    expect(new Set(copied(union.jobId))).toEqual(new Set(before));
    expect(new Set(copied(difference.jobId))).toEqual(
      new Set(before.filter((phone) => !membersOf(staff).includes(phone))),
    );
    await cancelImport(jobId, club);
  });
});
