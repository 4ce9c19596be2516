// Version 1's sms/inboxpaged over HTTP (reference/kavenegar-v1.md §1.18): a line's replies of a
// window of at most two days, 200 a page in receipt order, with `metadata` beside `entries`. 450
// replies read as three pages lose none and repeat none, pages read again answer the same, and no
// read flag changes (unlike sms/receive with isread=0); every refusal in the provider's envelope.
// The server runs on a manual clock with the scheduler stopped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testSeed, KEY, type TestServer } from '../helpers/server';
import { ManualClock } from '../../electron/service/clock';
import { apiCodeMessage } from '../../shared/status';
import { expectV1Error, expectV1Ok, v1, type V1Params, type V1Result } from './calls';

const START = Date.UTC(2026, 2, 1, 8);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const seconds = (ms: number) => Math.floor(ms / 1000);
const LINE = '30001111';
const TOTAL = 450;

let server: TestServer;
let acme: number;
/** The window's replies on LINE, in the order the pages must give them (receipt time, then id). */
let expected: Array<{ id: number; received_at: number; read: boolean }>;

function call(params: V1Params, options: { key?: string; method?: 'GET' | 'POST' } = {}) {
  return v1(server.url, options.key ?? KEY, 'sms/inboxpaged', params, options.method ?? 'GET');
}

/** A page's answer: HTTP 200, the envelope with `metadata` beside `entries`; returns both. */
function expectPage(result: V1Result): { return: unknown; entries: any[]; metadata: any } {
  expect(result.status, result.text.slice(0, 500)).toBe(200);
  expect(Object.keys(result.body).sort()).toEqual(['entries', 'metadata', 'return']);
  expect(result.body.return).toEqual({ status: 200, message: apiCodeMessage[200] });
  return result.body;
}

/** Every inbound row's read time, to see that reading pages changes none. */
function readFlags(): Array<{ id: number; read_at: number | null }> {
  return server.core.db.prepare('SELECT id, read_at FROM inbound_messages ORDER BY id').all() as Array<{
    id: number;
    read_at: number | null;
  }>;
}

const window = { linenumber: LINE, startdate: seconds(START), enddate: seconds(START + DAY) };

beforeAll(async () => {
  const clock = new ManualClock(START + 3 * DAY);
  server = await startServer({ seed: testSeed(), clock, startScheduler: false });
  acme = server.core.accounts.findByName('acme')!.id;
  const other = server.core.accounts.findByName('other')!.id;
  const reply = (accountId: number, lineNumber: string, receivedAt: number, i: number) => ({
    accountId,
    lineNumber,
    sender: `0935${String(1_000_000 + i)}`,
    text: `پاسخ ${i}`,
    receivedAt,
  });
  // Recorded in an order that is not the receipt order, groups of five sharing one millisecond:
  // only (received_at, id) gives one order.
  const inWindow = Array.from({ length: TOTAL }, (_, i) => reply(acme, LINE, START + (TOTAL - 1 - i) * 60_000, i));
  for (let i = 0; i < TOTAL; i += 5) for (let j = 1; j < 5; j++) inWindow[i + j]!.receivedAt = inWindow[i]!.receivedAt;
  const recorded = server.core.inbox.recordAll([
    ...inWindow,
    // Not in the read: the window's end (exclusive), before its start, another line, another account.
    reply(acme, LINE, START + DAY, 9001),
    reply(acme, LINE, START - 1, 9002),
    reply(acme, '30002222', START + HOUR, 9003),
    reply(other, '30009999', START + HOUR, 9004),
  ]);
  // A third of them read already.
  const inWindowIds = recorded.slice(0, TOTAL).map((message) => message.id);
  server.core.inbox.markRead(
    acme,
    inWindowIds.filter((_, i) => i % 3 === 0),
  );
  expected = server.core.db
    .prepare(
      `SELECT id, received_at, read_at IS NOT NULL AS read FROM inbound_messages
       WHERE id IN (${inWindowIds.join(',')}) ORDER BY received_at, id`,
    )
    .all()
    .map((row: any) => ({ id: row.id, received_at: row.received_at, read: row.read === 1 }));
  expect(expected).toHaveLength(TOTAL);
});
afterAll(async () => {
  await server?.close();
});

