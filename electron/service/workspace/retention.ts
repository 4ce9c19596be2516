// Retention: the setting "keep messages N months" (off by default), what applying it would remove
// (a preview from the maintained counts), and its application as a persisted job that archives
// (archive-file.ts) or deletes the messages created before the cut-off, a few thousand per
// transaction, yielding to the event loop in between. The rules it keeps:
// - The cut-off is the start of a UTC day N months back: a multiple of the counts' 15-minute slot,
//   so whole slots go, and the counts forget exactly those slots in the transaction that deletes
//   their messages (messaging.forgetting.forget, messaging/forget.ts, which deletes them).
// - Ids follow creation (messaging/created-order.ts): a time range is an id range.
// - Only final messages go. A slot holding a message not final yet stays whole (its final
//   neighbours too: counts are kept per slot), and so does the newest message's, so ids never
//   count back (the next message takes MAX(id) + 1; an id reused would meet the old one's refund
//   row, clicks and replies).
// - Kept: the credit ledger (the money's history), campaign clicks, replies (their reply_to then
//   names nothing here) and the sends a campaign batch names (its report keeps cost and refunds;
//   it counts only the messages still here). Removed with the messages: their local ids, their
//   sends when nothing else needs them, due ranges lying wholly inside what went.
// - Archive: rows are copied into the month's archive file and committed there before the same
//   rows are deleted here. A slot with more messages than a transaction should hold (one big
//   campaign batch) goes in several; its counts are forgotten with its last messages.
import { z } from 'zod';
import type { Db } from '../db/database';
import type { ReaderPool } from '../db/readers';
import type { Clock } from '../clock';
import type { Settings } from '../settings/settings';
import type { Jobs, JobContext } from '../jobs/jobs';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { startBackgroundCheckpoint } from '../db/background-checkpoint';
import { SLOT_MS, slotOf } from '../messaging/counts';
import { CreatedOrder } from '../messaging/created-order';
import type { MessageForgetting } from '../messaging/forget';
import { ArchiveWriter, archiveDir, archiveName, nextMonthStart } from './archive-file';
import {
  RetentionActionSchema,
  RetentionMonthsSchema,
  type RetentionAction,
  type RetentionPreview,
  type RetentionRun,
  type RetentionState,
} from '../../../shared/ipc/contracts/workspace';

export const RETENTION_JOB = 'workspace.retention';
const DAY_MS = 86_400_000;

/** The start of the UTC day `months` calendar months before `now` (a day past the month's end is its last day). */
export function retentionCutoff(now: number, months: number): number {
  const today = new Date(now);
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(today.getUTCDate(), lastDay));
}

const StoredSettingSchema = z.object({
  months: RetentionMonthsSchema.nullable(),
  action: RetentionActionSchema,
  /** Applied by hand (with its confirmation) as it stands: the daily upkeep may apply it again. */
  confirmed: z.boolean(),
});
type StoredSetting = z.infer<typeof StoredSettingSchema>;
const SETTING_KEY = 'retention';
const OFF: StoredSetting = { months: null, action: 'archive', confirmed: false };

const PayloadSchema = z.object({ run_id: z.number().int().positive() });

export interface RetentionOptions {
  db: Db;
  readers: ReaderPool;
  clock: Clock;
  settings: Settings;
  jobs: Jobs;
  dataDir: string;
  /**
   * Messaging's forgetting (messaging/forget.ts): the removal of a range with everything kept of
   * it, in the run's transaction, and the reads of the messages and their counts that plan it.
   */
  messages: Pick<
    MessageForgetting,
    'forget' | 'firstFrom' | 'newest' | 'oldest' | 'createdAt' | 'pendingSlot' | 'slotMessages' | 'forgettable'
  >;
  /** A run ended with messages removed (the upkeep then optimizes and gives free pages back). */
  onRemoved?: () => void;
}

interface RunRow {
  id: number;
  action: RetentionAction;
  months: number;
  cutoff: number;
  automatic: number;
  state: RetentionRun['state'];
  job_id: number | null;
  planned: number;
  removed: number;
  held: number;
  next_id: number;
  archives: string;
  error: string | null;
  created_at: number;
  finished_at: number | null;
}

