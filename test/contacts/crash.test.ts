// A process killed (SIGKILL) in the middle of a 1,000,000-row import: the segment is never shown
// as ready while half-written, and on restart the job resumes from its last committed batch and
// finishes with exactly the right members (or fails cleanly).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { exited, ROOT, tempDir } from '../helpers/server';
import { openCore } from './support';

const ROWS = 1_000_000;

/** Unique numbers, with every 1000th row invalid and every 997th a repeat of the row before. */
function writeBigCsv(file: string): { valid: number; invalid: number; duplicates: number } {
  const fd = fs.openSync(file, 'w');
  let chunk = 'phone,NAME,CITY,CODE\n';
  let valid = 0;
  let invalid = 0;
  let duplicates = 0;
  let previous = '';
  for (let i = 1; i <= ROWS; i++) {
    let phone: string;
    if (i % 1000 === 0) {
      phone = 'x' + i;
      invalid++;
    } else if (i % 997 === 0 && previous !== '') {
      phone = previous;
      duplicates++;
    } else {
      phone = '09' + String(100_000_000 + ((i * 7_919) % 900_000_000)).padStart(9, '0');
      previous = phone;
      valid++;
    }
    chunk += `${phone},name ${i},city ${i % 31},${i}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(fd, chunk);
      chunk = '';
    }
  }
  fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  return { valid, invalid, duplicates };
}

describe('an import killed mid-way', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'chapar-crash-'));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
  // A test that fails before its kill leaves the child importing (it never ends on its own), one
  // that fails between the reopenings leaves a core open: the child is killed and its exit
  // awaited, the cores closed (a second close waits for the first), then the folder goes.
  let running: ChildProcess | undefined;
  const opened: Array<{ close(): Promise<void> }> = [];
  let workspace: string | undefined;
  afterEach(async () => {
    if (running) {
      running.kill('SIGKILL');
      await exited(running);
      running = undefined;
    }
    for (const core of opened.splice(0)) await core.close();
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    workspace = undefined;
  });

  it('resumes after SIGKILL and never presents a partial segment as complete', { timeout: 300_000 }, async () => {
    const file = path.join(work, 'big.csv');
    const expected = writeBigCsv(file);
    const dataDir = tempDir('chapar-crash-data-');
    workspace = dataDir;

    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'test/contacts/kill-child.ts'), dataDir, file],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    running = child;
    let stderr = '';
    child.stderr!.on('data', (data) => (stderr += data));
    const killedAt = await new Promise<number>((resolve, reject) => {
      let buffer = '';
      child.stdout!.on('data', (data: Buffer) => {
        buffer += data.toString();
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          const event = JSON.parse(line) as { status?: string; fraction?: number };
          if (event.status === 'running' && (event.fraction ?? 0) > 0.3) {
            child.kill('SIGKILL');
            resolve(event.fraction!);
          }
        }
      });
      child.on('exit', (code, signal) => {
        if (signal !== 'SIGKILL') reject(new Error(`child ended (${code}) before it was killed:\n${stderr}`));
      });
    });
    await exited(child);
    running = undefined;
    expect(killedAt).toBeGreaterThan(0.3);

    // Reopened after the crash; the scheduler is held so the state the crash left can be seen first.
    const { Core } = await import('../../electron/service/core');
    const held = new Core({ dataDir, startScheduler: false });
    opened.push(held);
    const account = held.accounts.findByName('acme')!;
    const [segment] = held.segments.list(account.id);
    expect(segment).toMatchObject({ name: 'big', status: 'importing' });
    const [job] = held.imports.list(account.id);
    expect(job!.status).toBe('queued');
    expect(job!.rows).toBeGreaterThan(0);
    expect(job!.rows).toBeLessThan(ROWS + 1);
    await held.close();

    const reopened = openCore(dataDir);
    opened.push(reopened);
    try {
      const finished = await reopened.core.imports.wait(job!.id);
      const after = reopened.core.segments.get(reopened.accountId, segment!.id);
      if (finished.status === 'done') {
        expect(finished).toMatchObject({
          total: ROWS,
          valid: expected.valid,
          invalid: expected.invalid,
          duplicates: expected.duplicates,
        });
        expect(after).toMatchObject({ status: 'ready', member_count: expected.valid });
        expect(
          reopened.core.db
            .prepare('SELECT count(*) FROM segment_members WHERE segment_id = ?')
            .pluck()
            .get(segment!.id),
        ).toBe(expected.valid);
        expect(reopened.core.imports.rejections(reopened.accountId, job!.id).total).toBe(
          expected.invalid + expected.duplicates,
        );
      } else {
        expect(finished.status).toBe('failed');
        expect(reopened.core.segments.list(reopened.accountId).some((s) => s.status === 'ready')).toBe(false);
      }
    } finally {
      await reopened.close();
    }
  });
});
