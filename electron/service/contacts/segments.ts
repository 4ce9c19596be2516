// Segments: named contact lists of an account (from uploads, spreadsheet imports, or union /
// difference of other segments), their members, exports, and the background purge that removes
// the members of deleted or failed segments in small batches.
//
// Public API (core.segments); every call is scoped to the account, another account's id is "not found":
//   list(accountId)                                   -> Segment[] {id, name, columns, member_count, status, created_at}
//   get(accountId, segmentId)                         -> Segment (ServiceError 404 when absent)
//   find(accountId, segmentId)                        -> Segment, or null when absent
//   rename(accountId, segmentId, name)                -> Segment
//   delete(accountId, segmentId)                      -> void (hidden at once, members purged in the background)
//   count(accountId, segmentId)                       -> number of members
//   phones(accountId, segmentId)                      -> a ready segment's numbers (400 when not ready)
//   phonesWithFields(accountId, segmentId)            -> the same numbers with their stored values and
//                                                        rows in the file they came from, one read
//   members(accountId, segmentId, {offset, limit})    -> {total, members: {phone, fields}[]} ordered by phone
//   union(accountId, {name, segmentIds, excludeOptOuts?}, onProgress?)           -> {jobId, segmentId}
//   difference(accountId, {name, from, minus, excludeOptOuts?}, onProgress?)     -> {jobId, segmentId}
//   audienceCount(accountId, {include, exclude})      -> distinct numbers of include minus exclude minus opt-outs
//   exportCsv / exportXlsx(accountId, segmentId, file, onProgress?) -> Promise<{rows}>
// Only 'ready' segments are complete; 'importing' ones are still being written.
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Worker } from '../jobs/scheduler';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import type {
  ImportProgress,
  Segment,
  SegmentMember,
  SegmentSourceKind,
  SegmentStatus,
} from '../../../shared/contacts';
import { phoneSearchDigits } from '../../../shared/phone';
import { searchKey } from '../../../shared/search';
import { escapeLike, textMatch } from '../db/text-match';
import { decodeFields } from './fields';
import type { CombineSpec, JobRow } from './pipeline';
import type { ExportRequest } from './exports';
import { audienceView, countAudience, countAudienceSql, type AudienceOf } from './audience';
import { fieldAt } from './filter-match';
import type { ReaderPool, SqlParam } from '../db/readers';
import type { AudienceFilter } from '../../../shared/audience-filter';
import { filterProblem, filterText, foldValue } from '../../../shared/column-values';

/** Whose audience a count reads: inclusion and exclusion segments and the column filter. */
export interface AudienceQuery {
  include: number[];
  exclude?: number[];
  filter?: AudienceFilter | null;
}

/** A column of some segments, with its commonest values (folded) in a sample of members. */
export interface ColumnValues {
  column: string;
  /** Members read. */
  sampled: number;
  /** Distinct non-empty values among them. */
  distinct: number;
  values: Array<{ value: string; count: number }>;
}

interface SegmentRow {
  id: number;
  account_id: number;
  name: string;
  columns: string;
  status: SegmentStatus;
  member_count: number;
  origin: 'upload' | 'import' | 'combine';
  source_kind: SegmentSourceKind | null;
  source_label: string | null;
  created_at: number;
  updated_at: number;
}

/** A segment with what its page and the delete confirmation show. */
export interface SegmentDetail extends Segment {
  /** Members on the account's opt-out list. */
  opted_out: number;
  /** Campaigns whose audience names the segment (included or excluded). */
  campaigns: Array<{ campaign_id: number; name: string }>;
}

/**
 * The campaigns of an account whose audience names a segment (included or excluded). Registered by
 * the campaigns domain at composition (registerUsers), as contacts may not read its tables.
 */
export type SegmentUsers = (accountId: number, segmentId: number) => Array<{ campaign_id: number; name: string }>;

/**
 * What segments ask of the import jobs (imports.ts, which writes segments through this file's
 * operations, so segments name what they need instead of importing it back).
 */
export interface SegmentJobs {
  queueCombine(
    accountId: number,
    name: string,
    label: string,
    columns: string[],
    spec: CombineSpec,
    onProgress?: (progress: ImportProgress) => void,
  ): { jobId: number; segmentId: number };
  cancel(accountId: number, jobId: number): boolean;
  export(request: ExportRequest, onProgress?: (rows: number, total: number) => void): Promise<{ rows: number }>;
}

