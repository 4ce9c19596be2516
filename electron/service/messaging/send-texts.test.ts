// The send-text index changes how fast a text search is, never what it finds: lists and counts
// with it equal the same queries reading every send's text, for texts in every spelling the
// search folds (Arabic letters, Persian digits, the zero-width non-joiner, Latin case), with own
// texts, with blocks not indexed yet, after the newest sends went and their ids came again, and
// after a reopen. Its worker writes whole blocks only and goes on from its watermark.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Core } from '../core';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { MessageQueries } from './queries';
import { BLOCK, SendTextIndex, trigramQuery } from './send-texts';
import { searchKey } from '../../../shared/search';

const cores = testCores();

function openCore(dataDir: string, seed = true): { core: Core; account: number } {
  const core = cores.open({ dataDir, seed: false });
  if (seed) {
    const s = testSeed();
    s.accounts![0]!.credit_rials = 1_000_000_000_000;
    applySeed(core, s);
  }
  return { core, account: core.accounts.findByName('acme')!.id };
}

async function closeCore(core: Core): Promise<void> {
  cores.release(core);
  await core.close();
}

interface Send {
  text: string;
  receivers: number;
  /** Own texts for some receivers (a personalized campaign's). */
  own: ReadonlyArray<string | undefined>;
}

let phone = 0;
function send(core: Core, account: number, s: Send): void {
  const receivers = Array.from({ length: s.receivers }, () => `0912${String(phone++ % 10_000_000).padStart(7, '0')}`);
  core.messaging.accept.accept({
    accountId: account,
    origin: 'api-v2',
    sender: '30001111',
    text: s.text,
    receivers,
    texts: s.own.length > 0 ? receivers.map((_, i) => s.own[i]) : undefined,
    rule: 'strict',
  });
}

/**
 * What a search finds: the same queries with the index (as the core has it, and one that never
 * finds a term too broad for it) and reading every send.
 */
async function expectSame(core: Core, account: number, terms: readonly string[]): Promise<void> {
  const indexed = core.messaging.queries;
  const never = new SendTextIndex(core.db, core.readers, core.clock, { broadShare: 1 });
  const alwaysIndexed = new MessageQueries(core.db, core.readers, core.messaging.receivers, never);
  const scanning = new MessageQueries(core.db, core.readers, core.messaging.receivers);
  for (const text of terms) {
    const filters = [
      { account_id: account, text },
      { text },
      { account_id: account, text, status: [1, 4] },
      { account_id: account, text, receptor: '0912000000' },
    ];
    for (const filter of filters) {
      const ids = async (q: MessageQueries) => (await q.list({ ...filter, limit: 10_000 })).rows.map((row) => row.id);
      const scanned = await ids(scanning);
      expect(await ids(indexed), text).toEqual(scanned);
      expect(await ids(alwaysIndexed), text).toEqual(scanned);
      const counted = await scanning.count(filter);
      expect(await indexed.count(filter), text).toBe(counted);
      expect(await alwaysIndexed.count(filter), text).toBe(counted);
    }
    // A page of a few, then the next one from its cursor.
    const first = await indexed.list({ account_id: account, text, limit: 2 });
    const all = (await scanning.list({ account_id: account, text, limit: 10_000 })).rows.map((row) => row.id);
    expect(first.rows.map((row) => row.id)).toEqual(all.slice(0, 2));
    if (first.next_cursor !== null) {
      const next = await indexed.list({ account_id: account, text, limit: 2, cursor: first.next_cursor });
      expect(next.rows.map((row) => row.id)).toEqual(all.slice(2, 4));
    }
  }
}

// Words in the spellings the search folds: Arabic yeh and kaf, Persian and Arabic-Indic digits,
// a zero-width non-joiner, Latin case.
const WORDS = [
  'سفارش',
  'سفارشي',
  'كد',
  'کد',
  'می\u200cروم',
  'میروم',
  '۱۲۳',
  '١٢٣',
  '123',
  'Order',
  'order',
  'SHIP',
  'a"b',
];
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }).map((words) => words.join(' '));
const sendArb = fc.record({
  text,
  receivers: fc.integer({ min: 1, max: 4 }),
  own: fc.oneof(
    fc.constant<Array<string | undefined>>([]),
    fc.array(fc.option(text, { nil: undefined }), { minLength: 1, maxLength: 4 }),
  ),
});
const terms = fc.array(
  fc.oneof(
    fc.constantFrom(...WORDS),
    text,
    text.map((t) => t.slice(1, 6)),
    fc.constantFrom('ی', 'ک', 'zz', 'رو', 'روم', '23', 'r s', 'سفارشی کد'),
  ),
  { minLength: 1, maxLength: 6 },
);

