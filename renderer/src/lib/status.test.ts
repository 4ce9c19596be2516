// The lifecycle table drives the renderer: a status added to shared/lifecycle.ts without its
// labels, colour, place in the Messages filter or merge order fails here (and the English labels
// are typed by the table's names, so it fails typecheck first).
import { describe, expect, it } from 'vitest';
import { LIFECYCLE, STORED_STATUSES, stageOf, type MessageStatus } from '../../../shared/lifecycle';
import { ALL_STATUSES, STORED_STATUSES as FILTER_STATUSES, statusColor, statusLabel } from './status';
import { newerStatus } from '../stores/status-merge';

const statuses = Object.keys(LIFECYCLE).map(Number) as MessageStatus[];

describe('statuses in the UI', () => {
  it('every status of the lifecycle has an English and a Persian label and a colour', () => {
    expect([...ALL_STATUSES].sort((a, b) => a - b)).toEqual([...statuses].sort((a, b) => a - b));
    for (const status of statuses) {
      expect(statusLabel(status, 'en')).not.toBe(String(status));
      expect(statusLabel(status, 'en')).not.toBe('');
      expect(statusLabel(status, 'fa')).toBe(LIFECYCLE[status].text);
      expect(statusColor(status)).toMatch(/^[a-z]+$/);
    }
    // Labels tell statuses apart.
    expect(new Set(statuses.map((s) => statusLabel(s, 'en'))).size).toBe(statuses.length);
  });

  it('every stored status is offered by the Messages filter, in the lifecycle order', () => {
    expect(FILTER_STATUSES).toEqual(STORED_STATUSES);
    for (const status of statuses) expect(FILTER_STATUSES.includes(status)).toBe(LIFECYCLE[status].stored);
  });

  it('a push and a read of one message merge to the status further along the lifecycle', () => {
    for (const from of STORED_STATUSES)
      for (const move of LIFECYCLE[from].moves) {
        expect(stageOf(move.to)).toBeGreaterThan(stageOf(from));
        expect(newerStatus(from, move.to)).toBe(move.to);
        expect(newerStatus(move.to, from)).toBe(move.to);
      }
  });
});
