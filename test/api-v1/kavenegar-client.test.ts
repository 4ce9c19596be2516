// The previous provider's official Node client (npm `kavenegar`), unpatched, against Chapar: it
// always dials api.kavenegar.com:80, so Node is given an agent that dials Chapar's test address
// instead (what a hosts-file entry and a port forward would do). Send, Status, a scheduled send
// cancelled and refunded, StatusLocalMessageid, SendArray, and each error code the client passes
// to its callback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INACTIVE_KEY, KEY, startServer, testSeed, type TestServer } from '../helpers/server';
import { ApiCode, apiCodeMessage } from '../../shared/status';
import { MessageStatus, messageStatusText } from '../../shared/lifecycle';
import { receptors } from './calls';
import { call, dialServer, type Answer } from './kavenegar';

const WALLED_KEY = 'k-walled-v1-client';
const POOR_KEY = 'k-poor-v1-client';

let server: TestServer;
let restoreAgent: (() => void) | undefined;
beforeAll(async () => {
  const seed = testSeed();
  seed.accounts!.push(
    {
      name: 'walled',
      credit_rials: 100_000,
      api_keys: [WALLED_KEY],
      ip_allowlist: ['192.0.2.0/24'],
      lines: [{ number: '30008881', provider: 'sms', permissions: ['can_send_api_campaign'] }],
    },
    {
      name: 'poor',
      credit_rials: 1_000,
      api_keys: [POOR_KEY],
      ip_allowlist: ['127.0.0.1'],
      lines: [{ number: '30008882', provider: 'sms', permissions: ['can_send_api_campaign'] }],
    },
  );
  server = await startServer({ seed, startScheduler: false });
  restoreAgent = dialServer(server.url);
});
afterAll(async () => {
  restoreAgent?.();
  await server?.close();
});

function expectRefused(answer: Answer, code: ApiCode): void {
  expect(answer).toEqual({ entries: null, status: code, message: apiCodeMessage[code] });
}

const balance = (name: string) => server.core.credit.balance(server.core.accounts.findByName(name)!.id);

describe('the official Node client against Chapar', () => {
  it('sends, and reads the statuses of what it sent', async () => {
    const sent = await call(KEY, 'Send', {
      message: 'خدمات پیام کوتاه چاپار',
      sender: '30001111',
      receptor: '09121150001,09121150002',
    });
    expect(sent.status).toBe(200);
    expect(sent.message).toBe(apiCodeMessage[200]);
    expect(sent.entries).toHaveLength(2);
    expect(sent.entries[0]).toMatchObject({
      receptor: '09121150001',
      sender: '30001111',
      status: MessageStatus.Queued,
      statustext: messageStatusText[MessageStatus.Queued],
    });
    expect(sent.entries[0].message).toContain('خدمات پیام کوتاه چاپار');
    // A list as an array: the client sends it as repeated keys.
    const ids = sent.entries.map((entry: { messageid: number }) => entry.messageid);
    for (const messageid of [ids.join(','), ids]) {
      const status = await call(KEY, 'Status', { messageid });
      expect(status.status).toBe(200);
      expect(status.entries).toEqual(
        ids.map((id: number) => ({ messageid: id, status: 1, statustext: messageStatusText[MessageStatus.Queued] })),
      );
    }
  });

  it('cancels a scheduled send: status 2, then 13, the credit given back', async () => {
    const before = balance('acme');
    const sent = await call(KEY, 'Send', {
      message: 'later',
      sender: '30001111',
      receptor: '09121150011',
      date: Math.floor(Date.now() / 1000) + 3600,
    });
    expect(sent.status).toBe(200);
    expect(sent.entries[0].status).toBe(MessageStatus.Scheduled);
    expect(balance('acme')).toBe(before - sent.entries[0].cost);
    const cancelled = await call(KEY, 'Cancel', { messageid: sent.entries[0].messageid });
    expect(cancelled.status).toBe(200);
    expect(cancelled.entries).toEqual([
      {
        messageid: sent.entries[0].messageid,
        status: MessageStatus.Cancelled,
        statustext: messageStatusText[MessageStatus.Cancelled],
      },
    ]);
    expect(balance('acme')).toBe(before);
    const status = await call(KEY, 'Status', { messageid: sent.entries[0].messageid });
    expect(status.entries[0].status).toBe(MessageStatus.Cancelled);
  });

  it('reads statuses by local message id, and a local id again sends nothing', async () => {
    const sent = await call(KEY, 'Send', {
      message: 'local',
      sender: '30001111',
      receptor: '09121150021,09121150022',
      localid: 'client-1,client-2',
    });
    expect(sent.status).toBe(200);
    const again = await call(KEY, 'Send', {
      message: 'local',
      sender: '30001111',
      receptor: '09121150021,09121150022',
      localid: 'client-1,client-2',
    });
    expect(again.entries).toEqual(sent.entries);
    const status = await call(KEY, 'StatusLocalMessageid', { localid: 'client-2,client-1,client-9' });
    expect(status.status).toBe(200);
    expect(status.entries).toEqual([
      { messageid: sent.entries[1].messageid, localid: 'client-2', status: 1, statustext: expect.any(String) },
      { messageid: sent.entries[0].messageid, localid: 'client-1', status: 1, statustext: expect.any(String) },
      { messageid: 0, localid: 'client-9', status: 100, statustext: messageStatusText[MessageStatus.UnknownId] },
    ]);
  });

  it('sends arrays of triples, as JSON arrays in form fields', async () => {
    const sent = await call(KEY, 'SendArray', {
      receptor: JSON.stringify(['09121150031', '09121150032']),
      sender: JSON.stringify(['30001111', '30001111']),
      message: JSON.stringify(['first, of two', 'second']),
      localmessageids: JSON.stringify(['arr-c-1', 'arr-c-2']),
    });
    expect(sent.status).toBe(200);
    expect(sent.entries.map((entry: { receptor: string }) => entry.receptor)).toEqual(['09121150031', '09121150032']);
    expect(sent.entries[0].message).toContain('first, of two');
    expect(sent.entries[1].message).toContain('second');
  });

  it('passes each refusal to its callback: 403, 401, 416, 411, 412, 414, 417, 418, 419', async () => {
    const send = { message: 'x', sender: '30001111', receptor: '09121150041' };
    expectRefused(await call('no-such-key', 'Send', send), 403);
    expectRefused(await call(INACTIVE_KEY, 'Send', send), 401);
    expectRefused(await call(WALLED_KEY, 'Send', { ...send, sender: '30008881' }), 416);
    expectRefused(await call(KEY, 'Send', { ...send, receptor: '12345' }), 411);
    expectRefused(await call(KEY, 'Send', { ...send, sender: '30009999' }), 412);
    expectRefused(await call(KEY, 'Send', { ...send, receptor: receptors(201).join(',') }), 414);
    expectRefused(
      await call(KEY, 'Status', { messageid: Array.from({ length: 501 }, (_, i) => i + 1).join(',') }),
      414,
    );
    expectRefused(await call(KEY, 'Send', { ...send, date: Math.floor(Date.now() / 1000) - 3600 }), 417);
    expectRefused(await call(POOR_KEY, 'Send', { ...send, sender: '30008882' }), 418);
    expectRefused(
      await call(KEY, 'SendArray', {
        receptor: JSON.stringify(['09121150042', '09121150043']),
        sender: JSON.stringify(['30001111']),
        message: JSON.stringify(['a', 'b']),
      }),
      419,
    );
  });
});
