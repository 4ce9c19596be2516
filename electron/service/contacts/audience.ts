// A campaign's audience, the one rule every reader of it follows (PRODUCT.md): the union of the
// inclusion segments, minus the members of the exclusion segments, minus the account's opt-outs,
// one row per number. Its readers: the live count (segments.audienceCount), the campaign quote and
// test send (audienceChunks, the audience in chunks of number ranges) and an execution's freeze
// (audienceSelect, the SQL its one INSERT … SELECT per chunk embeds).
//
// While an import writes into a segment, an audience sees the segment as it was before that import.
// Until an import that adds rows to an existing segment is done, its rows may still be taken out
// again (a cancel or a failure removes exactly the rows it recorded in import_added,
// Segments.purgeWorker), so no audience reads them; once it is done they are members like any
// other. A segment an import or a combine is still creating has nothing to show yet.
//
// The readers ask for the pending imports of their segments in the transaction of the read itself,
// so a batch committed between the two cannot slip in. With none pending (the usual case) the read
// is the plain one: a pending import is found through its segment's status, one primary-key
// lookup per segment.
//
// A column filter (AudienceOf.filter, filter-match.ts) keeps the members whose fields meet it: a
// number is judged by the fields of the first inclusion segment in the draft's order that has it
// (the fields its message uses); a member of a segment without the filter's column does not match.
// Exclusions and opt-outs apply as before; the quote marks the members the filter leaves out.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';
import type { Segment } from '../../../shared/contacts';
import type { AudienceFilter } from '../../../shared/audience-filter';
import { filterCall, registerFilterFunction, type FilterSpec } from './filter-match';

/** An import adding rows to a segment and not done yet: the rows it added are hidden. */
export interface PendingImport {
  segmentId: number;
  jobId: number;
}

/** Whose audience: the segments named in the draft's order (as an audience sees them, audienceView). */
export interface AudienceOf {
  include: readonly number[];
  exclude: readonly number[];
  accountId: number;
  /** Conditions on the members' columns (shared/audience-filter.ts); none: every member. */
  filter?: AudienceFilter | null;
}

/**
 * One row of the audience in chunks: a number of the union of the inclusion segments, its fields
 * from the first inclusion segment in the draft's order that has it, how many inclusion segments
 * have it, and whether it is excluded, opted out, or left out by the filter (1 or 0).
 */
export type AudienceRow = [
  phone: string,
  segmentId: number,
  fields: string,
  inSegments: number,
  excluded: number,
  optedOut: number,
  filteredOut: number,
];

/**
 * The segment as an audience sees it: a ready one as it is; one an import is adding rows to (or
 * whose failed or cancelled import is being taken out) with its columns from before that import;
 * null when an audience cannot read it yet or any more (being created, failed, being deleted).
 * Its members are then the stored ones less the pending import's rows (withoutPendingRows).
 */
export function audienceView(db: Db, segment: Segment): Segment | null {
  if (segment.status === 'ready') return segment;
  if (segment.status !== 'importing') return null;
  const adding = addingImport(db, segment.id);
  return adding === null ? null : { ...segment, columns: adding.columnsBefore };
}

/** The pending imports into `segmentIds`: call it in the transaction of the read it filters. */
export function pendingImports(db: Db, segmentIds: readonly number[]): PendingImport[] {
  const ids = [...new Set(segmentIds)];
  if (ids.length === 0) return [];
  // An import adding rows keeps its segment 'importing' until it is done, or until a failed or
  // cancelled one's rows are all taken out again (writer.ts finishJob).
  const importing = db
    .prepare<number[], number>(
      `SELECT id FROM segments WHERE id IN (${ids.map(() => '?').join(',')}) AND status = 'importing'`,
    )
    .pluck()
    .all(...ids);
  return importing.flatMap((segmentId) => {
    const adding = addingImport(db, segmentId);
    return adding === null ? [] : [{ segmentId, jobId: adding.jobId }];
  });
}

/**
 * SQL that keeps a row of segment_members `member` (its alias) only when no pending import added
 * it: `AND NOT EXISTS (…)` over import_added's primary key, or nothing at all when none is pending.
 */
