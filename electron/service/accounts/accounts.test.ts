// Accounts and their lines as a user meets them in Settings: a line number typed in Persian digits
// is the same line as in Latin ones (stored once, found by the API either way), a number of the
// wrong form is refused with a reason per provider, a duplicate says so, and a line that never
// sent can be deleted while one with history cannot. A taken account name has its own reason.
import lineNumbersAscii from '../db/migrations/0011-line-numbers-ascii';
import { describe, expect, it } from 'vitest';
import { applySeed } from '../seed';
import { ServiceError } from '../errors';
import { testCores } from '../../../test/helpers/core';
import { refusal } from '../../../test/helpers/refusal';
import { lineNumberFault, normalizeLineNumber } from '../../../shared/lines';
import { panelSend } from '../messaging/compose';

const cores = testCores();

function makeCore() {
  const core = cores.open();
  return { core, acme: core.accounts.findByName('acme')!.id, other: core.accounts.findByName('other')!.id };
}

const BOTH = ['can_send_api_campaign', 'can_send_panel_campaign'] as const;

describe('line numbers', () => {
  it('are normalized: Persian and Arabic digits, groups, a leading + or @, marks copied from RTL text', () => {
    expect(normalizeLineNumber('۱۰۰۰۲۰۰۰')).toBe('10002000');
    expect(normalizeLineNumber('١٠٠٠٢٠٠٠')).toBe('10002000');
    expect(normalizeLineNumber(' 3000 1234 ')).toBe('30001234');
    expect(normalizeLineNumber('+98-21-1234')).toBe('98211234');
    expect(normalizeLineNumber('\u200f10002000\u200e')).toBe('10002000');
    expect(normalizeLineNumber('@acme_bot')).toBe('acme_bot');
    expect(normalizeLineNumber('abc')).toBe('abc');
  });

  it('have a form per provider: SMS 4 to 14 digits, Bale and Rubika a bot username', () => {
    expect(lineNumberFault('10002000', 'sms')).toBeNull();
    expect(lineNumberFault('3000', 'sms')).toBeNull();
    expect(lineNumberFault('12345678901234', 'sms')).toBeNull();
    for (const bad of ['abc', '123', '123456789012345', '1000-2000', ''])
      expect(lineNumberFault(bad, 'sms')).toBe('sms_line_number_invalid');
    expect(lineNumberFault('acme_bot', 'bale')).toBeNull();
    expect(lineNumberFault('Rubika_Shop1', 'rubika')).toBeNull();
    for (const bad of ['ab', 'acme bot', 'acme-bot', 'بات_من', 'a'.repeat(65)])
      expect(lineNumberFault(bad, 'bale')).toBe('messenger_line_name_invalid');
  });

  it('typed in Persian digits are stored in Latin ones, which the API sender must equal', () => {
    const { core, acme } = makeCore();
    const line = core.accounts.addLine(acme, { number: '۱۰۰۰۲۰۰۰', provider: 'sms', permissions: BOTH });
    expect(line.number).toBe('10002000');
    expect(core.accounts.senderLine(acme, '10002000', 'api-v2').id).toBe(line.id);
    // The API's sender equals the number, to the letter (spec 4.1): other digits or spaces are another text.
    expect(refusal(() => core.accounts.senderLine(acme, '۱۰۰۰۲۰۰۰', 'api-v2'))).toBe('code 412');
    expect(refusal(() => core.accounts.senderLine(acme, ' 10002000', 'api-v2'))).toBe('code 412');
    // The add form takes what people type: groups, a leading +, marks copied from RTL text.
    expect(core.accounts.addLine(acme, { number: '\u200f+3000 7777', provider: 'sms', permissions: [] }).number).toBe(
      '30007777',
    );
    // The send records the stored form.
    const sent = panelSend(core, { account_id: acme, sender: '10002000', message: 'hi', receivers: ['09121234567'] });
    const sender = core.db.prepare('SELECT sender FROM sends WHERE id = ?').pluck().get(sent.send_id);
    expect(sender).toBe('10002000');
  });

  it('of the wrong form are refused with the reason of their provider', () => {
    const { core, acme } = makeCore();
    expect(refusal(() => core.accounts.addLine(acme, { number: 'abc', provider: 'sms', permissions: BOTH }))).toBe(
      'sms_line_number_invalid',
    );
    expect(refusal(() => core.accounts.addLine(acme, { number: 'a b', provider: 'bale', permissions: BOTH }))).toBe(
      'messenger_line_name_invalid',
    );
    // The seed file goes through the same rule.
    expect(() =>
      applySeed(core, {
        accounts: [{ name: 'acme', lines: [{ number: 'x', provider: 'sms', permissions: [] }] }],
      }),
    ).toThrow(ServiceError);
    expect(core.accounts.listLines(acme).map((l) => l.number)).not.toContain('abc');
  });

  it('already there are refused as existing, in any digits; a number of another account as taken', () => {
    const { core, acme, other } = makeCore();
    const add = (number: string, account = acme) =>
      refusal(() => core.accounts.addLine(account, { number, provider: 'sms', permissions: BOTH }));
    expect(add('30001111')).toBe('line_exists');
    expect(add('۳۰۰۰۱۱۱۱')).toBe('line_exists');
    expect(add('30009999')).toBe('line_taken');
    expect(
      refusal(() => core.accounts.upsertLine(other, { number: '30001111', provider: 'sms', permissions: [] })),
    ).toBe('line_taken');
  });

  it('stored before the rule keep working: Persian digits rewritten by migration 0011, odd forms still switchable', () => {
    const { core, acme } = makeCore();
    const insert = core.db.prepare(
      `INSERT INTO lines (account_id, number, provider, can_send_api_campaign, can_send_panel_campaign, created_at)
       VALUES (?, ?, 'sms', 1, 1, 0)`,
    );
    insert.run(acme, '۱۰۰۰۲۰۰۰');
    insert.run(acme, '٣٠٠٠٧٧٧٧');
    // Both spellings already there: the Persian one stays (the rewrite would collide), usable as it is.
    insert.run(acme, '۳۰۰۰۱۱۱۱');
    insert.run(acme, 'abc');
    core.db.exec(lineNumbersAscii);
    expect(core.accounts.senderLine(acme, '10002000', 'api-v2').number).toBe('10002000');
    expect(core.accounts.senderLine(acme, '30007777', 'api-v2').number).toBe('30007777');
    expect(core.accounts.listLines(acme).filter((l) => l.number.includes('۳۰۰۰۱۱۱۱'))).toHaveLength(1);
    expect(refusal(() => core.accounts.addLine(acme, { number: '۱۰۰۰۲۰۰۰', provider: 'sms', permissions: [] }))).toBe(
      'line_exists',
    );
    const off = core.accounts.upsertLine(acme, { number: 'abc', provider: 'sms', permissions: [], active: false });
    expect(off).toMatchObject({ number: 'abc', active: false, can_send_api_campaign: false });
    expect(core.accounts.listLines(acme).filter((l) => l.number === 'abc')).toHaveLength(1);
  });

  it('are deleted when they never sent; one with messages, or named by a campaign, is refused (deactivate instead)', () => {
    const { core, acme } = makeCore();
    core.accounts.addLine(acme, { number: '30005555', provider: 'sms', permissions: BOTH });
    core.accounts.deleteLine(acme, '۳۰۰۰۵۵۵۵');
    expect(core.accounts.findLine(acme, '30005555')).toBeUndefined();
    expect(refusal(() => core.accounts.deleteLine(acme, '30005555'))).toBe('line_not_found');

    panelSend(core, { account_id: acme, sender: '30001111', message: 'hi', receivers: ['09121234567'] });
    expect(refusal(() => core.accounts.deleteLine(acme, '30001111'))).toBe('line_has_messages');
    expect(core.accounts.findLine(acme, '30001111')).toBeDefined();

    core.accounts.addLine(acme, { number: '30006666', provider: 'sms', permissions: BOTH });
    core.campaigns.create(acme, {
      sender: '30006666',
      name: 'spring',
      template_body: 'hi',
      send_datetime: '2030-01-01T10:00:00Z',
      inclusion_segments: [],
      exclusion_segments: [],
      links: [],
      utm: {},
    });
    expect(refusal(() => core.accounts.deleteLine(acme, '30006666'))).toBe('line_has_messages');
  });

  it('in use by any registered check are refused, each check asked with the line (the domains above register theirs)', () => {
    const { core, acme } = makeCore();
    core.accounts.addLine(acme, { number: '30007777', provider: 'sms', permissions: BOTH });
    core.accounts.addLine(acme, { number: '30008888', provider: 'sms', permissions: BOTH });
    const asked: string[] = [];
    core.accounts.registerLineUse((line) => {
      asked.push(line.number);
      return line.number === '30007777';
    });
    expect(refusal(() => core.accounts.deleteLine(acme, '30007777'))).toBe('line_has_messages');
    expect(core.accounts.removeLine(acme, '30007777').active).toBe(false);
    core.accounts.deleteLine(acme, '30008888');
    expect(core.accounts.findLine(acme, '30008888')).toBeUndefined();
    expect(asked).toEqual(['30007777', '30008888']);
  });
});

