// Imports on the job layer: an import's record and its `contacts.import` job are written together
// and end together (done, failed with the import's error, cancelled), and records of a build
// before the job layer (queued or running, no job) get their job on start and resume.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/server';
import { openCore, writeText, type TestCore } from '../../../test/contacts/support';
import { IMPORT_JOB } from './imports';

const open: TestCore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function core(dataDir?: string): TestCore {
  const t = openCore(dataDir);
  open.push(t);
  if (!dataDir) dirs.push(t.dir);
  return t;
}

function csv(dir: string, name: string, rows: number): string {
  const lines = ['phone,NAME'];
  for (let i = 0; i < rows; i++) lines.push(`0912${String(i).padStart(7, '0')},n${i}`);
  return writeText(dir, name, lines.join('\n') + '\n');
}

function jobOf(t: TestCore, importId: number) {
  return t.core.db
    .prepare<[number], { id: number; state: string; attempts: number; last_error: string | null }>(
      `SELECT id, state, attempts, last_error FROM jobs WHERE type = '${IMPORT_JOB}' AND json_extract(payload, '$.importId') = ?`,
    )
    .all(importId);
}

describe('imports on the job layer', () => {
  it('queue a job with the record, and end it with the record', async () => {
    const t = core();
    await t.core.scheduler.stop();
    const { jobId } = await t.core.imports.start(t.accountId, { file: csv(t.dir, 'a.csv', 3) });
    expect(jobOf(t, jobId)).toEqual([{ id: expect.any(Number), state: 'queued', attempts: 0, last_error: null }]);
    t.core.scheduler.start();
    expect(await t.core.imports.wait(jobId)).toMatchObject({ status: 'done', valid: 3 });
    expect(jobOf(t, jobId)).toMatchObject([{ state: 'done', attempts: 1 }]);
  });

  it('a cancelled import cancels its job; a failed one fails it with the same error, without retry', async () => {
    const t = core();
    await t.core.scheduler.stop();
    const queued = await t.core.imports.start(t.accountId, { file: csv(t.dir, 'b.csv', 3) });
    expect(t.core.imports.cancel(t.accountId, queued.jobId)).toBe(true);
    expect(t.core.imports.get(t.accountId, queued.jobId)).toMatchObject({ status: 'cancelled' });
    expect(jobOf(t, queued.jobId)).toMatchObject([{ state: 'cancelled', attempts: 0 }]);

    const file = csv(t.dir, 'c.csv', 3);
    const doomed = await t.core.imports.start(t.accountId, { file });
    fs.rmSync(file);
    t.core.scheduler.start();
    const failed = await t.core.imports.wait(doomed.jobId);
    expect(failed.status).toBe('failed');
    expect(jobOf(t, doomed.jobId)).toEqual([
      { id: expect.any(Number), state: 'failed', attempts: 1, last_error: failed.error },
    ]);
  });

  it('records left queued or running by a build before the job layer get their job and finish', async () => {
    const dir = tempDir('chapar-imports-upgrade-');
    dirs.push(dir);
    const first = core(dir);
    await first.core.scheduler.stop();
    const resumed = await first.core.imports.start(first.accountId, { file: csv(dir, 'd.csv', 50) });
    const spent = await first.core.imports.start(first.accountId, { file: csv(dir, 'e.csv', 5) });
    // As an older build left them: one running (with an attempt), one running that used all its
    // attempts, and no jobs at all.
    first.core.db.prepare("UPDATE import_jobs SET status = 'running', attempts = 1 WHERE id = ?").run(resumed.jobId);
    first.core.db.prepare("UPDATE import_jobs SET status = 'running', attempts = 5 WHERE id = ?").run(spent.jobId);
    first.core.db.prepare('DELETE FROM jobs').run();
    await first.close();

    const second = core(dir);
    expect(await second.core.imports.wait(resumed.jobId)).toMatchObject({ status: 'done', valid: 50 });
    expect(second.core.segments.get(second.accountId, resumed.segmentId)).toMatchObject({
      status: 'ready',
      member_count: 50,
    });
    expect(jobOf(second, resumed.jobId)).toMatchObject([{ state: 'done', attempts: 1 }]);
    expect(second.core.imports.get(second.accountId, spent.jobId)).toMatchObject({
      status: 'failed',
      error: 'interrupted too many times',
    });
    expect(jobOf(second, spent.jobId)).toEqual([]);
  });
});
