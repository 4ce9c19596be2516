// The maintained message counts (messaging/counts.ts), message states and sources
// (message-states.ts) and send tallies (migration 0024) against full scans of the messages and sends:
// what the counts and housekeeping tests compare after every step.
import { expect } from 'vitest';
import type { Db } from '../../electron/service/db/database';
import { STATES_FILL } from '../../electron/service/messaging/message-states';

const SCAN_SLOTS = `SELECT m.account_id, m.created_at / 900000 AS slot, m.status, s.sender, s.origin, COUNT(*) AS n,
    SUM(m.cost_rials) AS cost_rials,
    SUM(COALESCE((SELECT l.amount_rials FROM credit_ledger l WHERE l.kind = 'refund' AND l.message_id = m.id), 0)) AS refunded_rials
  FROM messages m JOIN sends s ON s.id = m.send_id
  GROUP BY m.account_id, slot, m.status, s.sender, s.origin ORDER BY 1, 2, 3, 4, 5`;
export const KEPT_SLOTS = `SELECT account_id, slot, status, sender, origin, n, cost_rials, refunded_rials
  FROM message_counts ORDER BY 1, 2, 3, 4, 5`;
const SCAN_TOTALS = `SELECT account_id, status, sender, origin, SUM(n) AS n, SUM(cost_rials) AS cost_rials,
    SUM(refunded_rials) AS refunded_rials FROM (${SCAN_SLOTS}) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;
const KEPT_TOTALS = `SELECT account_id, status, sender, origin, n, cost_rials, refunded_rials
  FROM message_totals ORDER BY 1, 2, 3, 4`;

const STATES = 'SELECT chunk, hex(states) AS states FROM message_states ORDER BY chunk';
const SOURCES = 'SELECT chunk, hex(sources) AS sources FROM message_sources ORDER BY chunk';

const SCAN_SEND_TALLIES = `SELECT account_id, count(*) AS sends FROM sends WHERE origin <> 'campaign'
  GROUP BY account_id ORDER BY account_id`;
const KEPT_SEND_TALLIES = 'SELECT account_id, sends FROM send_tallies ORDER BY account_id';

export function expectAggregatesEqualScan(db: Db): void {
  expect(db.prepare(KEPT_SLOTS).all()).toEqual(db.prepare(SCAN_SLOTS).all());
  expect(db.prepare(KEPT_TOTALS).all()).toEqual(db.prepare(SCAN_TOTALS).all());
  expectStatesEqualScan(db);
  expect(db.prepare(KEPT_SEND_TALLIES).all()).toEqual(db.prepare(SCAN_SEND_TALLIES).all());
}

export function expectStatesEqualScan(db: Db): void {
  // The states and sources byte for byte as the fill makes them from the messages (with the
  // sources' codes the workspace has), filled in a savepoint that is rolled back.
  const kept = { states: db.prepare(STATES).all(), sources: db.prepare(SOURCES).all() };
  db.exec('SAVEPOINT states_scan');
  try {
    db.exec(STATES_FILL);
    expect(kept).toEqual({ states: db.prepare(STATES).all(), sources: db.prepare(SOURCES).all() });
  } finally {
    db.exec('ROLLBACK TO states_scan; RELEASE states_scan');
  }
}