describe('sms/inboxpaged', () => {
  it('reads 450 replies as three pages in receipt order, none lost, none twice, and marks nothing read', async () => {
    const flags = readFlags();
    const pages = [];
    for (const pagenumber of [1, 2, 3]) pages.push(expectPage(await call({ ...window, pagenumber })));
    expect(pages.map((page) => page.entries.length)).toEqual([200, 200, 50]);
    pages.forEach((page, i) =>
      expect(page.metadata).toEqual({ totalCount: TOTAL, currentPage: i + 1, totalPages: 3, pageSize: 200 }),
    );
    const ids = pages.flatMap((page) => page.entries.map((entry: { messageid: number }) => entry.messageid));
    expect(new Set(ids).size).toBe(TOTAL);
    expect(ids).toEqual(expected.map((row) => row.id));
    const first = pages[0]!.entries[0];
    const row = expected[0]!;
    expect(first).toEqual({
      messageid: row.id,
      message: expect.stringMatching(/^پاسخ \d+$/),
      sender: expect.stringMatching(/^0935\d{7}$/),
      receptor: LINE,
      date: seconds(row.received_at),
    });
    for (const entry of pages.flatMap((page) => page.entries))
      expect(Object.keys(entry).sort()).toEqual(['date', 'message', 'messageid', 'receptor', 'sender']);
    // Read again, by POST this time, a page answers the same.
    expect(expectPage(await call({ ...window, pagenumber: 2 }, { method: 'POST' }))).toEqual(pages[1]);
    expect(readFlags()).toEqual(flags);
  });

  it('filters by isread without changing it, and leaves the unread ones to sms/receive', async () => {
    const flags = readFlags();
    const unread = expected.filter((row) => !row.read).map((row) => row.id);
    const read = expected.filter((row) => row.read).map((row) => row.id);
    const all = async (isread: number) => {
      const ids = [];
      for (let pagenumber = 1; ; pagenumber++) {
        const page = expectPage(await call({ ...window, isread, pagenumber }));
        ids.push(...page.entries.map((entry: { messageid: number }) => entry.messageid));
        if (pagenumber >= page.metadata.totalPages) return { ids, metadata: page.metadata };
      }
    };
    const unreadPages = await all(0);
    expect(unreadPages.ids).toEqual(unread);
    expect(unreadPages.metadata).toMatchObject({ totalCount: 300, totalPages: 2 });
    const readPages = await all(1);
    expect(readPages.ids).toEqual(read);
    expect(readPages.metadata).toMatchObject({ totalCount: 150, totalPages: 1 });
    expect(readFlags()).toEqual(flags);
    // The unread ones are still there for the read that marks them.
    const received = expectV1Ok(await v1(server.url, KEY, 'sms/receive', { linenumber: LINE, isread: 0 }, 'GET'));
    expect(received).toHaveLength(100);
    expect(readFlags()).not.toEqual(flags);
  });

  it('takes an absent or 0 pagenumber as the first page, answers a page past the last empty, and a window of none', async () => {
    const first = expectPage(await call(window));
    expect(first.metadata.currentPage).toBe(1);
    expect(expectPage(await call({ ...window, pagenumber: 0 }))).toEqual(first);
    expect(expectPage(await call({ ...window, pagenumber: 4 }))).toEqual({
      return: first.return,
      entries: [],
      metadata: { totalCount: TOTAL, currentPage: 4, totalPages: 3, pageSize: 200 },
    });
    // No enddate: two days from startdate.
    const open = expectPage(await call({ linenumber: LINE, startdate: seconds(START) }));
    expect(open.metadata.totalCount).toBe(TOTAL + 1);
    const none = expectPage(await call({ linenumber: LINE, startdate: seconds(START + 2 * DAY) }));
    expect(none).toMatchObject({ entries: [], metadata: { totalCount: 0, currentPage: 1, totalPages: 0 } });
  });

  it('takes a window of exactly two days and refuses a wider one (400)', async () => {
    const twoDays = { linenumber: LINE, startdate: seconds(START), enddate: seconds(START + 2 * DAY) };
    expect(expectPage(await call(twoDays)).metadata.totalCount).toBe(TOTAL + 1);
    expectV1Error(await call({ ...twoDays, enddate: twoDays.enddate + 1 }), 400);
    expectV1Error(await call({ ...twoDays, enddate: twoDays.startdate - 1 }), 400);
  });

  it('refuses a missing linenumber or startdate (400), a line not the caller’s (412), and bad numbers (400)', async () => {
    expectV1Error(await call({ startdate: seconds(START) }), 400);
    expectV1Error(await call({ linenumber: LINE }), 400);
    expectV1Error(await call({ ...window, linenumber: '30009999' }), 412);
    expectV1Error(await call({ ...window, isread: 2 }), 400);
    expectV1Error(await call({ ...window, pagenumber: -1 }), 400);
    expectV1Error(await call({ ...window, pagenumber: 'two' }), 400);
    expectV1Error(await call({ ...window, startdate: 'yesterday' }), 400);
  });
});
