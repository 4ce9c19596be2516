// Version 1's sends (reference/kavenegar-v1.md §1.1, 1.2): sms/send and sms/sendarray map onto the
// one acceptance path. Entries per receptor in submitted order, the default sender, scheduled sends,
// the limits and codes (400, 411, 412, 414, 417, 418, 419), localid idempotency, and sendarray's
// all-or-nothing credit over senders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, startServer, testSeed, type TestServer } from '../helpers/server';
import type { Seed } from '../../electron/service/seed';
import { MessageStatus, messageStatusText } from '../../shared/lifecycle';
import { expectV1Error, expectV1Ok, MESSAGE_ENTRY_FIELDS, receptors, v1 } from './calls';

const POOR_KEY = 'k-poor-v1-send';
const BARE_KEY = 'k-bare-v1-send';

function seed(): Seed {
  const base = testSeed();
  base.accounts![0]!.lines!.push({ number: '30003333', provider: 'sms', permissions: ['can_send_api_campaign'] });
  base.accounts!.push(
    {
      // Enough for two one-page messages, not three.
      name: 'poor',
      credit_rials: 4_000,
      api_keys: [POOR_KEY],
      ip_allowlist: ['127.0.0.1'],
      lines: [
        { number: '30004441', provider: 'sms', permissions: ['can_send_api_campaign'] },
        { number: '30004442', provider: 'sms', permissions: ['can_send_api_campaign'] },
      ],
    },
    {
      // No SMS line that may send by API: a send without a sender has none to go from.
      name: 'bare',
      credit_rials: 1_000_000,
      api_keys: [BARE_KEY],
      ip_allowlist: ['127.0.0.1'],
      lines: [
        { number: '30005551', provider: 'sms', permissions: ['can_send_panel_campaign'] },
        { number: 'bale_bare_bot', provider: 'bale', permissions: ['can_send_api_campaign'] },
      ],
    },
  );
  return base;
}

let server: TestServer;
beforeAll(async () => {
  // No scheduler: messages stay as accepted, so no carrier outcome refunds one between two balance reads.
  server = await startServer({ seed: seed(), startScheduler: false });
});
afterAll(async () => server?.close());

const accountId = (name: string) => server.core.accounts.findByName(name)!.id;
const balance = (name: string) => server.core.credit.balance(accountId(name));
const count = (sql: string, ...args: unknown[]) => (server.core.db.prepare(sql).get(...args) as { n: number }).n;
const messagesOf = (name: string) => count('SELECT COUNT(*) AS n FROM messages WHERE account_id = ?', accountId(name));

