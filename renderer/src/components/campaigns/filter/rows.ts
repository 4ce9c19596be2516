// The editor's condition rows: what the user is still filling in (a column not picked yet, a list
// still empty) next to the filter the draft holds. Only complete rows become conditions; the draft
// keeps those, and a draft opened again shows them as rows.
import {
  AudienceFilter,
  ColumnCondition,
  EDITOR_FILTER_OPS,
  type AudienceFilter as Filter,
} from '../../../../../shared/audience-filter';

export type EditorOp = (typeof EDITOR_FILTER_OPS)[number];
export type BetweenKind = 'number' | 'date';

export interface FilterRow {
  /** A key for React, stable while the row lives. */
  key: number;
  column: string | null;
  op: EditorOp;
  /** equals, contains. */
  value: string;
  /** in. */
  values: string[];
  /** between. */
  kind: BetweenKind;
  from: string | null;
  to: string | null;
}

/** The most conditions a filter holds (AudienceFilter's limit). */
export const MAX_CONDITIONS = 10;

let keys = 0;

export function newRow(column: string | null = null): FilterRow {
  return { key: ++keys, column, op: 'equals', value: '', values: [], kind: 'number', from: null, to: null };
}

const blank = (text: string | null) => text === null || text.trim() === '';

/** The row as a condition, or null while it is not complete. */
export function conditionOf(row: FilterRow): ColumnCondition | null {
  if (row.column === null || row.column.trim() === '') return null;
  const column = row.column;
  let condition: unknown;
  switch (row.op) {
    case 'equals':
    case 'contains':
      if (blank(row.value)) return null;
      condition = { column, op: row.op, value: row.value };
      break;
    case 'in': {
      const values = row.values.filter((v) => !blank(v));
      if (values.length === 0) return null;
      condition = { column, op: 'in', values };
      break;
    }
    case 'between':
      if (blank(row.from) && blank(row.to)) return null;
      condition = {
        column,
        op: 'between',
        kind: row.kind,
        from: blank(row.from) ? null : row.from!.trim(),
        to: blank(row.to) ? null : row.to!.trim(),
      };
      break;
  }
  const parsed = ColumnCondition.safeParse(condition);
  return parsed.success ? parsed.data : null;
}

/** The draft's filter made of the complete rows (null: none complete). */
export function filterOf(rows: readonly FilterRow[]): Filter | null {
  const all = rows.map(conditionOf).filter((c): c is ColumnCondition => c !== null);
  if (all.length === 0) return null;
  const parsed = AudienceFilter.safeParse({ all: all.slice(0, MAX_CONDITIONS) });
  return parsed.success ? parsed.data : null;
}

/** A draft's filter as rows (conditions the editor does not offer are left to the core). */
export function rowsOf(filter: Filter | null | undefined): FilterRow[] {
  if (!filter) return [];
  return filter.all.flatMap((condition): FilterRow[] => {
    const row = newRow(condition.column);
    switch (condition.op) {
      case 'equals':
      case 'contains':
        return [{ ...row, op: condition.op, value: condition.value }];
      case 'in':
        return [{ ...row, op: 'in', values: [...condition.values] }];
      case 'between':
        return [{ ...row, op: 'between', kind: condition.kind, from: condition.from, to: condition.to }];
      case 'anniversary':
        return [];
    }
  });
}

/** Whether two filters say the same (the draft need not be written again). */
export function sameFilter(a: Filter | null | undefined, b: Filter | null | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
