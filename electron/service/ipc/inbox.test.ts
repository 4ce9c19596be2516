// The Inbox over IPC: the page's list with its filters and cursor, marking read, the badge's
// counts, one account's replies only, and the push when replies arrive.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { ipcCalls } from '../../../test/helpers/ipc';
import { createDispatcher, type IpcDispatcher } from './dispatcher';

let core: Core;
let dispatcher: IpcDispatcher;
let account: number;
let other: number;
const { ok, refused } = ipcCalls(() => dispatcher);

beforeEach(() => {
  core = new Core({
    dataDir: tempDir('chapar-inbox-ipc-'),
    clock: new ManualClock(Date.UTC(2026, 0, 5)),
    startScheduler: false,
  });
  applySeed(core, testSeed());
  dispatcher = createDispatcher(core, { mode: 'desktop' });
  account = core.accounts.findByName('acme')!.id;
  other = core.accounts.findByName('other')!.id;
});
afterEach(async () => {
  dispatcher.close();
  await core.close();
});

const reply = (accountId: number, sender: string, text: string) =>
  core.inbox.record({ accountId, lineNumber: '30001111', sender, text });

describe('inbox over IPC', () => {
  it('lists, filters, pages, marks read and counts one account’s replies', async () => {
    reply(account, '09120000001', 'ممنون');
    reply(account, '09120000002', 'لغو۱۱');
    reply(account, '09120000003', 'ok');
    reply(other, '09120000004', 'hello');
    expect(await ok('inbox:counts', { account_id: account })).toEqual({
      unread: 3,
      total: 3,
      unread_by_line: [{ line_number: '30001111', unread: 3 }],
    });
    const page = await ok('inbox:list', { account_id: account, limit: 2 });
    expect(page.items.map((r) => r.text)).toEqual(['ok', 'لغو۱۱']);
    expect((await ok('inbox:list', { account_id: account, before: page.next! })).items.map((r) => r.text)).toEqual([
      'ممنون',
    ]);
    expect((await ok('inbox:list', { account_id: account, opt_outs_only: true })).items).toMatchObject([
      { sender: '09120000002', opt_out: true, replied: null },
    ]);
    expect((await ok('inbox:list', { account_id: account, search: '۰۰۰۳' })).items).toHaveLength(1);
    expect(await ok('inbox:markRead', { account_id: account, ids: [page.items[0]!.id] })).toBe(1);
    expect((await ok('inbox:list', { account_id: account, unread_only: true })).items).toHaveLength(2);
    expect(await ok('inbox:markRead', { account_id: account })).toBe(2);
    expect(await ok('inbox:counts', { account_id: account })).toEqual({ unread: 0, total: 3, unread_by_line: [] });
    expect(await ok('inbox:counts', { account_id: other })).toEqual({
      unread: 1,
      total: 1,
      unread_by_line: [{ line_number: '30001111', unread: 1 }],
    });
  });

  it('refuses input outside the contract', async () => {
    expect((await refused('inbox:list', { account_id: account, limit: 5000 })).code).toBe(400);
    expect((await refused('inbox:counts', {})).code).toBe(400);
  });

  it('pushes inbox:received with the account, the ids and how many opted out', () => {
    const pushed: unknown[] = [];
    dispatcher.services.events.subscribe((event, payload) => {
      if (event === 'inbox:received') pushed.push(payload);
    });
    const rows = core.inbox.recordAll([
      { accountId: account, lineNumber: '30001111', sender: '09120000001', text: '11' },
      { accountId: account, lineNumber: '30001111', sender: '09120000002', text: 'مرسی' },
    ]);
    expect(pushed).toEqual([{ account_id: account, ids: rows.map((r) => r.id), opt_outs: 1 }]);
  });
});
