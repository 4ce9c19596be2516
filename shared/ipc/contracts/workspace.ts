// IPC contracts of the workspace's upkeep (electron/service/workspace/housekeeping.ts): how big the
// workspace is, the retention setting (archive or delete messages older than N months) with its
// preview and its application as a background run, and compaction of the database file.
import { z } from 'zod';
import { defineContract } from '../contract';
import { EpochMs, Id, NoInput } from '../primitives';

/** The longest retention offered: ten years. */
export const MAX_RETENTION_MONTHS = 120;

export const RetentionActionSchema = z.enum(['archive', 'delete']);
export type RetentionAction = z.infer<typeof RetentionActionSchema>;
export const RetentionMonthsSchema = z.number().int().min(1).max(MAX_RETENTION_MONTHS);

const Bytes = z.number().int().nonnegative();
const Count = z.number().int().nonnegative();

export const WorkspaceSizeSchema = z.object({
  /** Everything in the workspace folder. */
  total_bytes: Bytes,
  /** The database file (free pages inside it included). */
  database_bytes: Bytes,
  /** The write-ahead log beside it (folded into the file as the app goes). */
  wal_bytes: Bytes,
  /** Free pages inside the database file: what compaction gives back to the disk. */
  free_bytes: Bytes,
  /** Files uploaded for messenger sends. */
  files_bytes: Bytes,
  /** Archived messages (the archive folder). */
  archive_bytes: Bytes,
  backups_bytes: Bytes,
  exports_bytes: Bytes,
  /** The rest (campaign files, keys, ...). */
  other_bytes: Bytes,
  /** Messages in the workspace (from the maintained counts, never a scan). */
  messages: Count,
  /** Free pages are given back in small steps at quiet times (else only by "Compact now"). */
  incremental: z.boolean(),
  optimized_at: EpochMs.nullable(),
  /** The last step of giving free pages back at a quiet time. */
  vacuumed_at: EpochMs.nullable(),
  compacted_at: EpochMs.nullable(),
  /** The archive files, oldest month first. */
  archives: z.array(z.object({ name: z.string(), bytes: Bytes })),
  /** Desktop: where the archive files are (web mode: null, the server's disk is not shown). */
  archive_dir: z.string().nullable(),
});
export type WorkspaceSize = z.infer<typeof WorkspaceSizeSchema>;

export const RetentionRunSchema = z.object({
  id: Id,
  action: RetentionActionSchema,
  months: RetentionMonthsSchema,
  /** Messages created before this (the start of a UTC day) were to go. */
  cutoff: EpochMs,
  /** Applied by the daily upkeep (the setting applied once by hand before). */
  automatic: z.boolean(),
  state: z.enum(['running', 'done', 'failed', 'cancelled']),
  /** What the preview counted when the run started. */
  planned: Count,
  removed: Count,
  /** Messages before the cut-off kept: in the same 15 minutes as one not final yet. */
  held: Count,
  /** Archive files written to (names in the archive folder). */
  archives: z.array(z.string()),
  error: z.string().nullable(),
  created_at: EpochMs,
  finished_at: EpochMs.nullable(),
});
export type RetentionRun = z.infer<typeof RetentionRunSchema>;

export const RetentionStateSchema = z.object({
  /** Keep messages this many months; null: keep everything (the default). */
  months: RetentionMonthsSchema.nullable(),
  action: RetentionActionSchema,
  /** The setting was applied once by hand: the daily upkeep keeps applying it. */
  automatic: z.boolean(),
  /** The latest run (running or finished), null before any. */
  run: RetentionRunSchema.nullable(),
});
export type RetentionState = z.infer<typeof RetentionStateSchema>;

export const RetentionPreviewSchema = z.object({
  months: RetentionMonthsSchema,
  action: RetentionActionSchema,
  /** Messages created before this go; pass it to workspace:applyRetention. */
  cutoff: EpochMs,
  /** Messages that would be removed. */
  messages: Count,
  /** Of those, messages of campaigns (their reports then count only the messages still here). */
  campaign_messages: Count,
  /** Messages before the cut-off that stay: in the same 15 minutes as one not final yet. */
  held: Count,
  /** The oldest and newest of the messages that would be removed; null when none would. */
  first_at: EpochMs.nullable(),
  last_at: EpochMs.nullable(),
});
export type RetentionPreview = z.infer<typeof RetentionPreviewSchema>;

const RetentionInputSchema = z.object({ months: RetentionMonthsSchema, action: RetentionActionSchema });

export const workspaceContracts = {
  'workspace:size': defineContract({ channel: 'workspace:size', input: NoInput, output: WorkspaceSizeSchema }),
  'workspace:retention': defineContract({
    channel: 'workspace:retention',
    input: NoInput,
    output: RetentionStateSchema,
  }),
  /** Saves the setting (months null: off). It removes nothing: a run starts only by workspace:applyRetention. */
  'workspace:setRetention': defineContract({
    channel: 'workspace:setRetention',
    input: z.object({ months: RetentionMonthsSchema.nullable(), action: RetentionActionSchema }),
    output: RetentionStateSchema,
  }),
  /** What applying `months` now would remove (counted from the maintained counts). */
  'workspace:retentionPreview': defineContract({
    channel: 'workspace:retentionPreview',
    input: RetentionInputSchema,
    output: RetentionPreviewSchema,
  }),
  /**
   * Saves the setting and starts removing what the preview of `cutoff` named, as a background run
   * (workspace:retention follows it); from then on the daily upkeep keeps applying it.
   */
  'workspace:applyRetention': defineContract({
    channel: 'workspace:applyRetention',
    input: RetentionInputSchema.extend({ cutoff: EpochMs }),
    output: RetentionStateSchema,
  }),
  /** Rewrites the database file without its free pages (the app waits meanwhile: seconds on a big file). */
  'workspace:compact': defineContract({
    channel: 'workspace:compact',
    input: NoInput,
    output: z.object({ freed_bytes: Bytes, took_ms: Count, size: WorkspaceSizeSchema }),
  }),
} as const;
