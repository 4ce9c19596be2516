// The workspace's database at start: opened and migrated as always, then its schema compared with
// what its version should hold (SQLite's catalogue only, so it costs the same at ten million
// messages as at none). A database that cannot be used (another schema, a file that is no
// database, damaged pages, a table gone) ends the start with WorkspaceDatabaseError: what is wrong
// in plain words, and which safety backup to go back to and how; never a bare SQLite message. The
// damaged file is never removed nor repaired: the user decides, and it stays for a recovery.
import path from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase, type Db } from '../db/database';
import { checkSchema, describeDifferences, SchemaMismatchError } from '../db/schema';
import { backupsDir, newestSafetyBackup } from './backup';

type SqliteError = InstanceType<typeof Database.SqliteError>;

export const DATABASE_FILE = 'chapar.db';

export function databaseFile(dataDir: string): string {
  return path.join(dataDir, DATABASE_FILE);
}

/** A start refused because of the workspace's database; the message is for the user, whole. */
export class WorkspaceDatabaseError extends Error {
  constructor(
    message: string,
    /** The backup the message names to go back to, when the database is damaged and there is one. */
    readonly safetyBackup: string | null,
    options: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'WorkspaceDatabaseError';
  }
}

/** The workspace's database, migrated and checked; a WorkspaceDatabaseError when it cannot be used. */
export function openWorkspaceDatabase(dataDir: string): Db {
  let db: Db | undefined;
  try {
    db = openDatabase({ file: databaseFile(dataDir) });
    checkSchema(db);
    return db;
  } catch (error) {
    db?.close();
    throw startFailure(error, dataDir);
  }
}

/**
 * SQLite's answers about the file's surroundings rather than its content (the file may be fine):
 * what to do about each. Any other SQLite error at start means the content is not what Chapar
 * wrote.
 */
const SURROUNDINGS: Array<[code: string, what: string]> = [
  [
    'SQLITE_BUSY',
    'another program is using it (is Chapar already running on this folder?): close that one, then start again',
  ],
  [
    'SQLITE_LOCKED',
    'another program is using it (is Chapar already running on this folder?): close that one, then start again',
  ],
  ['SQLITE_CANTOPEN', 'it cannot be opened: check that the folder exists and that this user may read and write in it'],
  ['SQLITE_PERM', 'it cannot be written: check that this user may write in the folder and the file'],
  ['SQLITE_READONLY', 'it cannot be written: check that this user may write in the folder and the file'],
  ['SQLITE_AUTH', 'it cannot be written: check that this user may write in the folder and the file'],
  ['SQLITE_FULL', 'the disk is full: free some space, then start again'],
  ['SQLITE_IOERR', 'the disk reported an error reading or writing it: check the disk, then start again'],
  ['SQLITE_NOMEM', 'the computer ran out of memory: close other programs, then start again'],
];

/**
 * What a start that failed on the workspace's database throws instead: a WorkspaceDatabaseError
 * saying what is wrong and what to do. Other errors (a database from a newer Chapar, which says so
 * itself; a fault of the code) are returned as they are.
 */
export function startFailure(error: unknown, dataDir: string): unknown {
  if (error instanceof WorkspaceDatabaseError) return error;
  const file = databaseFile(dataDir);
  if (error instanceof Database.SqliteError) {
    const surroundings = SURROUNDINGS.find(([code]) => error.code.startsWith(code));
    if (surroundings)
      return new WorkspaceDatabaseError(
        `Chapar cannot open the workspace's database ${file}: ${surroundings[1]}. (SQLite: ${error.message})`,
        null,
        { cause: error },
      );
  } else if (!(error instanceof SchemaMismatchError)) return error;
  const backup = newestSafetyBackup({ dataDir });
  return new WorkspaceDatabaseError(
    [
      `Chapar cannot use the workspace's database ${file}: ${damage(error)}. Chapar has left it as it is.`,
      backup ? goBackTo(backup, dataDir) : startAfresh(dataDir),
    ].join('\n'),
    backup,
    { cause: error },
  );
}

/** What is wrong with the content, in words. */
function damage(error: SqliteError | SchemaMismatchError): string {
  if (error instanceof SchemaMismatchError)
    return `its tables are not those of its schema version ${error.version}, as if edited outside Chapar: ${describeDifferences(error.differences)}`;
  if (error.code === 'SQLITE_NOTADB') return 'the file is not a database (it was overwritten, or is not Chapar’s)';
  if (error.code.startsWith('SQLITE_CORRUPT')) return `the file is damaged (SQLite: ${error.message})`;
  return `its content is not what Chapar wrote (SQLite: ${error.message})`;
}

const ASIDE = (dataDir: string) =>
  `move ${DATABASE_FILE} (with ${DATABASE_FILE}-wal and ${DATABASE_FILE}-shm, if they are there) out of ${dataDir} and keep them`;

function goBackTo(backup: string, dataDir: string): string {
  return (
    `The newest safety backup is ${backup}. To go back to it: close Chapar; ${ASIDE(dataDir)}; then either ` +
    `copy that backup to ${databaseFile(dataDir)}, or start Chapar (on an empty workspace) and restore the backup ` +
    'from Settings → Backup, where it is listed.'
  );
}

function startAfresh(dataDir: string): string {
  return (
    `There is no usable backup in ${backupsDir({ dataDir })}. To start on an empty workspace: close Chapar and ` +
    `${ASIDE(dataDir)} (they may still be recovered). A backup kept elsewhere can then be restored from ` +
    'Settings → Backup.'
  );
}