export function withoutPendingRows(
  member: string,
  pending: readonly PendingImport[],
): { sql: string; params: number[] } {
  if (pending.length === 0) return { sql: '', params: [] };
  const jobOf = `CASE ${member}.segment_id ${pending.map(() => 'WHEN ? THEN ?').join(' ')} END`;
  return {
    sql: `AND NOT EXISTS (SELECT 1 FROM import_added pending_row
      WHERE pending_row.job_id = ${jobOf} AND pending_row.phone = ${member}.phone)`,
    params: pending.flatMap((p) => [p.segmentId, p.jobId]),
  };
}

/** The chunk-edge statement of each database: prepared once, read for every chunk. */
const edges = new WeakMap<Db, { get(segmentId: number, after: string, offset: number): string | undefined }>();

/**
 * The upper edge of the chunk after `after`: the `size`-th number after it in the inclusion segment
 * that reaches it first (so no segment gives more than `size` rows); null when the rest is smaller.
 */
export function chunkEdge(db: Db, include: readonly number[], after: string, size: number): string | null {
  let edge = edges.get(db);
  if (edge === undefined) {
    edge = db
      .prepare<[number, string, number], string>(
        'SELECT phone FROM segment_members WHERE segment_id = ? AND phone > ? ORDER BY phone LIMIT 1 OFFSET ?',
      )
      .pluck();
    edges.set(db, edge);
  }
  let upTo: string | null = null;
  for (const id of include) {
    const phone = edge.get(id, after, size - 1);
    if (phone !== undefined && (upTo === null || phone < upTo)) upTo = phone;
  }
  return upTo;
}

/** SQL and its parameters, in order. */
interface Sql {
  sql: string;
  params: unknown[];
}

/** The rank of a member's segment among the inclusion segments (its fields come from the lowest). */
function rankOf(include: readonly number[]): Sql {
  return { sql: `CASE m.segment_id ${include.map((_, i) => `WHEN ? THEN ${i}`).join(' ')} END`, params: [...include] };
}

function list(ids: readonly number[]): string {
  return ids.map(() => '?').join(',');
}

// The rule's three parts, each written once: the members `m` of the inclusion segments, a number
// in an exclusion segment, a number opted out. Pending imports' rows count in neither segment side.

/** The inclusion segments' members `m` after `after` (up to `upTo`): SQL from `segment_members m WHERE` on. */
function included(include: readonly number[], range: Range | null, pending: readonly PendingImport[]): Sql {
  const member = withoutPendingRows('m', pending);
  const params: unknown[] = [...include];
  let inRange = '';
  if (range !== null) {
    inRange = range.upTo === null ? 'AND m.phone > ?' : 'AND m.phone > ? AND m.phone <= ?';
    params.push(range.after, ...(range.upTo === null ? [] : [range.upTo]));
  }
  return {
    sql: `segment_members m WHERE m.segment_id IN (${list(include)}) ${inRange} ${member.sql}`,
    params: [...params, ...member.params],
  };
}

/** Number `phone` (an SQL expression) is in an exclusion segment: an EXISTS, null when there are none. */
function excluded(phone: string, exclude: readonly number[], pending: readonly PendingImport[]): Sql | null {
  if (exclude.length === 0) return null;
  const excluder = withoutPendingRows('e', pending);
  return {
    sql: `EXISTS (SELECT 1 FROM segment_members e WHERE e.segment_id IN (${list(exclude)}) AND e.phone = ${phone} ${excluder.sql})`,
    params: [...exclude, ...excluder.params],
  };
}

/** Number `phone` (an SQL expression) is on the account's opt-out list: an EXISTS. */
function optedOut(phone: string, accountId: number): Sql {
  return { sql: `EXISTS (SELECT 1 FROM optouts o WHERE o.account_id = ? AND o.phone = ${phone})`, params: [accountId] };
}

/** Connections chapar_audience_filter is registered on. */
const registered = new WeakSet<Db>();

/**
 * The filter's spec (filter-match.ts): the filter and the inclusion segments' columns as the
 * audience sees them (before a pending import's new ones); null without a filter.
 */
