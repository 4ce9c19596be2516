// What follows a version 1 send (reference/kavenegar-v1.md §1.3, 1.4, 1.9): sms/status and
// sms/statuslocalmessageid answer per id in order (unknown and other accounts' ids as 100), and
// sms/cancel moves scheduled (and still queued) messages to 13 with their cost refunded once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, KEY, OTHER_KEY, startServer, testSeed, type TestServer } from '../helpers/server';
import { MessageStatus, messageStatusText } from '../../shared/lifecycle';
import { expectV1Error, expectV1Ok, receptors, v1 } from './calls';

const PLANNER_KEY = 'k-planner-v1-cancel';

let server: TestServer;
beforeAll(async () => {
  const seed = testSeed();
  seed.accounts![1]!.ip_allowlist = ['127.0.0.1'];
  // An account of scheduled sends only: no carrier outcome moves its balance while a test reads it.
  seed.accounts!.push({
    name: 'planner',
    credit_rials: 1_000_000,
    api_keys: [PLANNER_KEY],
    ip_allowlist: ['127.0.0.1'],
    lines: [{ number: '30006661', provider: 'sms', permissions: ['can_send_api_campaign'] }],
  });
  server = await startServer({ seed });
});
afterAll(async () => server?.close());

const balance = (name: string) => server.core.credit.balance(server.core.accounts.findByName(name)!.id);
const refunds = (messageId: number) =>
  server.core.db
    .prepare("SELECT COUNT(*) AS n FROM credit_ledger WHERE kind = 'refund' AND message_id = ?")
    .get(messageId);
const unknown = (messageid: number) => ({
  messageid,
  status: MessageStatus.UnknownId,
  statustext: messageStatusText[MessageStatus.UnknownId],
});

async function send(key: string, params: Record<string, string | number>) {
  const result = await v1(server.url, key, 'sms/send', params);
  expectV1Ok(result);
  return result.body.entries as Array<{ messageid: number; status: number; cost: number }>;
}

describe('sms/status', () => {
  it('answers each id in order: own messages with their status, unknown and foreign ids with 100', async () => {
    const mine = await send(KEY, { receptor: '09121130001,09121130002', sender: '30001111', message: 'x' });
    const theirs = await send(OTHER_KEY, { receptor: '09121130003', sender: '30009999', message: 'x' });
    const ids = [mine[1]!.messageid, 987_654_321, theirs[0]!.messageid, mine[0]!.messageid];
    const result = await v1(server.url, KEY, 'sms/status', { messageid: ids.join(',') }, 'GET');
    expectV1Ok(result);
    const [second, missing, foreign, first] = result.body.entries;
    expect(missing).toEqual(unknown(987_654_321));
    expect(foreign).toEqual(unknown(theirs[0]!.messageid));
    for (const [entry, id] of [
      [second, mine[1]!.messageid],
      [first, mine[0]!.messageid],
    ] as const) {
      expect(Object.keys(entry).sort()).toEqual(['messageid', 'status', 'statustext']);
      expect(entry.messageid).toBe(id);
      expect(entry.statustext).toBe(messageStatusText[entry.status as MessageStatus]);
      expect(entry.status).not.toBe(MessageStatus.UnknownId);
    }
    // The carrier moves them on; the status follows.
    await eventually(async () => {
      const later = await v1(server.url, KEY, 'sms/status', { messageid: mine[0]!.messageid });
      return later.body.entries[0].status >= MessageStatus.HandedToCarrier ? true : undefined;
    });
  });

  it('takes 500 ids, refuses 501 (414), and needs ids that are ids (400)', async () => {
    const ids = Array.from({ length: 501 }, (_, i) => i + 1);
    expectV1Error(await v1(server.url, KEY, 'sms/status', { messageid: ids.join(',') }), 414);
    const fine = await v1(server.url, KEY, 'sms/status', { messageid: ids.slice(0, 500).join(',') });
    expectV1Ok(fine);
    expect(fine.body.entries).toHaveLength(500);
    expectV1Error(await v1(server.url, KEY, 'sms/status', {}), 400);
    expectV1Error(await v1(server.url, KEY, 'sms/status', { messageid: '12,abc' }), 400);
  });
});

