// Targeting by column in the audience rule (audience.ts, filter-match.ts): the count, the quote's
// chunks and the freeze agree on who meets a filter; a number in several inclusion segments is
// judged by the first of them that has it; exclusions and opt-outs are said before the filter.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db/database';
import { audienceChunks, audienceSelect, chunkEdge, countAudience, type AudienceOf } from './audience';
import { FIELD_SEPARATOR } from './fields';
import type { AudienceFilter } from '../../../shared/audience-filter';

const phone = (n: number) => `0912000${String(n).padStart(4, '0')}`;

/** Segments of [number, values…] rows with `columns`. */
function workspace(segments: Array<{ id: number; columns: string[]; rows: Array<[number, ...string[]]> }>) {
  const db = new Database(':memory:');
  migrate(db);
  db.prepare("INSERT INTO accounts (id, name, created_at) VALUES (1, 'acme', 0)").run();
  for (const { id, columns, rows } of segments) {
    db.prepare(
      `INSERT INTO segments (id, account_id, name, columns, status, member_count, origin, created_at, updated_at)
       VALUES (?, 1, ?, ?, 'ready', ?, 'import', 0, 0)`,
    ).run(id, `s${id}`, JSON.stringify(columns), rows.length);
    for (const [n, ...values] of rows)
      db.prepare('INSERT INTO segment_members (segment_id, phone, fields) VALUES (?, ?, ?)').run(
        id,
        phone(n),
        values.join(FIELD_SEPARATOR),
      );
  }
  return db;
}

/** What every reader says: the chunks' kept and filtered-out numbers, the freeze's numbers, the count. */
function read(db: Database.Database, audience: AudienceOf) {
  const rows = [...audienceChunks(db, audience, 2)].flat();
  const kept = rows.filter(([, , , , excluded, optedOut, filteredOut]) => !excluded && !optedOut && !filteredOut);
  const frozen: string[] = [];
  let after = '';
  for (;;) {
    const upTo = chunkEdge(db, audience.include, after, 2);
    const select = audienceSelect(db, audience, after, upTo);
    frozen.push(
      ...db
        .prepare<unknown[], string>(`SELECT phone FROM (${select.sql}) ORDER BY phone`)
        .pluck()
        .all(...select.params),
    );
    if (upTo === null) break;
    after = upTo;
  }
  return {
    kept: kept.map((row) => row[0]),
    filteredOut: rows.filter((row) => row[6] === 1).map((row) => row[0]),
    excluded: rows.filter((row) => row[4] === 1).map((row) => row[0]),
    optedOut: rows.filter((row) => row[4] === 0 && row[5] === 1).map((row) => row[0]),
    frozen,
    count: countAudience(db, audience),
  };
}

const tehran: AudienceFilter = { all: [{ column: 'city', op: 'equals', value: 'تهران' }] };