describe('account names', () => {
  it('are unique: a taken name has its reason, on create and on rename', () => {
    const { core, acme } = makeCore();
    expect(refusal(() => core.accounts.create({ name: 'other' }))).toBe('account_name_taken');
    expect(refusal(() => core.accounts.update(acme, { name: 'other' }))).toBe('account_name_taken');
  });
});

// What the API reads on every request (a key's account, the sender line) is kept in memory
// (read-cache.ts): every change a user makes must still count from the next request on.
describe('what API requests read, kept between them', () => {
  it('a revoked key, a deactivated account and a changed allow-list count at the next request', () => {
    const { core, acme } = makeCore();
    const { key, info } = core.accounts.createApiKey(acme, 'shop');
    expect(core.accounts.authenticate(key)).toMatchObject({ ok: true, account: { id: acme } });
    core.accounts.update(acme, { ip_allowlist: ['10.0.0.1'] });
    expect(core.accounts.authenticate(key)).toMatchObject({ ok: true, account: { ip_allowlist: ['10.0.0.1'] } });
    core.accounts.update(acme, { active: false });
    expect(core.accounts.authenticate(key)).toEqual({ ok: false, code: 401 });
    core.accounts.update(acme, { active: true });
    expect(core.accounts.authenticate(key)).toMatchObject({ ok: true });
    core.accounts.revokeApiKey(info.id);
    expect(core.accounts.authenticate(key)).toEqual({ ok: false, code: 403 });
    // The account it answers holds no credit to go stale: the credit is Credit's.
    const fresh = core.accounts.createApiKey(acme).key;
    const found = core.accounts.authenticate(fresh);
    expect(found.ok && 'credit_rials' in found.account).toBe(false);
  });

  it('a line changed, deactivated or deleted counts at once; one written in a transaction that rolled back is not kept', () => {
    const { core, acme } = makeCore();
    expect(core.accounts.findLine(acme, '30002222')!.can_send_api_campaign).toBe(false);
    core.accounts.upsertLine(acme, { number: '30002222', provider: 'sms', permissions: [...BOTH] });
    expect(core.accounts.findLine(acme, '30002222')!.can_send_api_campaign).toBe(true);
    core.accounts.setGateway(acme, { number: '30002222', kind: 'kavenegar-v1', base_url: 'http://127.0.0.1:9' });
    expect(core.accounts.findLine(acme, '30002222')!.gateway.kind).toBe('kavenegar-v1');
    core.accounts.removeLine(acme, '30002222');
    expect(core.accounts.findLine(acme, '30002222')!.active).toBe(false);
    core.accounts.addLine(acme, { number: '30003333', provider: 'sms', permissions: [...BOTH] });
    expect(core.accounts.findLine(acme, '30003333')).toBeDefined();
    core.accounts.deleteLine(acme, '30003333');
    expect(core.accounts.findLine(acme, '30003333')).toBeUndefined();

    // Added and read inside a transaction that then fails: gone, and not found afterwards.
    expect(() =>
      core.db.transaction(() => {
        core.accounts.addLine(acme, { number: '30004444', provider: 'sms', permissions: [...BOTH] });
        expect(core.accounts.findLine(acme, '30004444')).toBeDefined();
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(core.accounts.findLine(acme, '30004444')).toBeUndefined();
    // Changed inside a transaction that rolls back: the line as it was.
    core.accounts.findLine(acme, '30001111');
    expect(() =>
      core.db.transaction(() => {
        core.accounts.removeLine(acme, '30001111');
        expect(core.accounts.findLine(acme, '30001111')!.active).toBe(false);
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(core.accounts.findLine(acme, '30001111')!.active).toBe(true);
  });
});
