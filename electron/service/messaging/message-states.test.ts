// The message states (message-states.ts, migration 0023) answer every status lookup exactly as the
// messages themselves do: across row boundaries (2,000 ids), after moves, cancels, retention and a
// restore (nothing stale kept in memory), for accounts whose id does not fit the account byte, and
// in a workspace upgraded with messages, while the fill worker writes their rows.
import { expectStatesEqualScan } from '../../../test/helpers/counts';
import { describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { createBackup, restoreBackup } from '../workspace/backup';
import { MessageStatus } from '../../../shared/lifecycle';
import { STATES_TO_FILL } from '../db/migrations/0023-message-states';
import { MessageStates, STATES_CHUNK } from './message-states';

const cores = testCores();

/** A core with acme and other; `firstAccountId` moves their ids (300: outside the account byte). */
function makeCore(firstAccountId?: number) {
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 8, 7, 0));
  const dataDir = tempDir();
  const core = cores.open({ dataDir, clock, seed: false });
  if (firstAccountId !== undefined)
    core.db
      .prepare("INSERT INTO accounts (id, name, active, created_at) VALUES (?, 'placeholder', 0, 0)")
      .run(firstAccountId - 1);
  applySeed(core, testSeed());
  const acme = core.accounts.findByName('acme')!;
  const other = core.accounts.findByName('other')!;
  core.credit.adjust(acme.id, 10_000_000_000, 'test');
  core.credit.adjust(other.id, 10_000_000_000, 'test');
  return { core, clock, dataDir, acme, other };
}

function send(core: Core, accountId: number, sender: string, n: number, from: number, dueAt?: number): number {
  return core.messaging.accept.accept({
    accountId,
    origin: 'api-v2',
    sender,
    text: 'Your order has shipped',
    receivers: Array.from({ length: n }, (_, i) => '0912' + String(from + i).padStart(7, '0')),
    rule: 'strict',
    dueAt,
  }).firstMessageId;
}

/** What a lookup must answer: the account's messages among the ids, read from their rows. */
function scanned(core: Core, accountId: number, ids: number[]): Map<number, number> {
  const rows = core.db
    .prepare('SELECT id, status FROM messages WHERE account_id = ? AND id IN (SELECT value FROM json_each(?))')
    .all(accountId, JSON.stringify(ids)) as Array<{ id: number; status: number }>;
  return new Map(rows.map((r) => [r.id, r.status]));
}

function expectLookupsEqualScan(core: Core, accountIds: number[], ids: number[], filled = true): void {
  // The core's (every row in memory once read) and one that keeps only the first row in memory.
  const small = new MessageStates(core.db, 1);
  for (const accountId of accountIds) {
    expect(core.messaging.states.lookup(accountId, ids)).toEqual(scanned(core, accountId, ids));
    expect(small.lookup(accountId, ids)).toEqual(scanned(core, accountId, ids));
  }
  if (filled) expectStatesEqualScan(core.db);
}

const fillRow = (core: Core) => core.db.prepare('SELECT next_chunk, end_chunk FROM message_states_fill').all();
const chunks = (core: Core) =>
  (core.db.prepare('SELECT chunk FROM message_states ORDER BY chunk').pluck().all() as number[]).join(',');

/** Every id up to a little past the last message, with the rows' edges and ids no message has. */
function everyId(core: Core): number[] {
  const last = (core.db.prepare('SELECT MAX(id) AS id FROM messages').get() as { id: number }).id;
  return [...Array.from({ length: last + 50 }, (_, i) => i + 1), STATES_CHUNK * 40, 2 ** 40];
}

