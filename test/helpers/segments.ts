// Large ready segments written straight into the contacts tables, as an import leaves them, for
// the campaign bench, load and crash tests (an import of a million rows would dominate their time).
// Member i's number is 09 + (100000000 + i·7919 mod 900000000): distinct, in scattered order, the
// same i giving the same number in every segment, so overlapping ranges make overlapping segments.
import type { Core } from '../../electron/service/core';

export function writeSegment(
  core: Core,
  accountId: number,
  name: string,
  members: { from: number; to: number },
  /** One column, NAME = `customer (i mod distinctNames)`. */
  distinctNames = 2000,
): number {
  const now = Date.now();
  const id = Number(
    core.db
      .prepare(
        `INSERT INTO segments (account_id, name, columns, status, member_count, origin, created_at, updated_at)
         VALUES (?, ?, '["NAME"]', 'ready', ?, 'import', ?, ?)`,
      )
      .run(accountId, name, members.to - members.from, now, now).lastInsertRowid,
  );
  core.db
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
       INSERT INTO segment_members (segment_id, phone, fields)
       SELECT ?, '09' || (100000000 + (i * 7919) % 900000000), 'customer ' || (i % ?) FROM n`,
    )
    .run(members.from, members.to, id, distinctNames);
  return id;
}
