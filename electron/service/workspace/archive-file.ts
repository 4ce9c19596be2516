// The archive files retention writes: one SQLite file per calendar month (UTC) of messages,
// archive/messages-YYYY-MM.db in the workspace, holding those messages, their sends and their
// callers' local ids with the workspace's own columns (read from the live schema, so a column a
// later migration adds is archived too), plus the accounts' names and a note of what the file is.
// It opens on its own in any SQLite tool. The file is attached to the writer's connection while a
// run writes into it; each copy commits in the archive alone (rollback journal, synchronous FULL),
// before the same rows are deleted from the workspace in a transaction of its own: a crash between
// the two leaves the rows in both, and the next attempt copies them again over themselves.
import fs from 'node:fs';
import path from 'node:path';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';

/** The name the archive is attached under on the writer's connection. */
const SCHEMA = 'archive';

/** The workspace's tables copied, each with its key in the archive. */
const TABLES = [
  { name: 'sends', key: ['id'] },
  { name: 'messages', key: ['id'] },
  { name: 'local_ids', key: ['account_id', 'local_id'] },
] as const;

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
  private copyMessages: Statement<[number, number]> | null = null;
  private copySends: Statement<[number, number]> | null = null;
  private copyLocalIds: Statement<[number, number]> | null = null;

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
    const columns = (table: string) =>
      this.columns('main', table)
        .map((c) => quote(c.name))
        .join(', ');
    const m = columns('messages');
    const s = columns('sends');
    const l = columns('local_ids');
    this.copyMessages = this.db.prepare(
      `INSERT OR REPLACE INTO ${SCHEMA}.messages (${m}) SELECT ${m} FROM main.messages WHERE id BETWEEN ? AND ?`,
    );
    this.copySends = this.db.prepare(
      `INSERT OR REPLACE INTO ${SCHEMA}.sends (${s}) SELECT ${s} FROM main.sends
       WHERE id IN (SELECT DISTINCT send_id FROM main.messages WHERE id BETWEEN ? AND ?)`,
    );
    this.copyLocalIds = this.db.prepare(
      `INSERT OR REPLACE INTO ${SCHEMA}.local_ids (${l}) SELECT ${l} FROM main.local_ids WHERE message_id BETWEEN ? AND ?`,
    );
  }

  /** Copies messages firstId..lastId with their sends and local ids; commits in the archive alone. */
  copy(firstId: number, lastId: number): void {
    if (!this.copyMessages || !this.copySends || !this.copyLocalIds) throw new Error('no archive file is open');
    const [messages, sends, localIds] = [this.copyMessages, this.copySends, this.copyLocalIds];
    this.db.transaction(() => {
      sends.run(firstId, lastId);
      messages.run(firstId, lastId);
      localIds.run(firstId, lastId);
    })();
  }

  /** Detaches the file (between two transactions only, as SQLite requires). */
  close(): void {
    if (this.attached === null) return;
    this.copyMessages = this.copySends = this.copyLocalIds = null;
    this.attached = null;
    this.db.exec(`DETACH DATABASE ${SCHEMA}`);
  }

  private columns(schema: string, table: string): Column[] {
    return this.db.prepare<[], Column>(`SELECT name, type FROM pragma_table_info('${table}', '${schema}')`).all();
  }

  /** The archive's tables, with every column the workspace's have now (added to an older archive file). */
  private prepareTables(name: string): void {
    for (const table of TABLES) {
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
      INSERT OR REPLACE INTO ${SCHEMA}.accounts (id, name) SELECT id, name FROM main.accounts;
    `);
    const info = this.db.prepare(`INSERT OR REPLACE INTO ${SCHEMA}.archive_info (key, value) VALUES (?, ?)`);
    info.run('made_by', 'Chapar');
    info.run('contents', 'messages created in one month (UTC), with their sends and local ids');
    info.run('file', name);
    info.run('workspace_schema', String(this.db.pragma('main.user_version', { simple: true })));
  }
}
