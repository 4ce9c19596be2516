// Housekeeping for the long run (core.housekeeping): how big the workspace is, the retention
// setting with its preview and runs (retention.ts, archive-file.ts), and the database's upkeep at
// quiet times (maintenance.ts) with the compaction the user may ask for. Quiet is told from the
// core's own signals: status moves, replies, email sends and the progress of other domains' jobs.
import path from 'node:path';
import type { Db } from '../db/database';
import type { ReaderPool } from '../db/readers';
import type { Clock } from '../clock';
import type { Settings } from '../settings/settings';
import type { Jobs } from '../jobs/jobs';
import type { Scheduler } from '../jobs/scheduler';
import type { Lifecycle } from '../messaging/lifecycle';
import type { MessageForgetting } from '../messaging/forget';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import type {
  RetentionAction,
  RetentionPreview,
  RetentionState,
  WorkspaceSize,
} from '../../../shared/ipc/contracts/workspace';
import { Maintenance } from './maintenance';
import { RETENTION_JOB, Retention, type RetentionOptions } from './retention';
import { archiveDir } from './archive-file';
import { folderSizes } from './size';

const DATABASE_FILE = 'chapar.db';

/** The core's events that mean the app is busy: status moves, replies, email sends. */
type ActivityEvent = 'message-status' | 'inbound' | 'email-progress';

export interface HousekeepingOptions {
  db: Db;
  readers: ReaderPool;
  clock: Clock;
  dataDir: string;
  settings: Settings;
  jobs: Jobs;
  scheduler: Scheduler;
  /** The core's events that tell activity (core.ts CoreEvents; only whether they come is read). */
  events: { on(event: ActivityEvent, listener: () => void): unknown };
  /** Messaging's forgetting (messaging/forget.ts): retention's removal and reads, the message total. */
  messages: RetentionOptions['messages'] & Pick<MessageForgetting, 'total'>;
  /** The lifecycle and its carrier: upkeep waits while their next due work is near. */
  lifecycle: Pick<Lifecycle, 'nextDueAt' | 'carrier'>;
}

export class Housekeeping {
  readonly retention: Retention;
  readonly maintenance: Maintenance;

  constructor(private readonly options: HousekeepingOptions) {
    this.retention = new Retention({
      db: options.db,
      readers: options.readers,
      clock: options.clock,
      settings: options.settings,
      jobs: options.jobs,
      dataDir: options.dataDir,
      messages: options.messages,
      onRemoved: () => this.maintenance.afterRemoval(),
    });
    this.maintenance = new Maintenance({
      db: options.db,
      clock: options.clock,
      busyUntil: () => {
        const due = [options.lifecycle.nextDueAt(), options.lifecycle.carrier.worker?.nextDueAt() ?? null];
        return due.reduce<number | null>(
          (first, at) => (at !== null && (first === null || at < first) ? at : first),
          null,
        );
      },
      retention: this.retention,
    });
    options.scheduler.register(this.maintenance);
    const activity = () => this.maintenance.activity();
    options.events.on('message-status', activity);
    options.events.on('inbound', activity);
    options.events.on('email-progress', activity);
    options.jobs.events.on('progress', ({ type }) => {
      if (type !== RETENTION_JOB) activity();
    });
  }

  /** The workspace's bytes by part, its message count (from the maintained totals) and its upkeep. */
  async size(): Promise<WorkspaceSize> {
    const folders = await folderSizes(this.options.dataDir, DATABASE_FILE);
    const stats = this.maintenance.pageStats();
    const messages = this.options.messages.total();
    return {
      total_bytes: folders.total,
      database_bytes: folders.database,
      wal_bytes: folders.wal,
      free_bytes: stats.freePages * stats.pageSize,
      files_bytes: folders.files,
      archive_bytes: folders.archive,
      backups_bytes: folders.backups,
      exports_bytes: folders.exports,
      other_bytes: folders.other,
      messages,
      incremental: stats.incremental,
      optimized_at: this.maintenance.lastRun('optimize')?.at ?? null,
      vacuumed_at: this.maintenance.lastRun('incremental_vacuum')?.at ?? null,
      compacted_at: this.maintenance.lastRun('compact')?.at ?? null,
      archives: folders.archives,
      archive_dir: path.resolve(archiveDir(this.options.dataDir)),
    };
  }

  retentionState(): RetentionState {
    return this.retention.state();
  }

  setRetention(months: number | null, action: RetentionAction): RetentionState {
    return this.retention.save(months, action);
  }

  retentionPreview(months: number, action: RetentionAction): Promise<RetentionPreview> {
    return this.retention.preview(months, action);
  }

  applyRetention(months: number, action: RetentionAction, cutoff: number): Promise<RetentionState> {
    return this.retention.apply(months, action, cutoff);
  }

  /** "Compact now": the database rewritten without its free pages (the app waits meanwhile). */
  async compact(): Promise<{ freed_bytes: number; took_ms: number; size: WorkspaceSize }> {
    let done: { freedBytes: number; tookMs: number };
    try {
      done = this.maintenance.compact();
    } catch (error) {
      // A read still streaming (an export's page) or another process writing: not now.
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')))
        throw new ServiceError(ApiCode.BadRequest, 'the database is in use', 'workspace_busy');
      if (error instanceof Error && /busy|statements in progress/i.test(error.message))
        throw new ServiceError(ApiCode.BadRequest, 'the database is in use', 'workspace_busy');
      throw error;
    }
    return { freed_bytes: done.freedBytes, took_ms: done.tookMs, size: await this.size() };
  }
}
