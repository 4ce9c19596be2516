// "Save as segment" of a filtered audience killed (SIGKILL) mid-way: on restart the job starts
// over (a combine's rule) and ends with exactly the members meeting the filter, none twice.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exited, ROOT, tempDir } from '../helpers/server';
import { openCore } from './support';

const MEMBERS = 300_000;

describe('save as segment killed mid-way', () => {
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

  it('resumes after SIGKILL with exactly the filtered members', { timeout: 90_000 }, async () => {
    const dataDir = tempDir('chapar-filter-crash-');
    workspace = dataDir;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'test/contacts/filter-core-kill-child.ts'), dataDir],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    running = child;
    let stderr = '';
    child.stderr!.on('data', (data) => (stderr += data));
    const job = await new Promise<{ jobId: number; segmentId: number; valid: number }>((resolve, reject) => {
      let buffer = '';
      child.stdout!.on('data', (data: Buffer) => {
        buffer += data.toString();
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const event = JSON.parse(buffer.slice(0, newline)) as {
            status?: string;
            fraction?: number;
            jobId?: number;
            segmentId?: number;
            valid?: number;
          };
          buffer = buffer.slice(newline + 1);
          if (event.status === 'running' && (event.valid ?? 0) > 0 && (event.fraction ?? 0) < 0.9) {
            child.kill('SIGKILL');
            resolve({ jobId: event.jobId!, segmentId: event.segmentId!, valid: event.valid! });
          }
        }
      });
      child.on('exit', (code, signal) => {
        if (signal !== 'SIGKILL') reject(new Error(`child ended (${code}) before it was killed:\n${stderr}`));
      });
    });
    await exited(child);
    running = undefined;
    expect(job.valid).toBeGreaterThan(0);

    const reopened = openCore(dataDir);
    opened.push(reopened);
    const finished = await reopened.core.imports.wait(job.jobId);
    expect(finished.status).toBe('done');
    const made = reopened.core.segments.get(reopened.accountId, job.segmentId);
    expect(made).toMatchObject({ status: 'ready', member_count: MEMBERS / 2, columns: ['NAME', 'CITY'] });
    const cities = reopened.core.db
      .prepare<[number], { city: string; n: number }>(
        `SELECT substr(fields, instr(fields, char(31)) + 1) AS city, count(*) AS n FROM segment_members
         WHERE segment_id = ? GROUP BY city ORDER BY city`,
      )
      .all(job.segmentId);
    expect(cities).toEqual([
      { city: 'تهران', n: MEMBERS / 4 },
      { city: 'ﺗﻬﺮﺍﻥ', n: MEMBERS / 4 },
    ]);
  });
});
