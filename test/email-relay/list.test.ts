// GET /v2/accounts/{account_id}/messages: newest first, each filter (status any case and
// comma-separated, sender, recipient, subject, tags, from_time/to_time), limit bounds, cursor paging
// in both directions, and the relay client's poll (one tag + pending statuses) walking an index.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESSING_DELAY_MS } from '../../electron/service/email/relay/sandbox';
import { call, expectMessage, messagesUrl, sendBody, startEmailServer, START, type EmailServer } from './support';

let server: EmailServer;
const HOUR = 60 * 60 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();
/** ids by send, in recipient order. */
const sent: Record<'a' | 'b' | 'c' | 'd', string[]> = { a: [], b: [], c: [], d: [] };

async function send(extra: Record<string, unknown>, emails: string[]): Promise<string[]> {
  const answer = await call(messagesUrl(server), {
    body: sendBody(0, { ...extra, recipients: emails.map((email) => ({ email })) }),
  });
  expect(answer.status, answer.text).toBe(202);
  return answer.body.data.map((item: any) => item.id);
}

beforeAll(async () => {
  server = await startEmailServer();
  sent.a = await send({ subject: 'Spring SALE', tags: ['spring', 'promo'], sandbox_result: 'bounce' }, [
    'a1@example.com',
    'a2@example.com',
  ]);
  server.clock.advance(HOUR);
  sent.b = await send(
    { from: { email: 'news@acme.example' }, subject: 'Newsletter 100%', tags: ['news'], sandbox_result: 'fail' },
    ['b1@example.com'],
  );
  server.clock.advance(HOUR);
  sent.c = await send({ subject: 'Receipt', tags: ['spring'] }, ['c0@example.com', 'c1@example.com', 'c2@example.com']);
  await server.advance(0);
  await server.advance(PROCESSING_DELAY_MS);
  sent.d = await send({ subject: 'Later' }, ['d0@example.com', 'd1@example.com']);
});
afterAll(() => server.close());