/** Rows per page of members (a virtualized table asks for a page at a time). */
const MAX_PAGE = 1_000;
/**
 * Every ANCHOR_EVERY-th number of a segment, kept per segment (until it changes): a page at any
 * position then starts from the anchor before it instead of stepping over every member from the
 * first, so the last page of a million is as quick as the first.
 */
const ANCHOR_EVERY = 1_024;

const PURGE_BATCH = 20_000;
/** The longest segment name (characters). */
export const MAX_SEGMENT_NAME = 200;
/** SQLite's bound-parameter limit is far above this; lists of segments are short anyway. */
const MAX_SEGMENTS_IN_QUERY = 500;

export class Segments {
  private readonly byId;
  private purgeDue = true;
  private readonly users: SegmentUsers[] = [];

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly imports: SegmentJobs,
    /** Reads that may take long (a filtered count, a column's values) run there when given. */
    private readonly readers: ReaderPool | null = null,
  ) {
    this.byId = db.prepare<[number], SegmentRow>('SELECT * FROM segments WHERE id = ?');
  }

  /** The account's segments, newest last; `search` matches a part of the name (or the source's label). */
  list(accountId: number, search?: string): Segment[] {
    const term = search?.trim() ?? '';
    if (term === '')
      return this.db
        .prepare<[number], SegmentRow>(
          "SELECT * FROM segments WHERE account_id = ? AND status <> 'deleting' ORDER BY id",
        )
        .all(accountId)
        .map(toSegment);
    // Arabic ي/ك find Persian ی/ک, any digits, with or without half-spaces (shared/search.ts).
    const key = searchKey(term);
    const name = textMatch('name', key);
    const source = textMatch("coalesce(source_label, '')", key);
    return this.db
      .prepare<unknown[], SegmentRow>(
        `SELECT * FROM segments WHERE account_id = ? AND status <> 'deleting'
           AND (${name.sql} OR ${source.sql}) ORDER BY id`,
      )
      .all(accountId, ...name.params, ...source.params)
      .map(toSegment);
  }

  detail(accountId: number, segmentId: number): SegmentDetail {
    const segment = this.get(accountId, segmentId);
    const optedOut =
      this.db
        .prepare<[number, number], number>(
          `SELECT count(*) FROM optouts o WHERE o.account_id = ?
             AND EXISTS (SELECT 1 FROM segment_members m WHERE m.segment_id = ? AND m.phone = o.phone)`,
        )
        .pluck()
        .get(accountId, segmentId) ?? 0;
    const campaigns = this.users.flatMap((users) => users(accountId, segmentId));
    return { ...segment, opted_out: optedOut, campaigns };
  }

  /** Adds a lookup of the campaigns naming a segment (what detail() shows): campaigns registers its own. */
  registerUsers(users: SegmentUsers): void {
    this.users.push(users);
  }

  get(accountId: number, segmentId: number): Segment {
    return toSegment(this.row(accountId, segmentId));
  }

  /**
   * A token that changes whenever the segment's members may have (status, last change, size):
   * what a reader may key a cache of the members by.
   */
  version(accountId: number, segmentId: number): string {
    return contentVersion(this.row(accountId, segmentId));
  }

  /** The account's segment, or null when it has none by that id (unknown, another account's, being deleted). */
  find(accountId: number, segmentId: number): Segment | null {
    const row = this.lookup(accountId, segmentId);
    return row === null ? null : toSegment(row);
  }

  rename(accountId: number, segmentId: number, name: string): Segment {
    const trimmed = name.trim();
    if (trimmed === '')
      throw new ServiceError(ApiCode.BadRequest, 'a segment name is required', 'segment_name_required');
    if (trimmed.length > MAX_SEGMENT_NAME)
      throw new ServiceError(ApiCode.BadRequest, 'a segment name has 1 to 200 characters', 'segment_name_too_long');
    this.row(accountId, segmentId);
    this.db
      .prepare('UPDATE segments SET name = ?, updated_at = ? WHERE id = ?')
      .run(trimmed, this.clock.now(), segmentId);
    return this.get(accountId, segmentId);
  }

  delete(accountId: number, segmentId: number): void {
    this.row(accountId, segmentId);
    const job = this.db
      .prepare<[number], { id: number }>(
        "SELECT id FROM import_jobs WHERE segment_id = ? AND status IN ('queued', 'running')",
      )
      .get(segmentId);
    if (job) this.imports.cancel(accountId, job.id);
    this.db
      .prepare("UPDATE segments SET status = 'deleting', updated_at = ? WHERE id = ?")
      .run(this.clock.now(), segmentId);
    this.schedulePurge();
  }

  count(accountId: number, segmentId: number): number {
    const segment = this.row(accountId, segmentId);
    if (segment.status === 'ready') return segment.member_count;
    return (
      this.db
        .prepare<[number], number>('SELECT count(*) FROM segment_members WHERE segment_id = ?')
        .pluck()
        .get(segmentId) ?? 0
    );
  }

  /**
   * A ready segment's numbers (normalized, distinct) in one pass, for a send; 400 when the segment
   * is still importing or failed (`members()` is paged and ordered for display).
   */
  phones(accountId: number, segmentId: number): string[] {
    this.readySegment(accountId, segmentId);
    return this.db
      .prepare<[number], string>('SELECT phone FROM segment_members WHERE segment_id = ?')
      .pluck()
      .all(segmentId);
  }

  /**
   * A ready segment's numbers with their column values (FIELD_SEPARATOR-joined, as stored), read in
   * one statement so the two lists are the same members in the same order; for a personalized send.
   */
  /**
   * The members' numbers, stored values and rows in the file each was imported from (null: not
   * known, e.g. a member of a combined segment or of one made before rows were kept), in number order.
   */
  phonesWithFields(
    accountId: number,
    segmentId: number,
  ): { phones: string[]; fields: string[]; rows: Array<number | null> } {
    this.readySegment(accountId, segmentId);
    const phones: string[] = [];
    const fields: string[] = [];
    const rows: Array<number | null> = [];
    for (const [phone, values, row] of this.db
      .prepare<[number], [string, string, number | null]>(
        'SELECT phone, fields, source_row FROM segment_members WHERE segment_id = ?',
      )
      .raw()
      .iterate(segmentId)) {
      phones.push(phone);
      fields.push(values);
      rows.push(row);
    }
    return { phones, fields, rows };
  }

  /**
   * A page of members in number order, each with whether it is opted out. `offset` is the row's
   * position among all members (or among those `search` matches: a number in any digit form, or
   * a part of any column's value).
   */
  members(
    accountId: number,
    segmentId: number,
    { offset = 0, limit = 100, search }: { offset?: number; limit?: number; search?: string } = {},
  ): { total: number; members: Array<SegmentMember & { opted_out: boolean }> } {
    const segment = this.row(accountId, segmentId);
    const columns = JSON.parse(segment.columns) as string[];
    const take = Math.min(Math.max(Math.trunc(limit), 0), MAX_PAGE);
    const skip = Math.max(Math.trunc(offset), 0);
    const term = search?.trim() ?? '';
    let total: number;
    let rows: Array<{ phone: string; fields: string }>;
    if (term === '') {
      total = this.count(accountId, segmentId);
      rows = this.pageAt(segment, skip, take);
    } else {
      const digits = phoneSearchDigits(term);
      const fields = textMatch('fields', searchKey(term));
      const where =
        digits !== null
          ? `segment_id = ? AND (phone LIKE ? ESCAPE '\\' OR ${fields.sql})`
          : `segment_id = ? AND ${fields.sql}`;
      const params =
        digits !== null ? [segmentId, `%${escapeLike(digits)}%`, ...fields.params] : [segmentId, ...fields.params];
      total = this.db
        .prepare(`SELECT count(*) FROM segment_members WHERE ${where}`)
        .pluck()
        .get(...params) as number;
      rows = this.db
        .prepare(`SELECT phone, fields FROM segment_members WHERE ${where} ORDER BY phone LIMIT ? OFFSET ?`)
        .all(...params, take, skip) as Array<{ phone: string; fields: string }>;
    }
    const optedOut = new Set(
      rows.length === 0
        ? []
        : this.db
            .prepare<unknown[], string>(
              `SELECT phone FROM optouts WHERE account_id = ? AND phone IN (${rows.map(() => '?').join(',')})`,
            )
            .pluck()
            .all(accountId, ...rows.map((row) => row.phone)),
    );
    return {
      total,
      members: rows.map((row) => ({
        phone: row.phone,
        fields: decodeFields(row.fields, columns),
        opted_out: optedOut.has(row.phone),
      })),
    };
  }

  /** Members from position `skip`, through the segment's anchors (built once per version of it). */
  private pageAt(segment: SegmentRow, skip: number, take: number): Array<{ phone: string; fields: string }> {
    const slot = Math.floor(skip / ANCHOR_EVERY) - 1;
    const anchor = slot < 0 ? null : this.anchorAt(segment, slot);
    if (slot >= 0 && anchor === null) return [];
    return anchor === null
      ? this.db
          .prepare<[number, number, number], { phone: string; fields: string }>(
            'SELECT phone, fields FROM segment_members WHERE segment_id = ? ORDER BY phone LIMIT ? OFFSET ?',
          )
          .all(segment.id, take, skip)
      : this.db
          .prepare<[number, string, number, number], { phone: string; fields: string }>(
            'SELECT phone, fields FROM segment_members WHERE segment_id = ? AND phone >= ? ORDER BY phone LIMIT ? OFFSET ?',
          )
          .all(segment.id, anchor, take, skip - (slot + 1) * ANCHOR_EVERY);
  }

  /** Anchors of segments, each valid for one version of its segment (status, size, last change). */
  private readonly anchors = new Map<number, { version: string; phones: string[]; complete: boolean }>();

  /**
   * The member at position (slot + 1) * ANCHOR_EVERY (0-based), or null past the end. Anchors are
   * found as far as asked and kept: scrolling down extends them a little at a time, a jump to
   * the middle of a million reads half a million keys once (about 0.15 s), never again.
   */
  private anchorAt(segment: SegmentRow, slot: number): string | null {
    const version = contentVersion(segment);
    let cached = this.anchors.get(segment.id);
    if (!cached || cached.version !== version || segment.status !== 'ready') {
      if (this.anchors.size > 20) this.anchors.clear();
      cached = { version, phones: [], complete: false };
      this.anchors.set(segment.id, cached);
    }
    const { phones } = cached;
    if (slot >= phones.length && !cached.complete) {
      // Only the key is read (the primary key's B-tree), from the last anchor found.
      const after = phones.at(-1);
      const rows = (slot + 1 - phones.length) * ANCHOR_EVERY;
      let n = 0;
      for (const phone of after === undefined
        ? this.db
            .prepare<[number, number], string>(
              'SELECT phone FROM segment_members WHERE segment_id = ? ORDER BY phone LIMIT ?',
            )
            .pluck()
            .iterate(segment.id, rows + 1)
        : this.db
            .prepare<[number, string, number], string>(
              'SELECT phone FROM segment_members WHERE segment_id = ? AND phone > ? ORDER BY phone LIMIT ?',
            )
            .pluck()
            .iterate(segment.id, after, rows)) {
        // From the start, the first row is position 0 (no anchor); from an anchor, row n is n positions after it.
        if (after === undefined ? n > 0 && n % ANCHOR_EVERY === 0 : (n + 1) % ANCHOR_EVERY === 0) phones.push(phone);
        n++;
      }
      if (n < (after === undefined ? rows + 1 : rows)) cached.complete = true;
    }
    return phones[slot] ?? null;
  }

  union(
    accountId: number,
    input: { name: string; segmentIds: number[]; excludeOptOuts?: boolean },
    onProgress?: (progress: ImportProgress) => void,
  ): { jobId: number; segmentId: number } {
    return this.combine(
      accountId,
      { name: input.name, include: input.segmentIds, exclude: [], excludeOptOuts: input.excludeOptOuts },
      onProgress,
    );
  }

  difference(
    accountId: number,
    input: { name: string; from: number[]; minus: number[]; excludeOptOuts?: boolean },
    onProgress?: (progress: ImportProgress) => void,
  ): { jobId: number; segmentId: number } {
    return this.combine(
      accountId,
      { name: input.name, include: input.from, exclude: input.minus, excludeOptOuts: input.excludeOptOuts },
      onProgress,
    );
  }

  /** A new segment: union of `include`, minus the members of `exclude`, minus opt-outs (default). Columns: all of include's, by name. */
  combine(
    accountId: number,
    input: {
      name: string;
      include: number[];
      exclude: number[];
      excludeOptOuts?: boolean;
      /** Only the members meeting it, judged by the first of `include` that has the number. */
      filter?: AudienceFilter | null;
    },
    onProgress?: (progress: ImportProgress) => void,
  ): { jobId: number; segmentId: number } {
    const name = input.name.trim();
    if (name === '') throw new ServiceError(ApiCode.BadRequest, 'a segment name is required', 'segment_name_required');
    if (name.length > MAX_SEGMENT_NAME)
      throw new ServiceError(ApiCode.BadRequest, 'a segment name has 1 to 200 characters', 'segment_name_too_long');
    if (input.include.length === 0)
      throw new ServiceError(ApiCode.BadRequest, 'at least one segment to include', 'segment_include_required');
    if (input.include.length + input.exclude.length > MAX_SEGMENTS_IN_QUERY)
      throw new ServiceError(ApiCode.TooLarge, 'too many segments', 'too_many_segments');
    const columns: string[] = [];
    for (const id of [...new Set(input.include)]) {
      const segment = this.readySegment(accountId, id);
      for (const column of JSON.parse(segment.columns) as string[]) if (!columns.includes(column)) columns.push(column);
    }
    const filter = input.filter ?? null;
    if (filter) {
      const problem = filterProblem(filter.all, columns);
      if (problem) throw new ServiceError(ApiCode.BadRequest, problem.detail, problem.reason);
    }
    const names = (ids: number[]) => [...new Set(ids)].map((id) => this.readySegment(accountId, id).name);
    // "A ∪ B − C": how the Contacts page says where the members came from ("… | CITY = تهران" filtered).
    const label = [names(input.include).join(' ∪ '), ...names(input.exclude)].join(' − ');
    const filtered = filter === null ? label : `${label} | ${filterText(filter)}`;
    return this.imports.queueCombine(
      accountId,
      name,
      filtered,
      columns,
      {
        include: [...new Set(input.include)],
        exclude: [...new Set(input.exclude)],
        excludeOptOuts: input.excludeOptOuts ?? true,
        ...(filter === null ? {} : { filter }),
      },
      onProgress,
    );
  }

  /**
   * Distinct numbers in the union of `include`, not in any of `exclude`, not opted out (PRODUCT.md's
   * audience, audience.ts), each segment as an audience sees it; 400 when one cannot be read.
   */
  audienceCount(accountId: number, audience: AudienceQuery): number {
    if (audience.include.length === 0) return 0;
    const checked = this.checkAudience(accountId, audience);
    if (!checked.filter) return countAudience(this.db, checked);
    // A filtered count tests every member's fields (about a second a million): a scheduled
    // campaign's report asks it on every read, so it is kept until a segment or the opt-outs change.
    const cached = this.filteredCount(checked);
    if (cached.count !== null) return cached.count;
    const count = countAudience(this.db, checked);
    cached.keep(count);
    return count;
  }

  /** Filtered counts by audience, each valid for one version of its segments and opt-outs. */
  private readonly filteredCounts = new Map<string, { version: string; count: number }>();

  private filteredCount(audience: AudienceOf): { count: number | null; keep(count: number): void } {
    const key = JSON.stringify([audience.accountId, audience.include, audience.exclude, audience.filter]);
    const optouts = this.db
      .prepare<[number], { n: number; last: number | null }>(
        'SELECT count(*) AS n, max(created_at) AS last FROM optouts WHERE account_id = ?',
      )
      .get(audience.accountId)!;
    const version = [
      ...[...audience.include, ...audience.exclude].map((id) => this.version(audience.accountId, id)),
      `${optouts.n}:${optouts.last}`,
    ].join('|');
    const found = this.filteredCounts.get(key);
    return {
      count: found?.version === version ? found.count : null,
      keep: (count) => {
        if (this.filteredCounts.size >= 100) this.filteredCounts.delete(this.filteredCounts.keys().next().value!);
        this.filteredCounts.set(key, { version, count });
      },
    };
  }

  /**
   * audienceCount read by a reader thread (db/readers.ts): a filter over a million members is
   * tested there, never on the main thread. The pending imports it leaves out are those of the
   * moment it is asked (the freeze reads its own, in its transaction).
   */
  async audienceCountOffThread(accountId: number, audience: AudienceQuery): Promise<number> {
    if (audience.include.length === 0) return 0;
    const checked = this.checkAudience(accountId, audience);
    if (!this.readers) return this.audienceCount(accountId, audience);
    const cached = checked.filter ? this.filteredCount(checked) : null;
    if (cached?.count != null) return cached.count;
    const sql = this.db.transaction(() => countAudienceSql(this.db, checked))();
    const count = (await this.readers.get<{ n: number }>(sql.sql, sql.params as SqlParam[]))!.n;
    cached?.keep(count);
    return count;
  }

  /** The audience's segments readable and its filter usable on them (400 with the filter's reason). */
  private checkAudience(accountId: number, { include, exclude = [], filter = null }: AudienceQuery): AudienceOf {
    if (include.length + exclude.length > MAX_SEGMENTS_IN_QUERY)
      throw new ServiceError(ApiCode.TooLarge, 'too many segments', 'too_many_segments');
    const columns: string[] = [];
    for (const id of [...include, ...exclude]) {
      const segment = this.get(accountId, id);
      const view = audienceView(this.db, segment);
      if (view === null) throw segmentNotReady(id, segment.status);
      if (include.includes(id)) columns.push(...view.columns);
    }
    if (filter) {
      const problem = filterProblem(filter.all, columns);
      if (problem) throw new ServiceError(ApiCode.BadRequest, problem.detail, problem.reason);
    }
    return { include, exclude, accountId, filter };
  }

  /**
   * The columns of `segmentIds` (as an audience reads them), each with its most common values
   * folded (up to `top`, with how many members hold each) from the first `sample` members of each
   * segment, read by a reader thread: what the editor's filter offers to pick from.
   */
  async columnValues(
    accountId: number,
    segmentIds: readonly number[],
    options: { column?: string | undefined; top?: number; sample?: number } = {},
  ): Promise<ColumnValues[]> {
    const top = options.top ?? 20;
    const sample = options.sample ?? 100_000;
    const found = new Map<string, { column: string; counts: Map<string, number>; read: number }>();
    for (const id of [...new Set(segmentIds)]) {
      const segment = this.get(accountId, id);
      const view = audienceView(this.db, segment);
      if (view === null) continue;
      const wanted = view.columns
        .map((name, index) => ({ name, index }))
        .filter(({ name }) => options.column === undefined || foldValue(name) === foldValue(options.column));
      for (const { name } of wanted)
        if (!found.has(foldValue(name))) found.set(foldValue(name), { column: name, counts: new Map(), read: 0 });
      if (wanted.length === 0) continue;
      const sql = 'SELECT fields FROM segment_members WHERE segment_id = ? LIMIT ?';
      const rows = this.readers
        ? await this.readers.all<{ fields: string }>(sql, [id, sample])
        : this.db.prepare<[number, number], { fields: string }>(sql).all(id, sample);
      for (const { name, index } of wanted) {
        const entry = found.get(foldValue(name))!;
        entry.read += rows.length;
        for (const { fields } of rows) {
          const value = foldValue(fieldAt(fields, index));
          if (value !== '') entry.counts.set(value, (entry.counts.get(value) ?? 0) + 1);
        }
      }
    }
    return [...found.values()].map(({ column, counts, read }) => ({
      column,
      sampled: read,
      distinct: counts.size,
      values: [...counts.entries()]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, top)
        .map(([value, count]) => ({ value, count })),
    }));
  }

  exportCsv(
    accountId: number,
    segmentId: number,
    file: string,
    onProgress?: (rows: number, total: number) => void,
  ): Promise<{ rows: number }> {
    this.readySegment(accountId, segmentId);
    return this.imports.export({ kind: 'segment', format: 'csv', segmentId, file }, onProgress);
  }

  exportXlsx(
    accountId: number,
    segmentId: number,
    file: string,
    onProgress?: (rows: number, total: number) => void,
  ): Promise<{ rows: number }> {
    this.readySegment(accountId, segmentId);
    return this.imports.export({ kind: 'segment', format: 'xlsx', segmentId, file }, onProgress);
  }

  /** Something was marked for purging (a failed or cancelled job, a deletion). */
  schedulePurge(): void {
    this.purgeDue = true;
  }

  /** Removes members of failed / deleted segments in batches, then the rows of deleted segments. */
  purgeWorker(): Worker {
    return {
      name: 'segment-purge',
      nextDueAt: () => (this.purgeDue ? 0 : null),
      runDue: () => {
        // The scheduler's every round asks each worker: nothing marked, nothing to look for (these
        // lookups, asked a thousand times a second while messages are handed over, took 3% of it).
        if (!this.purgeDue) return false;
        if (this.undoAddedStep()) return true;
        const target = this.db
          .prepare<[], { id: number; status: SegmentStatus }>(
            `SELECT s.id, s.status FROM segments s
             WHERE s.status IN ('failed', 'deleting')
               AND NOT EXISTS (SELECT 1 FROM import_jobs j WHERE j.segment_id = s.id AND j.status IN ('queued', 'running'))
               AND (s.status = 'deleting' OR EXISTS (SELECT 1 FROM segment_members m WHERE m.segment_id = s.id))
             LIMIT 1`,
          )
          .get();
        if (!target) {
          this.purgeDue = false;
          return false;
        }
        this.db.transaction(() => {
          const removed = this.db
            .prepare(
              `DELETE FROM segment_members WHERE segment_id = ? AND phone IN
                 (SELECT phone FROM segment_members WHERE segment_id = ? LIMIT ${PURGE_BATCH})`,
            )
            .run(target.id, target.id).changes;
          if (removed === 0 && target.status === 'deleting')
            this.db.prepare('DELETE FROM segments WHERE id = ?').run(target.id);
        })();
        return true;
      },
    };
  }

  /**
   * One step of what imports into existing segments leave behind (import_added): a done one's
   * record is emptied; a failed or cancelled one's added rows are taken out of the segment, and
   * when none is left the segment gets its columns back and is 'ready' again, as it was before.
   * Returns false when there is nothing to do.
   */
  private undoAddedStep(): boolean {
    const job = this.db
      .prepare<[], { id: number; status: string; segment_id: number; spec: string; undo: number }>(
        // undo: the job failed or was cancelled, is the segment's last job, and the segment waits
        // for it ('importing' with no job open on it).
        `SELECT j.id, j.status, j.segment_id, j.spec,
           (j.status <> 'done' AND s.status = 'importing'
             AND j.id = (SELECT max(l.id) FROM import_jobs l WHERE l.segment_id = j.segment_id)
             AND NOT EXISTS (SELECT 1 FROM import_jobs o WHERE o.segment_id = s.id AND o.status IN ('queued', 'running')))
             AS undo
         FROM import_jobs j LEFT JOIN segments s ON s.id = j.segment_id
         WHERE j.target_segment_id IS NOT NULL AND j.status IN ('done', 'failed', 'cancelled')
           AND (EXISTS (SELECT 1 FROM import_added a WHERE a.job_id = j.id) OR undo)
         ORDER BY j.id LIMIT 1`,
      )
      .get();
    if (!job) return false;
    const undo = job.undo === 1;
    this.db.transaction(() => {
      const batch = `SELECT phone FROM import_added WHERE job_id = ? ORDER BY phone LIMIT ${PURGE_BATCH}`;
      if (undo)
        this.db
          .prepare(`DELETE FROM segment_members WHERE segment_id = ? AND phone IN (${batch})`)
          .run(job.segment_id, job.id);
      const removed = this.db
        .prepare(`DELETE FROM import_added WHERE job_id = ? AND phone IN (${batch})`)
        .run(job.id, job.id).changes;
      if (removed === 0 && undo) {
        const before = (JSON.parse(job.spec) as { columnsBefore?: string[] }).columnsBefore ?? [];
        this.db
          .prepare(
            "UPDATE segments SET status = 'ready', columns = ?, updated_at = ? WHERE id = ? AND status = 'importing'",
          )
          .run(JSON.stringify(before), this.clock.now(), job.segment_id);
      }
    })();
    return true;
  }

  private lookup(accountId: number, segmentId: number): SegmentRow | null {
    const row = Number.isInteger(segmentId) ? this.byId.get(segmentId) : undefined;
    return !row || row.account_id !== accountId || row.status === 'deleting' ? null : row;
  }

  private row(accountId: number, segmentId: number): SegmentRow {
    const row = this.lookup(accountId, segmentId);
    if (row === null) throw segmentNotFound(segmentId);
    return row;
  }

  private readySegment(accountId: number, segmentId: number): SegmentRow {
    const row = this.row(accountId, segmentId);
    if (row.status !== 'ready') throw segmentNotReady(segmentId, row.status);
    return row;
  }
}

