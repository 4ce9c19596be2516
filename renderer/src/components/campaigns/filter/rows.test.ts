import { describe, expect, it } from 'vitest';
import { conditionOf, filterOf, newRow, rowsOf, sameFilter } from './rows';

describe('the editor condition rows', () => {
  it('become conditions only once complete', () => {
    expect(conditionOf(newRow())).toBeNull();
    expect(conditionOf({ ...newRow('CITY'), value: '  ' })).toBeNull();
    expect(conditionOf({ ...newRow('CITY'), value: 'تهران' })).toEqual({
      column: 'CITY',
      op: 'equals',
      value: 'تهران',
    });
    expect(conditionOf({ ...newRow('CITY'), op: 'in', values: [] })).toBeNull();
    expect(conditionOf({ ...newRow('CITY'), op: 'in', values: ['کرج', ' '] })).toEqual({
      column: 'CITY',
      op: 'in',
      values: ['کرج'],
    });
    expect(conditionOf({ ...newRow('AGE'), op: 'between', from: '', to: null })).toBeNull();
    expect(conditionOf({ ...newRow('AGE'), op: 'between', from: ' ۲۰ ', to: '' })).toEqual({
      column: 'AGE',
      op: 'between',
      kind: 'number',
      from: '۲۰',
      to: null,
    });
  });

  it('write the complete ones as the filter, and a filter reads back as rows', () => {
    const rows = [
      { ...newRow('CITY'), value: 'تهران' },
      newRow('AGE'),
      { ...newRow('JOINED'), op: 'between' as const, kind: 'date' as const, from: '2025-03-21', to: null },
    ];
    const filter = filterOf(rows);
    expect(filter).toEqual({
      all: [
        { column: 'CITY', op: 'equals', value: 'تهران' },
        { column: 'JOINED', op: 'between', kind: 'date', from: '2025-03-21', to: null },
      ],
    });
    expect(filterOf([newRow('AGE')])).toBeNull();
    const back = rowsOf(filter);
    expect(back.map((row) => [row.column, row.op])).toEqual([
      ['CITY', 'equals'],
      ['JOINED', 'between'],
    ]);
    expect(sameFilter(filterOf(back), filter)).toBe(true);
    expect(new Set(back.map((row) => row.key)).size).toBe(2);
  });

  it('leave out what the editor does not offer (a date trigger is the series’ own)', () => {
    expect(rowsOf({ all: [{ column: 'BIRTHDAY', op: 'anniversary', on: '2025-08-03' }] })).toEqual([]);
  });
});
