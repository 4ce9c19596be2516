import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { CHANNELS, events, type PayloadOf } from '../../../shared/ipc/contracts';
import { createDispatcher, registerHandlers, type AppHost, type IpcDispatcher } from './dispatcher';
import { ipcCalls } from '../../../test/helpers/ipc';

let core: Core;
let clock: ManualClock;
let dispatcher: IpcDispatcher;
let account: number;

const host: AppHost = { mode: 'desktop' };

const { ok, refused } = ipcCalls(() => dispatcher);

/** Moves the manual clock past the simulator's delays until every message is final. */
async function deliverAll(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    clock.advance(50);
    await core.scheduler.waitForIdle();
  }
}

beforeEach(() => {
  clock = new ManualClock(Date.UTC(2026, 0, 5, 10, 0, 0));
  core = new Core({ dataDir: tempDir('chapar-app-'), clock });
  applySeed(core, testSeed());
  dispatcher = createDispatcher(core, host);
  account = core.accounts.findByName('acme')!.id;
});
afterEach(async () => {
  dispatcher.close();
  await core.close();
});

describe('the dispatcher', () => {
  it('refuses unknown channels, prototype names included', async () => {
    for (const name of ['nope:never', 'toString', '__proto__', 'constructor', '', 42]) {
      expect((await refused(name as string, {})).code).toBe(404);
    }
  });

  it('refuses input that does not match the contract', async () => {
    const error = await refused('credit:balance', { account_id: 'one' });
    expect(error.code).toBe(400);
    expect(error.detail).toContain('account_id');
    expect((await refused('messages:list', { limit: 5000 })).code).toBe(400);
    expect((await refused('pricing:set', { sms_page_tomans: -1, messenger_message_tomans: 1 })).code).toBe(400);
  });

  it('maps the core refusals to their API codes', async () => {
    expect((await refused('credit:balance', { account_id: 999 })).code).toBe(404);
    expect((await refused('credit:topUp', { account_id: account, amount_rials: -1e12, kind: 'adjust' })).code).toBe(
      418,
    );
    expect((await refused('compose:preview', { account_id: account, sender: 'nope', message: 'x' })).code).toBe(412);
  });

  it('answers 501 for the desktop-only dialogs without a desktop host', async () => {
    expect((await refused('files:choose', { purpose: 'backup-restore' })).code).toBe(501);
    expect((await refused('files:reveal', { path: core.dataDir })).code).toBe(501);
  });

  it('registers exactly the contract channels', () => {
    const registered: string[] = [];
    registerHandlers((channel) => registered.push(channel), dispatcher);
    expect(registered.sort()).toEqual([...CHANNELS].sort());
  });
});