/** What version() answers: the segment's status, last change and size. */
function contentVersion(segment: SegmentRow): string {
  return `${segment.status}:${segment.updated_at}:${segment.member_count}`;
}

/** The account has no segment by that id (deleted meanwhile, or another account's). */
export function segmentNotFound(segmentId: number): ServiceError {
  return new ServiceError(ApiCode.NotFound, `segment ${segmentId} not found`, 'segment_not_found');
}

/** A segment still importing (or whose import failed) cannot be used or added to yet. */
export function segmentNotReady(segmentId: number, status: string): ServiceError {
  return new ServiceError(ApiCode.BadRequest, `segment ${segmentId} is ${status}, not ready`, 'segment_not_ready');
}

function toSegment(row: SegmentRow): Segment {
  return {
    id: row.id,
    name: row.name,
    columns: JSON.parse(row.columns) as string[],
    member_count: row.member_count,
    status: row.status,
    source: { kind: row.source_kind ?? row.origin, label: row.source_label },
    created_at: row.created_at,
  };
}

// ---- A segment's row as its import jobs change it (imports.ts, writer.ts), in their transactions

/** A new segment an import, an upload or a combine fills: 'importing' until its job is done. */
export function insertImportingSegment(
  db: Db,
  accountId: number,
  name: string,
  columns: string[],
  origin: 'upload' | 'import' | 'combine',
  now: number,
  source: { kind: SegmentSourceKind; label: string | null } = { kind: origin, label: null },
): number {
  return Number(
    db
      .prepare(
        `INSERT INTO segments (account_id, name, columns, status, origin, source_kind, source_label, created_at, updated_at)
         VALUES (?, ?, ?, 'importing', ?, ?, ?, ?, ?)`,
      )
      .run(accountId, name, JSON.stringify(columns), origin, source.kind, source.label, now, now).lastInsertRowid,
  );
}