/** Where one step of a run got to: the end, more to do, or the deletion of what it just archived. */
type Step = 'more' | 'done' | (() => void);

const yieldToLoop = () => new Promise((resolve) => setImmediate(resolve));

export class Retention {
  private readonly db: Db;
  /**
   * Messages per transaction at most (tests make it small). Whole slots go together when they
   * hold fewer; a slot holding more goes in pieces of this size.
   */
  batch = 2000;
  private readonly stmt;
  /** Ids follow creation: a time is an id, found by a binary search bounded by the ids in hand. */
  private readonly createdOrder: CreatedOrder;

  constructor(private readonly options: RetentionOptions) {
    const db = (this.db = options.db);
    this.createdOrder = new CreatedOrder(db);
    this.stmt = {
      insertRun: db.prepare<{
        action: string;
        months: number;
        cutoff: number;
        automatic: number;
        planned: number;
        now: number;
      }>(
        `INSERT INTO retention_runs (action, months, cutoff, automatic, state, planned, created_at)
         VALUES (@action, @months, @cutoff, @automatic, 'running', @planned, @now)`,
      ),
      setJob: db.prepare<[number, number]>('UPDATE retention_runs SET job_id = ? WHERE id = ?'),
      run: db.prepare<[number], RunRow>('SELECT * FROM retention_runs WHERE id = ?'),
      latest: db.prepare<[], RunRow>('SELECT * FROM retention_runs ORDER BY id DESC LIMIT 1'),
      running: db.prepare<[], RunRow>("SELECT * FROM retention_runs WHERE state = 'running' ORDER BY id LIMIT 1"),
      progress: db.prepare<{ id: number; next_id: number; removed: number; held: number; archives: string }>(
        `UPDATE retention_runs SET next_id = @next_id, removed = removed + @removed, held = held + @held,
           archives = @archives WHERE id = @id`,
      ),
      finish: db.prepare<{ id: number; state: string; error: string | null; now: number }>(
        `UPDATE retention_runs SET state = @state, error = @error, finished_at = @now
         WHERE id = @id AND state = 'running'`,
      ),
    };
    options.jobs.register({
      type: RETENTION_JOB,
      payload: PayloadSchema,
      concurrency: 1,
      maxAttempts: 5,
      backoff: { baseMs: 10_000, maxMs: 600_000 },
      run: (job, ctx) => this.runJob(job.payload.run_id, ctx),
      failed: (job, error) => this.stmt.finish.run({ id: job.payload.run_id, state: 'failed', error, now: this.now() }),
      cancelled: (job) =>
        this.stmt.finish.run({ id: job.payload.run_id, state: 'cancelled', error: null, now: this.now() }),
    });
  }

  // ---- the setting

  private stored(): StoredSetting {
    return this.options.settings.read(SETTING_KEY, StoredSettingSchema, OFF);
  }

  state(): RetentionState {
    const setting = this.stored();
    const latest = this.stmt.latest.get();
    return {
      months: setting.months,
      action: setting.action,
      automatic: setting.months !== null && setting.confirmed,
      run: latest ? toRun(latest) : null,
    };
  }

  /** Saves the setting. Anything but the setting applied before needs a confirmed application again. */
  save(months: number | null, action: RetentionAction): RetentionState {
    const before = this.stored();
    const same = before.months === months && before.action === action;
    this.options.settings.write(SETTING_KEY, StoredSettingSchema, {
      months,
      action,
      confirmed: months !== null && same && before.confirmed,
    });
    return this.state();
  }

  // ---- preview

