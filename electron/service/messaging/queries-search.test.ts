// The Messages filters as people type them: a text in Arabic or Persian letters and digits, with or
// without the zero-width non-joiner, finds the message whichever way it was stored (its own text
// or its send's); any part of a receiver's number, in any digits, finds it; a count agrees with
// the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../core';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { MessageQueries } from './queries';
import { REBUILD_MESSAGE_COUNTS } from '../db/migrations/0017-message-counts';
import type { MessageFilter } from '../../../shared/ipc/schemas';

let core: Core;
let queries: MessageQueries;
let account: number;

// [send text, own texts of its messages (null: the send's), receivers]
const SENDS: Array<[string, Array<string | null>, string[]]> = [
  ['سلام یلدا، تخفیف ۲۰٪ برای شما\nلغو۱۱', [null, null], ['09121234567', '09351112233']],
  ['مسابقهٔ يلدا: كد ١٢٣ را بفرستيد', [null], ['09129998877']],
  [
    'campaign {{NAME}}',
    ['سلام مریم، می‌توانید امروز بیایید', 'سلام SARA, you can come today', null],
    ['09120000001', '09120000002', '09390001234'],
  ],
];

beforeAll(() => {
  core = new Core({ dataDir: tempDir('chapar-search-'), startScheduler: false });
  applySeed(core, testSeed());
  account = core.accounts.findByName('acme')!.id;
  const line = core.accounts.findLine(account, '30001111')!.id;
  const send = core.db.prepare(
    `INSERT INTO sends (account_id, line_id, sender, provider, text, pages, origin, message_count, own_texts, total_rials, created_at)
     VALUES (?, ?, '30001111', 'sms', ?, 1, 'panel', ?, ?, 0, 0)`,
  );
  const message = core.db.prepare(
    `INSERT INTO messages (send_id, account_id, receptor, status, cost_rials, created_at, text) VALUES (?, ?, ?, 10, 1500, 0, ?)`,
  );
  for (const [text, own, receivers] of SENDS) {
    const sendId = Number(
      send.run(account, line, text, receivers.length, own.filter((t) => t !== null).length).lastInsertRowid,
    );
    receivers.forEach((receiver, i) => message.run(sendId, account, receiver, own[i] ?? null));
  }
  core.db.exec(REBUILD_MESSAGE_COUNTS);
  queries = new MessageQueries(core.db, core.readers);
});
afterAll(() => core.close());

/** The receivers found, sorted; the count must agree with the list. */
async function found(filter: Omit<MessageFilter, 'account_id'>): Promise<string[]> {
  const rows = (await queries.list({ ...filter, account_id: account, limit: 100 })).rows;
  expect(await queries.count({ ...filter, account_id: account })).toBe(rows.length);
  return rows.map((row) => row.receptor).sort();
}

describe('the text filter', () => {
  it('finds Persian letters typed with an Arabic keyboard, and the other way round', async () => {
    const yalda = ['09121234567', '09129998877', '09351112233'];
    expect(await found({ text: 'یلدا' })).toEqual(yalda);
    expect(await found({ text: 'يلدا' })).toEqual(yalda);
    expect(await found({ text: 'کد' })).toEqual(['09129998877']);
    expect(await found({ text: 'بفرستید' })).toEqual(['09129998877']);
  });

  it('reads Persian, Arabic-Indic and ASCII digits alike', async () => {
    for (const term of ['20', '۲۰', '٢٠', 'تخفیف 20'])
      expect(await found({ text: term })).toEqual(['09121234567', '09351112233']);
    for (const term of ['123', '۱۲۳', '١٢٣']) expect(await found({ text: term })).toEqual(['09129998877']);
  });

  it('ignores the zero-width non-joiner, and the case of Latin letters', async () => {
    expect(await found({ text: 'میتوانید' })).toEqual(['09120000001']);
    expect(await found({ text: 'می‌توانید' })).toEqual(['09120000001']);
    expect(await found({ text: 'sara' })).toEqual(['09120000002']);
    // A message without its own text has its send's.
    expect(await found({ text: '{{name}}' })).toEqual(['09390001234']);
  });

  it('takes %, _ and \\ literally', async () => {
    expect(await found({ text: '%' })).toEqual([]);
    expect(await found({ text: '_' })).toEqual([]);
    expect(await found({ text: '٪' })).toEqual(['09121234567', '09351112233']);
  });
});

describe('the receiver filter', () => {
  it('finds any part of a number, in any digits', async () => {
    expect(await found({ receptor: '1234' })).toEqual(['09121234567', '09390001234']);
    expect(await found({ receptor: '۱۲۳۴' })).toEqual(['09121234567', '09390001234']);
    expect(await found({ receptor: '٩٩٨٨' })).toEqual(['09129998877']);
    expect(await found({ receptor: '0935' })).toEqual(['09351112233']);
    expect(await found({ receptor: '935 111' })).toEqual(['09351112233']);
  });

  it('a whole number in any form finds that receiver only', async () => {
    for (const form of ['09121234567', '+989121234567', '00989121234567', '۰۹۱۲۱۲۳۴۵۶۷', '9121234567'])
      expect(await found({ receptor: form })).toEqual(['09121234567']);
  });

  it('letters find nothing', async () => {
    expect(await found({ receptor: 'ali' })).toEqual([]);
  });
});
