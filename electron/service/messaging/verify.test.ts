// verify/lookup's rules in the core: one receptor, an active template, the tokens' length and form,
// tokens and placeholders matching, calls only for digits; and what it sends: the template filled,
// through Accept, from the template's line or the account's first SMS line that may send by API.
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors';
import { testCores } from '../../../test/helpers/core';
import { finalText } from '../../../shared/optout';
import { tokenFault, verifyType, type VerifyRequest } from './verify';

const cores = testCores();

function makeCore() {
  const core = cores.open();
  const acme = core.accounts.findByName('acme')!.id;
  core.templates.create(acme, { name: 'otp', body: 'code %token' });
  core.templates.create(acme, { name: 'full', body: '%token %token2 %token3 / %token10 / %token20' });
  core.templates.create(acme, { name: 'bale', body: 'bale %token', sender: 'bale_acme_bot' });
  core.templates.create(acme, { name: 'off', body: 'off %token', active: false });
  return { core, acme };
}

function code(run: () => unknown): number | 'ok' {
  try {
    run();
    return 'ok';
  } catch (error) {
    if (error instanceof ServiceError) return error.code;
    throw error;
  }
}

const call = (overrides: Partial<VerifyRequest> = {}): VerifyRequest => ({
  receptors: ['09121234567'],
  template: 'otp',
  tokens: { token: '1234' },
  ...overrides,
});

describe('verify/lookup in the core', () => {
  it('sends the filled template through Accept from the first SMS line that may send by API, with the opt-out phrase', () => {
    const { core, acme } = makeCore();
    const before = core.credit.balance(acme);
    const recorded = core.verify.lookup(acme, call());
    expect(recorded.line.number).toBe('30001111');
    expect(recorded.price.text).toBe(finalText('code 1234', false));
    expect(recorded.price.text).toContain('لغو۱۱');
    expect(recorded.accepted).toBe(1);
    expect(core.credit.balance(acme)).toBe(before - recorded.totalRials);
    const sent = core.messaging.outbox.select(acme, [recorded.firstMessageId])[0]!;
    expect(sent).toMatchObject({ receptor: '09121234567', sender: '30001111', message: recorded.price.text });
  });

  it('sends from the template’s own line when it names one (a messenger text is unchanged)', () => {
    const { core, acme } = makeCore();
    const recorded = core.verify.lookup(acme, call({ template: 'bale' }));
    expect(recorded.line.number).toBe('bale_acme_bot');
    expect(recorded.price.text).toBe('bale 1234');
  });

  it('fills every token, token10 with up to 5 spaces and token20 with up to 8', () => {
    const { core, acme } = makeCore();
    const tokens = { token: 'a', token2: 'b', token3: 'c', token10: 'd e f g h i', token20: '1 2 3 4 5 6 7 8 9' };
    const recorded = core.verify.lookup(acme, call({ template: 'full', tokens }));
    expect(recorded.price.text.startsWith('a b c / d e f g h i / 1 2 3 4 5 6 7 8 9')).toBe(true);
  });

  it('refuses with the reference’s codes, recording nothing', () => {
    const { core, acme } = makeCore();
    const refused = (request: VerifyRequest) => code(() => core.verify.lookup(acme, request));
    const balance = core.credit.balance(acme);
    expect(refused(call({ receptors: [] }))).toBe(400);
    expect(refused(call({ receptors: ['09121234567', '09121234568'] }))).toBe(411);
    expect(refused(call({ receptors: ['12345'] }))).toBe(411);
    expect(refused(call({ template: 'nope' }))).toBe(424);
    expect(refused(call({ template: 'off' }))).toBe(424);
    expect(refused(call({ tokens: {} }))).toBe(400);
    expect(refused(call({ tokens: { token: 'x'.repeat(101) } }))).toBe(422);
    expect(refused(call({ tokens: { token: 'a b' } }))).toBe(431);
    expect(refused(call({ tokens: { token: 'a_b' } }))).toBe(431);
    expect(refused(call({ tokens: { token: 'a\nb' } }))).toBe(431);
    expect(refused(call({ tokens: { token: '1', token2: '2' } }))).toBe(432);
    const full = { token: 'a', token2: 'b', token3: 'c', token10: 'd', token20: 'e' };
    expect(refused(call({ template: 'full', tokens: { ...full, token10: 'a b c d e f g' } }))).toBe(431);
    expect(refused(call({ template: 'full', tokens: { ...full, token20: '1 2 3 4 5 6 7 8 9 0' } }))).toBe(431);
    expect(refused(call({ template: 'full', tokens: { ...full, token3: undefined } }))).toBe(400);
    expect(refused(call({ type: 'call', tokens: { token: 'abc' } }))).toBe(428);
    expect(refused(call({ type: 'fax' }))).toBe(400);
    expect(core.credit.balance(acme)).toBe(balance);
    expect(core.db.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 0 });
  });

  it('takes type sms or call in any case; a call with a numeric code is sent', () => {
    const { core, acme } = makeCore();
    expect(verifyType(undefined)).toBe('sms');
    expect(verifyType('Call')).toBe('call');
    expect(verifyType('SMS')).toBe('sms');
    expect(core.verify.lookup(acme, call({ type: 'Call', tokens: { token: '98765' } })).accepted).toBe(1);
  });

  it('judges a token by its length first (422), then its form (431)', () => {
    expect(tokenFault('token', 'x'.repeat(100))).toBeNull();
    expect(tokenFault('token', 'x'.repeat(101))).toBe(422);
    expect(tokenFault('token', 'a b'.repeat(40))).toBe(422);
    expect(tokenFault('token', 'a\u0001b')).toBe(422);
    expect(tokenFault('token2', 'a\tb')).toBe(431);
    expect(tokenFault('token10', 'a b c d e f')).toBeNull();
    expect(tokenFault('token10', 'a_b')).toBe(431);
    expect(tokenFault('token20', 'a\nb')).toBe(431);
  });

  it('is 412 when the account has no SMS line that may send by API', () => {
    const { core, acme } = makeCore();
    core.accounts.removeLine(acme, '30001111');
    expect(code(() => core.verify.lookup(acme, call()))).toBe(412);
  });
});
