// Conversations in the Inbox, over the real core and database: the customer's card from the
// segments holding the number (a NAME-like column, one probe per segment), a number's thread in
// time order with each sent message's status (paged without a gap or a repeat), done and
// re-opened by the next reply, unread per line, and the answer from the line the customer wrote
// to, quoted and charged once like any panel send.
import { describe, expect, it } from 'vitest';
import type { Core } from '../core';
import { ManualClock } from '../clock';
import { testCores } from '../../../test/helpers/core';
import { MessageStatus } from '../../../shared/lifecycle';
import { foldHeader, nameOf } from '../contacts/cards';
import { reply, replyPreview } from './replies';
import { ServiceError } from '../errors';

const START = Date.UTC(2026, 0, 5, 10, 0, 0);
const cores = testCores();
const CUSTOMER = '09125550001';

function open() {
  const clock = new ManualClock(START);
  const core = cores.open({ clock });
  const account = core.accounts.findByName('acme')!.id;
  const other = core.accounts.findByName('other')!.id;
  return { core, clock, account, other };
}

/** A ready segment as an import leaves it: columns by name, each member's values in that order. */
function segment(core: Core, account: number, name: string, columns: string[], members: Array<[string, ...string[]]>) {
  const id = Number(
    core.db
      .prepare(
        `INSERT INTO segments (account_id, name, columns, status, member_count, origin, created_at, updated_at)
         VALUES (?, ?, ?, 'ready', ?, 'import', 0, 0)`,
      )
      .run(account, name, JSON.stringify(columns), members.length).lastInsertRowid,
  );
  const insert = core.db.prepare('INSERT INTO segment_members (segment_id, phone, fields) VALUES (?, ?, ?)');
  for (const [phone, ...values] of members) insert.run(id, phone, values.join('\u001f'));
  return id;
}

function panelSend(core: Core, account: number, text: string, sender = '30001111', receivers = [CUSTOMER]) {
  return core.messaging.accept.accept({
    accountId: account,
    origin: 'panel',
    sender,
    text,
    receivers,
    rule: 'lenient',
  });
}