describe('sms/statuslocalmessageid', () => {
  it('answers by the caller’s own ids: message id, local id and status; unknown ones as message 0, status 100', async () => {
    const sent = await send(KEY, {
      receptor: '09121130011,09121130012',
      sender: '30001111',
      message: 'x',
      localid: 'st-1,st-2',
      date: Math.floor(Date.now() / 1000) + 3600,
    });
    await send(OTHER_KEY, { receptor: '09121130013', sender: '30009999', message: 'x', localid: 'st-other' });
    const result = await v1(server.url, KEY, 'sms/statuslocalmessageid', {
      localid: ['st-2', 'nope', 'st-other', 'st-1'],
    });
    expectV1Ok(result);
    const scheduled = { status: MessageStatus.Scheduled, statustext: messageStatusText[MessageStatus.Scheduled] };
    const none = { messageid: 0, status: 100, statustext: messageStatusText[MessageStatus.UnknownId] };
    expect(result.body.entries).toEqual([
      { messageid: sent[1]!.messageid, localid: 'st-2', ...scheduled },
      { localid: 'nope', ...none },
      { localid: 'st-other', ...none },
      { messageid: sent[0]!.messageid, localid: 'st-1', ...scheduled },
    ]);
  });

  it('takes 500 local ids, refuses 501 (414) and none (400)', async () => {
    const ids = Array.from({ length: 501 }, (_, i) => `l-${i}`);
    expectV1Error(await v1(server.url, KEY, 'sms/statuslocalmessageid', { localid: ids.join(',') }), 414);
    const fine = await v1(server.url, KEY, 'sms/statuslocalmessageid', { localid: ids.slice(1).join(',') });
    expectV1Ok(fine);
    expect(fine.body.entries).toHaveLength(500);
    expectV1Error(await v1(server.url, KEY, 'sms/statuslocalmessageid', { localid: '' }), 400);
  });
});

describe('sms/cancel', () => {
  it('cancels a scheduled send: 13, its cost back once; a second cancel changes nothing', async () => {
    const before = balance('planner');
    const sent = await send(PLANNER_KEY, {
      receptor: '09121130021,09121130022',
      sender: '30006661',
      message: 'later',
      date: Math.floor(Date.now() / 1000) + 3600,
    });
    expect(sent.map((entry) => entry.status)).toEqual([2, 2]);
    const charged = sent[0]!.cost + sent[1]!.cost;
    expect(balance('planner')).toBe(before - charged);

    const cancelled = await v1(server.url, PLANNER_KEY, 'sms/cancel', { messageid: sent[0]!.messageid });
    expectV1Ok(cancelled);
    const thirteen = { status: MessageStatus.Cancelled, statustext: messageStatusText[MessageStatus.Cancelled] };
    expect(cancelled.body.entries).toEqual([{ messageid: sent[0]!.messageid, ...thirteen }]);
    expect(balance('planner')).toBe(before - sent[1]!.cost);

    const again = await v1(server.url, PLANNER_KEY, 'sms/cancel', {
      messageid: [sent[0]!.messageid, sent[1]!.messageid, sent[0]!.messageid],
    });
    expectV1Ok(again);
    expect(again.body.entries).toEqual([
      { messageid: sent[0]!.messageid, ...thirteen },
      { messageid: sent[1]!.messageid, ...thirteen },
      { messageid: sent[0]!.messageid, ...thirteen },
    ]);
    expect(balance('planner')).toBe(before);
    expect(refunds(sent[0]!.messageid)).toEqual({ n: 1 });
    expect(refunds(sent[1]!.messageid)).toEqual({ n: 1 });
    const status = await v1(server.url, PLANNER_KEY, 'sms/status', { messageid: sent[0]!.messageid });
    expect(status.body.entries[0].status).toBe(MessageStatus.Cancelled);
  });

  it("answers a message the carrier has with its status, and unknown or another account's ids with 100", async () => {
    const [handed] = await send(KEY, { receptor: '09121130031', sender: '30001111', message: 'now' });
    const [theirs] = await send(OTHER_KEY, {
      receptor: '09121130032',
      sender: '30009999',
      message: 'later',
      date: Math.floor(Date.now() / 1000) + 3600,
    });
    await eventually(async () => {
      const status = await v1(server.url, KEY, 'sms/status', { messageid: handed!.messageid });
      const now = status.body.entries[0].status as number;
      return now !== MessageStatus.Queued ? now : undefined;
    });
    const result = await v1(server.url, KEY, 'sms/cancel', {
      messageid: `${handed!.messageid},${theirs!.messageid},987654321`,
    });
    expectV1Ok(result);
    const [own, foreign, missing] = result.body.entries;
    expect(own.messageid).toBe(handed!.messageid);
    // Where the carrier has it (13 only if the carrier itself reported it).
    expect([4, 6, 10, 11, 13, 14]).toContain(own.status);
    expect(foreign).toEqual(unknown(theirs!.messageid));
    expect(missing).toEqual(unknown(987_654_321));
    // Theirs is untouched.
    const otherStatus = await v1(server.url, OTHER_KEY, 'sms/status', { messageid: theirs!.messageid });
    expect(otherStatus.body.entries[0].status).toBe(MessageStatus.Scheduled);
  });

  it('takes 500 ids, refuses 501 (414) and none (400)', async () => {
    const ids = receptors(501).map((_, i) => 900_000 + i);
    expectV1Error(await v1(server.url, KEY, 'sms/cancel', { messageid: ids.join(',') }), 414);
    const fine = await v1(server.url, KEY, 'sms/cancel', { messageid: ids.slice(1).join(',') });
    expectV1Ok(fine);
    expect(fine.body.entries.every((entry: { status: number }) => entry.status === 100)).toBe(true);
    expectV1Error(await v1(server.url, KEY, 'sms/cancel', {}), 400);
  });
});
