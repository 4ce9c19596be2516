// Backup and restore of the whole workspace database with SQLite's online backup API: a backup is
// a consistent copy taken while the service keeps running (in steps, yielding between them), and a
// restore copies a backup's pages into the live database through the same API, after backing up
// the current data first — nothing is ever deleted. A backup is written as `<name>.db.part` and
// renamed when complete; the `.part` files a killed process left are removed at the next start and
// after each backup.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Scheduler } from '../jobs/scheduler';
import type { Jobs } from '../jobs/jobs';
import type { Accounts } from '../accounts/accounts';
import type { Settings } from '../settings/settings';
import type { GatewayCarrier } from '../messaging/carriers/gateway-carrier';
import type { MessageStates } from '../messaging/message-states';
import type { Imports } from '../contacts';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { migrate } from '../db/database';
import { migrations } from '../db/migrations';
import { describeDifferences, schemaDifferences } from '../db/schema';
import { nativeBinding } from '../db/native';
import { hasUncountableAmounts } from '../accounts/credit';
import type { Backup } from '../../../shared/ipc/schemas';

/**
 * What backup and restore use of the core (core.ts, which composes this module and so is not
 * imported back): its folder, its writer, and the parts a restore stops, re-reads and resumes.
 */
export interface BackupCore {
  readonly dataDir: string;
  readonly clock: Clock;
  readonly db: Db;
  readonly scheduler: Pick<Scheduler, 'isRunning' | 'stop' | 'start' | 'poke'>;
  readonly jobs: Pick<Jobs, 'pause' | 'resume'>;
  readonly accounts: Pick<Accounts, 'adoptKeyHashes' | 'reload'>;
  readonly settings: Pick<Settings, 'reload'>;
  readonly messaging: {
    readonly states: Pick<MessageStates, 'reset'>;
    readonly carrier: Pick<GatewayCarrier, 'hold' | 'release'>;
  };
  readonly imports: Pick<Imports, 'recover'>;
}

/** A backup file as the workspace sees it (the IPC shape without its download URL). */
export type BackupInfo = Omit<Backup, 'url'>;

export function backupsDir(core: Pick<BackupCore, 'dataDir'>): string {
  return path.resolve(core.dataDir, 'backups');
}

/**
 * The `.part` files this process is writing (a backup under way, an upload being received): the
 * cleanup leaves them alone. Any other `.part` in the backups folder was left by a process killed
 * mid-copy (with the `-journal` SQLite keeps beside it), and nothing will ever finish it.
 */
const writing = new Set<string>();

/** Removes the `.part` files of the backups folder that no copy of this process is writing. */
export function removeStaleParts(core: Pick<BackupCore, 'dataDir'>): void {
  const dir = backupsDir(core);
  if (!fs.existsSync(dir)) return;
  // An upload's `.part` is renamed (or removed) by the web bridge once received: it is no longer written.
  for (const partial of writing) if (!fs.existsSync(partial)) writing.delete(partial);
  for (const name of fs.readdirSync(dir)) {
    const part = /^(.+\.part)(?:-journal)?$/.exec(name);
    if (!part || writing.has(path.join(dir, part[1]!))) continue;
    try {
      fs.rmSync(path.join(dir, name), { force: true });
    } catch {
      // Not removable now (another program holds it open on Windows): the next cleanup tries again.
    }
  }
}

/**
 * A new file in the backups folder for a backup arriving from elsewhere (an upload through the web
 * bridge): its `.part` is already created (empty) for the caller to write, so two uploads in the
 * same millisecond never share a file, and counts as being written until it is renamed or removed.
 */
export function uploadedBackupPath(core: BackupCore): string {
  return reserveName(core, 'uploaded').file;
}

/**
 * Claims a fresh name in the backups folder: `<prefix>-<time>.db`, or `-2`, `-3`, ... after it when
 * taken. The claim is the exclusive creation of the name's `.part` (which the backup then writes),
 * so concurrent backups in one millisecond each get their own file instead of sharing one.
 */
