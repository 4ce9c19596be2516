// A campaign audience's column filter (shared/audience-filter.ts) as its readers evaluate it:
// compiled once per set of segments (each condition's column found in each segment's header,
// folded), then tested on a member's stored fields. SQL reaches it through
// chapar_audience_filter(chapar_filter_spec(spec), segment_id, fields) (filterCall), registered on
// the writer's connection and the reader threads'; `spec` is filterSpec's JSON, compiled once per
// connection's thread and evaluated once per statement.
//
// A member whose segment lacks a condition's column does not match. A number in several
// inclusion segments is judged by the fields its message would use: those of the first inclusion
// segment in the draft's order that has it (audience.ts, the rank of the freeze).
//
// Kept to shared/column-values.ts and fields.ts: the reader thread imports this module at boot.
import type Database from 'better-sqlite3';
import type { AudienceFilter } from '../../../shared/audience-filter';
import { conditionMatcher, foldValue } from '../../../shared/column-values';
import { FIELD_SEPARATOR } from './fields';

export const FILTER_FUNCTION = 'chapar_audience_filter';
export const SPEC_FUNCTION = 'chapar_filter_spec';

/** The filter and the columns of each segment it is tested on, as SQL passes it. */
export interface FilterSpec {
  filter: AudienceFilter;
  /** By segment id: its columns as the audience reads them (audienceView). */
  columns: Record<string, readonly string[]>;
}

export type MemberTest = (segmentId: number, fields: string) => boolean;

/** Where `column` sits among `columns` (names compared folded); -1 when it is not there. */
export function columnIndex(columns: readonly string[], column: string): number {
  const wanted = foldValue(column);
  return columns.findIndex((name) => foldValue(name) === wanted);
}

/** The i-th value of a member's fields ('' past the end). */
export function fieldAt(fields: string, index: number): string {
  let start = 0;
  for (let k = 0; k < index; k++) {
    const at = fields.indexOf(FIELD_SEPARATOR, start);
    if (at < 0) return '';
    start = at + 1;
  }
  const end = fields.indexOf(FIELD_SEPARATOR, start);
  return end < 0 ? fields.slice(start) : fields.slice(start, end);
}

/** The filter's test of a member of any of `columns`' segments; members of other segments do not match. */
export function compileFilter(spec: FilterSpec): MemberTest {
  const matchers = spec.filter.all.map((condition) => ({
    column: condition.column,
    test: conditionMatcher(condition),
  }));
  const bySegment = new Map<number, Array<{ index: number; test: (cell: string) => boolean }> | null>();
  for (const [id, columns] of Object.entries(spec.columns)) {
    const tests = matchers.map(({ column, test }) => ({ index: columnIndex(columns, column), test }));
    bySegment.set(Number(id), tests.some((t) => t.index < 0) ? null : tests);
  }
  return (segmentId, fields) => {
    const tests = bySegment.get(segmentId);
    if (!tests) return false;
    for (const { index, test } of tests) if (!test(fieldAt(fields, index))) return false;
    return true;
  };
}

/** Compiled specs by their key, and the keys by the specs' text (this thread's). */
const tests = new Map<number, MemberTest>();
const keys = new Map<string, number>();
let nextKey = 1;
/** Specs kept: far more than the statements running at once on a thread. */
const KEPT = 256;

function keyOf(text: string): number {
  let key = keys.get(text);
  if (key === undefined) {
    if (keys.size >= KEPT) {
      const [oldText, oldKey] = keys.entries().next().value!;
      keys.delete(oldText);
      tests.delete(oldKey);
    }
    key = nextKey++;
    tests.set(key, compileFilter(JSON.parse(text) as FilterSpec));
    keys.set(text, key);
  }
  return key;
}

/**
 * Registers on a connection chapar_filter_spec(spec) → the compiled spec's key, and
 * chapar_audience_filter(key, segment_id, fields) → 1 or 0. Both are deterministic, so SQLite
 * evaluates chapar_filter_spec(?) of a statement once, not per row: a row passes only an integer
 * and its fields (the spec's text converted for every row cost a quarter of a million-row count).
 */
export function registerFilterFunction(db: Database.Database): void {
  db.function(SPEC_FUNCTION, { deterministic: true }, (text: unknown) => keyOf(String(text)));
  let lastKey = 0;
  let lastTest: MemberTest | undefined;
  db.function(FILTER_FUNCTION, { deterministic: true }, (key: unknown, segmentId: unknown, fields: unknown) => {
    if (key !== lastKey || lastTest === undefined) {
      lastTest = tests.get(Number(key));
      if (lastTest === undefined) throw new Error(`audience filter ${String(key)} is not compiled on this connection`);
      lastKey = Number(key);
    }
    return lastTest(Number(segmentId), typeof fields === 'string' ? fields : '') ? 1 : 0;
  });
}

/** The SQL test of a member `alias` (segment_id, fields) against the spec bound as its one parameter. */
export function filterCall(alias: string): string {
  return `${FILTER_FUNCTION}(${SPEC_FUNCTION}(?), ${alias}.segment_id, ${alias}.fields)`;
}