describe('an audience filtered by a column', () => {
  it('keeps Tehran however it was typed, and says who it left out', () => {
    const db = workspace([
      {
        id: 1,
        columns: ['NAME', 'CITY'],
        rows: [
          [1, 'a', 'تهران'],
          [2, 'b', 'ﺗﻬﺮﺍﻥ'], // presentation forms
          [3, 'c', ' تهران  '],
          [4, 'd', 'طهران'], // another spelling, not another letter form
          [5, 'e', 'کرج'],
          [6, 'f', ''],
          [7, 'g', 'تهران'],
        ],
      },
    ]);
    const result = read(db, { include: [1], exclude: [], accountId: 1, filter: tehran });
    expect(result.kept).toEqual([1, 2, 3, 7].map(phone));
    expect(result.filteredOut).toEqual([4, 5, 6].map(phone));
    expect(result.frozen).toEqual(result.kept);
    expect(result.count).toBe(4);
    // Without a filter nothing is filtered out.
    const plain = read(db, { include: [1], exclude: [], accountId: 1, filter: null });
    expect(plain.filteredOut).toEqual([]);
    expect(plain.count).toBe(7);
  });

  it('judges a number by the first inclusion segment that has it; a segment without the column matches none', () => {
    const db = workspace([
      {
        id: 1,
        columns: ['CITY'],
        rows: [
          [1, 'قم'],
          [2, 'تهران'],
        ],
      },
      {
        id: 2,
        columns: ['NAME', 'City'],
        rows: [
          [1, 'x', 'تهران'],
          [2, 'y', 'قم'],
          [3, 'z', 'تهران'],
        ],
      },
      { id: 3, columns: ['NAME'], rows: [[4, 'w']] },
    ]);
    const first = read(db, { include: [1, 2, 3], exclude: [], accountId: 1, filter: tehran });
    expect(first.kept).toEqual([2, 3].map(phone));
    expect(first.filteredOut).toEqual([1, 4].map(phone));
    expect(first.frozen).toEqual(first.kept);
    expect(first.count).toBe(2);
    const swapped = read(db, { include: [2, 1], exclude: [], accountId: 1, filter: tehran });
    expect(swapped.kept).toEqual([1, 3].map(phone));
    expect(swapped.frozen).toEqual(swapped.kept);
    expect(swapped.count).toBe(2);
    // The freeze copies the fields the filter judged.
    const select = audienceSelect(db, { include: [2, 1], exclude: [], accountId: 1, filter: tehran }, '', null);
    expect(
      db
        .prepare(`SELECT segment_id, fields FROM (${select.sql}) ORDER BY phone`)
        .raw()
        .all(...select.params),
    ).toEqual([
      [2, `x${FIELD_SEPARATOR}تهران`],
      [2, `z${FIELD_SEPARATOR}تهران`],
    ]);
  });

  it('says excluded and opted-out numbers as such, before the filter', () => {
    const db = workspace([
      {
        id: 1,
        columns: ['CITY'],
        rows: [
          [1, 'تهران'],
          [2, 'تهران'],
          [3, 'تهران'],
          [4, 'قم'],
          [5, 'قم'],
        ],
      },
      { id: 2, columns: [], rows: [[2], [4]] },
    ]);
    db.prepare('INSERT INTO optouts (account_id, phone, created_at) VALUES (1, ?, 0)').run(phone(3));
    db.prepare('INSERT INTO optouts (account_id, phone, created_at) VALUES (1, ?, 0)').run(phone(5));
    const result = read(db, { include: [1], exclude: [2], accountId: 1, filter: tehran });
    expect(result.kept).toEqual([phone(1)]);
    expect(result.excluded).toEqual([2, 4].map(phone));
    expect(result.optedOut).toEqual([3, 5].map(phone));
    // The chunks mark what the filter would say too; the quote counts the excluded and opted out first.
    expect(result.frozen).toEqual([phone(1)]);
    expect(result.count).toBe(1);
  });

  it('filters on lists, text inside, numbers and dates', () => {
    const db = workspace([
      {
        id: 1,
        columns: ['CITY', 'AGE', 'BIRTHDAY'],
        rows: [
          [1, 'تهران', '۲۵', '۱۳۷۰/۰۵/۱۲'],
          [2, 'كرج', '17', '1991-08-03'],
          [3, 'اصفهان', '٤٠', '33453'],
          [4, 'قم', 'n/a', 'soon'],
        ],
      },
    ]);
    const only = (filter: AudienceFilter) => read(db, { include: [1], exclude: [], accountId: 1, filter }).kept;
    expect(only({ all: [{ column: 'CITY', op: 'in', values: ['کرج', 'قم'] }] })).toEqual([2, 4].map(phone));
    expect(only({ all: [{ column: 'CITY', op: 'contains', value: 'هان' }] })).toEqual([3].map(phone));
    expect(only({ all: [{ column: 'AGE', op: 'between', kind: 'number', from: '18', to: null }] })).toEqual(
      [1, 3].map(phone),
    );
    expect(
      only({ all: [{ column: 'BIRTHDAY', op: 'between', kind: 'date', from: '1991-08-03', to: '1370/05/12' }] }),
    ).toEqual([1, 2, 3].map(phone));
    expect(only({ all: [{ column: 'BIRTHDAY', op: 'anniversary', on: '2024-08-02' }] })).toEqual([1].map(phone));
    expect(only({ all: [{ column: 'BIRTHDAY', op: 'anniversary', on: '2024-08-03' }] })).toEqual([2, 3].map(phone));
    expect(
      only({
        all: [
          { column: 'AGE', op: 'between', kind: 'number', from: '18', to: null },
          { column: 'CITY', op: 'equals', value: 'تهران' },
        ],
      }),
    ).toEqual([1].map(phone));
  });
});
