// The account's IP allow-list as Settings writes it: an entry that is no address or CIDR range is
// refused by name (a typo would otherwise answer every version 1 call 416 with nothing saying
// why), and entries are kept in one spelling, each once, admitting exactly what they admitted as
// typed.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { testCores } from '../../../test/helpers/core';
import { refusal } from '../../../test/helpers/refusal';
import { canonicalAllowlist } from './accounts';
import { ipAllowed } from './ip-allowlist';

const cores = testCores();

function makeCore() {
  const core = cores.open();
  return { core, acme: core.accounts.findByName('acme')!.id };
}

describe('the IP allow-list', () => {
  it('refuses an entry that is no address or range, in update and create, and keeps the list as it was', () => {
    const { core, acme } = makeCore();
    for (const bad of [
      '',
      'localhost',
      '1.2.3',
      '256.1.1.1',
      '10.0.0.0/33',
      '::1/129',
      '1.2.3.4/',
      '1.2.3.4/x',
      'fe80::1%eth0',
      '1.2.3.4/8/8',
    ])
      expect(refusal(() => core.accounts.update(acme, { ip_allowlist: ['127.0.0.1', bad] }))).toBe(
        'ip_allowlist_entry_invalid',
      );
    expect(core.accounts.get(acme).ip_allowlist).toEqual(['127.0.0.1']);
    expect(refusal(() => core.accounts.create({ name: 'new', ip_allowlist: ['example.com'] }))).toBe(
      'ip_allowlist_entry_invalid',
    );
    expect(core.accounts.findByName('new')).toBeUndefined();
  });

  it('keeps entries in one spelling, each once, in the order given', () => {
    const { core, acme } = makeCore();
    const saved = core.accounts.update(acme, {
      ip_allowlist: [
        ' 127.0.0.1 ',
        '::FFFF:127.0.0.1',
        '0:0:0:0:0:0:0:1',
        '::1',
        '[::1]',
        'FE80::A/064',
        '10.0.0.0/8',
        '10.0.0.0/08',
      ],
    });
    expect(saved.ip_allowlist).toEqual(['127.0.0.1', '::1', 'fe80::a/64', '10.0.0.0/8']);
    expect(core.accounts.create({ name: 'new', ip_allowlist: ['::1', '::1'] }).ip_allowlist).toEqual(['::1']);
    // Left out, the list stays; an empty list is a list (nobody may call version 1).
    expect(core.accounts.update(acme, { name: 'acme2' }).ip_allowlist).toEqual(saved.ip_allowlist);
    expect(core.accounts.update(acme, { ip_allowlist: [] }).ip_allowlist).toEqual([]);
  });

  it('admits, once canonical, exactly the callers it admitted as typed', () => {
    const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join('.'));
    const hextet = fc.nat(0xffff).map((n) => n.toString(16));
    const ipv6 = fc.array(hextet, { minLength: 8, maxLength: 8 }).map((parts) => parts.join(':'));
    const spelled = fc.oneof(
      ipv4,
      ipv4.map((ip) => `::ffff:${ip}`),
      ipv6,
      ipv6.map((ip) => ip.toUpperCase()),
      fc.tuple(ipv4, fc.nat(32)).map(([ip, bits]) => `${ip}/${bits}`),
      fc.tuple(ipv6, fc.nat(128)).map(([ip, bits]) => `${ip}/${bits}`),
      fc.tuple(ipv6, fc.nat(99)).map(([ip, bits]) => `${ip}/0${bits}`),
    );
    fc.assert(
      fc.property(fc.array(spelled, { maxLength: 4 }), fc.oneof(ipv4, ipv6), (typed, caller) => {
        expect(ipAllowed(canonicalAllowlist(typed), caller)).toBe(ipAllowed(typed, caller));
      }),
      { numRuns: 300 },
    );
  });
});
