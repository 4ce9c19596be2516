// Programs see what the Inbox sees (issue 36 item 1): the simulator's replies read in the app
// through the web bridge's contracts are the very ones version 1's sms/receive returns, and its
// read flag keeps its meaning (isread=0 gives the unread ones and marks them read: a reply the
// app opened is no longer among them, and is among isread=1's); an answer sent from the Inbox is
// a panel send like any, seen by sms/select and sms/latestoutbox from the line the customer wrote to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webUiPlugin } from '../../electron/cli/web/bridge';
import {
  KEY,
  eventually,
  post,
  startServer,
  stubRendererBuild,
  tempDir,
  testSeed,
  type TestServer,
} from '../helpers/server';
import { expectV1Ok, v1 } from './calls';
import type { InboxPage, ThreadPage } from '../../shared/ipc/contracts/inbox';

const TOKEN = 'conversations-token-0123456789';
const RECEIVERS = ['09123000001', '09123000002', '09123000003'];

describe('the Inbox and version 1 read the same replies', () => {
  let server: TestServer;
  let account: number;
  beforeAll(async () => {
    const dataDir = tempDir('chapar-conv-v1-');
    server = await startServer({
      dataDir,
      seed: testSeed({
        simulator: {
          seed: 7,
          handoff_ms: 20,
          delivery_ms: 40,
          outcomes: { '10': 1 },
          reply_share: 1,
          optout_share: 0,
          reply_ms: 30,
        },
      }),
      plugins: (core) => [
        webUiPlugin({ core, token: TOKEN, rendererDir: stubRendererBuild(dataDir), url: () => server.url }),
      ],
    });
    account = server.core.accounts.findByName('acme')!.id;
  });
  afterAll(async () => server?.close());

  async function invoke<T>(channel: string, body: unknown): Promise<T> {
    const response = await fetch(`${server.url}/bridge/invoke/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { ok: boolean; value?: T; error?: unknown };
    if (!answer.ok) throw new Error(`${channel}: ${JSON.stringify(answer.error)}`);
    return answer.value as T;
  }

  it('a reply opened in the app leaves isread=0 and is in isread=1; the answer is in sms/select and latestoutbox', async () => {
    const sent = await post(
      `${server.url}/v2/sms/send`,
      { message: 'حراج', sender: '30001111', receivers: RECEIVERS },
      KEY,
    );
    expect(sent.status).toBe(200);
    const page = await eventually(async () => {
      const listed = await invoke<InboxPage>('inbox:list', { account_id: account });
      return listed.items.length === RECEIVERS.length ? listed : undefined;
    });
    const opened = page.items.find((item) => item.sender === RECEIVERS[0])!;
    expect(opened.read_at).toBeNull();

    // Opening the number's thread in the app reads its reply.
    expect(await invoke<number>('inbox:markSenderRead', { account_id: account, phone: RECEIVERS[0] })).toBe(1);
    const unread = expectV1Ok(await v1(server.url, KEY, 'sms/receive', { linenumber: '30001111', isread: 0 }));
    expect(unread.map((e: { sender: string }) => e.sender).sort()).toEqual(RECEIVERS.slice(1));
    // The same replies, field by field, as the app lists them.
    for (const entry of unread) {
      const item = page.items.find((i) => i.id === entry.messageid)!;
      expect([entry.message, entry.sender, entry.receptor]).toEqual([item.text, item.sender, item.line_number]);
    }
    const read = expectV1Ok(await v1(server.url, KEY, 'sms/receive', { linenumber: '30001111', isread: 1 }));
    expect(read.map((e: { messageid: number }) => e.messageid)).toContain(opened.id);
    expect(read.find((e: { messageid: number }) => e.messageid === opened.id)).toMatchObject({
      message: opened.text,
      sender: RECEIVERS[0],
      receptor: '30001111',
    });
    // What the API read is read in the app too.
    const after = await invoke<{ unread: number }>('inbox:counts', { account_id: account });
    expect(after.unread).toBe(0);

    // The answer from the Inbox: quoted, then sent from the line the customer wrote to.
    const answer = { account_id: account, phone: RECEIVERS[0], line_number: '30001111', message: 'ممنون از پیام شما' };
    const quote = await invoke<{ total_cost_rials: number }>('inbox:replyPreview', answer);
    const replied = await invoke<{ send_id: number; accepted: number; total_rials: number }>('inbox:reply', answer);
    expect(replied).toMatchObject({ accepted: 1, total_rials: quote.total_cost_rials });
    const thread = await invoke<ThreadPage>('inbox:thread', { account_id: account, phone: RECEIVERS[0] });
    const newest = thread.entries[0]!;
    expect(newest).toMatchObject({ kind: 'sent', line_number: '30001111', origin: 'panel' });
    expect(newest.text).toContain('ممنون از پیام شما');

    const selected = expectV1Ok(await v1(server.url, KEY, 'sms/select', { messageid: newest.id }));
    expect(selected).toHaveLength(1);
    expect(selected[0]).toMatchObject({
      messageid: newest.id,
      sender: '30001111',
      receptor: RECEIVERS[0],
      cost: quote.total_cost_rials,
    });
    const latest = expectV1Ok(await v1(server.url, KEY, 'sms/latestoutbox', { pagesize: 1 }));
    expect(latest[0]).toMatchObject({ messageid: newest.id, sender: '30001111', receptor: RECEIVERS[0] });

    // A line the customer did not write to answers nothing: 404 in the bridge's refusal.
    await expect(invoke('inbox:reply', { ...answer, line_number: '30002222' })).rejects.toThrow(/404/);
  });
});
