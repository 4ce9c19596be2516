// The text tallies change how fast a count of a word is, never what it says: counts equal the
// messages whose text (their own, or their send's) holds the term, counted here in JavaScript, for
// sends of two accounts from templates with numbers, in every spelling the search folds, with
// chunks not written yet, a list of templates too short for them all, the oldest messages gone
// (their sends kept, as a campaign keeps them), sends deleted (retention), and a reopen.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { testCores } from '../../../test/helpers/core';
import { MessageQueries } from './queries';
import { SendTextIndex } from './send-texts';
import { CHUNK, talliable, templateOf } from './text-tallies';
import { searchKey } from '../../../shared/search';
import type { MessageFilter } from '../../../shared/ipc/schemas';

const cores = testCores();

function openCore(dataDir: string, seed = true, now?: number): Core {
  const core = cores.open({ dataDir, clock: new ManualClock(now), seed: false });
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

/** Lines and origins a send may have: acme's two lines (the second for the panel only), and other's. */
const ROUTES = [
  { account: 1, sender: '30001111', origin: 'api-v2' },
  { account: 1, sender: '30001111', origin: 'panel' },
  { account: 1, sender: '30002222', origin: 'panel' },
  { account: 2, sender: '30009999', origin: 'api-v2' },
] as const;

let phone = 0;
function send(core: Core, route: (typeof ROUTES)[number], text: string, receivers: number, own?: string): void {
  const to = Array.from({ length: receivers }, () => `0912${String(phone++ % 10_000_000).padStart(7, '0')}`);
  core.messaging.accept.accept({
    accountId: route.account,
    origin: route.origin,
    sender: route.sender,
    text,
    receivers: to,
    texts: own === undefined ? undefined : to.map((_, i) => (i === 0 ? own : undefined)),
    rule: 'strict',
  });
}

type Filter = Pick<MessageFilter, 'account_id' | 'sender' | 'origin' | 'from' | 'to'>;

/** The messages meeting `filter` and holding `key` in their text, counted one by one. */
function expected(core: Core, key: string, filter: Filter): number {
  const rows = core.db
    .prepare<[], { account_id: number; sender: string; origin: string; created_at: number; text: string }>(
      `SELECT m.account_id, s.sender, s.origin, m.created_at, COALESCE(m.text, s.text) AS text
       FROM messages m JOIN sends s ON s.id = m.send_id`,
    )
    .all();
  return rows.filter(
    (row) =>
      (filter.account_id === undefined || row.account_id === filter.account_id) &&
      (filter.sender === undefined || row.sender === filter.sender) &&
      (filter.origin === undefined || row.origin === filter.origin) &&
      (filter.from === undefined || row.created_at >= filter.from) &&
      (filter.to === undefined || row.created_at < filter.to) &&
      searchKey(row.text).includes(key),
  ).length;
}

async function expectCounts(
  core: Core,
  queries: MessageQueries,
  terms: readonly string[],
  dates: { from: number; to: number },
): Promise<void> {
  const filters: Filter[] = [
    {},
    { account_id: 1 },
    { account_id: 2 },
    { account_id: 1, sender: '30002222' },
    { account_id: 1, origin: 'panel' },
    { account_id: 1, ...dates },
    { from: dates.from },
    { to: dates.to },
  ];
  for (const term of terms)
    for (const filter of filters)
      expect(await queries.count({ ...filter, text: term }), `${term} ${JSON.stringify(filter)}`).toBe(
        expected(core, searchKey(term), filter),
      );
}

const sendArb = fc.record({
  template: fc.nat(TEMPLATES.length - 1),
  number: fc.nat(99_999),
  route: fc.constantFrom(0, 0, 1, 2, 3),
  minutes: fc.constantFrom(0, 0, 1, 7),
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
        fc.tuple(fc.nat(1000), fc.nat(1000)),
        async (sends, maxTemplates, blocks, cut, [a, b]) => {
          const dataDir = tempDir('chapar-text-tallies-');
          let core = openCore(dataDir);
          const write = () => new SendTextIndex(core.db, core.readers, core.clock, { maxTemplates });
          const queries = () => core.messaging.queries;
          const clock = core.clock as ManualClock;
          const start = clock.now();
          for (const s of sends) {
            clock.advance(s.minutes * 60_000);
            send(core, ROUTES[s.route]!, TEMPLATES[s.template]!.replace('#', String(s.number)), s.receivers, s.own);
          }
          // A range of dates, its ends anywhere in the sends' time (at a send's time or between).
          const span = clock.now() - start + 60_000;
          const dates = {
            from: start + Math.round((Math.min(a, b) / 1000) * span),
            to: start + Math.round((Math.max(a, b) / 1000) * span),
          };
          write().indexBlocks(blocks);
          await expectCounts(core, queries(), terms, dates);
          write().indexAll();
          // Every whole chunk has its rows: the counts below come from them.
          const chunks = core.db.prepare<[], number>('SELECT count(DISTINCT chunk) FROM send_text_tallies').pluck();
          expect(chunks.get()).toBe(Math.floor(core.messaging.sendTexts.upto() / CHUNK));
          await expectCounts(core, queries(), terms, dates);

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
          await expectCounts(core, queries(), terms, dates);

          cores.release(core);
          await core.close();
          core = openCore(dataDir, false, clock.now());
          await expectCounts(core, queries(), terms, dates);
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
