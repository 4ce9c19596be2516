// Child process of test/jobs-crash.test.ts: a job runner (system clock) on the given database with
// one job type, `test.steps`, whose run commits numbered steps one at a time, each with the job's
// progress in the same commit, then its completion row, guarded by that progress (so it is
// written once however often the job runs). Enqueues the job on the first start; prints a JSON
// line per committed step and one when the job is final. The test SIGKILLs the first child mid-run.
import { z } from 'zod';
import { openDatabase } from '../../electron/service/db/database';
import { systemClock } from '../../electron/service/clock';
import { Scheduler } from '../../electron/service/jobs/scheduler';
import { Jobs } from '../../electron/service/jobs/jobs';

// The test kills the first child once it printed step 3; the steps left (7 × STEP_MS) are its
// margin to do so before the run completes: 350 ms (at 50 ms) was thin for a loaded machine.
const STEP_MS = 200;

const [file, steps] = process.argv.slice(2);
if (!file || !steps) throw new Error('usage: jobs-crash-child.ts DATABASE_FILE STEPS');
const print = (line: object) => process.stdout.write(JSON.stringify(line) + '\n');

const db = openDatabase({ file });
// The job's own side effects. Test tables, not the app's: no constraint, so a step or a completion
// written twice would show as two rows.
db.exec(`
  CREATE TABLE IF NOT EXISTS test_steps (job_id INTEGER NOT NULL, step INTEGER NOT NULL, attempt INTEGER NOT NULL) STRICT;
  CREATE TABLE IF NOT EXISTS test_completions (job_id INTEGER NOT NULL) STRICT;
`);
const insertStep = db.prepare('INSERT INTO test_steps (job_id, step, attempt) VALUES (?, ?, ?)');
const insertCompletion = db.prepare('INSERT INTO test_completions (job_id) VALUES (?)');

const scheduler = new Scheduler(systemClock);
const jobs = new Jobs({ db, clock: systemClock, scheduler });
jobs.register({
  type: 'test.steps',
  payload: z.object({ steps: z.number().int().positive() }),
  concurrency: 1,
  maxAttempts: 3,
  backoff: { baseMs: 100, maxMs: 1_000 },
  run: async (job, ctx) => {
    // Progress: the last step committed; steps + 1 once the completion is written.
    let done = typeof job.progress === 'number' ? job.progress : 0;
    while (done < job.payload.steps) {
      await new Promise((resolve) => setTimeout(resolve, STEP_MS));
      ctx.signal.throwIfAborted();
      done++;
      db.transaction(() => {
        insertStep.run(job.id, done, ctx.attempt);
        ctx.progress(done);
      })();
      print({ step: done, attempt: ctx.attempt });
    }
    if (done === job.payload.steps)
      db.transaction(() => {
        insertCompletion.run(job.id);
        ctx.progress(done + 1);
      })();
  },
});
jobs.recover();
const id = jobs.open('test.steps')[0]?.id ?? jobs.enqueue('test.steps', { steps: Number(steps) });
scheduler.start();
const final = await jobs.waitFor(id);
print({ final });
await jobs.stop();
await scheduler.stop();
db.close();
