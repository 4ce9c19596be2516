// The composer in the core: `{{COLUMN}}` filled per recipient from the chosen segment by the
// campaigns' rules, each text priced as its own, the preview's total being the very charge; a send
// of the same text to the same receivers a moment ago said before sending again; every pasted
// entry counted once as valid, invalid or a dropped repeat.
import { describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { testCores } from '../../../test/helpers/core';
import { preview, panelSend, RECENT_DUPLICATE_MS } from './compose';

const cores = testCores();

function makeCore() {
  const clock = new ManualClock();
  const core = cores.open({ clock });
  const account = core.accounts.findByName('acme')!;
  return { core, clock, account: account.id };
}

/** A ready segment as an import leaves it: columns by name, each member's values in that order. */
function segment(core: Core, account: number, columns: string[], members: Array<[string, ...string[]]>): number {
  const now = Date.now();
  const id = Number(
    core.db
      .prepare(
        `INSERT INTO segments (account_id, name, columns, status, member_count, origin, created_at, updated_at)
         VALUES (?, 'customers', ?, 'ready', ?, 'import', ?, ?)`,
      )
      .run(account, JSON.stringify(columns), members.length, now, now).lastInsertRowid,
  );
  const insert = core.db.prepare('INSERT INTO segment_members (segment_id, phone, fields) VALUES (?, ?, ?)');
  for (const [phone, ...values] of members) insert.run(id, phone, values.join('\u001f'));
  return id;
}

/** Each recorded message's receiver, final text and cost, in order. */
function recorded(core: Core, sendId: number) {
  return core.db
    .prepare(
      `SELECT m.receptor, COALESCE(m.text, s.text) AS text, m.cost_rials AS cost
       FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.send_id = ? ORDER BY m.id`,
    )
    .all(sendId) as Array<{ receptor: string; text: string; cost: number }>;
}

describe('the composer fills {{COLUMN}} from the segment', () => {
  it("records each recipient's own text, and the preview's total is the charge to the rial", () => {
    const { core, account } = makeCore();
    // A long city makes one text two pages: the total is not pages x receivers of the template.
    const long = 'ش'.repeat(60);
    const id = segment(
      core,
      account,
      ['Name', 'City'],
      [
        ['09121110001', 'Ali', 'Tehran'],
        ['09121110002', 'Sara', long],
        ['09121110003', '', 'Shiraz'],
      ],
    );
    const input = {
      account_id: account,
      sender: '30001111',
      message: 'سلام {{name}} از {{ CITY }} ({{PHONE_NUMBER}})',
      // A pasted number has no columns (empty values, the number its own), unless it is a member.
      receivers_text: '0912 111 0009\n09121110001',
      segment_id: id,
    };
    const shown = preview(core, input);
    expect(shown.personalized).toBe(true);
    // The first recipient is the first pasted one.
    expect(shown.sample_receptor).toBe('09121110009');
    expect(shown.final_text).toBe('سلام  از  (09121110009)\nلغو۱۱');
    expect(shown.columns).toEqual(['NAME', 'CITY', 'PHONE_NUMBER']);
    expect(shown.placeholders).toEqual([
      // The pasted 09121110009 and the member without a name.
      { name: 'NAME', known: true, missing: 2 },
      { name: 'CITY', known: true, missing: 1 },
      { name: 'PHONE_NUMBER', known: true, missing: 0 },
    ]);
    expect(shown.receivers.total).toBe(4);
    expect(shown.max_pages).toBe(2);

    const before = core.credit.balance(account);
    const sent = panelSend(core, input);
    const rows = recorded(core, sent.send_id);
    expect(rows.map((r) => [r.receptor, r.text])).toEqual([
      ['09121110009', 'سلام  از  (09121110009)\nلغو۱۱'],
      ['09121110001', 'سلام Ali از Tehran (09121110001)\nلغو۱۱'],
      ['09121110002', `سلام Sara از ${long} (09121110002)\nلغو۱۱`],
      ['09121110003', 'سلام  از Shiraz (09121110003)\nلغو۱۱'],
    ]);
    // One page is 1,500 rials; the long city's text takes two.
    expect(rows.map((r) => r.cost)).toEqual([1500, 1500, 3000, 1500]);
    const charged = rows.reduce((sum, r) => sum + r.cost, 0);
    expect(shown.total_cost_rials).toBe(charged);
    expect(sent.total_rials).toBe(charged);
    expect(before - core.credit.balance(account)).toBe(charged);
  });

  it('says placeholders no column matches and names written with single braces', () => {
    const { core, account } = makeCore();
    const id = segment(core, account, ['Name'], [['09121110001', 'Ali']]);
    const shown = preview(core, {
      account_id: account,
      sender: '30001111',
      message: 'سلام {NAME} عزیز، {{Shop}} {{name}}',
      segment_id: id,
    });
    expect(shown.single_braces).toEqual(['NAME']);
    expect(shown.placeholders).toEqual([
      { name: 'SHOP', known: false, missing: 1 },
      { name: 'NAME', known: true, missing: 0 },
    ]);
    expect(shown.final_text).toBe('سلام {NAME} عزیز،  Ali\nلغو۱۱');
  });

  it('sends a text without placeholders as one shared text, as before', () => {
    const { core, account } = makeCore();
    const id = segment(core, account, ['Name'], [['09121110001', 'Ali']]);
    const input = { account_id: account, sender: '30001111', message: 'Hi {sale}', segment_id: id };
    const shown = preview(core, input);
    expect(shown).toMatchObject({ personalized: false, sample_receptor: null, placeholders: [], max_pages: 1 });
    expect(shown.columns).toEqual(['NAME', 'PHONE_NUMBER']);
    const sent = panelSend(core, input);
    const text = core.db.prepare('SELECT text FROM messages WHERE send_id = ?').pluck().get(sent.send_id);
    // Stored once, on the send.
    expect(text).toBeNull();
  });
});

describe('placeholders in any text', () => {
  it('are read in time linear in its length: braces before a long run of spaces do not hang the core', () => {
    const { core, account } = makeCore();
    // Overlapping `\s*` around a lazy name took 107 s for "{{" before 10,000 spaces.
    const message = `{{${' '.repeat(100_000)}x {NAME ${' '.repeat(100_000)}`;
    const started = performance.now();
    const shown = preview(core, { account_id: account, sender: '30001111', message, receivers_text: '09121110001' });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(shown).toMatchObject({ personalized: false, single_braces: [] });
  });
});

describe('a send of the same text a moment ago', () => {
  it('is said with how many receivers already got it, within the last minutes only', () => {
    const { core, clock, account } = makeCore();
    const first = panelSend(core, {
      account_id: account,
      sender: '30001111',
      message: 'Friday sale',
      receivers_text: '09121110001\n09121110002\n09121110003',
    });
    clock.advance(60_000);
    const again = {
      account_id: account,
      sender: '30002222',
      message: 'Friday sale',
      receivers_text: '09121110002\n+98 912 111 0003\n09121110004',
    };
    expect(preview(core, again).recent_duplicate).toEqual({
      send_id: first.send_id,
      at: clock.now() - 60_000,
      overlap: 2,
    });
    // Another text, or other receivers: nothing to say.
    expect(preview(core, { ...again, message: 'Saturday sale' }).recent_duplicate).toBeNull();
    expect(preview(core, { ...again, receivers_text: '09121110009' }).recent_duplicate).toBeNull();
    // An API send of the same text counts too (the core knows every send).
    clock.advance(RECENT_DUPLICATE_MS);
    expect(preview(core, again).recent_duplicate).toBeNull();
    const api = core.messaging.accept.accept({
      accountId: account,
      origin: 'api-v2',
      sender: '30001111',
      text: 'Friday sale',
      receivers: ['09121110004'],
      rule: 'strict',
    });
    expect(preview(core, again).recent_duplicate).toMatchObject({ send_id: api.sendId, overlap: 1 });
  });
});

describe('receivers counted by lines', () => {
  it('adds up: valid + invalid + dropped repeats = entries', () => {
    const { core, account } = makeCore();
    // 16 entries: 6 distinct numbers, 4 invalid, 6 repeats (one number three times).
    const entries = [
      '09121110001',
      '09121110002',
      '09121110003',
      '09121110004',
      '09121110005',
      '09121110006',
      '12',
      'abc',
      '0912',
      '---',
      '09121110001',
      '+989121110001',
      '0912 111 0002',
      '۰۹۱۲۱۱۱۰۰۰۳',
      '09121110004',
      '09121110005',
    ];
    const input = { account_id: account, sender: '30001111', message: 'x', receivers_text: entries.join('\n') };
    const { receivers } = preview(core, input);
    expect([receivers.valid.length, receivers.invalid.length, receivers.duplicates.length]).toEqual([6, 4, 6]);
    expect(receivers.duplicates.filter((d) => d === '09121110001')).toHaveLength(2);
    const sent = panelSend(core, input);
    expect(sent.accepted + sent.invalid.length + sent.duplicates.length).toBe(entries.length);
  });
});