describe('accounts, keys, lines, credit, settings', () => {
  it('manages accounts', async () => {
    const created = await ok('accounts:create', { name: 'shop', credit_rials: 5000 });
    expect(created).toMatchObject({ name: 'shop', active: true, credit_rials: 5000 });
    expect((await refused('accounts:create', { name: 'shop' })).code).toBe(400);
    const updated = await ok('accounts:update', { id: created.id, active: false });
    expect(updated.active).toBe(false);
    expect((await ok('accounts:list')).map((a) => a.name)).toContain('shop');
    expect((await ok('accounts:list', null as never)).length).toBeGreaterThan(1);
  });

  it('shows a key once and revokes it', async () => {
    const { key, info } = await ok('apiKeys:create', { account_id: account, label: 'site' });
    expect(key.endsWith(info.hint)).toBe(true);
    expect(core.accounts.authenticate(key).ok).toBe(true);
    const listed = await ok('apiKeys:list', { account_id: account });
    expect(JSON.stringify(listed)).not.toContain(key);
    await ok('apiKeys:revoke', { id: info.id });
    expect(core.accounts.authenticate(key)).toEqual({ ok: false, code: 403 });
  });

  it('upserts and removes lines', async () => {
    const line = await ok('lines:upsert', {
      account_id: account,
      number: '30005555',
      provider: 'sms',
      permissions: ['can_send_api_campaign'],
    });
    expect(line).toMatchObject({ number: '30005555', can_send_api_campaign: true, active: true });
    expect((await ok('lines:remove', { account_id: account, number: '30005555' })).active).toBe(false);
    expect((await refused('lines:remove', { account_id: account, number: '39999999' })).code).toBe(404);
    expect((await ok('lines:list', { account_id: account })).map((l) => l.number)).toContain('30005555');
  });

  it('tops up and lists the ledger', async () => {
    const before = (await ok('credit:balance', { account_id: account })).credit_rials;
    expect((await ok('credit:topUp', { account_id: account, amount_rials: 1000, note: 'cash' })).credit_rials).toBe(
      before + 1000,
    );
    expect((await refused('credit:topUp', { account_id: account, amount_rials: -5 })).code).toBe(400);
    const ledger = await ok('credit:ledger', { account_id: account, limit: 1 });
    expect(ledger.entries[0]).toMatchObject({ amount_rials: 1000, kind: 'topup', note: 'cash' });
    expect(ledger.next_before_id).toBe(ledger.entries[0]!.id);
    const all = await ok('credit:ledger', { account_id: account });
    expect(all.next_before_id).toBeNull();
    expect((await refused('credit:ledger', { account_id: 999 })).code).toBe(404);
  });

  it('reads and writes pricing, simulator and app settings', async () => {
    expect(await ok('pricing:set', { sms_page_tomans: 200, messenger_message_tomans: 60 })).toEqual({
      sms_page_tomans: 200,
      messenger_message_tomans: 60,
    });
    expect((await ok('pricing:get')).sms_page_tomans).toBe(200);
    const simulator = await ok('simulator:get');
    expect((await ok('simulator:set', { ...simulator, seed: 99 })).seed).toBe(99);
    const settings = await ok('settings:set', { language: 'en' });
    expect(settings).toMatchObject({ language: 'en', data_dir: core.dataDir, mode: 'desktop' });
    expect((await ok('settings:get')).language).toBe('en');
    expect((await refused('settings:set', { http_api: { port: 9999 } })).code).toBe(400);
  });
});