describe('the customer’s card', () => {
  it('folds headers: case, separators, Arabic letters', () => {
    expect(foldHeader('first_name')).toBe('FIRSTNAME');
    expect(foldHeader('نام\u200cخانوادگي')).toBe('نامخانوادگی');
    expect(nameOf({ PHONE: '0912', Name: 'Sara' })).toBe('Sara');
    expect(nameOf({ first_name: 'Sara', 'Last Name': 'Ahmadi' })).toBe('Sara Ahmadi');
    expect(nameOf({ 'نام و نام خانوادگي': 'مریم رضایی', CITY: 'تهران' })).toBe('مریم رضایی');
    expect(nameOf({ نام: 'علی', نام‌خانوادگی: 'کریمی' })).toBe('علی');
    expect(nameOf({ CITY: 'تهران' })).toBeNull();
    expect(nameOf({ NAME: '  ' })).toBeNull();
  });

  it('names the customer and every segment holding the number, the account’s only', () => {
    const { core, account, other } = open();
    segment(
      core,
      account,
      'Customers',
      ['NAME', 'CITY'],
      [
        [CUSTOMER, 'مریم', 'تهران'],
        ['09125550002', 'Ali', 'Qom'],
      ],
    );
    segment(core, account, 'Newsletter', ['EMAIL'], [[CUSTOMER, 'm@example.com']]);
    segment(core, other, 'Theirs', ['NAME'], [[CUSTOMER, 'Not ours']]);
    const card = core.cards.card(account, '+98 912 555 0001');
    expect(card).toEqual({
      phone: CUSTOMER,
      name: 'مریم',
      segment_count: 2,
      segments: [
        {
          id: expect.any(Number),
          name: 'Customers',
          contact_name: 'مریم',
          fields: [
            { column: 'NAME', value: 'مریم' },
            { column: 'CITY', value: 'تهران' },
          ],
        },
        {
          id: expect.any(Number),
          name: 'Newsletter',
          contact_name: null,
          fields: [{ column: 'EMAIL', value: 'm@example.com' }],
        },
      ],
    });
    expect(core.cards.card(account, '09120000000')).toEqual({
      phone: '09120000000',
      name: null,
      segments: [],
      segment_count: 0,
    });
  });

  it('looks the number up per segment on the members’ primary key, whatever the segments’ sizes', () => {
    const { core, account } = open();
    const plan = core.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT s.id, s.name, s.columns, m.fields
         FROM segments s JOIN segment_members m ON m.segment_id = s.id AND m.phone = ?
         WHERE s.account_id = ? AND s.status IN ('ready', 'importing') ORDER BY s.id LIMIT ?`,
      )
      .all(CUSTOMER, account, 21) as Array<{ detail: string }>;
    const details = plan.map((row) => row.detail).join('\n');
    expect(details).toMatch(/SEARCH m USING PRIMARY KEY \(segment_id=\? AND phone=\?\)/);
    expect(details).not.toMatch(/SCAN m/);

    // 200,000 members: the card still answers in a few milliseconds.
    const big = segment(core, account, 'Big', ['NAME'], []);
    const insert = core.db.prepare('INSERT INTO segment_members (segment_id, phone, fields) VALUES (?, ?, ?)');
    core.db.transaction(() => {
      for (let i = 0; i < 200_000; i++) insert.run(big, `0913${String(i).padStart(7, '0')}`, `n${i}`);
    })();
    const started = performance.now();
    for (let i = 0; i < 100; i++) core.cards.card(account, `0913${String(i * 1999).padStart(7, '0')}`);
    const each = (performance.now() - started) / 100;
    expect(core.cards.card(account, '09130001999').name).toBe('n1999');
    expect(each).toBeLessThan(5);
  });
});

describe('a number’s thread', () => {
  it('holds our messages of any origin and the replies, in time order, each sent one with its status', async () => {
    const { core, clock, account } = open();
    const first = panelSend(core, account, 'Spring sale', '30002222');
    clock.advance(1_000);
    core.inbox.record({
      accountId: account,
      lineNumber: '30002222',
      sender: CUSTOMER,
      text: 'Price?',
      replyTo: first.firstMessageId,
    });
    clock.advance(1_000);
    core.messaging.accept.accept({
      accountId: account,
      origin: 'api-v2',
      sender: '30001111',
      text: 'From the website',
      receivers: [CUSTOMER, '09125550009'],
      rule: 'lenient',
    });
    clock.advance(1_000);
    core.inbox.record({ accountId: account, lineNumber: '30001111', sender: CUSTOMER, text: 'Thanks' });
    // Someone else's reply and message are not in it.
    core.inbox.record({ accountId: account, lineNumber: '30001111', sender: '09125550009', text: 'Me too' });

    const page = await core.conversations.thread(account, '۰۹۱۲۵۵۵۰۰۰۱');
    expect(page.phone).toBe(CUSTOMER);
    expect(page.entries.map((e) => [e.kind, e.text, e.line_number])).toEqual([
      ['received', 'Thanks', '30001111'],
      ['sent', 'From the website\nلغو۱۱', '30001111'],
      ['received', 'Price?', '30002222'],
      ['sent', 'Spring sale\nلغو۱۱', '30002222'],
    ]);
    expect(page.next).toBeNull();
    const sent = page.entries.filter((e) => e.kind === 'sent');
    for (const entry of sent) if (entry.kind === 'sent') expect(entry.status).toBe(MessageStatus.Queued);
    expect(sent.map((e) => (e.kind === 'sent' ? e.origin : ''))).toEqual(['api', 'panel']);
  });

  it('pages a long thread without a gap or a repeat, each page bounded', async () => {
    const { core, clock, account } = open();
    const expected: string[] = [];
    for (let i = 0; i < 30; i++) {
      panelSend(core, account, `out ${i}`);
      expected.push(`out ${i}`);
      clock.advance(10);
      if (i % 3 === 0) {
        core.inbox.record({ accountId: account, lineNumber: '30001111', sender: CUSTOMER, text: `in ${i}` });
        expected.push(`in ${i}`);
        clock.advance(10);
      }
    }
    const seen: string[] = [];
    let before: Parameters<Core['conversations']['thread']>[2] = {};
    for (let pages = 0; pages < 20; pages++) {
      const page = await core.conversations.thread(account, CUSTOMER, { ...before, limit: 7 });
      expect(page.entries.length).toBeLessThanOrEqual(7);
      // What the customer got: the final text, with the opt-out phrase.
      seen.push(...page.entries.map((e) => e.text.replace('\nلغو۱۱', '')));
      if (page.next === null) break;
      before = { before: page.next };
    }
    expect(seen).toEqual(expected.reverse());
  });
});

describe('done and re-opened', () => {
  it('leaves the open view when done, comes back with undo or with the next reply', () => {
    const { core, clock, account } = open();
    core.inbox.record({ accountId: account, lineNumber: '30001111', sender: CUSTOMER, text: 'Hello' });
    core.inbox.record({ accountId: account, lineNumber: '30002222', sender: CUSTOMER, text: 'Other line' });
    const openView = () => core.inbox.list(account).items.map((i) => i.text);
    expect(openView()).toEqual(['Other line', 'Hello']);

    expect(core.inbox.setDone(account, '۳۰۰۰۱۱۱۱', CUSTOMER, true)).toBe(true);
    expect(openView()).toEqual(['Other line']);
    expect(core.inbox.list(account, { view: 'done' }).items.map((i) => [i.text, i.done])).toEqual([['Hello', true]]);
    expect(core.inbox.list(account, { view: 'all' }).items).toHaveLength(2);
    // Done reads its replies.
    expect(core.inbox.counts(account).unread_by_line).toEqual([{ line_number: '30002222', unread: 1 }]);
    expect(core.inbox.conversation(account, CUSTOMER).lines.map((l) => [l.line_number, l.done])).toEqual([
      ['30002222', false],
      ['30001111', true],
    ]);

    // Undo.
    expect(core.inbox.setDone(account, '30001111', CUSTOMER, false)).toBe(false);
    expect(openView()).toEqual(['Other line', 'Hello']);

    // Done again, then a new reply re-opens it.
    core.inbox.setDone(account, '30001111', CUSTOMER, true);
    clock.advance(60_000);
    core.inbox.record({ accountId: account, lineNumber: '30001111', sender: CUSTOMER, text: 'One more thing' });
    expect(openView()).toEqual(['One more thing', 'Other line', 'Hello']);
    expect(core.inbox.list(account, { view: 'done' }).items).toEqual([]);
  });

  it('refuses to mark a conversation the number never had (404), and survives a restart', async () => {
    const { core, account, other } = open();
    core.inbox.record({ accountId: account, lineNumber: '30001111', sender: CUSTOMER, text: 'Hello' });
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return (error as ServiceError).code;
      }
      return null;
    };
    expect(refused(() => core.inbox.setDone(account, '30002222', CUSTOMER, true))).toBe(404);
    expect(refused(() => core.inbox.setDone(other, '30001111', CUSTOMER, true))).toBe(404);
    core.inbox.setDone(account, '30001111', CUSTOMER, true);
    const dataDir = core.dataDir;
    cores.release(core);
    await core.close();
    const again = cores.open({ dataDir, seed: false, clock: new ManualClock(START) });
    expect(again.inbox.list(account, { view: 'done' }).items.map((i) => i.text)).toEqual(['Hello']);
  });
});

describe('unread per line', () => {
  it('counts each line’s unread replies and follows reads', () => {
    const { core, account } = open();
    core.inbox.record({ accountId: account, lineNumber: '30001111', sender: CUSTOMER, text: 'a' });
    core.inbox.record({ accountId: account, lineNumber: '30001111', sender: '09125550002', text: 'b' });
    core.inbox.record({ accountId: account, lineNumber: '30002222', sender: CUSTOMER, text: 'c' });
    expect(core.inbox.counts(account)).toEqual({
      unread: 3,
      total: 3,
      unread_by_line: [
        { line_number: '30001111', unread: 2 },
        { line_number: '30002222', unread: 1 },
      ],
    });
    expect(core.inbox.list(account, { line_number: '30002222' }).items.map((i) => i.text)).toEqual(['c']);
    // Opening the number's thread reads its replies on every line.
    expect(core.inbox.markSenderRead(account, CUSTOMER)).toBe(2);
    expect(core.inbox.counts(account).unread_by_line).toEqual([{ line_number: '30001111', unread: 1 }]);
  });
});

describe('answering from the Inbox', () => {
  it('sends from the line the customer wrote to, as a panel send, quoted and charged once', () => {
    const { core, account } = open();
    segment(core, account, 'Customers', ['NAME'], [[CUSTOMER, 'مریم']]);
    core.inbox.record({ accountId: account, lineNumber: '30002222', sender: CUSTOMER, text: 'قیمت؟' });
    const input = { account_id: account, phone: CUSTOMER, line_number: '30002222', message: 'سلام مریم، ۲۰۰ هزار' };
    const quote = replyPreview(core, input);
    expect(quote.receivers.total).toBe(1);
    expect(quote.total_cost_rials).toBeGreaterThan(0);
    const before = core.credit.balance(account);
    const sent = reply(core, input);
    expect(sent.accepted).toBe(1);
    expect(sent.total_rials).toBe(quote.total_cost_rials);
    expect(core.credit.balance(account)).toBe(before - quote.total_cost_rials);
    const rows = core.db
      .prepare<[number], { sender: string; origin: string; receptor: string }>(
        'SELECT s.sender, s.origin, m.receptor FROM messages m JOIN sends s ON s.id = m.send_id WHERE s.id = ?',
      )
      .all(sent.send_id);
    expect(rows).toEqual([{ sender: '30002222', origin: 'panel', receptor: CUSTOMER }]);
  });

  it('refuses a line the customer did not write to, recording nothing', () => {
    const { core, account } = open();
    core.inbox.record({ accountId: account, lineNumber: '30002222', sender: CUSTOMER, text: 'Hi' });
    const before = core.credit.balance(account);
    expect(() =>
      reply(core, { account_id: account, phone: CUSTOMER, line_number: '30001111', message: 'Hello' }),
    ).toThrow(ServiceError);
    expect(core.credit.balance(account)).toBe(before);
    expect(core.db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 0 });
  });
});
