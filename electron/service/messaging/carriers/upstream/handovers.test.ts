// The hand-over's records on a real database: messages first handed over wait as runs of ids and
// write no row until their call is answered; a call is one row while in flight; what a crash
// leaves in flight becomes unknown rows with the local ids the call sent; an answer writes a row
// once for a new message and moves the row of one sent again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, type Db } from '../../../db/database';
import { Handovers, type CallMember } from './handovers';
import { tempDir } from '../../../../../test/helpers/server';

let dir: string;
let db: Db;
let handovers: Handovers;

beforeEach(() => {
  dir = tempDir();
  db = openDatabase({ file: path.join(dir, 'chapar.db') });
  handovers = new Handovers(db);
});

afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const LINE = 7;
const OTHER = 8;
const rows = () => db.prepare('SELECT COUNT(*) FROM upstream_handovers').pluck().get();

describe('hand-over records', () => {
  it('messages wait as runs of consecutive ids per line, taken in the order they came', () => {
    handovers.addWaiting(
      [
        { id: 10, account_id: 1, line_id: LINE },
        { id: 11, account_id: 1, line_id: LINE },
        { id: 12, account_id: 1, line_id: OTHER },
        { id: 13, account_id: 1, line_id: LINE },
        { id: 14, account_id: 1, line_id: LINE },
        { id: 20, account_id: 1, line_id: LINE },
      ],
      1_000,
    );
    expect(db.prepare('SELECT COUNT(*) FROM upstream_waiting').pluck().get()).toBe(4);
    expect(rows()).toBe(0);
    expect(handovers.counts(LINE).get('waiting')).toBe(5);
    expect(handovers.inFlight(LINE)).toBe(5);
    expect(handovers.nextWaiting(LINE)).toBe(1_000);
    const first = handovers.peekWaiting(LINE, 3);
    expect(first.map((m) => m.id)).toEqual([10, 11, 13]);
    // Peeking takes nothing.
    expect(handovers.peekWaiting(LINE, 3).map((m) => m.id)).toEqual([10, 11, 13]);
    handovers.takeWaiting(LINE, 13);
    expect(handovers.peekWaiting(LINE, 10).map((m) => m.id)).toEqual([14, 20]);
    expect(handovers.peekWaiting(OTHER, 10).map((m) => m.id)).toEqual([12]);
    handovers.takeWaiting(LINE, 20);
    expect(handovers.nextWaiting(LINE)).toBeNull();
    expect(handovers.counts(LINE).get('waiting')).toBeUndefined();
  });

  it('a call is one row while in flight; one a crash left behind turns into unknown rows with its local ids', () => {
    const members: CallMember[] = [
      [10, 5_000_001, 1, 900],
      [11, 5_000_002, 1, 900],
    ];
    const call = handovers.startCall(LINE, 1_000, members);
    expect(handovers.counts(LINE).get('handing_over')).toBe(2);
    expect(handovers.inFlight(LINE)).toBe(2);
    expect(rows()).toBe(0);
    handovers.startCall(LINE, 1_100, [[12, 5_000_003, 1, 950]]);
    handovers.endCall(call);
    expect(handovers.counts(LINE).get('handing_over')).toBe(1);
    handovers.startCall(LINE, 1_200, members);
    handovers.recoverCalls(2_000);
    expect(db.prepare('SELECT COUNT(*) FROM upstream_calls').pluck().get()).toBe(0);
    expect(handovers.get(12)).toMatchObject({ state: 'unknown', local_id: 5_000_003, handed_at: 950, due_at: 2_000 });
    expect(handovers.get(10)).toMatchObject({ state: 'unknown', local_id: 5_000_001, line_id: LINE, account_id: 1 });
  });

  it('keeps the highest local id given, never lowering it', () => {
    expect(handovers.lastLocalId()).toBe(0);
    handovers.setLastLocalId(5_000_003);
    expect(handovers.lastLocalId()).toBe(5_000_003);
    // A late writer with an older value (none should be) cannot take it back.
    handovers.setLastLocalId(5_000_001);
    expect(handovers.lastLocalId()).toBe(5_000_003);
    expect(db.prepare('SELECT COUNT(*) FROM upstream_local_ids').pluck().get()).toBe(1);
  });

  it("an answer writes a new message's row once, and moves the row of one sent again", () => {
    handovers.materialize(LINE, [[11, 5_000_002, 1, 900]], 'waiting', 1_000, 1_000, 'sent again');
    handovers.moveAll([11], 'handing_over', 1_100, null, { attempt: true });
    handovers.acceptedAll(
      LINE,
      [
        [10, '777001', 1_100, 5_000_001, 1, 900],
        [11, '777002', null, 5_000_002, 1, 900],
      ],
      2_000,
      500,
    );
    expect(handovers.get(10)).toMatchObject({
      state: 'accepted',
      upstream_id: '777001',
      cost_rials: 1_100,
      local_id: 5_000_001,
      attempts: 1,
      due_at: 2_500,
      accepted_at: 2_000,
    });
    expect(handovers.get(11)).toMatchObject({ state: 'accepted', upstream_id: '777002', attempts: 2, detail: null });
    expect(handovers.counts(LINE).get('accepted')).toBe(2);
  });

  it('writes every row of a large answer, whatever its size (statements of many rows, and the rest)', () => {
    for (const size of [1, 19, 20, 21, 200, 241, 900]) {
      const first = size * 10_000;
      const records = Array.from(
        { length: size },
        (_, i) => [first + i, String(first + i), i % 2 === 0 ? 1_100 : null, 9_000_000 + first + i, 1, 900] as const,
      );
      handovers.acceptedAll(LINE, records, 2_000, 500);
      const written = db
        .prepare<
          [number, number],
          { message_id: number; upstream_id: string; cost_rials: number | null; local_id: number }
        >(
          'SELECT message_id, upstream_id, cost_rials, local_id FROM upstream_handovers WHERE message_id BETWEEN ? AND ? ORDER BY message_id',
        )
        .all(first, first + size);
      expect(written, `${size}`).toEqual(
        records.map(([id, upstream, cost, local]) => ({
          message_id: id,
          upstream_id: upstream,
          cost_rials: cost,
          local_id: local,
        })),
      );
    }
  });

  it('reports kept before their answer are taken once, and forgotten with their messages', () => {
    handovers.keepEarlyReport(LINE, 5, 105, 10, 1_000);
    handovers.keepEarlyReport(LINE, 6, 106, null, 1_000);
    // A report of an id the line never sends: kept too, until retention forgets that range.
    handovers.keepEarlyReport(LINE, 900, 1900, 10, 1_000);
    expect(handovers.takeEarlyReports([5, 7])).toEqual([{ message_id: 5, local_id: 105, status: 10 }]);
    expect(handovers.takeEarlyReports([5])).toEqual([]);
    handovers.forget(1, 1_000);
    expect(db.prepare('SELECT COUNT(*) FROM upstream_early_reports').pluck().get()).toBe(0);
  });
});