describe('compose and messages', () => {
  it('previews cost, pages, UCS-2 characters and pasted receivers', async () => {
    const preview = await ok('compose:preview', {
      account_id: account,
      sender: '30001111',
      message: 'Hi سلام',
      receivers_text: '09121234567\n+98 912 123 4567, ۰۹۱۲۱۱۱۲۲۳۳; 123\n09121234567',
    });
    expect(preview.final_text).toBe('Hi سلام\nلغو۱۱');
    expect(preview.encoding).toBe('UCS-2');
    expect(preview.pages).toBe(1);
    expect(preview.ucs2_characters).toEqual([
      { char: 'س', index: 3 },
      { char: 'ل', index: 4 },
      { char: 'ا', index: 5 },
      { char: 'م', index: 6 },
    ]);
    expect(preview.receivers).toEqual({
      valid: ['09121234567', '09121112233'],
      invalid: ['123'],
      duplicates: ['09121234567', '09121234567'],
      segment_members: 0,
      total: 2,
    });
    expect(preview.cost_per_message_rials).toBe(1500);
    expect(preview.total_cost_rials).toBe(3000);
    expect(preview.enough_credit).toBe(true);

    // The seed's bale line is the API's only: the preview refuses it exactly as the send would.
    const onBale = { account_id: account, sender: 'bale_acme_bot', message: 'Hi', receivers: ['09120000000'] };
    expect((await refused('compose:preview', onBale)).code).toBe(412);
    expect((await refused('messages:send', onBale)).code).toBe(412);
    core.accounts.upsertLine(account, {
      number: 'bale_acme_bot',
      provider: 'bale',
      permissions: ['can_send_api_campaign', 'can_send_panel_campaign'],
    });
    const bale = await ok('compose:preview', onBale);
    expect(bale).toMatchObject({
      final_text: 'Hi',
      messenger: true,
      opt_out_added: false,
      cost_per_message_rials: 500,
    });
  });

  it('sends from the panel, lists, filters, pages, counts and shows a timeline', async () => {
    const receivers = Array.from({ length: 25 }, (_, i) => `0912000${String(i).padStart(4, '0')}`);
    const sent = await ok('messages:send', {
      account_id: account,
      sender: '30001111',
      message: 'hello',
      receivers: [...receivers, 'bad', receivers[0]!],
    });
    expect(sent).toMatchObject({ accepted: 25, invalid: ['bad'], duplicates: [receivers[0]] });
    expect(sent.total_rials).toBe(25 * 1500);
    await deliverAll();

    const page1 = await ok('messages:list', { account_id: account, limit: 10 });
    expect(page1.rows).toHaveLength(10);
    expect(page1.rows[0]!.id).toBeGreaterThan(page1.rows[1]!.id);
    const page2 = await ok('messages:list', { account_id: account, limit: 10, cursor: page1.next_cursor });
    const page3 = await ok('messages:list', { account_id: account, limit: 10, cursor: page2.next_cursor });
    expect(page3.rows).toHaveLength(5);
    expect(page3.next_cursor).toBeNull();
    expect(new Set([...page1.rows, ...page2.rows, ...page3.rows].map((r) => r.id)).size).toBe(25);
    const offset = await ok('messages:list', { account_id: account, limit: 10, offset: 10 });
    expect(offset.rows.map((r) => r.id)).toEqual(page2.rows.map((r) => r.id));

    const row = page1.rows[0]!;
    expect(row).toMatchObject({ sender: '30001111', origin: 'panel', text: 'hello\nلغو۱۱', pages: 1 });
    expect([10, 11, 13, 14]).toContain(row.status);

    const delivered = await ok('messages:count', { account_id: account, status: [10] });
    const all = await ok('messages:count', { account_id: account });
    expect(all.count).toBe(25);
    const listed = await ok('messages:list', { account_id: account, status: [10], limit: 100 });
    expect(listed.rows).toHaveLength(delivered.count);
    expect((await ok('messages:count', { sender: '30001111', text: 'hell' })).count).toBe(25);
    expect((await ok('messages:count', { text: '%' })).count).toBe(0);
    expect((await ok('messages:count', { receptor: '+98 912 000 0003' })).count).toBe(1);
    expect((await ok('messages:count', { receptor: '912000000' })).count).toBe(10);
    const now = clock.now();
    expect((await ok('messages:count', { from: now - 60_000, to: now + 60_000 })).count).toBe(25);
    expect((await ok('messages:count', { from: now + 60_000 })).count).toBe(0);

    const timeline = await ok('messages:timeline', { message_id: row.id });
    expect(timeline.events.map((e) => e.status)).toEqual([1, 4, row.status]);
    expect(timeline.events[1]!.at).toBeGreaterThanOrEqual(timeline.events[0]!.at);
    expect((await refused('messages:timeline', { message_id: row.id, account_id: account + 1 })).code).toBe(404);
  });

  it('pushes status changes in batches', async () => {
    const received: PayloadOf<'messages:status-changed'>[] = [];
    const stop = dispatcher.services.events.subscribe((event, payload) => {
      if (event === 'messages:status-changed') received.push(payload as PayloadOf<'messages:status-changed'>);
    });
    await ok('messages:send', {
      account_id: account,
      sender: '30001111',
      message: 'x',
      receivers: ['09121234567', '09121234568'],
    });
    await deliverAll();
    dispatcher.services.events.flushStatus();
    stop();
    const changes = received.flatMap((p) => p.changes);
    expect(changes.filter((c) => c.status === 4)).toHaveLength(2);
    expect(changes.filter((c) => [10, 11, 13, 14].includes(c.status))).toHaveLength(2);
  });

  it('relays contacts import progress as import:progress', async () => {
    const received: PayloadOf<'import:progress'>[] = [];
    dispatcher.services.events.subscribe((event, payload) => {
      if (event === 'import:progress') received.push(events['import:progress'].payload.parse(payload));
    });
    const file = path.join(core.dataDir, 'customers.csv');
    fs.writeFileSync(file, 'phone,name\n09121234567,Ali\n09121234568,Sara\nnot-a-number,X\n');
    const { jobId } = await core.imports.start(account, { file, name: 'customers' });
    await core.imports.wait(jobId);
    const last = received.filter((p) => p.job_id === jobId).at(-1)!;
    expect(last).toMatchObject({ kind: 'import', status: 'done', valid: 2, invalid: 1 });
    const segments = await ok('segments:list', { account_id: account });
    expect(segments.find((segment) => segment.id === last.segment_id)).toMatchObject({
      name: 'customers',
      member_count: 2,
    });
  });

  it('exports CSV and XLSX with progress', async () => {
    const receivers = Array.from({ length: 30 }, (_, i) => `0935000${String(i).padStart(4, '0')}`);
    await ok('messages:send', { account_id: account, sender: '30001111', message: 'گزارش, "quoted"', receivers });
    const progress: PayloadOf<'export:progress'>[] = [];
    dispatcher.services.events.subscribe((event, payload) => {
      if (event === 'export:progress') progress.push(payload as PayloadOf<'export:progress'>);
    });
    const csv = await ok('messages:export', { account_id: account, format: 'csv', export_id: 'e1' });
    expect(csv).toMatchObject({ export_id: 'e1', rows: 30, url: null });
    const text = fs.readFileSync(csv.path!, 'utf8');
    expect(text.split('\r\n').filter(Boolean)).toHaveLength(31);
    expect(text).toContain('"گزارش, ""quoted""\nلغو۱۱"');
    expect(progress.at(-1)).toEqual({ export_id: 'e1', state: 'done', done: 30, total: 30 });

    const xlsx = await ok('messages:export', { account_id: account, format: 'xlsx', status: [1] });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(xlsx.path!);
    expect(workbook.worksheets[0]!.rowCount).toBe(31);
    expect(path.dirname(xlsx.path!)).toBe(path.join(core.dataDir, 'exports'));
  });

  it('gives dashboard figures for today and the week', async () => {
    // One receiver opted out: it ends 14 and is refunded, so the week's cost leaves it out.
    core.optouts.add(account, ['09121234569']);
    const before = core.credit.balance(account);
    await ok('messages:send', {
      account_id: account,
      sender: '30001111',
      message: 'hi',
      receivers: ['09121234567', '09121234568', '09121234569'],
    });
    await deliverAll();
    const stats = await ok('dashboard:stats', { account_id: account, utc_offset_minutes: 210 });
    expect(stats.today.total).toBe(3);
    expect(stats.week.total).toBe(3);
    expect(stats.week.blocked).toBe(1);
    expect(stats.week.cost_rials).toBe(before - core.credit.balance(account));
    expect(stats.today.cost_rials).toBe(stats.week.cost_rials);
    expect(stats.today.pending).toBe(0);
    expect(stats.delivery_rate).not.toBeNull();
    expect(stats.hourly).toHaveLength(24);
    expect(stats.daily).toHaveLength(7);
    expect(stats.hourly.reduce((n, b) => n + b.total, 0)).toBe(3);
    expect(stats.daily[6]!.total).toBe(3);
    expect(stats.credit_rials).toBe(core.credit.balance(account));
    const everyone = await ok('dashboard:stats', {});
    expect(everyone.week.total).toBe(3);
  });
});

