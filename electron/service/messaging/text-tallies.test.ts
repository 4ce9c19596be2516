// The text tallies change how fast a count of a word is, never what it says: counts equal the
// messages whose text (their own, or their send's) holds the term, counted here in JavaScript, for
// sends of two accounts from templates with numbers, in every spelling the search folds, with
// chunks not written yet, a list of templates too short for them all, the oldest messages gone
// (their sends kept, as a campaign keeps them), sends deleted (retention), and a reopen.
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { MessageQueries } from './queries';
import { SendTextIndex } from './send-texts';
import { CHUNK, talliable, templateOf } from './text-tallies';
import { searchKey } from '../../../shared/search';

const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

function openCore(dataDir: string, seed = true): Core {
  const core = new Core({ dataDir, clock: new ManualClock(), startScheduler: false });
  cores.push(core);
  if (seed) {
    const s = testSeed();
    for (const account of s.accounts!.slice(0, 2)) account.credit_rials = 1_000_000_000_000;
    applySeed(core, s);
  }
  return core;
}

const TEMPLATES = [
  'Order # shipped.',
  'سفارش # شما ارسال شد',
  'كد تاييد: #',
  'کد تایید: ۱#',
  'Your CODE is #',
  'می\u200cروم #',
  'Flash sale: #% off',
];

let phone = 0;
function send(core: Core, account: number, text: string, receivers: number, own?: string): void {
  const to = Array.from({ length: receivers }, () => `0912${String(phone++ % 10_000_000).padStart(7, '0')}`);
  core.messaging.accept.accept({
    accountId: account,
    origin: 'api-v2',
    sender: account === 1 ? '30001111' : '30009999',
    text,
    receivers: to,
    texts: own === undefined ? undefined : to.map((_, i) => (i === 0 ? own : undefined)),
    rule: 'strict',
  });
}

/** The messages holding `key` in their text, counted one by one. */
function expected(core: Core, key: string, account?: number): number {
  const rows = core.db
    .prepare<[], { account_id: number; text: string }>(
      'SELECT m.account_id, COALESCE(m.text, s.text) AS text FROM messages m JOIN sends s ON s.id = m.send_id',
    )
    .all();
  return rows.filter(
    (row) => (account === undefined || row.account_id === account) && searchKey(row.text).includes(key),
  ).length;
}

async function expectCounts(core: Core, queries: MessageQueries, terms: readonly string[]): Promise<void> {
  for (const term of terms) {
    const key = searchKey(term);
    expect(await queries.count({ text: term }), term).toBe(expected(core, key));
    for (const account of [1, 2])
      expect(await queries.count({ account_id: account, text: term }), term).toBe(expected(core, key, account));
  }
}

const sendArb = fc.record({
  template: fc.nat(TEMPLATES.length - 1),
  number: fc.nat(99_999),
  account: fc.constantFrom(1, 1, 1, 2),
  receivers: fc.constantFrom(1, 1, 1, 2, 5),
  own: fc.option(fc.constantFrom('Order 7 shipped', 'ارسال شد', 'zz'), { nil: undefined, freq: 8 }),
});
const terms = ['shipped', 'SHIPPED', 'ارسال شد', 'كد', 'تایید', 'code is', 'میروم', 'off', 'd.', 'zz', 'o'];

describe('the text tallies', () => {
  it('count exactly the messages holding a word, whatever is written, listed or gone (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(sendArb, { minLength: CHUNK * 2 + 10, maxLength: CHUNK * 3 + 20 }),
        fc.integer({ min: 1, max: TEMPLATES.length + 3 }),
        fc.nat(40),
        fc.nat(CHUNK + 40),
        async (sends, maxTemplates, blocks, cut) => {
          const dataDir = tempDir('chapar-text-tallies-');
          let core = openCore(dataDir);
          const write = () => new SendTextIndex(core.db, core.readers, core.clock, { maxTemplates });
          const queries = () => core.messaging.queries;
          for (const s of sends)
            send(core, s.account, TEMPLATES[s.template]!.replace('#', String(s.number)), s.receivers, s.own);
          write().indexBlocks(blocks);
          await expectCounts(core, queries(), terms);
          write().indexAll();
          // Every whole chunk has its rows: the counts below come from them.
          const chunks = core.db.prepare<[], number>('SELECT count(DISTINCT chunk) FROM send_text_tallies').pluck();
          expect(chunks.get()).toBe(Math.floor(core.messaging.sendTexts.upto() / CHUNK));
          await expectCounts(core, queries(), terms);

          // The oldest messages go and their sends stay (a campaign's), then some sends go with
          // their messages (retention), their chunks written again.
          core.db.exec(`DELETE FROM message_due WHERE first_id <= (SELECT MAX(id) FROM messages WHERE send_id < ${cut});
            DELETE FROM messages WHERE send_id < ${cut}`);
          const gone = core.db
            .prepare<[number], number>('SELECT id FROM sends WHERE id >= ? AND id % 7 = 0 ORDER BY id')
            .pluck()
            .all(cut);
          core.db
            .exec(`DELETE FROM message_due WHERE first_id IN (SELECT id FROM messages WHERE send_id IN (${gone.join(',') || 0}));
            DELETE FROM messages WHERE send_id IN (${gone.join(',') || 0}); DELETE FROM sends WHERE id IN (${gone.join(',') || 0})`);
          core.db.transaction(() => write().forgetSends(gone))();
          await expectCounts(core, queries(), terms);

          cores.splice(cores.indexOf(core), 1);
          await core.close();
          core = openCore(dataDir, false);
          await expectCounts(core, queries(), terms);
        },
      ),
      { numRuns: 8 },
    );
  }, 120_000);

  it('keeps a text once per template, its numbers in any digits one mark', () => {
    expect(templateOf('Order 123456 shipped')).toBe(templateOf('ORDER ۹۸ shipped'));
    expect(templateOf('كد 1٢3 و 45')).toBe('کد \uE000 و \uE000');
    expect(templateOf('می\u200cروم')).toBe('میروم');
    expect(talliable('shipped')).toBe(true);
    expect(talliable(searchKey('کد ۱'))).toBe(false);
    expect(talliable('\uE000')).toBe(false);
    expect(talliable('')).toBe(false);
  });
});