  /** What applying `months` now would remove, from the maintained counts (read on a reader connection). */
  async preview(months: number, action: RetentionAction): Promise<RetentionPreview> {
    const cutoff = retentionCutoff(this.now(), months);
    const cutoffSlot = slotOf(cutoff);
    const newest = this.options.messages.newest();
    const keptFrom = newest ? Math.min(cutoffSlot, slotOf(newest.created_at)) : cutoffSlot;
    const { messages, campaign_messages, held, first_slot, last_slot } = await this.options.messages.forgettable(
      cutoffSlot,
      keptFrom,
    );
    // The exact times of the first and last message of that range: two binary searches over ids.
    const oldest = this.options.messages.oldest();
    const [lo, hi] = [oldest?.id ?? 0, newest?.id ?? 0];
    const firstId = first_slot === null ? null : this.createdOrder.firstIdFrom(first_slot * SLOT_MS, { lo, hi });
    const lastId = last_slot === null ? null : this.createdOrder.lastIdBefore((last_slot + 1) * SLOT_MS, { lo, hi });
    return {
      months,
      action,
      cutoff,
      messages,
      campaign_messages,
      held,
      first_at: firstId === null ? null : (this.options.messages.createdAt(firstId) ?? null),
      last_at: lastId === null ? null : (this.options.messages.createdAt(lastId) ?? null),
    };
  }

  // ---- applying

  /**
   * Saves the setting as confirmed and starts a run removing what the preview of `cutoff` named.
   * The cut-off must be the one the preview showed (a day later it is another: preview again).
   */
  async apply(months: number, action: RetentionAction, cutoff: number): Promise<RetentionState> {
    if (cutoff !== retentionCutoff(this.now(), months))
      throw new ServiceError(
        ApiCode.BadRequest,
        `the cut-off of ${months} months is ${new Date(retentionCutoff(this.now(), months)).toISOString()} now`,
        'retention_preview_stale',
      );
    this.refuseWhileRunning();
    const preview = await this.preview(months, action);
    this.refuseWhileRunning();
    this.db.transaction(() => {
      this.options.settings.write(SETTING_KEY, StoredSettingSchema, { months, action, confirmed: true });
      this.start(months, action, cutoff, preview.messages, false);
    })();
    return this.state();
  }

  /**
   * When the daily upkeep should apply the setting again (null: it is off, not confirmed, or a run
   * is going): a day after the latest run started.
   */
  automaticDueAt(): number | null {
    const setting = this.stored();
    if (setting.months === null || !setting.confirmed) return null;
    const latest = this.stmt.latest.get();
    if (!latest) return this.now();
    return latest.state === 'running' ? null : latest.created_at + DAY_MS;
  }

  /** The daily upkeep's application of the confirmed setting; true when a run started (something was old enough). */
  async applyAutomatically(): Promise<boolean> {
    const setting = this.stored();
    if (setting.months === null || !setting.confirmed || this.stmt.running.get()) return false;
    const cutoff = retentionCutoff(this.now(), setting.months);
    const preview = await this.preview(setting.months, setting.action);
    // Nothing old enough (or only messages held by ones not final yet): no run, no empty record.
    if (preview.messages === 0) return false;
    const again = this.stored();
    if (again.months !== setting.months || again.action !== setting.action || !again.confirmed) return false;
    if (this.stmt.running.get()) return false;
    this.db.transaction(() => this.start(setting.months!, setting.action, cutoff, preview.messages, true))();
    return true;
  }

  /** A run is going on (or waits to resume). */
  running(): boolean {
    return this.stmt.running.get() !== undefined;
  }

  private refuseWhileRunning(): void {
    if (this.stmt.running.get())
      throw new ServiceError(ApiCode.BadRequest, 'a retention run is going on', 'retention_running');
  }

  /** The run's row and its job, in the caller's transaction. */
  private start(months: number, action: RetentionAction, cutoff: number, planned: number, automatic: boolean): void {
    const runId = Number(
      this.stmt.insertRun.run({ action, months, cutoff, automatic: automatic ? 1 : 0, planned, now: this.now() })
        .lastInsertRowid,
    );
    const jobId = this.options.jobs.enqueue(RETENTION_JOB, { run_id: runId });
    this.stmt.setJob.run(jobId, runId);
  }

  // ---- the run

