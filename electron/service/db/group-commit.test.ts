// Group commit (group-commit.ts): the work of one turn of the event loop shares one transaction,
// each work rolled back alone when it throws, and nothing settles before the commit.
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit';
import { tempDir } from '../../../test/helpers/server';

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function databases() {
  const file = path.join(tempDir('chapar-group-commit-'), 'test.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.exec(`CREATE TABLE parents (id INTEGER PRIMARY KEY);
    CREATE TABLE rows (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
      parent INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)`);
  // Another connection, as another process would read the file.
  const reader = new Database(file, { readonly: true });
  open.push(db, reader);
  const names = () =>
    (reader.prepare('SELECT name FROM rows ORDER BY id').all() as { name: string }[]).map((r) => r.name);
  return { db, names };
}

describe('group commit', () => {
  it('runs the work of one turn in one transaction, in order, and settles each only after the commit', async () => {
    const { db, names } = databases();
    const group = new GroupCommit(db);
    const insert = db.prepare('INSERT INTO rows (name) VALUES (?)');
    const seen: { name: string; inTransaction: boolean; before: number }[] = [];
    const work = (name: string) => () => {
      // Each sees what the earlier ones of its group wrote (a credit check sees earlier debits).
      const before = (db.prepare('SELECT COUNT(*) AS n FROM rows').get() as { n: number }).n;
      seen.push({ name, inTransaction: db.inTransaction, before });
      insert.run(name);
      return name.toUpperCase();
    };
    const settled: string[] = [];
    const all = ['a', 'b', 'c'].map((name) =>
      group.run(work(name)).then((value) => {
        // The commit came first: another connection reads the row already.
        expect(names()).toContain(name);
        settled.push(value);
      }),
    );
    expect(names()).toEqual([]);
    await Promise.all(all);
    expect(seen).toEqual([
      { name: 'a', inTransaction: true, before: 0 },
      { name: 'b', inTransaction: true, before: 1 },
      { name: 'c', inTransaction: true, before: 2 },
    ]);
    expect(settled).toEqual(['A', 'B', 'C']);
    expect(db.inTransaction).toBe(false);
  });

  it('rolls back only the work that threw: the others commit, and it hears its own error', async () => {
    const { db, names } = databases();
    const group = new GroupCommit(db);
    const insert = db.prepare('INSERT INTO rows (name) VALUES (?)');
    const results = await Promise.allSettled([
      group.run(() => insert.run('a')),
      group.run(() => {
        insert.run('b');
        throw new Error('refused');
      }),
      group.run(() => insert.run('c')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('refused'));
    expect(names()).toEqual(['a', 'c']);
  });

  it('wraps no savepoint around atomic work, whose own transaction rolls it back', async () => {
    const { db, names } = databases();
    const group = new GroupCommit(db);
    const insert = db.prepare('INSERT INTO rows (name) VALUES (?)');
    const own = db.transaction((name: string, fail: boolean) => {
      insert.run(name);
      if (fail) throw new Error('refused');
    });
    const results = await Promise.allSettled([
      group.run(() => own('a', false), { atomic: true }),
      group.run(() => own('b', true), { atomic: true }),
      group.run(() => own('c', false), { atomic: true }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(names()).toEqual(['a', 'c']);
  });

  it('rejects every work of the group when the commit itself fails, with nothing written', async () => {
    const { db, names } = databases();
    const group = new GroupCommit(db);
    const insert = db.prepare('INSERT INTO rows (name, parent) VALUES (?, ?)');
    const results = await Promise.allSettled([
      group.run(() => insert.run('a', null)),
      // A deferred foreign key is checked at the commit: this one fails it, for the whole group.
      group.run(() => insert.run('b', 99)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(names()).toEqual([]);
    expect(db.inTransaction).toBe(false);
    // The next turn's group commits as usual.
    await group.run(() => insert.run('c', null));
    expect(names()).toEqual(['c']);
  });

  it('commits work of a later turn in a group of its own', async () => {
    const { db, names } = databases();
    const group = new GroupCommit(db);
    const insert = db.prepare('INSERT INTO rows (name) VALUES (?)');
    await group.run(() => insert.run('a'));
    expect(names()).toEqual(['a']);
    await group.run(() => insert.run('b'));
    expect(names()).toEqual(['a', 'b']);
  });
});