describe('backup and segments', () => {
  it('backs up and restores, keeping a safety copy of what it replaced', async () => {
    const backup = await ok('backup:create');
    expect(fs.existsSync(backup.path)).toBe(true);
    expect(backup.bytes).toBeGreaterThan(0);
    await ok('accounts:create', { name: 'after-backup' });
    await ok('pricing:set', { sms_page_tomans: 999, messenger_message_tomans: 1 });

    const restored = await ok('backup:restore', { path: backup.path });
    expect(fs.existsSync(restored.safety_backup.path)).toBe(true);
    expect((await ok('backup:list')).map((b) => b.path).sort()).toEqual(
      [backup.path, restored.safety_backup.path].sort(),
    );
    expect((await ok('accounts:list')).map((a) => a.name)).not.toContain('after-backup');
    expect((await ok('pricing:get')).sms_page_tomans).toBe(150);
    // The core keeps working on the restored data.
    const sent = await ok('messages:send', {
      account_id: account,
      sender: '30001111',
      message: 'after',
      receivers: ['09121234567'],
    });
    expect(sent.accepted).toBe(1);

    expect((await refused('backup:restore', { path: path.join(core.dataDir, 'missing.db') })).code).toBe(404);
    const junk = path.join(core.dataDir, 'junk.db');
    fs.writeFileSync(junk, 'not a database at all');
    expect((await refused('backup:restore', { path: junk })).code).toBe(400);
    expect((await refused('backup:create', { path: backup.path })).code).toBe(400);
  });

  /** A ready segment row of the account, written directly (imports have their own tests); members are added by the caller. */
  function readySegment(name: string, columns: string[], members: number): number {
    const now = clock.now();
    return Number(
      core.db
        .prepare(
          "INSERT INTO segments (account_id, name, columns, status, member_count, origin, created_at, updated_at) VALUES (?, ?, ?, 'ready', ?, 'import', ?, ?)",
        )
        .run(account, name, JSON.stringify(columns), members, now, now).lastInsertRowid,
    );
  }

  it('lists segments and sends to one', async () => {
    expect(await ok('segments:list', { account_id: account })).toEqual([]);
    const id = readySegment('vip', ['name'], 2);
    core.db
      .prepare(
        "INSERT INTO segment_members (segment_id, phone, fields) VALUES (?, '09121110001', 'a'), (?, '09121110002', 'b')",
      )
      .run(id, id);
    const segments = await ok('segments:list', { account_id: account });
    expect(segments[0]).toMatchObject({ id, name: 'vip', columns: ['name'], member_count: 2, status: 'ready' });
    const preview = await ok('compose:preview', {
      account_id: account,
      sender: '30001111',
      message: 'x',
      segment_id: id,
      receivers: ['09121110001'],
    });
    // The pasted number is also a member: the preview counts what the send records (one each).
    expect(preview.receivers.total).toBe(2);
    const sent = await ok('messages:send', {
      account_id: account,
      sender: '30001111',
      message: 'x',
      segment_id: id,
      receivers: ['09121110001'],
    });
    expect(sent).toMatchObject({ accepted: 2, duplicates: ['09121110001'] });
    expect(
      (await refused('messages:send', { account_id: account, sender: '30001111', message: 'x', segment_id: id + 1 }))
        .code,
    ).toBe(404);
  });

  it("sends to a ready segment only, through the contacts domain's phones", async () => {
    const id = readySegment('ready', [], 2);
    core.db
      .prepare(
        "INSERT INTO segment_members (segment_id, phone, fields) VALUES (?, '09121110001', ''), (?, '09121110002', '')",
      )
      .run(id, id);
    expect([...core.segments.phones(account, id)].sort()).toEqual(['09121110001', '09121110002']);
    core.db.prepare("UPDATE segments SET status = 'importing' WHERE id = ?").run(id);
    expect(() => core.segments.phones(account, id)).toThrow(/not ready/);
    expect(
      (await refused('messages:send', { account_id: account, sender: '30001111', message: 'x', segment_id: id })).code,
    ).toBe(400);
  });

  it('records a panel send of any size as one send', async () => {
    const id = readySegment('big', [], 12_000);
    core.db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 11999)
         INSERT INTO segment_members (segment_id, phone, fields) SELECT ?, printf('0913%07d', i), '' FROM n`,
      )
      .run(id);
    core.credit.adjust(account, 12_000 * 10_000, 'a large send');
    const whole = await ok('messages:send', {
      account_id: account,
      sender: '30001111',
      message: 'x',
      receivers: Array.from({ length: 10_000 }, (_, i) => '0914' + String(i).padStart(7, '0')),
    });
    expect(whole).toMatchObject({ accepted: 10_000 });
    const count = (sendId: number) =>
      (core.db.prepare('SELECT count(*) AS n FROM messages WHERE send_id = ?').get(sendId) as { n: number }).n;
    expect(count(whole.send_id)).toBe(10_000);
    const large = await ok('messages:send', { account_id: account, sender: '30001111', message: 'x', segment_id: id });
    expect(large).toMatchObject({ accepted: 12_000 });
    expect(count(large.send_id)).toBe(12_000);
  });
});

describe('the reasons of what a user can get wrong in Settings', () => {
  const reason = async (channel: string, input: unknown) =>
    ((await refused(channel, input)) as { reason?: string }).reason;

  it('adds a line normalized, says when it exists or has the wrong form, and deletes one that never sent', async () => {
    const added = await ok('lines:add', {
      account_id: account,
      number: '۱۰۰۰۲۰۰۰',
      provider: 'sms',
      permissions: ['can_send_api_campaign'],
    });
    expect(added.number).toBe('10002000');
    const again = { account_id: account, number: '10002000', provider: 'sms', permissions: [] };
    expect(await reason('lines:add', again)).toBe('line_exists');
    expect(await reason('lines:add', { ...again, number: 'abc' })).toBe('sms_line_number_invalid');
    expect(await reason('lines:add', { ...again, number: 'a', provider: 'bale' })).toBe('messenger_line_name_invalid');
    expect(await ok('lines:delete', { account_id: account, number: '10002000' })).toBeNull();
    expect((await ok('lines:list', { account_id: account })).map((l) => l.number)).not.toContain('10002000');
    await ok('messages:send', { account_id: account, sender: '30001111', message: 'x', receivers: ['09121234567'] });
    expect(await reason('lines:delete', { account_id: account, number: '30001111' })).toBe('line_has_messages');
    expect(await reason('lines:delete', { account_id: account, number: '39999999' })).toBe('line_not_found');
  });

  it('refuses a taken account name, a price out of range and amounts too large, each with its reason', async () => {
    expect(await reason('accounts:create', { name: 'other' })).toBe('account_name_taken');
    expect(await reason('pricing:set', { sms_page_tomans: -5, messenger_message_tomans: 50 })).toBe(
      'price_out_of_range',
    );
    expect((await ok('pricing:get')).sms_page_tomans).toBe(150);
    expect(await reason('credit:topUp', { account_id: account, amount_rials: 10 ** 14 })).toBe('amount_too_large');
    for (let i = 0; i < 99; i++) await ok('credit:topUp', { account_id: account, amount_rials: 10 ** 13 });
    expect(await reason('credit:topUp', { account_id: account, amount_rials: 10 ** 13 })).toBe('balance_too_large');
    const { credit_rials } = await ok('credit:balance', { account_id: account });
    expect(credit_rials).toBeLessThanOrEqual(10 ** 15);
    expect(core.credit.ledgerSum(account)).toBe(credit_rials);
    expect((await ok('accounts:list')).find((a) => a.id === account)?.credit_rials).toBe(credit_rials);
  });

  it('says which backup file is missing or is no backup', async () => {
    expect(await reason('backup:restore', { path: path.join(core.dataDir, 'missing.db') })).toBe('backup_file_missing');
    const junk = path.join(core.dataDir, 'junk.db');
    fs.writeFileSync(junk, 'not a database');
    expect(await reason('backup:restore', { path: junk })).toBe('backup_not_chapar');
  });

  it('lists a send with its refunds as one ledger row and expands it', async () => {
    core.settings.setSimulator({ seed: 1, handoff_ms: 10, delivery_ms: 10, outcomes: { '13': 1 } });
    const sent = await ok('messages:send', {
      account_id: account,
      sender: '30001111',
      message: 'x',
      receivers: ['09121234567', '09121234568', '09121234569'],
    });
    await deliverAll();
    const { entries } = await ok('credit:ledger', { account_id: account });
    expect(entries[0]).toMatchObject({ kind: 'send', send_id: sent.send_id, amount_rials: 0 });
    expect(entries[0]!.group).toMatchObject({ charged_rials: 4500, refunded_rials: 4500, refund_count: 3 });
    const rows = await ok('credit:ledger', { account_id: account, send_id: sent.send_id });
    expect(rows.entries.map((e) => e.amount_rials)).toEqual([1500, 1500, 1500]);
  });
});