describe('sms/send', () => {
  it('answers one message entry per receptor, in order, charged as the acceptance path prices them', async () => {
    const before = balance('acme');
    const started = Date.now();
    const result = await v1(server.url, KEY, 'sms/send', {
      receptor: '09121110001,+989121110002',
      sender: '30001111',
      message: 'سلام',
    });
    expectV1Ok(result);
    const entries = result.body.entries;
    expect(entries).toHaveLength(2);
    for (const entry of entries) expect(Object.keys(entry).sort()).toEqual(MESSAGE_ENTRY_FIELDS);
    expect(entries.map((entry: { receptor: string }) => entry.receptor)).toEqual(['09121110001', '09121110002']);
    expect(entries[1].messageid).toBe(entries[0].messageid + 1);
    const quote = server.core.messaging.accept.quote({
      accountId: accountId('acme'),
      origin: 'api-v1',
      sender: '30001111',
      text: 'سلام',
      receivers: ['09121110001'],
      rule: 'strict',
    });
    for (const entry of entries) {
      expect(entry).toMatchObject({
        message: quote.price.text,
        status: MessageStatus.Queued,
        statustext: messageStatusText[MessageStatus.Queued],
        sender: '30001111',
        cost: quote.price.costRials,
      });
      expect(entry.date).toBeGreaterThanOrEqual(Math.floor(started / 1000) - 1);
      expect(entry.date).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
    }
    expect(balance('acme')).toBe(before - 2 * quote.price.costRials);
    const row = server.core.db
      .prepare('SELECT origin, api_version FROM sends s JOIN messages m ON m.send_id = s.id WHERE m.id = ?')
      .get(entries[0].messageid);
    expect(row).toEqual({ origin: 'api', api_version: 1 });
  });

  it('gives an invalid receptor status 0 and a repeated one 15, without a message or a charge', async () => {
    const before = balance('acme');
    const result = await v1(server.url, KEY, 'sms/send', {
      receptor: '12345,09121110003,9121110003,00989121110004',
      sender: '30001111',
      message: 'hi',
    });
    expectV1Ok(result);
    const [bad, good, repeated, foreign] = result.body.entries;
    expect(bad).toMatchObject({ messageid: 0, status: 0, receptor: '12345', cost: 0, sender: '', message: '' });
    expect(good).toMatchObject({ status: MessageStatus.Queued, receptor: '09121110003' });
    expect(good.messageid).toBeGreaterThan(0);
    expect(repeated).toMatchObject({ messageid: 0, status: 15, receptor: '09121110003', cost: 0 });
    // Spec 4.1's pattern is the API's: 0098 is not one of its forms.
    expect(foreign).toMatchObject({ messageid: 0, status: 0 });
    expect(bad.statustext).toBe(messageStatusText[MessageStatus.Invalid]);
    expect(repeated.statustext).toBe(messageStatusText[MessageStatus.Duplicate]);
    expect(balance('acme')).toBe(before - good.cost);
  });

  it('refuses a call without one valid receptor (411) and records nothing', async () => {
    const before = messagesOf('acme');
    expectV1Error(
      await v1(server.url, KEY, 'sms/send', { receptor: '123,abc', sender: '30001111', message: 'x' }),
      411,
    );
    expect(messagesOf('acme')).toBe(before);
  });

  it('needs receptor and message (400)', async () => {
    expectV1Error(await v1(server.url, KEY, 'sms/send', { sender: '30001111', message: 'x' }), 400);
    expectV1Error(await v1(server.url, KEY, 'sms/send', { receptor: '09121110001', sender: '30001111' }), 400);
    expectV1Error(await v1(server.url, KEY, 'sms/send', { receptor: ',,', message: 'x' }), 400);
  });

  it('takes 200 receptors in one call and refuses 201 (414)', async () => {
    const before = messagesOf('acme');
    expectV1Error(
      await v1(server.url, KEY, 'sms/send', { receptor: receptors(201, 5000).join(','), message: 'x' }),
      414,
    );
    expect(messagesOf('acme')).toBe(before);
    const started = performance.now();
    const result = await v1(server.url, KEY, 'sms/send', { receptor: receptors(200, 5000).join(','), message: 'x' });
    const took = performance.now() - started;
    expectV1Ok(result);
    expect(result.body.entries).toHaveLength(200);
    expect(messagesOf('acme')).toBe(before + 200);
    console.log(`v1 sms/send of 200 receptors: ${took.toFixed(1)} ms`);
    expect(took).toBeLessThan(5_000);
  });

  it('sends from the default sender when none is named, else from the first SMS line that may send by API', async () => {
    const first = await v1(server.url, KEY, 'sms/send', { receptor: '09121110010', message: 'x' });
    expectV1Ok(first);
    expect(first.body.entries[0].sender).toBe('30001111');
    server.core.accountConfig.set(accountId('acme'), { defaultsender: '30003333' });
    try {
      const second = await v1(server.url, KEY, 'sms/send', { receptor: '09121110010', message: 'x', sender: '' });
      expectV1Ok(second);
      expect(second.body.entries[0].sender).toBe('30003333');
    } finally {
      server.core.accountConfig.set(accountId('acme'), { defaultsender: '' });
    }
    expectV1Error(await v1(server.url, BARE_KEY, 'sms/send', { receptor: '09121110010', message: 'x' }), 412);
  });

  it('refuses a sender that is not a line of the account, or may not send by API (412)', async () => {
    const before = messagesOf('acme');
    for (const sender of ['30009999', '30002222', '99999999', 'bale_bare_bot'])
      expectV1Error(await v1(server.url, KEY, 'sms/send', { receptor: '09121110011', sender, message: 'x' }), 412);
    expect(messagesOf('acme')).toBe(before);
  });

  it('schedules a send with a future date (status 2), sends now with 0, and refuses a past or broken date (417)', async () => {
    const at = Math.floor(Date.now() / 1000) + 3600;
    const later = await v1(server.url, KEY, 'sms/send', {
      receptor: '09121110020',
      sender: '30001111',
      message: 'later',
      date: at,
    });
    expectV1Ok(later);
    expect(later.body.entries[0]).toMatchObject({
      status: MessageStatus.Scheduled,
      statustext: messageStatusText[MessageStatus.Scheduled],
    });
    const now = await v1(server.url, KEY, 'sms/send', { receptor: '09121110021', message: 'now', date: 0 });
    expect(now.body.entries[0].status).toBe(MessageStatus.Queued);
    const before = messagesOf('acme');
    for (const date of [Math.floor(Date.now() / 1000) - 3600, 'tomorrow', '-5', '1.5'])
      expectV1Error(await v1(server.url, KEY, 'sms/send', { receptor: '09121110022', message: 'x', date }), 417);
    expect(messagesOf('acme')).toBe(before);
  });

  it('refuses a send the credit does not cover (418), charging and recording nothing', async () => {
    const before = [balance('poor'), messagesOf('poor')];
    expectV1Error(
      await v1(server.url, POOR_KEY, 'sms/send', { receptor: receptors(3, 7000).join(','), message: 'x' }),
      418,
    );
    expect([balance('poor'), messagesOf('poor')]).toEqual(before);
  });

  it('answers a localid used before with its earlier message: no second message, no second charge', async () => {
    const params = { receptor: '09121110030,09121110031', sender: '30001111', message: 'once', localid: 'ord-1,ord-2' };
    const first = await v1(server.url, KEY, 'sms/send', params);
    expectV1Ok(first);
    const [before, messages] = [balance('acme'), messagesOf('acme')];
    const again = await v1(server.url, KEY, 'sms/send', params, 'GET');
    expectV1Ok(again);
    expect(again.body.entries).toEqual(first.body.entries);
    expect([balance('acme'), messagesOf('acme')]).toEqual([before, messages]);

    // One known, one new: the known one answers as before, only the new one is sent and charged.
    const mixed = await v1(server.url, KEY, 'sms/send', {
      receptor: '09121110031,09121110032',
      sender: '30001111',
      message: 'once more',
      localid: 'ord-2,ord-3',
    });
    expectV1Ok(mixed);
    expect(mixed.body.entries[0]).toEqual(first.body.entries[1]);
    expect(mixed.body.entries[1]).toMatchObject({
      receptor: '09121110032',
      message: expect.stringContaining('once more'),
    });
    expect(mixed.body.entries[1].messageid).toBeGreaterThan(first.body.entries[1].messageid);
    expect(messagesOf('acme')).toBe(messages + 1);
    expect(balance('acme')).toBe(before - mixed.body.entries[1].cost);

    // The earlier message as it is now, not as it was.
    const id = first.body.entries[0].messageid;
    server.core.messaging.lifecycle.cancel(accountId('acme'), [id]);
    const later = await v1(server.url, KEY, 'sms/send', params);
    expect(later.body.entries[0]).toMatchObject({ messageid: id, status: MessageStatus.Cancelled });
  });

  it('needs one localid per receptor, none repeated (400)', async () => {
    const before = messagesOf('acme');
    const base = { receptor: '09121110040,09121110041', sender: '30001111', message: 'x' };
    expectV1Error(await v1(server.url, KEY, 'sms/send', { ...base, localid: 'only-one' }), 400);
    expectV1Error(await v1(server.url, KEY, 'sms/send', { ...base, localid: 'a-1,a-2,a-3' }), 400);
    expectV1Error(await v1(server.url, KEY, 'sms/send', { ...base, localid: 'same,same' }), 400);
    expect(messagesOf('acme')).toBe(before);
    // An empty member is a receptor without one.
    const partial = await v1(server.url, KEY, 'sms/send', { ...base, localid: ',lid-41' });
    expectV1Ok(partial);
    expect(server.core.messaging.statusLookup.byLocalIds(accountId('acme'), ['lid-41'])[0]!.messageid).toBe(
      partial.body.entries[1].messageid,
    );
  });

  it('takes type, hide and tag without acting on them', async () => {
    const result = await v1(server.url, KEY, 'sms/send', {
      receptor: '09121110050',
      sender: '30001111',
      message: 'x',
      type: 1,
      hide: 1,
      tag: 'news',
    });
    expectV1Ok(result);
    expect(result.body.entries[0].status).toBe(MessageStatus.Queued);
  });
});

