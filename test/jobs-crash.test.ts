// A job killed (SIGKILL) in the middle of its run: on restart (a new process on the same database)
// the runner queues it again, the run resumes after its last committed step, and its completion
// happens exactly once; the job ends 'done' on its second attempt.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../electron/service/db/database';
import { ROOT, tempDir } from './helpers/server';

const STEPS = 10;

interface Child {
  process: ChildProcess;
  /** Resolves with the first printed line that matches. */
  until(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  lines: Array<Record<string, unknown>>;
}

/** Every child started: one a failed test left running is killed, and its exit awaited, before the folder goes. */
const children: Child[] = [];

function startChild(file: string): Child {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'test/helpers/jobs-crash-child.ts'), file, String(STEPS)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (data) => (stderr += data));
  const lines: Array<Record<string, unknown>> = [];
  const watchers: Array<{
    match: (line: Record<string, unknown>) => boolean;
    resolve: (line: Record<string, unknown>) => void;
  }> = [];
  let buffer = '';
  child.stdout!.on('data', (data: Buffer) => {
    buffer += data.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
      buffer = buffer.slice(newline + 1);
      lines.push(line);
      for (const watcher of watchers.splice(0)) {
        if (watcher.match(line)) watcher.resolve(line);
        else watchers.push(watcher);
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const started: Child = {
    process: child,
    lines,
    exited,
    until: (match) =>
      new Promise((resolve, reject) => {
        const seen = lines.find(match);
        if (seen) return resolve(seen);
        watchers.push({ match, resolve });
        void exited.then(({ code, signal }) =>
          reject(new Error(`child ended (${code ?? signal}) before the expected line:\n${stderr}`)),
        );
      }),
  };
  children.push(started);
  return started;
}

function inspect(file: string) {
  const db = openDatabase({ file, readonly: true });
  try {
    return {
      job: db.prepare('SELECT state, attempts, progress, last_error FROM jobs').all() as Array<{
        state: string;
        attempts: number;
        progress: string | null;
        last_error: string | null;
      }>,
      steps: db.prepare('SELECT step, attempt FROM test_steps ORDER BY rowid').all() as Array<{
        step: number;
        attempt: number;
      }>,
      completions: db.prepare('SELECT count(*) FROM test_completions').pluck().get() as number,
    };
  } finally {
    db.close();
  }
}

describe('a job killed mid-run', () => {
  const dir = tempDir('chapar-jobs-crash-');
  afterAll(async () => {
    for (const child of children.splice(0)) {
      if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
      await child.exited;
    }
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it('resumes after SIGKILL from its last committed step and completes exactly once', { timeout: 30_000 }, async () => {
    const file = path.join(dir, 'chapar.db');

    const first = startChild(file);
    await first.until((line) => typeof line['step'] === 'number' && line['step'] >= 3);
    first.process.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    // As the crash left it: running, one attempt, progress and steps committed together.
    const crashed = inspect(file);
    expect(crashed.job).toHaveLength(1);
    expect(crashed.job[0]).toMatchObject({ state: 'running', attempts: 1, last_error: null });
    const reached = JSON.parse(crashed.job[0]!.progress!) as number;
    expect(reached).toBeGreaterThanOrEqual(3);
    expect(reached).toBeLessThan(STEPS);
    expect(crashed.steps).toEqual(Array.from({ length: reached }, (_, i) => ({ step: i + 1, attempt: 1 })));
    expect(crashed.completions).toBe(0);

    const second = startChild(file);
    const { final } = (await second.until((line) => 'final' in line)) as { final: Record<string, unknown> };
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(final).toMatchObject({ state: 'done', attempts: 2, progress: STEPS + 1 });
    // The second run started after the last committed step.
    expect(second.lines[0]).toEqual({ step: reached + 1, attempt: 2 });

    const after = inspect(file);
    expect(after.job).toEqual([{ state: 'done', attempts: 2, progress: String(STEPS + 1), last_error: null }]);
    expect(after.steps.map((s) => s.step)).toEqual(Array.from({ length: STEPS }, (_, i) => i + 1));
    expect(after.steps.filter((s) => s.attempt === 2).map((s) => s.step)[0]).toBe(reached + 1);
    expect(after.completions).toBe(1);
  });
});
