// Opens the SQLite store: one write connection, WAL, foreign keys, and the numbered migrations
// applied in one transaction each, tracked by PRAGMA user_version. A database written by a newer
// Chapar is refused, never modified.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { migrations } from './migrations';
import { nativeBinding } from './native';

export type Db = Database.Database;

/**
 * Pages read through memory mapping instead of one read() call each: reads that land on scattered
 * pages of a large file (10,000 message ids spread over ten million messages) take 20 ms instead
 * of 80-500.
 * SQLite caps it at its build's limit (2 GB); the rest of a larger file is read as before.
 */
export const MMAP_BYTES = 2_147_418_112;

export class NewerDatabaseError extends Error {
  constructor(found: number, known: number) {
    super(`database schema version ${found} is newer than this build knows (${known}); refusing to open it`);
  }
}

export interface OpenOptions {
  /** File path, or ':memory:' for throwaway stores in unit tests. */
  file: string;
  readonly?: boolean;
}

export function openDatabase({ file, readonly = false }: OpenOptions): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file, { readonly, nativeBinding: nativeBinding() });
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL is durable across application crashes in WAL mode; only a power cut can lose the last
    // commits, never corrupt the file.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('temp_store = MEMORY');
    db.pragma('cache_size = -32000');
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    // After a checkpoint, a WAL grown by a large import is cut back to this size.
    db.pragma('journal_size_limit = 67108864');
    if (!readonly) migrate(db);
  } catch (error) {
    // A file that is no database, or one from a newer Chapar: let it go as it was.
    db.close();
    throw error;
  }
  return db;
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies the migrations after the database's version, up to `upto` (the latest by default). */
export function migrate(db: Db, upto = migrations.length): void {
  // A connection whose file was replaced under it (a restore copies a backup's pages in) holds the
  // old schema until a statement checks the schema cookie, and an ALTER TABLE is compiled against
  // the schema held without that check: restoring a backup one version old failed with "duplicate
  // column". Reading the catalogue checks the cookie and loads the file's schema.
  db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
  const current = schemaVersion(db);
  const latest = migrations.length;
  if (current > latest) throw new NewerDatabaseError(current, latest);
  for (let version = current + 1; version <= upto; version++) {
    const step = migrations[version - 1]!;
    // Foreign keys can only be switched outside a transaction; the check inside it undoes the
    // step if a row lost its parent.
    const keys = step.foreignKeysOff ? (db.pragma('foreign_keys', { simple: true }) as number) : 0;
    if (keys) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(step.sql);
        if (step.foreignKeysOff && (db.pragma('foreign_key_check') as unknown[]).length > 0)
          throw new Error(`migration ${step.name} left rows without their parent`);
        db.pragma(`user_version = ${version}`);
      })();
    } finally {
      if (keys) db.pragma('foreign_keys = ON');
    }
  }
}

/**
 * A second connection that only copies committed WAL pages into the database file (a PASSIVE
 * checkpoint: it never waits for, nor blocks, the writer). Run from the import worker while an
 * import commits, so the copying happens on that thread instead of inside the main thread's
 * commits, where one checkpoint held the event loop for over 100 ms. It writes no data.
 */
export function openCheckpointer(file: string): { checkpoint(): void; close(): void } {
  const db = new Database(file, { fileMustExist: true, nativeBinding: nativeBinding() });
  db.pragma('synchronous = NORMAL');
  return {
    checkpoint: () => void db.pragma('wal_checkpoint(PASSIVE)'),
    close: () => db.close(),
  };
}