/**
 * A ready segment an import adds rows to: 'importing' meanwhile, its columns gaining the import's
 * new names (after its own). Its columns before and after; 404 or 400 when it cannot be added to.
 */
export function openForAdding(
  db: Db,
  accountId: number,
  segmentId: number,
  columns: readonly string[],
  now: number,
): { before: string[]; merged: string[] } {
  const target = db
    .prepare<[number], { account_id: number; status: string; columns: string }>(
      'SELECT account_id, status, columns FROM segments WHERE id = ?',
    )
    .get(segmentId);
  if (!target || target.account_id !== accountId || target.status === 'deleting') throw segmentNotFound(segmentId);
  if (target.status !== 'ready') throw segmentNotReady(segmentId, target.status);
  const before = JSON.parse(target.columns) as string[];
  const merged = [...before, ...columns.filter((name) => !before.includes(name))];
  db.prepare("UPDATE segments SET status = 'importing', columns = ?, updated_at = ? WHERE id = ?").run(
    JSON.stringify(merged),
    now,
    segmentId,
  );
  return { before, merged };
}

/** The segment of a job that ended (writer.ts finishJob), in the job's last transaction. */
export function endImport(
  db: Db,
  job: Pick<JobRow, 'segment_id' | 'target_segment_id' | 'upload_id'>,
  status: 'done' | 'failed' | 'cancelled',
  error: string | null,
  members: number,
  now: number,
): void {
  if (job.segment_id !== null && job.target_segment_id !== null) {
    // Rows added to an existing segment: done, it counts them; failed or cancelled, it stays
    // 'importing' until the purge worker has taken out the rows this job added and restored its
    // columns (Segments.purgeWorker), so it is never seen half-restored.
    if (status === 'done')
      db.prepare(
        "UPDATE segments SET status = 'ready', member_count = member_count + ?, error = NULL, updated_at = ? WHERE id = ? AND status = 'importing'",
      ).run(members, now, job.segment_id);
  } else if (job.segment_id !== null) {
    if (status === 'done')
      db.prepare(
        "UPDATE segments SET status = 'ready', member_count = ?, error = NULL, updated_at = ? WHERE id = ?",
      ).run(members, now, job.segment_id);
    else
      // An upload's segment stays, 'failed' (its status record names it); an import's is removed.
      db.prepare(
        "UPDATE segments SET status = ?, member_count = 0, error = ?, updated_at = ? WHERE id = ? AND status <> 'deleting'",
      ).run(job.upload_id !== null ? 'failed' : 'deleting', error, now, job.segment_id);
  }
}
