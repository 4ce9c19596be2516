// The receiver index selects exactly what reading every message would: for any receivers, any
// part of a number, any share of the messages indexed (a tail not yet), after an indexing
// transaction that failed halfway and after the core was closed and opened again. Its worker
// waits for a quiet moment, takes bounded chunks, and resumes from its watermark.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { ReceiverIndex, type ReceiverCondition } from './receivers';

const cores = testCores();

function openCore(dataDir: string, seed = true): { core: Core; clock: ManualClock; account: number } {
  const clock = new ManualClock();
  const core = cores.open({ dataDir, clock, seed: false });
  if (seed) {
    const s = testSeed();
    s.accounts![0]!.credit_rials = 1_000_000_000_000;
    applySeed(core, s);
  }
  return { core, clock, account: core.accounts.findByName('acme')!.id };
}

function send(core: Core, account: number, receivers: readonly string[]): void {
  core.messaging.accept.accept({
    accountId: account,
    origin: 'api-v2',
    sender: '30001111',
    text: 'hi',
    receivers,
    rule: 'strict',
  });
}

async function closeCore(core: Core): Promise<void> {
  cores.release(core);
  await core.close();
}

/** The ids a condition selects, through the reader pool as queries.ts runs it. */
async function selected(core: Core, condition: ReceiverCondition): Promise<number[]> {
  const rows = await core.readers.all<{ id: number }>(
    `SELECT m.id FROM messages m WHERE ${condition.sql} ORDER BY m.id`,
    condition.params,
  );
  return rows.map((row) => row.id);
}

/** What reading every message selects (queries.ts's filter without an index). */
function scanned(core: Core, digits: string): number[] {
  const where = digits.length === 11 ? 'receptor = ?' : 'instr(receptor, ?) > 0';
  return core.db.prepare<[string], number>(`SELECT id FROM messages WHERE ${where} ORDER BY id`).pluck().all(digits);
}

async function expectExact(core: Core, index: ReceiverIndex, parts: readonly string[]): Promise<void> {
  for (const digits of parts) {
    const condition = await index.condition(digits);
    if (digits.length < 3 && digits.length !== 11) {
      expect(condition, digits).toBeNull();
      continue;
    }
    expect(condition, digits).not.toBeNull();
    expect(await selected(core, condition!), digits).toEqual(scanned(core, digits));
  }
}

// Numbers over few digits share many parts; others are spread out.
const number = fc.oneof(fc.stringMatching(/^09[0-9]{9}$/), fc.stringMatching(/^09[12]{9}$/));

/** Parts: pieces of the numbers, whole numbers, and any digits. */
function parts(pool: readonly string[]) {
  const piece = fc
    .tuple(fc.constantFrom(...pool), fc.nat(10), fc.integer({ min: 1, max: 11 }))
    .map(([n, start, length]) => n.slice(Math.min(start, 10), Math.min(start, 10) + length));
  return fc.array(fc.oneof(piece, fc.constantFrom(...pool), fc.stringMatching(/^[0-9]{1,11}$/)), {
    minLength: 1,
    maxLength: 12,
  });
}

