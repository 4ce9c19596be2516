// The database's upkeep at quiet times, as a scheduler worker: PRAGMA optimize once a day (and
// after retention removed messages), free pages given back to the disk in small steps of
// incremental vacuum, the retention setting applied again each day once confirmed, and the switch
// to incremental auto-vacuum while the file is small (it needs one VACUUM, which holds the only
// writer for as long as it takes). "Quiet": no status move, no job progress for QUIET_MS, and no
// lifecycle or carrier work due within QUIET_MS. Each step is one short slice of the event loop;
// activity in between stops the next. A full compaction (compact()) runs only when the user asks.
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Worker } from '../jobs/scheduler';

export const QUIET_MS = 5 * 60_000;
const DAY_MS = 86_400_000;
/** The switch to incremental auto-vacuum (one VACUUM) is done unasked only below this size: milliseconds. */
export const SMALL_DATABASE_BYTES = 8 * 1024 * 1024;
/** Free space is given back once there is this much of it... */
const VACUUM_FROM_BYTES = 4 * 1024 * 1024;
/** ...this much per step (a few milliseconds each). */
const VACUUM_STEP_BYTES = 1024 * 1024;
/** After a failed step, or work due soon, the next try waits this long. */
const RETRY_MS = 60_000;
/** PRAGMA optimize samples this many rows per index instead of reading whole tables. */
const ANALYSIS_LIMIT = 1000;

export type MaintenanceTask = 'optimize' | 'incremental_vacuum' | 'compact';

export interface MaintenanceLog {
  at: number;
  took_ms: number;
  freed_bytes: number;
}

export interface MaintenanceOptions {
  db: Db;
  clock: Clock;
  /** The earliest time the lifecycle or its carrier has work due (null: none). */
  busyUntil(): number | null;
  /** The retention setting's daily application (retention.ts). */
  retention: { automaticDueAt(): number | null; applyAutomatically(): Promise<boolean>; running(): boolean };
}

type Due = { task: 'switch' | 'optimize' | 'vacuum' | 'retention'; at: number };

export class Maintenance implements Worker {
  readonly name = 'housekeeping';
  private lastActivity: number;
  /** Upkeep as a whole waits until then (work was about to be due, or a step failed). */
  private notBefore = 0;
  /** A task that had nothing to do, or could not, is not tried again before then (the others go on). */
  private readonly taskNotBefore = new Map<Due['task'], number>();
  private optimizeSoon = false;
  private readonly db: Db;
  private readonly stmt;

  constructor(private readonly options: MaintenanceOptions) {
    this.db = options.db;
    this.lastActivity = options.clock.now();
    this.stmt = {
      log: this.db.prepare<[MaintenanceTask], MaintenanceLog>(
        'SELECT at, took_ms, freed_bytes FROM maintenance_log WHERE task = ?',
      ),
      write: this.db.prepare<{ task: MaintenanceTask; at: number; took_ms: number; freed: number; add: number }>(
        `INSERT INTO maintenance_log (task, at, took_ms, freed_bytes) VALUES (@task, @at, @took_ms, @freed)
         ON CONFLICT(task) DO UPDATE SET at = excluded.at, took_ms = excluded.took_ms,
           freed_bytes = excluded.freed_bytes + @add * maintenance_log.freed_bytes`,
      ),
    };
    // A new workspace is small: it gets incremental auto-vacuum at once, for a few milliseconds.
    try {
      if (this.canSwitchNow()) this.switchToIncremental();
    } catch {
      // Busy (another process has the file): the quiet-time upkeep tries again.
    }
  }

  /** Something happened (a status move, a job's progress): quiet starts again from now. */
  activity(): void {
    this.lastActivity = this.options.clock.now();
  }

  /** Retention removed messages: optimize at the next quiet time rather than a day later. */
  afterRemoval(): void {
    this.optimizeSoon = true;
  }

  /** When the app is quiet enough for upkeep (given nothing happens before). */
  quietFrom(): number {
    return Math.max(this.lastActivity + QUIET_MS, this.notBefore);
  }

  lastRun(task: MaintenanceTask): MaintenanceLog | null {
    return this.stmt.log.get(task) ?? null;
  }

  pageStats(): { pageSize: number; pages: number; freePages: number; incremental: boolean } {
    return {
      pageSize: this.pragma('page_size'),
      pages: this.pragma('page_count'),
      freePages: this.pragma('freelist_count'),
      incremental: this.pragma('auto_vacuum') === 2,
    };
  }

  nextDueAt(): number | null {
    const due = this.due();
    return due === null ? null : Math.max(due.at, this.quietFrom());
  }

