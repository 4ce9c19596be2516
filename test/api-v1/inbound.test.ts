// Inbound messages end to end over HTTP (issue 14 item 4): the simulator answers delivered
// messages with replies, some of them opt-outs; a program reads them through version 1's
// sms/receive and sms/countinbox, and an opted-out number is blocked (14, refunded) on the next send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, eventually, post, startServer, testSeed, type TestServer } from '../helpers/server';
import { expectV1Ok, v1 } from './calls';
import { isOptOutReply } from '../../shared/optout';
import { MessageStatus } from '../../shared/lifecycle';

const RECEIVERS = Array.from({ length: 40 }, (_, i) => `0912${String(3000000 + i)}`);

describe('inbound replies through the simulator, read with version 1', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Every delivered message gets a reply soon after; half of the replies opt out.
    server = await startServer({
      seed: testSeed({
        simulator: {
          seed: 7,
          handoff_ms: 20,
          delivery_ms: 40,
          outcomes: { '10': 1 },
          reply_share: 1,
          optout_share: 0.5,
          reply_ms: 30,
        },
      }),
    });
  });
  afterAll(async () => server?.close());

  it('answers each delivered message once, puts opt-out replies on the list, and reads them once as unread', async () => {
    const sent = await post(`${server.url}/v2/sms/send`, { message: 'حراج', sender: '30001111', receivers: RECEIVERS });
    expect(sent.status).toBe(200);
    const since = Math.floor(Date.now() / 1000) - 60;

    const counted = await eventually(async () => {
      const result = await v1(server.url, KEY, 'sms/countinbox', { startdate: since, linenumber: '30001111' }, 'GET');
      const [entry] = expectV1Ok(result);
      return entry.sumcount === RECEIVERS.length ? entry : undefined;
    });
    expect(counted.sumcount).toBe(RECEIVERS.length);

    // Unread ones, marked read as they are read: a second call gets none of them again.
    const first = expectV1Ok(await v1(server.url, KEY, 'sms/receive', { linenumber: '30001111', isread: 0 }));
    expect(first).toHaveLength(RECEIVERS.length);
    expect(new Set(first.map((entry: { sender: string }) => entry.sender))).toEqual(new Set(RECEIVERS));
    for (const entry of first) {
      expect(entry.receptor).toBe('30001111');
      expect(Object.keys(entry).sort()).toEqual(['date', 'message', 'messageid', 'receptor', 'sender']);
    }
    expect(expectV1Ok(await v1(server.url, KEY, 'sms/receive', { linenumber: '30001111', isread: 0 }))).toEqual([]);
    const read = expectV1Ok(await v1(server.url, KEY, 'sms/receive', { linenumber: '30001111', isread: 1 }));
    expect(read).toHaveLength(RECEIVERS.length);

    // The opt-out replies, and only they, put their senders on the account's opt-out list.
    const optedOut = first.filter((entry: { message: string }) => isOptOutReply(entry.message));
    expect(optedOut.length).toBeGreaterThan(5);
    expect(optedOut.length).toBeLessThan(RECEIVERS.length - 5);
    const acme = server.core.accounts.findByName('acme')!.id;
    for (const entry of first) expect(server.core.optouts.has(acme, entry.sender)).toBe(isOptOutReply(entry.message));

    // The next send to an opted-out number is accepted (spec: status 1) and ends 14, refunded.
    const again = await post(`${server.url}/v2/sms/send`, {
      message: 'دوباره',
      sender: '30001111',
      receivers: [optedOut[0].sender],
    });
    const id = again.body.entries[0].messageid as number;
    const status = await eventually(async () => {
      const looked = await post(`${server.url}/v2/sms/status`, { messageids: [id] });
      const entry = looked.body.entries[0];
      return entry.status === MessageStatus.Blocked ? entry : undefined;
    });
    expect(status.status).toBe(MessageStatus.Blocked);
  });
});
