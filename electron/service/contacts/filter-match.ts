// A campaign audience's column filter (shared/audience-filter.ts) as its readers evaluate it:
// compiled once per set of segments (each condition's column found in each segment's header,
// folded), then tested on a member's stored fields. SQL reaches it through the function
// chapar_audience_filter(spec, segment_id, fields), registered on every connection (the writer's,
// the import worker's and the reader threads'); `spec` is filterSpec's JSON, the same text for
// every row of a statement, so it is compiled once.
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

/** Compiled specs by their text: a statement passes the same text for every row. */
const compiled = new Map<string, MemberTest>();

function compiledSpec(text: string): MemberTest {
  let test = compiled.get(text);
  if (test === undefined) {
    if (compiled.size >= 16) compiled.delete(compiled.keys().next().value!);
    test = compileFilter(JSON.parse(text) as FilterSpec);
    compiled.set(text, test);
  }
  return test;
}

/** Registers chapar_audience_filter(spec, segment_id, fields) → 1 or 0 on a connection. */
export function registerFilterFunction(db: Database.Database): void {
  let lastText = '';
  let lastTest: MemberTest | null = null;
  db.function(FILTER_FUNCTION, { deterministic: true }, (text: unknown, segmentId: unknown, fields: unknown) => {
    if (text !== lastText || lastTest === null) {
      lastTest = compiledSpec(String(text));
      lastText = String(text);
    }
    return lastTest(Number(segmentId), typeof fields === 'string' ? fields : '') ? 1 : 0;
  });
}