  private async runJob(runId: number, ctx: JobContext): Promise<void> {
    const first = this.stmt.run.get(runId);
    if (!first || first.state !== 'running') return;
    const archive = first.action === 'archive' ? new ArchiveWriter(this.db, archiveDir(this.options.dataDir)) : null;
    // Many commits in a row: the WAL is copied into the database file by another thread instead of
    // inside them (SQLite's auto-checkpoint, off meanwhile), as a campaign's run does.
    const autocheckpoint = Number(this.db.pragma('wal_autocheckpoint', { simple: true }));
    const checkpoint = startBackgroundCheckpoint(this.db);
    this.db.pragma('wal_autocheckpoint = 0');
    try {
      for (;;) {
        if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('stopped');
        const step = this.step(runId, archive);
        if (step === 'done') break;
        checkpoint.between();
        // Between two transactions the app answers: HTTP, IPC, the scheduler's own work. A stop
        // between a copy and its deletion leaves the rows in both: the next attempt copies them again.
        await yieldToLoop();
        if (typeof step === 'function') {
          if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('stopped');
          step();
          checkpoint.between();
          await yieldToLoop();
        }
      }
    } finally {
      archive?.close();
      await checkpoint.stop();
      this.db.pragma(`wal_autocheckpoint = ${autocheckpoint || 1000}`);
    }
    this.stmt.finish.run({ id: runId, state: 'done', error: null, now: this.now() });
    if ((this.stmt.run.get(runId)?.removed ?? 0) > 0) this.options.onRemoved?.();
  }

  /** One batch: whole slots of final messages archived and deleted, or a held slot passed over. */
  private step(runId: number, archive: ArchiveWriter | null): Step {
    const run = this.stmt.run.get(runId);
    if (!run || run.state !== 'running') return 'done';
    const messages = this.options.messages;
    const first = messages.firstFrom(run.next_id);
    const newest = messages.newest();
    if (!first || !newest) return 'done';
    const from = slotOf(first.created_at);
    // The newest message's slot stays (ids never count back); a batch never crosses a month (its archive file).
    let to = Math.min(slotOf(run.cutoff), slotOf(newest.created_at), slotOf(nextMonthStart(from * SLOT_MS)));
    if (from >= to) return 'done';
    // Whole slots holding about one batch of messages (ids are dense, gaps aside)...
    const probe = messages.firstFrom(first.id + this.batch);
    if (probe) to = Math.max(from + 1, Math.min(to, slotOf(probe.created_at)));
    // ...of final messages only: a slot with one not final yet stays, with its neighbours.
    const pending = messages.pendingSlot(from, to);
    if (pending === from) {
      const slotEnd = this.createdOrder.lastIdBefore((from + 1) * SLOT_MS, { lo: first.id, hi: newest.id }) ?? first.id;
      this.db.transaction(() => {
        this.stmt.progress.run({
          id: runId,
          next_id: slotEnd + 1,
          removed: 0,
          held: messages.slotMessages(from, from + 1),
          archives: run.archives,
        });
      })();
      return 'more';
    }
    if (pending !== null) to = pending;
    const lastOfSlots = this.createdOrder.lastIdBefore(to * SLOT_MS, { lo: first.id, hi: newest.id }) ?? first.id;
    // One slot alone may hold far more than a batch (a big campaign batch): it goes in several
    // transactions, each forgetting what its own messages counted.
    const last = Math.min(lastOfSlots, first.id + this.batch - 1);
    const archives = JSON.parse(run.archives) as string[];
    const remove = () =>
      this.db.transaction(() => {
        // The messages with all that is kept of them (messaging/forget.ts), and the run's progress, in one transaction.
        const removed = messages.forget({ firstId: first.id, lastId: last });
        this.stmt.progress.run({ id: runId, next_id: last + 1, removed, held: 0, archives: JSON.stringify(archives) });
      })();
    if (!archive) {
      remove();
      return 'more';
    }
    const name = archiveName(from * SLOT_MS);
    archive.open(name);
    archive.copy(first.id, last);
    if (!archives.includes(name)) archives.push(name);
    return remove;
  }

  private now(): number {
    return this.options.clock.now();
  }
}

function toRun(row: RunRow): RetentionRun {
  return {
    id: row.id,
    action: row.action,
    months: row.months,
    cutoff: row.cutoff,
    automatic: row.automatic === 1,
    state: row.state,
    planned: row.planned,
    removed: row.removed,
    held: row.held,
    archives: JSON.parse(row.archives) as string[],
    error: row.error,
    created_at: row.created_at,
    finished_at: row.finished_at,
  };
}
