// The verify/lookup templates as a user writes them in Settings: a name the API can carry
// (English letters, digits, '-'), unique in the account; a text that holds %token and only the
// placeholders verify/lookup fills; the line it goes out on is one of the account's. Each account
// sees only its own.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { testCores } from '../../../test/helpers/core';
import { refusal } from '../../../test/helpers/refusal';
import { fillTemplate, placeholdersOf, templateBodyFault } from '../../../shared/verify-templates';

const cores = testCores();

function makeCore() {
  const clock = new ManualClock();
  const core = cores.open({ clock });
  return { core, clock, acme: core.accounts.findByName('acme')!.id, other: core.accounts.findByName('other')!.id };
}

const BODY = 'کد ورود شما: %token';

describe('verify templates', () => {
  it('are created active, found by name, listed per account', () => {
    const { core, acme, other } = makeCore();
    const made = core.templates.create(acme, { name: 'login-code', body: BODY });
    expect(made).toMatchObject({ account_id: acme, name: 'login-code', body: BODY, sender: null, active: true });
    expect(made.created_at).toBe(made.updated_at);
    expect(core.templates.find(acme, 'login-code')).toEqual(made);
    expect(core.templates.find(other, 'login-code')).toBeUndefined();
    // Names are compared to the letter, as the API's `template` parameter is.
    expect(core.templates.find(acme, 'Login-Code')).toBeUndefined();
    expect(core.templates.list(acme)).toEqual([made]);
    expect(core.templates.list(other)).toEqual([]);
  });

  it('have a name of English letters, digits and "-", 1 to 50 long, without spaces or underscore', () => {
    const { core, acme } = makeCore();
    for (const good of ['a', 'Verify2', 'login-code', 'x'.repeat(50)])
      expect(core.templates.create(acme, { name: good, body: BODY }).name).toBe(good);
    for (const bad of ['', 'two words', 'snake_case', 'کد', 'x'.repeat(51), 'dot.name', '   '])
      expect(refusal(() => core.templates.create(acme, { name: bad, body: BODY }))).toBe('template_name_invalid');
    // Blanks around a typed name are not part of it.
    expect(core.templates.create(acme, { name: ' padded ', body: BODY }).name).toBe('padded');
  });

  it('have a name unique in the account, but another account may use it', () => {
    const { core, acme, other } = makeCore();
    core.templates.create(acme, { name: 'otp', body: BODY });
    expect(refusal(() => core.templates.create(acme, { name: 'otp', body: BODY }))).toBe('template_exists');
    expect(core.templates.create(other, { name: 'otp', body: BODY }).account_id).toBe(other);
    const second = core.templates.create(acme, { name: 'otp2', body: BODY });
    expect(refusal(() => core.templates.update(second.id, { name: 'otp' }))).toBe('template_exists');
    // Its own name again is no clash.
    expect(core.templates.update(second.id, { name: 'otp2' }).name).toBe('otp2');
  });

  it('have a text that holds %token and no placeholder verify/lookup does not fill', () => {
    const { core, acme } = makeCore();
    for (const bad of ['', '   ', 'no placeholder', 'only %token2 here', 'token without percent'])
      expect(refusal(() => core.templates.create(acme, { name: 'a', body: bad }))).toBe('template_body_needs_token');
    for (const bad of ['%token and %token4', '%token %tokenx', '%token %token_1', '%token %token11'])
      expect(refusal(() => core.templates.create(acme, { name: 'a', body: bad }))).toBe('template_placeholder_unknown');
    const all = 'کد %token، %token2 و %token3؛ %token10 — %token20.';
    expect(core.templates.create(acme, { name: 'all', body: all }).body).toBe(all);
    const made = core.templates.create(acme, { name: 'b', body: BODY });
    expect(refusal(() => core.templates.update(made.id, { body: 'lost it' }))).toBe('template_body_needs_token');
    expect(core.templates.get(made.id).body).toBe(BODY);
  });

  it('go out on null (the default line) or a line of the account, else 412', () => {
    const { core, acme } = makeCore();
    expect(core.templates.create(acme, { name: 'a', body: BODY, sender: '30001111' }).sender).toBe('30001111');
    // Typed in Persian digits: the line, stored in its own form.
    expect(core.templates.create(acme, { name: 'b', body: BODY, sender: '۳۰۰۰۱۱۱۱' }).sender).toBe('30001111');
    expect(core.templates.create(acme, { name: 'c', body: BODY, sender: '' }).sender).toBeNull();
    // The other account's line, or none at all.
    for (const bad of ['30009999', '12345678'])
      expect(refusal(() => core.templates.create(acme, { name: 'd', body: BODY, sender: bad }))).toBe(
        'template_sender_not_owned',
      );
    let code = 0;
    try {
      core.templates.create(acme, { name: 'd', body: BODY, sender: '30009999' });
    } catch (error) {
      code = (error as { code: number }).code;
    }
    expect(code).toBe(412);
    const made = core.templates.create(acme, { name: 'e', body: BODY, sender: '30002222' });
    expect(core.templates.update(made.id, { sender: null }).sender).toBeNull();
  });

  it('are updated field by field, deactivated and removed; updated_at moves', () => {
    const { core, clock, acme } = makeCore();
    const made = core.templates.create(acme, { name: 'otp', body: BODY });
    clock.advance(60_000);
    const off = core.templates.update(made.id, { active: false });
    expect(off).toMatchObject({ name: 'otp', body: BODY, active: false });
    expect(off.updated_at).toBe(made.updated_at + 60_000);
    expect(off.created_at).toBe(made.created_at);
    // An inactive template is still found: the lookup answers it differently from an unknown one.
    expect(core.templates.find(acme, 'otp')?.active).toBe(false);
    const edited = core.templates.update(made.id, { body: 'Code %token2 %token', active: true });
    expect(edited).toMatchObject({ body: 'Code %token2 %token', active: true });
    core.templates.remove(made.id);
    expect(core.templates.find(acme, 'otp')).toBeUndefined();
    expect(refusal(() => core.templates.remove(made.id))).toBe('template_not_found');
  });

  it('of another account are not changed or removed through this one', () => {
    const { core, acme, other } = makeCore();
    const theirs = core.templates.create(other, { name: 'otp', body: BODY });
    expect(refusal(() => core.templates.update(theirs.id, { active: false }, acme))).toBe('template_not_found');
    expect(refusal(() => core.templates.remove(theirs.id, acme))).toBe('template_not_found');
    expect(core.templates.find(other, 'otp')?.active).toBe(true);
  });

  it('go with their account', () => {
    const { core, acme } = makeCore();
    core.templates.create(acme, { name: 'otp', body: BODY });
    core.db.prepare('DELETE FROM accounts WHERE id = ?').run(acme);
    expect(core.db.prepare('SELECT count(*) FROM verify_templates').pluck().get()).toBe(0);
  });
});

describe('template text', () => {
  it('names its placeholders in order, unknown ones too', () => {
    expect(placeholdersOf('%token2 then %token and %token2 %tokenX')).toEqual(['token2', 'token', 'tokenX']);
    expect(templateBodyFault('Persian after it: %tokenرا')).toBeNull();
  });

  it('is filled placeholder by placeholder: %token10 is not %token followed by 10', () => {
    const values = { token: '12345', token2: 'B', token3: 'C', token10: 'TEN', token20: 'TWENTY' };
    expect(fillTemplate('%token|%token2|%token3|%token10|%token20', values)).toBe('12345|B|C|TEN|TWENTY');
    // A value is inserted as it is: no `$&` patterns, no second pass over what was inserted.
    expect(fillTemplate('code %token', { token: '$& %token2' })).toBe('code $& %token2');
    // A placeholder without a value stays for the caller to judge.
    expect(fillTemplate('%token %token2', { token: '1' })).toBe('1 %token2');
  });
});