  runDue(): boolean | Promise<boolean> {
    const now = this.options.clock.now();
    // Checked first, and cheaply: the scheduler asks on every turn of its loop, busy or not.
    if (this.quietFrom() > now) return false;
    const due = this.due();
    if (due === null || due.at > now) return false;
    // The lifecycle or the carrier is about to work, or retention is removing messages (the pages
    // it frees are given back once it is done): that is not quiet.
    const busy = this.options.busyUntil();
    if ((busy !== null && busy < now + QUIET_MS) || this.options.retention.running()) {
      this.notBefore = now + RETRY_MS;
      return false;
    }
    try {
      switch (due.task) {
        case 'switch':
          this.switchToIncremental();
          // A file that would not switch (grown meanwhile, another process) is not tried at once again.
          if (!this.pageStats().incremental) this.taskNotBefore.set('switch', now + RETRY_MS);
          return true;
        case 'optimize':
          this.optimize();
          return true;
        case 'vacuum':
          // Pages that would not come free (held by a reader's snapshot) are not asked for at once again.
          if (this.vacuumStep() === 0) this.taskNotBefore.set('vacuum', now + RETRY_MS);
          return true;
        case 'retention':
          return this.options.retention.applyAutomatically().then(
            (started) => {
              // Nothing old enough yet: looked at again in an hour (a run row marks the day only when one starts).
              if (!started) this.taskNotBefore.set('retention', now + RETRY_MS * 60);
              return true;
            },
            (error: unknown) => {
              this.notBefore = now + RETRY_MS;
              throw error;
            },
          );
      }
    } catch (error) {
      this.notBefore = now + RETRY_MS;
      throw error;
    }
  }

  /**
   * VACUUM: the file rewritten without free pages, and incremental auto-vacuum from then on. Holds
   * the writer (and this thread) for as long as it takes; only when the user asks, or the file is small.
   */
  compact(): { freedBytes: number; tookMs: number } {
    const before = this.pageStats();
    const started = performance.now();
    this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.exec('VACUUM');
    // Fold the rewritten pages into the file now where no reader holds them (never waits).
    this.db.pragma('wal_checkpoint(PASSIVE)');
    const tookMs = Math.round(performance.now() - started);
    const after = this.pageStats();
    const freedBytes = Math.max(0, (before.pages - after.pages) * before.pageSize);
    this.log('compact', tookMs, freedBytes);
    return { freedBytes, tookMs };
  }

  // -------------------------------------------------------------------------------------------

  /** The task due first (ignoring quiet), or null when nothing is to be done. */
  private due(): Due | null {
    const now = this.options.clock.now();
    const stats = this.pageStats();
    const candidates: Due[] = [];
    if (!stats.incremental && this.canSwitchNow()) candidates.push({ task: 'switch', at: now });
    const optimized = this.lastRun('optimize');
    candidates.push({ task: 'optimize', at: this.optimizeSoon || !optimized ? now : optimized.at + DAY_MS });
    if (stats.incremental && stats.freePages * stats.pageSize >= VACUUM_FROM_BYTES)
      candidates.push({ task: 'vacuum', at: now });
    const retention = this.options.retention.automaticDueAt();
    if (retention !== null) candidates.push({ task: 'retention', at: retention });
    return candidates
      .map((due) => ({ ...due, at: Math.max(due.at, this.taskNotBefore.get(due.task) ?? 0) }))
      .reduce<Due | null>((first, next) => (first === null || next.at < first.at ? next : first), null);
  }

  private canSwitchNow(): boolean {
    const { pageSize, pages, incremental } = this.pageStats();
    return !incremental && pages * pageSize <= SMALL_DATABASE_BYTES;
  }

  private switchToIncremental(): void {
    this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.exec('VACUUM');
    // The rewritten file sits in the WAL until a checkpoint: fold it in now (never waits).
    this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  private optimize(): void {
    const started = performance.now();
    const limit = this.pragma('analysis_limit');
    this.db.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
    try {
      this.db.exec('PRAGMA optimize');
    } finally {
      this.db.pragma(`analysis_limit = ${limit}`);
    }
    this.optimizeSoon = false;
    this.log('optimize', Math.round(performance.now() - started), 0);
  }

  /** One step of giving free pages back; the bytes it freed. */
  private vacuumStep(): number {
    const { pageSize, freePages } = this.pageStats();
    const pages = Math.max(1, Math.floor(VACUUM_STEP_BYTES / pageSize));
    const started = performance.now();
    this.db.exec(`PRAGMA incremental_vacuum(${pages})`);
    const freed = Math.max(0, (freePages - this.pragma('freelist_count')) * pageSize);
    this.log('incremental_vacuum', Math.round(performance.now() - started), freed, true);
    return freed;
  }

  /** Records a run; `accumulate` adds the bytes freed to what the task freed before. */
  private log(task: MaintenanceTask, tookMs: number, freed: number, accumulate = false): void {
    this.stmt.write.run({ task, at: this.options.clock.now(), took_ms: tookMs, freed, add: accumulate ? 1 : 0 });
  }

  private pragma(name: string): number {
    return Number(this.db.pragma(name, { simple: true }));
  }
}