export function filterSpec(db: Db, audience: AudienceOf): FilterSpec | null {
  if (!audience.filter) return null;
  const row = db.prepare<[number], { status: string; columns: string }>(
    'SELECT status, columns FROM segments WHERE id = ?',
  );
  const columns: Record<string, string[]> = {};
  for (const id of audience.include) {
    const segment = row.get(id);
    if (!segment) continue;
    const adding = segment.status === 'importing' ? addingImport(db, id) : null;
    columns[String(id)] = adding?.columnsBefore ?? (JSON.parse(segment.columns) as string[]);
  }
  return { filter: audience.filter, columns };
}

/** `chapar_audience_filter(…, <alias>.segment_id, <alias>.fields)` (filterCall): 1 when the member meets the filter; null without one. */
function filterTest(db: Db, audience: AudienceOf, alias: string): Sql | null {
  const spec = filterSpec(db, audience);
  if (spec === null) return null;
  if (!registered.has(db)) {
    registerFilterFunction(db);
    registered.add(db);
  }
  return { sql: filterCall(alias), params: [JSON.stringify(spec)] };
}

/** A chunk's numbers: after `after`, up to `upTo` (to the end when null). */
interface Range {
  after: string;
  upTo: string | null;
}

/**
 * The audience's members `m` (in `range`, all when null), filtered by the whole rule: SQL from
 * `segment_members m WHERE` on. Call it in the transaction of the statement that embeds it.
 */
function audienceMembers(db: Db, audience: AudienceOf, range: Range | null): Sql {
  const { include, exclude, accountId } = audience;
  const pending = pendingImports(db, [...include, ...exclude]);
  const members = included(include, range, pending);
  const excluder = excluded('m.phone', exclude, pending);
  const optOut = optedOut('m.phone', accountId);
  return {
    sql: `${members.sql} ${excluder ? `AND NOT ${excluder.sql}` : ''} AND NOT ${optOut.sql}`,
    params: [...members.params, ...(excluder?.params ?? []), ...optOut.params],
  };
}

/**
 * The audience's numbers after `after` up to `upTo` (to the end when null) as SQL for a FROM
 * clause: one row per number, columns phone, segment_id, fields (from the first inclusion segment
 * in the draft's order that has it) and rank. What an execution's freeze copies in one INSERT …
 * SELECT; call it in the transaction of that statement (it reads the pending imports).
 */
export function audienceSelect(db: Db, audience: AudienceOf, after: string, upTo: string | null): Sql {
  const rank = rankOf(audience.include);
  const members = audienceMembers(db, audience, { after, upTo });
  const select = {
    sql: `SELECT m.phone AS phone, m.segment_id AS segment_id, m.fields AS fields, min(${rank.sql}) AS rank
      FROM ${members.sql}
      GROUP BY m.phone`,
    params: [...rank.params, ...members.params],
  };
  // The bare columns of a min() aggregate come from the row with the minimum: the fields judged
  // are those of the first inclusion segment that has the number.
  const test = filterTest(db, audience, 'f');
  if (test === null) return select;
  return {
    sql: `SELECT f.phone AS phone, f.segment_id AS segment_id, f.fields AS fields, f.rank AS rank
      FROM (${select.sql}) f WHERE ${test.sql}`,
    params: [...select.params, ...test.params],
  };
}

/**
 * The count of the audience as one statement: distinct numbers of the rule, those the filter
 * keeps. Call it in the transaction of the read (it reads the pending imports), or hand it to a
 * reader thread (countAudienceOffThread).
 */
export function countAudienceSql(db: Db, audience: AudienceOf): Sql {
  const members = audienceMembers(db, audience, null);
  const single = new Set(audience.include).size === 1;
  const test = filterTest(db, audience, single ? 'm' : 'f');
  if (test === null) return { sql: `SELECT count(DISTINCT m.phone) AS n FROM ${members.sql}`, params: members.params };
  if (single)
    // One segment holds each number once (its primary key): no grouping to do.
    return {
      sql: `SELECT count(*) AS n FROM ${members.sql} AND ${test.sql}`,
      params: [...members.params, ...test.params],
    };
  const rank = rankOf(audience.include);
  return {
    sql: `SELECT count(*) AS n FROM (
        SELECT m.segment_id AS segment_id, m.fields AS fields, min(${rank.sql}) AS rank FROM ${members.sql} GROUP BY m.phone
      ) f WHERE ${test.sql}`,
    params: [...rank.params, ...members.params, ...test.params],
  };
}