describe('message states', () => {
  for (const firstAccountId of [undefined, 300])
    it(`answer lookups as the messages do across rows, after moves and cancels (accounts ${firstAccountId ?? 'from 1'})`, async () => {
      const { core, clock, acme, other } = makeCore(firstAccountId);
      const first = send(core, acme.id, '30001111', 4_500, 0);
      expect(first).toBe(1);
      send(core, other.id, '30009999', 30, 0);
      // Scheduled for later: 2 while the rest move on.
      send(core, acme.id, '30001111', 40, 5_000, clock.now() + 3_600_000);
      expectLookupsEqualScan(core, [acme.id, other.id], everyId(core));

      // Lookups keep the rows they read; the moves below must not be answered from them.
      const edges = [1, 1999, 2000, 2001, 3999, 4000, 4001, 4500, 4501, 4530, 4531, 4570, 4571];
      expect(core.messaging.statusLookup.lookup(acme.id, edges).map((e) => e.status)).toEqual([
        1, 1, 1, 1, 1, 1, 1, 1, 100, 100, 2, 2, 100,
      ]);
      core.messaging.lifecycle.cancel(acme.id, [1999, 2000, 4001, 4531, 4530]);
      expect(core.messaging.statusLookup.lookup(acme.id, [1999, 2000, 4001, 4531, 4530]).map((e) => e.status)).toEqual([
        13, 13, 13, 13, 100,
      ]);
      clock.advance(60_000);
      await core.scheduler.drain();
      clock.advance(3_600_000);
      await core.scheduler.drain();
      const statuses = core.db.prepare('SELECT COUNT(DISTINCT status) AS n FROM messages').get() as { n: number };
      expect(statuses.n).toBeGreaterThanOrEqual(4);
      expectLookupsEqualScan(core, [acme.id, other.id], everyId(core));
    });

  it('forget what retention removes, and read the restored database after a restore', async () => {
    const { core, clock, acme } = makeCore();
    send(core, acme.id, '30001111', 2_500, 0);
    clock.advance(3_600_000);
    await core.scheduler.drain();
    const backup = await createBackup(core);
    const before = core.messaging.statusLookup.lookup(acme.id, [1, 2000, 2500]);
    expect(before.map((e) => e.status)).not.toContain(MessageStatus.UnknownId);

    // Removed as retention removes a range: forgotten in the same transaction.
    core.db.transaction(() => {
      core.messaging.counts.forgetMessages(1, 2100);
      core.messaging.states.forget(1, 2100);
      core.db.prepare('DELETE FROM messages WHERE id BETWEEN 1 AND 2100').run();
    })();
    expect(core.messaging.statusLookup.lookup(acme.id, [1, 2000, 2500]).map((e) => e.status)).toEqual([
      100,
      100,
      before[2]!.status,
    ]);
    expectLookupsEqualScan(core, [acme.id], everyId(core));
    expect(core.db.prepare('SELECT chunk FROM message_states').all()).toEqual([{ chunk: 1 }]);

    await restoreBackup(core, backup.path);
    expect(core.messaging.statusLookup.lookup(acme.id, [1, 2000, 2500])).toEqual(before);
    expectLookupsEqualScan(core, [acme.id], everyId(core));
  });

  it('are filled in the background after an upgrade, lookups reading the messages until then', async () => {
    const made = makeCore();
    const { clock, acme, other } = made;
    // Nine chunks (ids 1-17,070): the worker fills two per step, so it takes five.
    send(made.core, acme.id, '30001111', 17_000, 0);
    send(made.core, other.id, '30009999', 30, 0);
    send(made.core, acme.id, '30001111', 40, 20_000, clock.now() + 3_600_000);
    clock.advance(60_000);
    await made.core.scheduler.drain();
    // The workspace as migration 0023 leaves one that had these messages: no rows, all to fill.
    made.core.db.exec(`DELETE FROM message_states; ${STATES_TO_FILL}`);
    await made.core.close();
    cores.release(made.core);
    let core = cores.open({ dataDir: made.dataDir, clock, seed: false });
    expect(fillRow(core)).toEqual([{ next_chunk: 0, end_chunk: 9 }]);
    expectLookupsEqualScan(core, [acme.id, other.id], everyId(core), false);

    // Moves and sends in chunks not filled yet leave them alone; the lookups read the messages.
    core.messaging.lifecycle.cancel(acme.id, [17_031, 17_032]);
    send(core, acme.id, '30001111', 5, 30_000);
    expect(core.messaging.statusLookup.lookup(acme.id, [17_031, 17_075, 17_076]).map((e) => e.status)).toEqual([
      13, 1, 100,
    ]);
    expect(chunks(core)).toBe('');

    // One step: chunks 0-1, in one transaction; a restart goes on from there.
    expect(core.messaging.states.worker.runDue()).toBe(true);
    expect(fillRow(core)).toEqual([{ next_chunk: 2, end_chunk: 9 }]);
    expect(chunks(core)).toBe('0,1');
    expectLookupsEqualScan(core, [acme.id, other.id], everyId(core), false);
    // The filled rows are kept from now on: the carrier's reports move messages in them.
    const filledStatuses = () =>
      JSON.stringify(core.db.prepare('SELECT status, count(*) FROM messages WHERE id < 4000 GROUP BY 1').raw().all());
    const before = filledStatuses();
    core.messaging.lifecycle.cancel(acme.id, [17_033]);
    clock.advance(600_000);
    while (await core.messaging.lifecycle.carrier.worker!.runDue()) {
      // the reports due, a batch at a time (the scheduler would also run the fill)
    }
    expect(filledStatuses()).not.toBe(before);
    expectLookupsEqualScan(core, [acme.id, other.id], everyId(core), false);
    await core.close();
    cores.release(core);
    core = cores.open({ dataDir: made.dataDir, clock, seed: false });
    expectLookupsEqualScan(core, [acme.id, other.id], everyId(core), false);

    // The scheduler runs the last steps; then every row is as a fill from the messages makes it.
    await core.scheduler.drain();
    expect(fillRow(core)).toEqual([]);
    expect(core.messaging.states.worker.nextDueAt()).toBeNull();
    expectLookupsEqualScan(core, [acme.id, other.id], everyId(core));
    clock.advance(3_600_000);
    await core.scheduler.drain();
    expectLookupsEqualScan(core, [acme.id, other.id], everyId(core));
  });

  it('leave nothing behind when the transaction that wrote them rolls back', () => {
    const { core, acme } = makeCore();
    send(core, acme.id, '30001111', 10, 0);
    expect(core.messaging.statusLookup.lookup(acme.id, [10, 11]).map((e) => e.status)).toEqual([1, 100]);
    // A send refused inside its transaction (after its messages were written) records nothing.
    expect(() =>
      core.db.transaction(() => {
        send(core, acme.id, '30001111', 5, 100);
        throw new Error('refused');
      })(),
    ).toThrow('refused');
    expect(core.messaging.statusLookup.lookup(acme.id, [10, 11]).map((e) => e.status)).toEqual([1, 100]);
    expectStatesEqualScan(core.db);
  });
});
