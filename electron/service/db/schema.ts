// What a Chapar database's schema is at its version, and where a database differs from it. The
// expected schema is never written by hand: the real migrations 1..version are applied to an
// in-memory database, and both sides are read the same way from SQLite's catalogue (sqlite_master
// and the table pragmas), never from the rows, so a check costs the same at ten million messages as
// at none. A restore refuses a backup that differs (a backup without its `messages` table took the
// workspace down at the next send), and the start refuses a live database that differs.
import Database from 'better-sqlite3';
import { migrate, schemaVersion } from './database';
import { nativeBinding } from './native';

/**
 * A schema as entries, one per thing a migration creates: "table messages", "column
 * messages.status", "index messages_created", "foreign key sends(line_id)", "trigger …", "view …",
 * each with the table it belongs to and what it is (types, keys, its SQL with comments, whitespace
 * and quoting left out).
 */
export type SchemaShape = Map<string, SchemaPart>;

export interface SchemaPart {
  table: string;
  what: string;
}

/** The differences listed in an error at most; the count of the rest follows them. */
const LISTED = 6;

export class SchemaMismatchError extends Error {
  constructor(
    readonly version: number,
    readonly differences: string[],
  ) {
    super(`its schema differs from version ${version}'s: ${describeDifferences(differences)}`);
  }
}