/** How many distinct numbers the audience has: one statement, in one transaction with the pending imports. */
export function countAudience(db: Db, audience: AudienceOf): number {
  if (audience.include.length === 0) return 0;
  return db.transaction(() => {
    const count = countAudienceSql(db, audience);
    return (db.prepare(count.sql).get(...count.params) as { n: number }).n;
  })();
}

/**
 * One chunk of the union of the inclusion segments, one AudienceRow per number, excluded,
 * opted-out and filtered-out ones marked rather than left out. Call it in the transaction of its read.
 */
function audienceRows(db: Db, audience: AudienceOf, range: Range): Sql {
  const { include, exclude, accountId } = audience;
  const pending = pendingImports(db, [...include, ...exclude]);
  const excluder = excluded('a.phone', exclude, pending) ?? { sql: '0', params: [] };
  const optOut = optedOut('a.phone', accountId);
  const test = filterTest(db, audience, 'a');
  const filteredOut = test === null ? { sql: '0', params: [] } : { sql: `NOT ${test.sql}`, params: test.params };
  const rank = rankOf(include);
  const members = included(include, range, pending);
  return {
    sql: `SELECT a.phone, a.segment_id, a.fields, a.n, ${excluder.sql}, ${optOut.sql}, ${filteredOut.sql}
      FROM (
        SELECT m.phone AS phone, m.segment_id AS segment_id, m.fields AS fields, min(${rank.sql}) AS rank, count(*) AS n
        FROM ${members.sql}
        GROUP BY m.phone
      ) a ORDER BY a.phone`,
    params: [...excluder.params, ...optOut.params, ...filteredOut.params, ...rank.params, ...members.params],
  };
}

/**
 * The union of the inclusion segments in chunks of number ranges (`size` numbers per inclusion
 * segment at most), one AudienceRow per number, excluded, opted-out and filtered-out ones marked
 * rather than left out (a quote explains them). Each chunk is read in one transaction with the imports pending then,
 * whose rows it leaves out.
 */
export function* audienceChunks(db: Db, audience: AudienceOf, size: number): Generator<AudienceRow[]> {
  if (audience.include.length === 0) return;
  // Statements by their text: a bounded and a last chunk's, prepared again only when the pending
  // imports change (none, nearly always).
  const prepared = new Map<string, Statement>();
  const chunk = db.transaction((after: string): { rows: AudienceRow[]; upTo: string | null } => {
    const upTo = chunkEdge(db, audience.include, after, size);
    const rows = audienceRows(db, audience, { after, upTo });
    let statement = prepared.get(rows.sql);
    if (statement === undefined) {
      statement = db.prepare(rows.sql).raw();
      prepared.set(rows.sql, statement);
    }
    return { rows: statement.all(...rows.params) as AudienceRow[], upTo };
  });
  let after = '';
  for (;;) {
    const { rows, upTo } = chunk(after);
    yield rows;
    if (upTo === null) return;
    after = upTo;
  }
}

/**
 * The import an 'importing' segment waits for when it adds rows to the segment (the segment's
 * latest job, with the segment as its target); null when the segment is being created.
 */
function addingImport(db: Db, segmentId: number): { jobId: number; columnsBefore: string[] } | null {
  const job = db
    .prepare<[number], { id: number; target_segment_id: number | null; spec: string }>(
      'SELECT id, target_segment_id, spec FROM import_jobs WHERE segment_id = ? ORDER BY id DESC LIMIT 1',
    )
    .get(segmentId);
  if (!job || job.target_segment_id !== segmentId) return null;
  const spec = JSON.parse(job.spec) as { columnsBefore?: string[] };
  return { jobId: job.id, columnsBefore: spec.columnsBefore ?? [] };
}