function reserveName(core: BackupCore, prefix: string): { file: string; partial: string } {
  const dir = backupsDir(core);
  fs.mkdirSync(dir, { recursive: true });
  const stamp = new Date(core.clock.now()).toISOString().replace(/[:.]/g, '-').slice(0, 23);
  for (let n = 1; ; n++) {
    const file = path.join(dir, `${prefix}-${stamp}${n === 1 ? '' : `-${n}`}.db`);
    const partial = `${file}.part`;
    try {
      fs.closeSync(fs.openSync(partial, 'wx'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    if (!fs.existsSync(file)) {
      writing.add(partial);
      return { file, partial };
    }
    fs.rmSync(partial, { force: true });
  }
}

/**
 * The file in the backups folder a web-mode caller means: a plain name from that folder, or the
 * path of one the server itself answered (backup:list, backup:create, an upload). Anything else is
 * refused: in web mode the browser never chooses a place on the server's disk.
 */
export function backupInFolder(core: BackupCore, given: string): string {
  const dir = backupsDir(core);
  const name = path.basename(given);
  const plainName = name === given;
  if ((!plainName && path.dirname(path.resolve(given)) !== dir) || !/^[^\\/]+\.db$/.test(name))
    throw new ServiceError(
      ApiCode.BadRequest,
      'only a backup of the backups folder, by its name',
      'backup_path_not_allowed',
    );
  return path.join(dir, name);
}

/** Web mode: backups are named by the server, in the backups folder. */
export function refuseBackupPath(): never {
  throw new ServiceError(
    ApiCode.BadRequest,
    'the server names backups in its backups folder: leave out path',
    'backup_path_not_allowed',
  );
}

/**
 * An online copy of the whole workspace: to `target` (the desktop's save dialog), else to a new
 * name in the backups folder.
 */
export async function createBackup(core: BackupCore, target?: string): Promise<BackupInfo> {
  return target === undefined ? copyInto(core, reserveName(core, 'chapar')) : copyTo(core, path.resolve(target));
}

async function copyTo(core: BackupCore, file: string): Promise<BackupInfo> {
  if (fs.existsSync(file)) throw new ServiceError(ApiCode.BadRequest, `${file} exists already`, 'backup_target_exists');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = file + '.part';
  // Emptied, not removed: it exists all the while it is written (removeStaleParts prunes the others).
  fs.writeFileSync(partial, '');
  writing.add(partial);
  return copyInto(core, { file, partial });
}

async function copyInto(core: BackupCore, { file, partial }: { file: string; partial: string }): Promise<BackupInfo> {
  try {
    // Small steps keep each synchronous slice short; better-sqlite3 yields to the loop between them.
    await core.db.backup(partial, { progress: () => 256 });
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    writing.delete(partial);
    removeStaleParts(core);
  }
  return { path: file, bytes: fs.statSync(file).size, created_at: core.clock.now() };
}

/** Backups in the workspace's backups folder (finished ones, not `.part`), newest first. */
export function listBackups(core: Pick<BackupCore, 'dataDir'>): BackupInfo[] {
  const dir = backupsDir(core);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.db'))
    .map((name) => {
      const file = path.join(dir, name);
      const stat = fs.statSync(file);
      return { path: file, bytes: stat.size, created_at: Math.round(stat.mtimeMs) };
    })
    .sort((a, b) => b.created_at - a.created_at || b.path.localeCompare(a.path));
}

/**
 * The backup to go back to when the live database is found damaged: the newest `before-restore-*`
 * (the data as it was just before a restore, which is how a workspace most likely got another
 * database), else the newest backup made here (`chapar-*`), each only when its schema is its
 * version's (advice to go back to a backup as damaged as the workspace would help nobody); null
 * when there is none.
 */
export function newestSafetyBackup(core: Pick<BackupCore, 'dataDir'>): string | null {
  const backups = listBackups(core);
  const newest = (prefix: string) =>
    backups.find((backup) => path.basename(backup.path).startsWith(prefix) && hasItsSchema(backup.path))?.path;
  return newest('before-restore-') ?? newest('chapar-') ?? null;
}

/** Whether a backup opens and holds exactly its schema version's tables (the catalogue only: milliseconds). */
function hasItsSchema(file: string): boolean {
  let source: Database.Database | undefined;
  try {
    source = new Database(file, { readonly: true, fileMustExist: true, nativeBinding: nativeBinding() });
    const version = source.pragma('user_version', { simple: true }) as number;
    return version >= 1 && version <= migrations.length && schemaDifferences(source, version).length === 0;
  } catch {
    return false;
  } finally {
    source?.close();
  }
}

/**
 * Checks that a file is a Chapar database this build can open, with exactly the tables, columns,
 * indexes and triggers its schema version has (a backup without its `messages` table was restored,
 * and the next send took the workspace down for good), whose money it can count (every balance and
 * ledger amount an exact JavaScript number); returns its schema version. Each refusal has its
 * reason: the file is missing, is no Chapar backup, is from a newer Chapar, has another schema, or
 * is damaged.
 */
function checkBackup(file: string): number {
  if (!fs.existsSync(file)) throw new ServiceError(ApiCode.NotFound, file, 'backup_file_missing');
  let source: Database.Database | undefined;
  try {
    source = new Database(file, { readonly: true, fileMustExist: true, nativeBinding: nativeBinding() });
    const version = source.pragma('user_version', { simple: true }) as number;
    if (version > migrations.length)
      throw new ServiceError(
        ApiCode.BadRequest,
        `the backup is from a newer Chapar (schema ${version})`,
        'backup_from_newer_version',
      );
    const hasAccounts = source.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'accounts'").get();
    if (version < 1 || !hasAccounts)
      throw new ServiceError(ApiCode.BadRequest, 'not a Chapar backup', 'backup_not_chapar');
    const differences = schemaDifferences(source, version);
    if (differences.length > 0)
      throw new ServiceError(
        ApiCode.BadRequest,
        `the backup's schema differs from version ${version}'s: ${describeDifferences(differences)}`,
        'backup_schema_mismatch',
      );
    const check = source.pragma('quick_check', { simple: true });
    if (check !== 'ok')
      throw new ServiceError(ApiCode.BadRequest, `the backup is damaged: ${String(check)}`, 'backup_damaged');
    if (hasUncountableAmounts(source))
      throw new ServiceError(ApiCode.BadRequest, 'the backup holds amounts beyond exact counting', 'backup_damaged');
    return version;
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw new ServiceError(
      ApiCode.BadRequest,
      `not a readable database: ${error instanceof Error ? error.message : String(error)}`,
      'backup_not_chapar',
    );
  } finally {
    source?.close();
  }
}

/** The restore under way per core: restores run one after the other, never into each other. */
const restoring = new WeakMap<BackupCore, Promise<unknown>>();

export function restoreBackup(core: BackupCore, file: string): ReturnType<typeof restoreNow> {
  const next = (restoring.get(core) ?? Promise.resolve()).catch(() => undefined).then(() => restoreNow(core, file));
  restoring.set(core, next);
  return next;
}

async function restoreNow(
  core: BackupCore,
  file: string,
): Promise<{ restored_from: string; safety_backup: BackupInfo; api_keys_revoked: number }> {
  const source = path.resolve(file);
  const live = path.join(core.dataDir, 'chapar.db');
  if (path.resolve(live) === source)
    throw new ServiceError(ApiCode.BadRequest, 'that is the live database', 'backup_is_live_database');
  checkBackup(source);
  const safety = await copyInto(core, reserveName(core, 'before-restore'));
  // The backup API writes into the live file under SQLite's own locks; the core's connection sees
  // the restored pages on its next read. The copy is one step: between steps the live file would
  // stay locked, and a write of the core (which waits for that lock synchronously) would stall
  // the process. The scheduler is paused meanwhile, so no batch of the old data runs halfway.
  // Running imports stop writing first: their batches belong to the database being replaced.
  const wasRunning = core.scheduler.isRunning();
  await core.scheduler.stop();
  await core.jobs.pause();
  // Calls to providers in flight end and are recorded in the database being replaced, not after.
  await core.messaging.carrier.hold();
  const reader = new Database(source, { readonly: true, nativeBinding: nativeBinding() });
  let keys = { revoked: 0 };
  try {
    await reader.backup(live, { progress: () => 0x7fffffff });
  } finally {
    reader.close();
    // An older backup gets this build's migrations (before anything reads it); cached settings
    // are re-read, imports and the scheduler go on with the restored jobs and messages.
    migrate(core.db);
    // A backup holds the database only, never the workspace's secret.key: its API keys work again
    // here when it was taken here (or before keys were keyed); a backup from another workspace
    // has keys sealed with that one's secret, which are revoked and counted in the result.
    core.accounts.reload();
    keys = core.accounts.adoptKeyHashes('revoke');
    core.settings.reload();
    core.messaging.states.reset();
    // Imports the restored database holds without a job get one; every job type goes on.
    core.imports.recover();
    core.jobs.resume();
    // Hand-overs the backup caught in the middle of a call are unknown, reconciled before any resend.
    core.messaging.carrier.release();
    if (wasRunning) core.scheduler.start();
  }
  core.scheduler.poke();
  return { restored_from: source, safety_backup: safety, api_keys_revoked: keys.revoked };
}