describe('the send-text index', () => {
  it('finds exactly what reading every send finds, indexed or not, after ids come again and a reopen (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(sendArb, { minLength: BLOCK + 4, maxLength: 40 }),
        fc.array(sendArb, { minLength: 1, maxLength: 20 }),
        fc.nat(4),
        terms,
        async (sends, later, runs, searched) => {
          const dataDir = tempDir('chapar-send-texts-');
          let { core, account } = openCore(dataDir);
          const index = () => core.messaging.sendTexts;
          for (const s of sends) send(core, account, s);
          for (let i = 0; i < runs; i++) index().indexBlocks(1);
          await expectSame(core, account, searched);
          index().indexAll();
          await expectSame(core, account, searched);

          // The newest sends go (as when their account is deleted) and their ids are given again:
          // the index reads those blocks from the sends until it has written them anew.
          // (From inside the last block written: those ids were indexed.)
          const cut = Math.max(1, index().upto() - 3);
          core.db.exec(`DELETE FROM message_due WHERE last_id >= (SELECT MIN(id) FROM messages WHERE send_id >= ${cut});
            DELETE FROM messages WHERE send_id >= ${cut}; DELETE FROM sends WHERE id >= ${cut}`);
          for (const s of later) send(core, account, s);
          await expectSame(core, account, searched);
          index().indexBlocks(1);
          await expectSame(core, account, searched);

          await closeCore(core);
          ({ core, account } = openCore(dataDir, false));
          await expectSame(core, account, searched);
          index().indexAll();
          await expectSame(core, account, searched);
          await closeCore(core);
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);

  it('writes whole blocks only, resumes from its watermark, and its worker catches up', async () => {
    const dataDir = tempDir('chapar-send-texts-');
    let { core, account } = openCore(dataDir);
    for (let i = 0; i < BLOCK * 3 + 5; i++) send(core, account, { text: `order ${i}`, receivers: 1, own: [] });
    const top = core.db.prepare<[], number>('SELECT MAX(id) FROM sends').pluck().get()!;
    const whole = Math.floor((top + 1) / BLOCK);
    expect(core.messaging.sendTexts.indexBlocks(1)).toBe(1);
    expect(core.messaging.sendTexts.upto()).toBe(BLOCK);
    await closeCore(core);

    ({ core, account } = openCore(dataDir, false));
    const index: SendTextIndex = core.messaging.sendTexts;
    expect(index.upto()).toBe(BLOCK);
    // The scheduler's worker writes the rest of the whole blocks, and no more.
    expect(index.worker.nextDueAt()).not.toBeNull();
    while (await index.worker.runDue());
    expect(index.upto()).toBe(whole * BLOCK);
    expect(index.worker.nextDueAt()).toBeNull();
    const docs = core.db.prepare<[], number>('SELECT count(*) FROM send_texts_docsize').pluck().get();
    expect(docs).toBe(whole);
    await expectSame(core, account, ['order 1', 'order 5', `order ${BLOCK * 3 + 4}`, 'rder 2']);
  });

  it('asks the index for every trigram of a term, its quotes doubled; shorter terms read every send', () => {
    expect(trigramQuery('ab')).toBeNull();
    expect(trigramQuery(searchKey('کد ۱'))).toBe('"کد " "د 1"');
    expect(trigramQuery('a"bc')).toBe('"a""b" """bc"');
    expect(trigramQuery('aaaa')).toBe('"aaa"');
    // A long term: at most 16 trigrams, its first and last among them.
    const long = trigramQuery('abcdefghijklmnopqrstuvwxyz')!.split(' ');
    expect(long).toHaveLength(16);
    expect(long[0]).toBe('"abc"');
    expect(long[15]).toBe('"xyz"');
  });
});