const list = async (query = '') => {
  const answer = await call(`${messagesUrl(server)}${query ? `?${query}` : ''}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as {
    object: string;
    data: any[];
    pagination: { has_more: boolean; next_cursor: string | null; previous_cursor: string | null };
  };
};
const ids = (page: { data: any[] }) => page.data.map((item) => item.id);
const newestFirst = (...groups: string[][]) => groups.flat().reverse();

describe('the list', () => {
  it('lists an account’s messages newest first as summaries', async () => {
    const page = await list();
    expect(page.object).toBe('list');
    expect(ids(page)).toEqual(newestFirst(sent.a, sent.b, sent.c, sent.d));
    expect(page.pagination).toEqual({ has_more: false, next_cursor: null, previous_cursor: null });
    const summary = page.data.find((item) => item.id === sent.b[0]);
    expect(summary).toMatchObject({
      object: 'message',
      direction: 'outgoing',
      sender: 'news@acme.example',
      recipient: 'b1@example.com',
      subject: 'Newsletter 100%',
      tags: ['news'],
      status: 'failed',
      account_id: '1001',
    });
    expect(summary.content).toBeUndefined();
    // Another account sees none of them.
    expect((await call(`${messagesUrl(server, '1002')}`, { key: 'ek-other-0002-secret' })).body.data).toEqual([]);
  });

  it('filters by status, comma-separated and in any case', async () => {
    expect(ids(await list('status=Bounced,Failed'))).toEqual(newestFirst(sent.a, sent.b));
    expect(ids(await list('status=QUEUED'))).toEqual(newestFirst(sent.d));
    expect(ids(await list('status=delivered&status=queued'))).toEqual(newestFirst(sent.c, sent.d));
    expectMessage(await call(`${messagesUrl(server)}?status=lost`), 400, /status "lost" is not one of queued/);
  });

  it('filters by sender and recipient (the address, any case)', async () => {
    expect(ids(await list('sender=NEWS@acme.example'))).toEqual(sent.b);
    expect(ids(await list('recipient=C1@Example.com'))).toEqual([sent.c[1]]);
    expect(ids(await list('recipient=nobody@example.com'))).toEqual([]);
  });

  it('filters by subject (contains, any case; % is a character)', async () => {
    expect(ids(await list('subject=sale'))).toEqual(newestFirst(sent.a));
    expect(ids(await list(`subject=${encodeURIComponent('100%')}`))).toEqual(sent.b);
    expect(ids(await list(`subject=${encodeURIComponent('%')}`))).toEqual(sent.b);
  });

  it('filters by tags (any of them)', async () => {
    expect(ids(await list('tags=spring'))).toEqual(newestFirst(sent.a, sent.c));
    expect(ids(await list('tags=news,promo'))).toEqual(newestFirst(sent.a, sent.b));
    expect(ids(await list('tags=spring&status=delivered'))).toEqual(newestFirst(sent.c));
    expect(ids(await list('tags=none'))).toEqual([]);
  });

  it('filters by from_time (inclusive) and to_time (exclusive), RFC 3339', async () => {
    expect(ids(await list(`from_time=${iso(START + HOUR)}`))).toEqual(newestFirst(sent.b, sent.c, sent.d));
    expect(ids(await list(`to_time=${iso(START + HOUR)}`))).toEqual(newestFirst(sent.a));
    expect(
      ids(await list(`from_time=${encodeURIComponent('2026-01-01T11:00:00+01:00')}&to_time=${iso(START + 2 * HOUR)}`)),
    ).toEqual(sent.b);
    expectMessage(await call(`${messagesUrl(server)}?from_time=yesterday`), 400, /from_time is not an RFC 3339 time/);
    expectMessage(await call(`${messagesUrl(server)}?to_time=2026-13-01T00:00:00Z`), 400, /to_time/);
  });

  it('takes limit 1..100 (default 100), else 400', async () => {
    for (const limit of ['0', '101', 'abc', '-1', '1.5'])
      expectMessage(
        await call(`${messagesUrl(server)}?limit=${limit}`),
        400,
        /limit must be a whole number from 1 to 100/,
      );
    const page = await list('limit=3');
    expect(ids(page)).toEqual(newestFirst(sent.a, sent.b, sent.c, sent.d).slice(0, 3));
    expect(page.pagination.has_more).toBe(true);
  });

  it('pages forward with after and back with before', async () => {
    const all = newestFirst(sent.a, sent.b, sent.c, sent.d);
    const pages: Array<Awaited<ReturnType<typeof list>>> = [await list('limit=3')];
    while (pages.at(-1)!.pagination.next_cursor)
      pages.push(await list(`limit=3&after=${pages.at(-1)!.pagination.next_cursor}`));
    expect(pages.map(ids)).toEqual([all.slice(0, 3), all.slice(3, 6), all.slice(6)]);
    expect(pages.map((page) => page.pagination.has_more)).toEqual([true, true, false]);
    expect(pages[0]!.pagination.previous_cursor).toBeNull();
    expect(pages[2]!.pagination.next_cursor).toBeNull();

    // Back from the last page.
    const back = await list(`limit=3&before=${pages[2]!.pagination.previous_cursor}`);
    expect(ids(back)).toEqual(all.slice(3, 6));
    expect(back.pagination.has_more).toBe(true);
    const first = await list(`limit=3&before=${back.pagination.previous_cursor}`);
    expect(ids(first)).toEqual(all.slice(0, 3));
    expect(first.pagination.has_more).toBe(false);
    expect(first.pagination.previous_cursor).toBeNull();
    expect(first.pagination.next_cursor).not.toBeNull();
  });

  it('pages within a filter', async () => {
    const spring = newestFirst(sent.a, sent.c);
    const one = await list('tags=spring&limit=2');
    const two = await list(`tags=spring&limit=2&after=${one.pagination.next_cursor}`);
    const three = await list(`tags=spring&limit=2&after=${two.pagination.next_cursor}`);
    expect([...ids(one), ...ids(two), ...ids(three)]).toEqual(spring);
    expect(three.pagination).toMatchObject({ has_more: false, next_cursor: null });
    expect(ids(await list(`tags=spring&limit=2&before=${three.pagination.previous_cursor}`))).toEqual(ids(two));
  });

  it('refuses a cursor it did not give, and after with before', async () => {
    expectMessage(await call(`${messagesUrl(server)}?after=nonsense`), 400, /after is not a cursor/);
    expectMessage(await call(`${messagesUrl(server)}?before=`), 400, /before is not a cursor/);
    const { next_cursor } = (await list('limit=1')).pagination;
    expectMessage(await call(`${messagesUrl(server)}?after=${next_cursor}&before=${next_cursor}`), 400, /together/);
  });

  it('answers the relay client’s poll (one tag, pending statuses, paged) from the tag index: no scan, no sort', async () => {
    const query = { tags: 'spring', status: 'queued,scheduled,processed,deferred', limit: '100' };
    const plan = server.core.emailRelay.listPlan('1001', query);
    expect(plan.join('\n')).toMatch(/SEARCH t USING PRIMARY KEY \(account_id=\? AND tag=\?/);
    expect(plan.join('\n')).not.toMatch(/SCAN|TEMP B-TREE/);
    expect(ids(await list('tags=spring&status=queued,scheduled,processed,deferred&limit=100'))).toEqual([]);
  });
});