describe('sms/sendarray', () => {
  const json = (values: readonly string[]) => JSON.stringify(values);

  it('sends each triple from its own sender with its own text, entries in submitted order', async () => {
    const before = balance('acme');
    const result = await v1(server.url, KEY, 'sms/sendarray', {
      receptor: json(['09121120001', '09121120002', '09121120003', '09121120001']),
      sender: json(['30001111', '30003333', '30001111', '30001111']),
      message: json(['one, with a comma', 'two', 'three', 'four "quoted"']),
      type: json(['1', '1', '1', '1']),
    });
    expectV1Ok(result);
    const entries = result.body.entries;
    expect(entries.map((entry: { sender: string }) => entry.sender)).toEqual([
      '30001111',
      '30003333',
      '30001111',
      '30001111',
    ]);
    expect(entries.map((entry: { receptor: string }) => entry.receptor)).toEqual([
      '09121120001',
      '09121120002',
      '09121120003',
      '09121120001',
    ]);
    expect(entries.map((entry: { message: string }) => entry.message.split('\n')[0])).toEqual([
      'one, with a comma',
      'two',
      'three',
      'four "quoted"',
    ]);
    // The same receptor twice from one sender gets both texts: two messages.
    for (const entry of entries) {
      expect(entry.status).toBe(MessageStatus.Queued);
      expect(entry.messageid).toBeGreaterThan(0);
    }
    expect(new Set(entries.map((entry: { messageid: number }) => entry.messageid)).size).toBe(4);
    const stored = entries.map(
      (entry: { messageid: number }) =>
        server.core.db
          .prepare('SELECT s.sender, m.receptor FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.id = ?')
          .get(entry.messageid) as { sender: string; receptor: string },
    );
    expect(stored.map((row: { sender: string }) => row.sender)).toEqual([
      '30001111',
      '30003333',
      '30001111',
      '30001111',
    ]);
    const total = entries.reduce((sum: number, entry: { cost: number }) => sum + entry.cost, 0);
    expect(balance('acme')).toBe(before - total);
  });

  it('is POST only: GET gets the plain 405', async () => {
    const response = await fetch(`${server.url}/v1/${KEY}/sms/sendarray.json?receptor=["09121120001"]`);
    expect(response.status).toBe(405);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('refuses arrays of different lengths (419), local ids included, and sends nothing', async () => {
    const before = messagesOf('acme');
    const base = {
      receptor: json(['09121120011', '09121120012']),
      sender: json(['30001111', '30001111']),
      message: json(['a', 'b']),
    };
    expectV1Error(await v1(server.url, KEY, 'sms/sendarray', { ...base, message: json(['a']) }), 419);
    expectV1Error(await v1(server.url, KEY, 'sms/sendarray', { ...base, sender: json(['30001111']) }), 419);
    for (const name of ['localmessageids', 'localmessageid', 'localid'])
      expectV1Error(await v1(server.url, KEY, 'sms/sendarray', { ...base, [name]: json(['x-1']) }), 419);
    expectV1Error(await v1(server.url, KEY, 'sms/sendarray', { receptor: base.receptor, message: base.message }), 400);
    expect(messagesOf('acme')).toBe(before);
  });

  it('is all or nothing for credit: a later sender short of credit (418) leaves no earlier message or charge', async () => {
    const before = [balance('poor'), messagesOf('poor')];
    const localIds = count('SELECT COUNT(*) AS n FROM local_ids WHERE account_id = ?', accountId('poor'));
    expectV1Error(
      await v1(server.url, POOR_KEY, 'sms/sendarray', {
        receptor: json(['09121120021', '09121120022', '09121120023']),
        sender: json(['30004441', '30004441', '30004442']),
        message: json(['a', 'a', 'b']),
        localmessageids: json(['p-1', 'p-2', 'p-3']),
      }),
      418,
    );
    expect([balance('poor'), messagesOf('poor')]).toEqual(before);
    expect(count('SELECT COUNT(*) AS n FROM local_ids WHERE account_id = ?', accountId('poor'))).toBe(localIds);
    // A sender refused in a later group (412) rolls the earlier groups back too.
    expectV1Error(
      await v1(server.url, KEY, 'sms/sendarray', {
        receptor: json(['09121120024', '09121120025']),
        sender: json(['30001111', '30002222']),
        message: json(['a', 'b']),
      }),
      412,
    );
    expect(count('SELECT COUNT(*) AS n FROM messages WHERE receptor IN (?, ?)', '09121120024', '09121120025')).toBe(0);
    // Two of them fit.
    const fits = await v1(server.url, POOR_KEY, 'sms/sendarray', {
      receptor: json(['09121120021', '09121120023']),
      sender: json(['30004441', '30004442']),
      message: json(['a', 'b']),
    });
    expectV1Ok(fits);
    expect(messagesOf('poor')).toBe((before[1] as number) + 2);
  });

  it('answers local ids used before with their earlier messages, and sends the rest', async () => {
    const first = await v1(server.url, KEY, 'sms/sendarray', {
      receptor: json(['09121120031', '09121120032']),
      sender: json(['30001111', '30003333']),
      message: json(['a', 'b']),
      localmessageids: json(['arr-1', 'arr-2']),
    });
    expectV1Ok(first);
    const messages = messagesOf('acme');
    // The Go client's name for them, as a comma list.
    const again = await v1(server.url, KEY, 'sms/sendarray', {
      receptor: json(['09121120032', '09121120033']),
      sender: json(['30003333', '30001111']),
      message: json(['b', 'c']),
      localid: 'arr-2,arr-3',
    });
    expectV1Ok(again);
    expect(again.body.entries[0]).toEqual(first.body.entries[1]);
    expect(again.body.entries[1]).toMatchObject({ receptor: '09121120033', sender: '30001111' });
    expect(messagesOf('acme')).toBe(messages + 1);
  });

  it('gives invalid receptors their entries and refuses a call without one valid (411)', async () => {
    const mixed = await v1(server.url, KEY, 'sms/sendarray', {
      receptor: json(['nope', '09121120041']),
      sender: json(['30003333', '30001111']),
      message: json(['a', 'b']),
    });
    expectV1Ok(mixed);
    expect(mixed.body.entries[0]).toMatchObject({ messageid: 0, status: 0, receptor: 'nope' });
    expect(mixed.body.entries[1].status).toBe(MessageStatus.Queued);
    expectV1Error(
      await v1(server.url, KEY, 'sms/sendarray', {
        receptor: json(['nope', 'no']),
        sender: json(['30003333', '30001111']),
        message: json(['a', 'b']),
      }),
      411,
    );
  });

  it('schedules every triple with one date, and refuses 201 triples (414)', async () => {
    const at = Math.floor(Date.now() / 1000) + 7200;
    const result = await v1(server.url, KEY, 'sms/sendarray', {
      receptor: json(['09121120051', '09121120052']),
      sender: json(['30001111', '30003333']),
      message: json(['a', 'b']),
      date: at,
    });
    expectV1Ok(result);
    expect(result.body.entries.map((entry: { status: number }) => entry.status)).toEqual([2, 2]);
    const many = receptors(201, 9000);
    expectV1Error(
      await v1(server.url, KEY, 'sms/sendarray', {
        receptor: json(many),
        sender: json(many.map(() => '30001111')),
        message: json(many.map(() => 'x')),
      }),
      414,
    );
  });
});
