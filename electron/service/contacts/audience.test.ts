import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db/database';
import type { Segment } from '../../../shared/contacts';
import { audienceChunks, audienceSelect, audienceView, chunkEdge, countAudience, type AudienceOf } from './audience';

const phone = (n: number) => `0912000${String(n).padStart(4, '0')}`;

/**
 * Include A (ready) and B (an import still adding 11 and 12 to it), exclude C (ready) and D (an
 * import still adding 4 to it); 6 opted out.
 */
function workspace() {
  const db = new Database(':memory:');
  migrate(db);
  db.prepare("INSERT INTO accounts (id, name, created_at) VALUES (1, 'acme', 0)").run();
  const segment = (id: number, status: string, columns: string[], members: number[], field: string) => {
    db.prepare(
      `INSERT INTO segments (id, account_id, name, columns, status, member_count, origin, created_at, updated_at)
       VALUES (?, 1, ?, ?, ?, ?, 'import', 0, 0)`,
    ).run(id, `s${id}`, JSON.stringify(columns), status, members.length);
    for (const n of members)
      db.prepare('INSERT INTO segment_members (segment_id, phone, fields) VALUES (?, ?, ?)').run(id, phone(n), field);
  };
  const adding = (jobId: number, segmentId: number, columnsBefore: string[], added: number[]) => {
    db.prepare(
      `INSERT INTO import_jobs (id, account_id, kind, segment_id, target_segment_id, spec, status, created_at)
       VALUES (?, 1, 'import', ?, ?, ?, 'running', 0)`,
    ).run(jobId, segmentId, segmentId, JSON.stringify({ columnsBefore }));
    for (const n of added) db.prepare('INSERT INTO import_added (job_id, phone) VALUES (?, ?)').run(jobId, phone(n));
  };
  segment(1, 'ready', ['NAME'], [1, 2, 3, 4, 5, 6, 7, 8], 'a');
  segment(2, 'importing', ['CITY', 'CODE'], [5, 6, 7, 8, 9, 10, 11, 12], 'b');
  adding(1, 2, ['CITY'], [11, 12]);
  segment(3, 'ready', [], [2, 11], '');
  segment(4, 'importing', [], [3, 4], '');
  adding(2, 4, [], [4]);
  db.prepare('INSERT INTO optouts (account_id, phone, created_at) VALUES (1, ?, 0)').run(phone(6));
  return db;
}

const audience: AudienceOf = { include: [1, 2], exclude: [3, 4], accountId: 1 };
const expected = [1, 4, 5, 7, 8, 9, 10].map(phone);

describe('the audience rule (audience.ts)', () => {
  it('sees a segment being added to as it was before the import', () => {
    const db = workspace();
    const b = { id: 2, status: 'importing', columns: ['CITY', 'CODE'] } as unknown as Segment;
    expect(audienceView(db, b)?.columns).toEqual(['CITY']);
  });

  it('gives the same numbers to the chunked reader, the freeze fragment and the count', () => {
    const db = workspace();
    // The chunked reader, two numbers per inclusion segment at a time.
    const read = [...audienceChunks(db, audience, 2)].flat();
    expect(read.map((row) => row[0])).toEqual([...Array(10).keys()].map((i) => phone(i + 1)));
    const kept = read.filter(([, , , , excluded, optedOut]) => !excluded && !optedOut);
    expect(kept.map((row) => row[0])).toEqual(expected);
    expect(read.find((row) => row[0] === phone(5))?.slice(1, 4)).toEqual([1, 'a', 2]);

    // The freeze: the fragment embedded in one statement per chunk, chunks cut where the reader cuts them.
    const frozen: Array<[string, number, string]> = [];
    let after = '';
    for (;;) {
      const upTo = chunkEdge(db, audience.include, after, 2);
      const select = audienceSelect(db, audience, after, upTo);
      frozen.push(
        ...(db
          .prepare(`SELECT phone, segment_id, fields FROM (${select.sql}) ORDER BY phone`)
          .raw()
          .all(...select.params) as Array<[string, number, string]>),
      );
      if (upTo === null) break;
      after = upTo;
    }
    expect(frozen).toEqual(kept.map((row) => row.slice(0, 3)));
    expect(countAudience(db, audience)).toBe(expected.length);
  });

  it('reads the pending rows once their import is done', () => {
    const db = workspace();
    db.prepare("UPDATE import_jobs SET status = 'done'").run();
    db.prepare("UPDATE segments SET status = 'ready'").run();
    const select = audienceSelect(db, audience, '', null);
    const all = db
      .prepare(`SELECT phone FROM (${select.sql}) ORDER BY phone`)
      .pluck()
      .all(...select.params);
    // 11 and 12 are members now, 11 is excluded by C; 4 is excluded by D.
    expect(all).toEqual([1, 5, 7, 8, 9, 10, 12].map(phone));
    expect(countAudience(db, audience)).toBe(7);
  });
});