/** The first differences in words, then how many more there are. */
export function describeDifferences(differences: string[]): string {
  const more = differences.length - LISTED;
  return differences.slice(0, LISTED).join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/** Throws SchemaMismatchError when `db` differs from what its version's migrations create. */
export function checkSchema(db: Database.Database): void {
  const version = schemaVersion(db);
  const differences = schemaDifferences(db, version);
  if (differences.length > 0) throw new SchemaMismatchError(version, differences);
}

/**
 * Where `db` differs from the migrations 1..version, in words ("table messages is missing"); empty
 * when it does not. A table missing or added is one difference, not one more per column and index.
 */
export function schemaDifferences(db: Database.Database, version: number): string[] {
  const expected = expectedShape(version);
  const found = schemaShape(db);
  const only = (shape: SchemaShape, other: SchemaShape) => [...shape].filter(([name]) => !other.has(name));
  const missing = only(expected, found);
  const added = only(found, expected);
  const wholeTables = new Set(
    [...missing, ...added].filter(([name]) => name.startsWith('table ')).map(([, part]) => part.table),
  );
  const ofWholeTable = ([name, part]: [string, SchemaPart]) =>
    wholeTables.has(part.table) && name !== `table ${part.table}`;
  return [
    ...missing.filter((entry) => !ofWholeTable(entry)).map(([name]) => `${name} is missing`),
    ...[...expected]
      .filter(([name, part]) => found.has(name) && found.get(name)!.what !== part.what)
      .map(([name]) => `${name} is altered`),
    ...added.filter((entry) => !ofWholeTable(entry)).map(([name]) => `${name} is not Chapar's`),
  ];
}

/** Each version's expected shape, built once per process (applying 24 migrations takes milliseconds, not nothing). */
const expectedShapes = new Map<number, SchemaShape>();

export function expectedShape(version: number): SchemaShape {
  let shape = expectedShapes.get(version);
  if (!shape) {
    const db = new Database(':memory:', { nativeBinding: nativeBinding() });
    try {
      db.pragma('foreign_keys = ON');
      migrate(db, version);
      shape = schemaShape(db);
    } finally {
      db.close();
    }
    expectedShapes.set(version, shape);
  }
  return shape;
}

/**
 * The shape of the main schema, read in one query per kind of part (a query per table took 35 ms
 * over the 70 tables; these take a few). SQLite's own tables are left out: sqlite_sequence (the
 * counters of AUTOINCREMENT) and sqlite_stat1/sqlite_stat4, which ANALYZE and the upkeep's PRAGMA
 * optimize add to a used workspace. FTS5's shadow tables are the migrations' own (a CREATE VIRTUAL
 * TABLE makes them) and are compared as tables.
 */
export function schemaShape(db: Database.Database): SchemaShape {
  const shape: SchemaShape = new Map();
  const rows = <Row>(sql: string) => db.prepare<[], Row>(sql).all();
  const ownTables = `SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`;

  for (const table of rows<{ name: string; type: string; wr: number; strict: number; sql: string }>(
    `SELECT t.name, t.type, t.wr, t.strict, m.sql FROM pragma_table_list AS t
       JOIN main.sqlite_master AS m ON m.type = 'table' AND m.name = t.name
      WHERE t.schema = 'main' AND t.name IN (${ownTables})`,
  )) {
    const options = [table.type, table.strict ? 'strict' : '', table.wr ? 'without rowid' : ''].filter(Boolean);
    shape.set(`table ${table.name}`, { table: table.name, what: `${options.join(' ')}: ${normalizedSql(table.sql)}` });
  }

  for (const column of rows<{
    tbl: string;
    cid: number;
    name: string;
    type: string;
    notnull: number;
    dflt_value: string | null;
    pk: number;
    hidden: number;
  }>(
    `SELECT t.name AS tbl, c.cid, c.name, c.type, c."notnull", c.dflt_value, c.pk, c.hidden
       FROM (${ownTables}) AS t, pragma_table_xinfo(t.name, 'main') AS c`,
  ))
    shape.set(`column ${column.tbl}.${column.name}`, {
      table: column.tbl,
      what: `#${column.cid} ${column.type} notnull=${column.notnull} default=${column.dflt_value} pk=${column.pk} hidden=${column.hidden}`,
    });

  // Indexes with their table: the automatic ones of UNIQUE and PRIMARY KEY constraints have no SQL
  // of their own, so sqlite_master alone would not tell a constraint dropped.
  const indexKeys = new Map<string, string[]>();
  for (const key of rows<{ idx: string; name: string | null; desc: number; coll: string }>(
    `SELECT i.name AS idx, k.name, k."desc", k.coll
       FROM (${ownTables}) AS t, pragma_index_list(t.name, 'main') AS i, pragma_index_xinfo(i.name, 'main') AS k
      WHERE k.key = 1 ORDER BY i.name, k.seqno`,
  )) {
    const keys = indexKeys.get(key.idx) ?? [];
    keys.push(`${key.name ?? '(expression)'} ${key.desc ? 'desc' : 'asc'} ${key.coll}`);
    indexKeys.set(key.idx, keys);
  }
  for (const index of rows<{
    tbl: string;
    name: string;
    unique: number;
    origin: string;
    partial: number;
    sql: string | null;
  }>(
    `SELECT t.name AS tbl, i.name, i."unique", i.origin, i.partial, m.sql
       FROM (${ownTables}) AS t, pragma_index_list(t.name, 'main') AS i
       LEFT JOIN main.sqlite_master AS m ON m.type = 'index' AND m.name = i.name`,
  ))
    shape.set(`index ${index.name}`, {
      table: index.tbl,
      what:
        `(${(indexKeys.get(index.name) ?? []).join(', ')}) unique=${index.unique} origin=${index.origin} ` +
        `partial=${index.partial}: ${normalizedSql(index.sql)}`,
    });

  // A foreign key of several columns comes as a row per column.
  const references = new Map<
    string,
    { table: string; parent: string; actions: string; from: string[]; to: string[] }
  >();
  for (const part of rows<{
    tbl: string;
    id: number;
    parent: string;
    from: string;
    to: string | null;
    on_update: string;
    on_delete: string;
  }>(
    `SELECT t.name AS tbl, f.id, f."table" AS parent, f."from", f."to", f.on_update, f.on_delete
       FROM (${ownTables}) AS t, pragma_foreign_key_list(t.name, 'main') AS f ORDER BY t.name, f.id, f.seq`,
  )) {
    const key = `${part.tbl} ${part.id}`;
    const reference = references.get(key) ?? {
      table: part.tbl,
      parent: part.parent,
      actions: `on update ${part.on_update} on delete ${part.on_delete}`,
      from: [],
      to: [],
    };
    reference.from.push(part.from);
    reference.to.push(part.to ?? '');
    references.set(key, reference);
  }
  for (const { table, parent, actions, from, to } of references.values())
    shape.set(`foreign key ${table}(${from.join(', ')})`, {
      table,
      what: `references ${parent}(${to.join(', ')}) ${actions}`,
    });

  for (const object of rows<{ type: string; name: string; tbl_name: string; sql: string | null }>(
    "SELECT type, name, tbl_name, sql FROM main.sqlite_master WHERE type IN ('trigger', 'view')",
  ))
    // A trigger belongs to its table; a view to itself (SQLite files it under its own name).
    shape.set(`${object.type} ${object.name}`, { table: object.tbl_name, what: normalizedSql(object.sql) });
  return shape;
}

/**
 * SQL as its tokens: comments and whitespace dropped, keywords and identifiers in lower case
 * without their quotes, string literals as written. Two texts of one statement compare equal
 * however they were indented, commented or quoted (a migration re-indented, SQLite's own rewriting
 * of a table's text on ALTER TABLE); a changed clause, column or condition does not.
 */
export function normalizedSql(sql: string | null): string {
  if (sql === null) return '';
  const tokens =
    sql.match(/--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]|[\w$]+|\S/g) ??
    [];
  return tokens
    .filter((token) => !token.startsWith('--') && !token.startsWith('/*'))
    .map((token) => {
      if (token.startsWith("'")) return token;
      if (/^["`[]/.test(token))
        return token
          .slice(1, -1)
          .replace(/""|``/g, (pair) => pair[0]!)
          .toLowerCase();
      return token.toLowerCase();
    })
    .join(' ');
}
