// The archive files retention writes: one SQLite file per calendar month (UTC) of messages,
// archive/messages-YYYY-MM.db in the workspace, holding those messages, their sends and their
// callers' local ids with the workspace's own columns (read from the live schema, so a column a
// later migration adds is archived too), plus the accounts' names and a note of what the file is.
// It opens on its own in any SQLite tool. The file is attached to the writer's connection while a
// run writes into it; each copy commits in the archive alone (rollback journal, synchronous FULL),
// before the same rows are deleted from the workspace in a transaction of its own: a crash between
// the two leaves the rows in both, and the next attempt copies them again over themselves. The
// rows are read by their owners: messaging's copy (messaging/archive-rows.ts), the accounts' names.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/database';
import { ARCHIVED_TABLES, archiveCopy } from '../messaging/archive-rows';
import { accountNamesSql } from '../accounts/accounts';

/** The name the archive is attached under on the writer's connection. */
const SCHEMA = 'archive';

export function archiveDir(dataDir: string): string {
  return path.join(dataDir, 'archive');
}

/** The file of the UTC month `at` (ms) falls in: messages-2025-03.db. */
export function archiveName(at: number): string {
  const date = new Date(at);
  return `messages-${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}.db`;
}

/** The start (ms) of the UTC month after the one `at` falls in. */
export function nextMonthStart(at: number): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

interface Column {
  name: string;
  type: string;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export class ArchiveWriter {
  private attached: string | null = null;
  private copyRows: ((firstId: number, lastId: number) => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly dir: string,
  ) {}

  /** Attaches the archive file `name` (created with its tables when new); the one attached before is let go. */
  open(name: string): void {
    if (this.attached === name) return;
    this.close();
    fs.mkdirSync(this.dir, { recursive: true });
    this.db.prepare(`ATTACH DATABASE ? AS ${SCHEMA}`).run(path.join(this.dir, name));
    this.attached = name;
    try {
      // A plain rollback journal: the file stands alone, no -wal beside it. FULL: a copy is on the
      // disk before the workspace deletes what it copied.
      this.db.pragma(`${SCHEMA}.journal_mode = DELETE`);
      this.db.pragma(`${SCHEMA}.synchronous = FULL`);
      this.db.transaction(() => this.prepareTables(name))();
    } catch (error) {
      this.close();
      throw error;
    }
    this.copyRows = archiveCopy(this.db, SCHEMA, (table) =>
      this.columns('main', table)
        .map((c) => quote(c.name))
        .join(', '),
    );
  }

  /** Copies messages firstId..lastId with their sends and local ids; commits in the archive alone. */
  copy(firstId: number, lastId: number): void {
    const copyRows = this.copyRows;
    if (!copyRows) throw new Error('no archive file is open');
    this.db.transaction(() => copyRows(firstId, lastId))();
  }

  /** Detaches the file (between two transactions only, as SQLite requires). */
  close(): void {
    if (this.attached === null) return;
    this.copyRows = null;
    this.attached = null;
    this.db.exec(`DETACH DATABASE ${SCHEMA}`);
  }

  private columns(schema: string, table: string): Column[] {
    return this.db.prepare<[], Column>(`SELECT name, type FROM pragma_table_info('${table}', '${schema}')`).all();
  }

  /** The archive's tables, with every column the workspace's have now (added to an older archive file). */
  private prepareTables(name: string): void {
    for (const table of ARCHIVED_TABLES) {
      const live = this.columns('main', table.name);
      const archived = new Set(this.columns(SCHEMA, table.name).map((c) => c.name));
      if (archived.size === 0) {
        const definitions = live.map((c) => `${quote(c.name)} ${c.type}`).join(', ');
        this.db.exec(
          `CREATE TABLE ${SCHEMA}.${table.name} (${definitions}, PRIMARY KEY (${table.key.join(', ')})) STRICT`,
        );
      } else
        for (const column of live)
          if (!archived.has(column.name))
            this.db.exec(`ALTER TABLE ${SCHEMA}.${table.name} ADD COLUMN ${quote(column.name)} ${column.type}`);
    }
    this.db.exec(`
      CREATE INDEX IF NOT EXISTS ${SCHEMA}.messages_send ON messages(send_id);
      CREATE TABLE IF NOT EXISTS ${SCHEMA}.accounts (id INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT;
      CREATE TABLE IF NOT EXISTS ${SCHEMA}.archive_info (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
      INSERT OR REPLACE INTO ${SCHEMA}.accounts (id, name) ${accountNamesSql()};
    `);
    const info = this.db.prepare(`INSERT OR REPLACE INTO ${SCHEMA}.archive_info (key, value) VALUES (?, ?)`);
    info.run('made_by', 'Chapar');
    info.run('contents', 'messages created in one month (UTC), with their sends and local ids');
    info.run('file', name);
    info.run('workspace_schema', String(this.db.pragma('main.user_version', { simple: true })));
  }
}
