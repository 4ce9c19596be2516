// The schema check compares a database with what the real migrations create at its version: a
// database brought up from any older version matches a new one (else the start would refuse every
// upgraded workspace), SQLite's own statistics tables never count, the SQL of a part compares
// however it is indented, commented or quoted, and a table gone is said once.
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { migrate } from './database';
import { migrations } from './migrations';
import { nativeBinding } from './native';
import { checkSchema, normalizedSql, schemaDifferences, SchemaMismatchError } from './schema';

function databaseAt(version: number): Database.Database {
  const db = new Database(':memory:', { nativeBinding: nativeBinding() });
  db.pragma('foreign_keys = ON');
  migrate(db, version);
  return db;
}

describe('the schema check', () => {
  it('finds a database migrated from any older version equal to a new one, and each version equal to itself', () => {
    for (let version = 1; version < migrations.length; version++) {
      const db = databaseAt(version);
      expect(schemaDifferences(db, version), `at ${version}`).toEqual([]);
      migrate(db);
      expect(schemaDifferences(db, migrations.length), `from ${version}`).toEqual([]);
      db.close();
    }
  });

  it('leaves out the statistics ANALYZE and PRAGMA optimize add', () => {
    const db = databaseAt(migrations.length);
    db.exec('ANALYZE');
    db.pragma('optimize');
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'sqlite_stat%'").pluck().all()).toContain(
      'sqlite_stat1',
    );
    expect(() => checkSchema(db)).not.toThrow();
    db.close();
  });

  it('says a dropped table once, and each part added or changed on its own', () => {
    const db = databaseAt(migrations.length);
    db.pragma('foreign_keys = OFF');
    db.exec(`DROP TABLE messages;
      CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
      CREATE INDEX notes_body ON notes(body);
      DROP INDEX sends_sender; CREATE INDEX sends_sender ON sends(sender);`);
    expect(schemaDifferences(db, migrations.length)).toEqual([
      'table messages is missing',
      'index sends_sender is altered',
      "table notes is not Chapar's",
    ]);
    let thrown: unknown;
    try {
      checkSchema(db);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SchemaMismatchError);
    expect((thrown as SchemaMismatchError).message).toBe(
      `its schema differs from version ${migrations.length}'s: table messages is missing; index sends_sender is altered; table notes is not Chapar's`,
    );
    db.close();
  });

  it('compares SQL by its tokens: indentation, comments and quotes aside, a changed clause counts', () => {
    const written = `CREATE INDEX due ON jobs(run_at) -- the scheduler's scan
      WHERE state = 'queued'`;
    expect(normalizedSql(written)).toBe(normalizedSql(`create index "due" on [jobs] ( run_at ) where state='queued'`));
    expect(normalizedSql(written)).toBe(
      normalizedSql("CREATE INDEX due ON jobs(run_at) /* scan */ WHERE state = 'queued'"),
    );
    expect(normalizedSql(written)).not.toBe(normalizedSql("CREATE INDEX due ON jobs(run_at) WHERE state = 'QUEUED'"));
    expect(normalizedSql(written)).not.toBe(normalizedSql('CREATE INDEX due ON jobs(run_at)'));
  });
});