describe('the receiver index', () => {
  it('selects exactly the messages a scan selects, with a tail not indexed, a failed chunk, and after a reopen (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(number, { minLength: 1, maxLength: 25 }).chain((pool) =>
          fc.record({
            pool: fc.constant(pool),
            sends: fc.array(fc.subarray(pool, { minLength: 1 }), { minLength: 1, maxLength: 8 }),
            later: fc.array(fc.subarray(pool, { minLength: 1 }), { maxLength: 3 }),
            chunk: fc.integer({ min: 1, max: 40 }),
            chunks: fc.nat(6),
            parts: parts(pool),
          }),
        ),
        async ({ pool, sends, later, chunk, chunks, parts }) => {
          const dataDir = tempDir('chapar-receivers-');
          let { core, account } = openCore(dataDir);
          let index = new ReceiverIndex(core.db, core.readers, core.clock, { chunk });
          for (const receivers of sends) send(core, account, receivers);
          for (let i = 0; i < chunks; i++) index.indexChunk();
          await expectExact(core, index, parts);

          // A chunk that fails halfway (its watermark write refused) leaves nothing behind.
          core.db.exec(`CREATE TEMP TRIGGER refuse BEFORE UPDATE ON receiver_index
            BEGIN SELECT RAISE(ABORT, 'the disk went away'); END`);
          const before = index.watermark();
          for (const receivers of later) send(core, account, receivers);
          if (index.tail() > 0) expect(() => index.indexChunk()).toThrow('the disk went away');
          core.db.exec('DROP TRIGGER temp.refuse');
          expect(index.watermark()).toBe(before);
          await expectExact(core, index, parts);

          // Closed and opened again: it goes on from its watermark.
          await closeCore(core);
          ({ core, account } = openCore(dataDir, false));
          index = new ReceiverIndex(core.db, core.readers, core.clock, { chunk });
          expect(index.watermark()).toBe(before);
          await expectExact(core, index, [...parts, ...pool]);
          index.indexChunk();
          await expectExact(core, index, parts);
          index.indexAll();
          expect(index.tail()).toBe(0);
          await expectExact(core, index, [...parts, ...pool]);
          await closeCore(core);
        },
      ),
      { numRuns: 12 },
    );
  }, 60_000);

  it('indexes every message once, resuming from its watermark after a reopen', async () => {
    const dataDir = tempDir('chapar-receivers-');
    const opened = openCore(dataDir);
    let core = opened.core;
    const account = opened.account;
    const receivers = Array.from({ length: 60 }, (_, i) => '0912' + String(1_000_000 + i * 7).padStart(7, '0'));
    for (let i = 0; i < 5; i++) send(core, account, receivers.slice(i * 10, i * 10 + 30));
    let index = new ReceiverIndex(core.db, core.readers, core.clock, { chunk: 17 });
    expect(index.indexChunk()).toBe(17);
    expect(index.indexChunk()).toBe(17);
    expect(index.watermark()).toBe(34);
    await closeCore(core);
    core = openCore(dataDir, false).core;
    index = new ReceiverIndex(core.db, core.readers, core.clock, { chunk: 17 });
    expect(index.watermark()).toBe(34);
    while (index.indexChunk() > 0);
    const postings = core.db.prepare<[string], number>(
      'SELECT count(*) FROM receiver_messages WHERE receiver_messages MATCH ?',
    );
    const messages = core.db.prepare<[string], number>('SELECT count(*) FROM messages WHERE receptor = ?');
    for (const receptor of receivers)
      expect(postings.pluck().get(`"${receptor}"`), receptor).toBe(messages.pluck().get(receptor));
    // Every number has its trigrams.
    const numbers = core.db.prepare(`SELECT rowid FROM receiver_digits('"091"') ORDER BY rowid`).pluck().all();
    expect(numbers).toEqual(receivers.map(Number));
  });

  it('works in the background: bounded chunks, at a quiet moment or when the tail grows large', async () => {
    const { core, clock, account } = openCore(tempDir('chapar-receivers-'));
    const index = new ReceiverIndex(core.db, core.readers, clock, { chunk: 25, quietMs: 1000, largeTail: 250 });
    const receivers = Array.from({ length: 100 }, (_, i) => '0935' + String(i * 31).padStart(7, '0'));
    send(core, account, receivers);
    // A send just happened: nothing until a second without one.
    expect(index.worker.nextDueAt()).toBe(clock.now() + 1000);
    expect(await index.worker.runDue()).toBe(false);
    clock.advance(400);
    send(core, account, receivers);
    expect(await index.worker.runDue()).toBe(false);
    expect(index.worker.nextDueAt()).toBe(clock.now() + 1000);
    clock.advance(1000);
    expect(await index.worker.runDue()).toBe(true);
    expect(index.watermark()).toBe(25);
    while (await index.worker.runDue()) expect(index.watermark()).toBeLessThanOrEqual(200);
    expect(index.tail()).toBe(0);
    // Merged and idle: no more work until the next message.
    expect(index.worker.nextDueAt()).toBeNull();
    // A tail over the large mark is taken at once, send or no send.
    for (let i = 0; i < 3; i++) send(core, account, receivers);
    expect(index.worker.nextDueAt()).toBeLessThanOrEqual(clock.now());
    expect(await index.worker.runDue()).toBe(true);
    expect(index.watermark()).toBe(225);
    await expectExact(core, index, ['0935', '00031', receivers[7]!, '3']);
    clock.advance(1000);
    while (await index.worker.runDue());
    expect(index.tail()).toBe(0);
    expect(index.worker.nextDueAt()).toBeNull();
  });

  it('waits while messages are being delivered, unless half of what it can fall behind is not indexed yet', async () => {
    const { core, clock, account } = openCore(tempDir('chapar-receivers-'));
    let delivering = true;
    const index = new ReceiverIndex(core.db, core.readers, clock, {
      chunk: 25,
      quietMs: 1000,
      largeTail: 50,
      maxTail: 400,
      delivering: () => delivering,
    });
    const receivers = Array.from({ length: 100 }, (_, i) => '0935' + String(i * 31).padStart(7, '0'));
    send(core, account, receivers);
    clock.advance(1000);
    // Quiet, and a tail over the large mark: it would work now, but delivery comes first.
    expect(index.worker.nextDueAt()).toBeGreaterThan(clock.now());
    expect(await index.worker.runDue()).toBe(false);
    expect(index.watermark()).toBe(0);
    // Half of maxTail behind: searches would soon have no help from it, so it works regardless.
    for (let i = 0; i < 2; i++) send(core, account, receivers);
    expect(index.worker.nextDueAt()).toBeLessThanOrEqual(clock.now());
    expect(await index.worker.runDue()).toBe(true);
    expect(index.watermark()).toBe(25);
    // Delivery over: it catches up.
    delivering = false;
    clock.advance(1000);
    while (await index.worker.runDue());
    expect(index.tail()).toBe(0);
  });

  it('keeps its segments few: merged into one at a quiet moment', async () => {
    const { core, clock, account } = openCore(tempDir('chapar-receivers-'));
    const index = new ReceiverIndex(core.db, core.readers, clock, { chunk: 3 });
    const receivers = Array.from({ length: 90 }, (_, i) => '0919' + String(i * 1013).padStart(7, '0'));
    send(core, account, receivers);
    const segments = core.db.prepare<[], number>('SELECT count(DISTINCT segid) FROM receiver_messages_idx').pluck();
    // Each chunk adds a segment (FTS5's own merging is off: the worker's steps do it).
    while (index.indexChunk() > 0);
    expect(segments.get()).toBeGreaterThan(6);
    expect(index.worker.nextDueAt()).toBe(clock.now() + 1000);
    clock.advance(1000);
    while (await index.worker.runDue());
    expect(segments.get()).toBe(1);
    expect(index.worker.nextDueAt()).toBeNull();
    await expectExact(core, index, [receivers[5]!, '0919', '1013', '2026']);
  });

  it('answers null for parts too broad for it: 1 or 2 digits, too many numbers or messages, too much not indexed', async () => {
    const { core, account } = openCore(tempDir('chapar-receivers-'));
    const receivers = ['09121111111', '09122222222', '09123333333', '09354444444'];
    send(core, account, receivers);
    send(core, account, receivers.slice(0, 1));
    const index = new ReceiverIndex(core.db, core.readers, core.clock, { maxReceivers: 2, maxMessages: 1, maxTail: 6 });
    index.indexAll();
    expect(await index.condition('1')).toBeNull();
    expect(await index.condition('12')).toBeNull();
    // Three numbers hold 0912.
    expect(await index.condition('0912')).toBeNull();
    // One number, but two messages.
    expect(await index.condition('11111')).toBeNull();
    // A whole number is never too broad; one message is not.
    await expectExact(core, index, ['09121111111', '44444', '2222']);
    send(core, account, receivers);
    send(core, account, receivers);
    expect(index.tail()).toBe(8);
    expect(await index.condition('09121111111')).toBeNull();
  });

  it('finds receptors not in the canonical form, by part and whole', async () => {
    const { core, account } = openCore(tempDir('chapar-receivers-'));
    send(core, account, ['09121234567']);
    // As an old workspace or a hand-written row could hold them.
    const message = core.db.prepare<[string]>(
      `INSERT INTO messages (send_id, account_id, receptor, status, cost_rials, created_at)
       SELECT send_id, account_id, ?, status, cost_rials, created_at FROM messages WHERE id = 1`,
    );
    for (const receptor of ['+989121234567', '9121234567', '12345678901', '۰۹۱۲']) message.run(receptor);
    const index = new ReceiverIndex(core.db, core.readers, core.clock);
    await expectExact(core, index, ['1234567', '989', '12345678901', '09121234567']);
    index.indexAll();
    await expectExact(core, index, ['1234567', '989', '12345678901', '09121234567', '912']);
  });

  it('stays exact when the newest messages went and their ids are given again', async () => {
    const { core, clock, account } = openCore(tempDir('chapar-receivers-'));
    const index = new ReceiverIndex(core.db, core.readers, clock);
    send(core, account, ['09121111111', '09122222222']);
    send(core, account, ['09123333333', '09124444444']);
    index.indexAll();
    // (Nothing in Chapar deletes the newest messages: retention keeps them, so ids never count back.)
    core.db.exec(`DELETE FROM messages WHERE id > 2; DELETE FROM message_due WHERE first_id > 2;
      DELETE FROM simulator_due WHERE first_id > 2`);
    expect(index.worker.nextDueAt()).toBe(clock.now());
    expect(await index.worker.runDue()).toBe(true);
    expect(index.watermark()).toBe(2);
    send(core, account, ['09125555555', '09121111111']);
    const parts = ['09123333333', '09125555555', '09121111111', '333', '555', '111'];
    await expectExact(core, index, parts);
    // (A send pokes the scheduler, which asks every worker when it is due next.)
    expect(index.worker.nextDueAt()).toBe(clock.now() + 1000);
    clock.advance(1000);
    while (await index.worker.runDue());
    expect(index.watermark()).toBe(4);
    await expectExact(core, index, parts);
  });

  it('forgets the messages retention deletes', async () => {
    const { core, account } = openCore(tempDir('chapar-receivers-'));
    const receivers = ['09121111111', '09122222222', '09123333333'];
    for (let i = 0; i < 4; i++) send(core, account, receivers);
    const index = new ReceiverIndex(core.db, core.readers, core.clock);
    index.indexAll();
    core.db.transaction(() => {
      index.forget(1, 6);
      core.db.prepare('DELETE FROM messages WHERE id BETWEEN 1 AND 6').run();
    })();
    const postings = core.db
      .prepare<[string], number>('SELECT count(*) FROM receiver_messages WHERE receiver_messages MATCH ?')
      .pluck();
    expect(postings.get('"09121111111"')).toBe(2);
    while (index.mergeStep());
    await expectExact(core, index, [...receivers, '0912', '2222']);
  });

  it('reads only the messages it selects: no scan of the messages table', async () => {
    const { core, account } = openCore(tempDir('chapar-receivers-'));
    send(core, account, ['09121111111', '09122222222']);
    const index = new ReceiverIndex(core.db, core.readers, core.clock);
    index.indexAll();
    for (const digits of ['09121111111', '1111']) {
      const condition = (await index.condition(digits))!;
      const plan = core.db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT m.id FROM messages m JOIN sends s ON s.id = m.send_id
           WHERE ${condition.sql} ORDER BY m.id DESC LIMIT 50`,
        )
        .all(...condition.params) as Array<{ detail: string }>;
      const details = plan.map((row) => row.detail);
      expect(
        details.filter((detail) => /^SCAN (m|messages)\b/.test(detail)),
        details.join('\n'),
      ).toEqual([]);
    }
  });
});
