// POST /v2/sms/status (spec 4.2, 2.3, 3.1): ids answered in the order asked; unknown ids and ids of
// another account are 100; more than 10,000 ids is 414; anything but an array of integers is 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import { OTHER_KEY, post, startServer, type TestServer } from '../helpers/server';
import { expectEnvelope, expectError, phones, type HttpResult } from './support';

const UNKNOWN = { status: 100, statustext: 'شناسه پیامک نامعتبر است' };
const QUEUED = { status: 1, statustext: 'در صف ارسال' };

let server: TestServer;
let clock: ManualClock;
let own: number[];
let others: number[];

const status = (body: unknown, key?: string): Promise<HttpResult> => post(`${server.url}/v2/sms/status`, body, key);

beforeAll(async () => {
  clock = new ManualClock();
  server = await startServer({ clock });
  const sent = await post(`${server.url}/v2/sms/send`, { message: 'x', sender: '30001111', receivers: phones(3) });
  own = sent.body.entries.map((e: { messageid: number }) => e.messageid);
  const theirs = await post(
    `${server.url}/v2/sms/send`,
    { message: 'x', sender: '30009999', receivers: phones(2) },
    OTHER_KEY,
  );
  others = theirs.body.entries.map((e: { messageid: number }) => e.messageid);
  expect(own.every((id) => id > 0) && others.every((id) => id > 0)).toBe(true);
});
afterAll(() => server.close());

describe('status lookup', () => {
  it('answers own ids with their status, in the order asked, duplicates included', async () => {
    const asked = [own[2]!, own[0]!, own[2]!, own[1]!];
    const result = await status({ messageids: asked });
    expectEnvelope(result, 200);
    expect(result.body.entries).toEqual(asked.map((messageid) => ({ messageid, ...QUEUED })));
  });

  it('answers unknown ids and ids of another account with 100, interleaved in place', async () => {
    const asked = [others[0]!, own[0]!, 987_654_321, 0, -5, others[1]!, own[1]!, Number.MAX_SAFE_INTEGER];
    const result = await status({ messageids: asked });
    expectEnvelope(result, 200);
    expect(result.body.entries).toEqual([
      { messageid: others[0], ...UNKNOWN },
      { messageid: own[0], ...QUEUED },
      { messageid: 987_654_321, ...UNKNOWN },
      { messageid: 0, ...UNKNOWN },
      { messageid: -5, ...UNKNOWN },
      { messageid: others[1], ...UNKNOWN },
      { messageid: own[1], ...QUEUED },
      { messageid: Number.MAX_SAFE_INTEGER, ...UNKNOWN },
    ]);
    // The other account sees its own ids, and acme's as unknown.
    const theirs = await status({ messageids: [others[0]!, own[0]!] }, OTHER_KEY);
    expect(theirs.body.entries).toEqual([
      { messageid: others[0], ...QUEUED },
      { messageid: own[0], ...UNKNOWN },
    ]);
  });

  it('follows the lifecycle: 1, then 4, then a final status', async () => {
    const sim = server.core.settings.simulator();
    clock.advance(sim.handoff_ms);
    await server.core.scheduler.waitForIdle();
    const handed = await status({ messageids: own });
    expect(handed.body.entries.map((e: { status: number }) => e.status)).toEqual([4, 4, 4]);
    expect(handed.body.entries[0].statustext).toBe('ارسال شده به مخابرات');
    clock.advance(sim.delivery_ms);
    await server.core.scheduler.waitForIdle();
    const final = await status({ messageids: own });
    for (const entry of final.body.entries) expect([10, 11, 13, 14]).toContain(entry.status);
  });

  it('takes an empty list and answers no entries', async () => {
    const result = await status({ messageids: [] });
    expectEnvelope(result, 200);
    expect(result.body.entries).toEqual([]);
  });

  it('takes 10,000 ids (a whole send) and refuses 10,001 with 414', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => (i % 2 ? own[0]! : 10_000_000 + i));
    const result = await status({ messageids: many });
    expectEnvelope(result, 200);
    expect(result.body.entries).toHaveLength(10_000);
    expect(result.body.entries[9_999].messageid).toBe(own[0]);
    expect(result.body.entries[9_999].status).not.toBe(100);
    expect(result.body.entries[9_998]).toMatchObject({ messageid: 10_009_998, status: 100 });
    expectError(await status({ messageids: Array(10_001).fill(own[0]) }), 414);
    expectError(await status({ messageids: Array(100_000).fill(1) }), 414);
  });

  it.each<[string, unknown]>([
    ['a fraction', { messageids: [1.5] }],
    ['a numeric string', { messageids: ['1'] }],
    ['null', { messageids: [null] }],
    ['a boolean', { messageids: [true] }],
    ['a nested array', { messageids: [[1]] }],
    ['an object', { messageids: [{ id: 1 }] }],
    ['messageids a number', { messageids: 1 }],
    ['messageids a string', { messageids: '1,2' }],
    ['messageids null', { messageids: null }],
    ['messageids missing', {}],
    ['an array body', [1, 2]],
    ['malformed JSON', '{"messageids": [1,'],
    ['an empty body', ''],
    ['a number beyond 2^53 (not an exact integer)', '{"messageids": [9007199254740993]}'],
    ['1e300', '{"messageids": [1e300]}'],
    ['a number JSON turns into Infinity', '{"messageids": [1e400]}'],
    ['a huge negative', '{"messageids": [-1e400]}'],
  ])('refuses %s with 400', async (_label, body) => {
    expectError(await status(body), 400);
  });
});
