// An account's version 1 settings: the defaults until set, values checked once (400 outside their
// set, 412 for a default sender that is not a line of the account), and the sender of a send that
// names none.
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors';
import { testCores } from '../../../test/helpers/core';
import { ACCOUNT_CONFIG_DEFAULTS } from './account-config';

const cores = testCores();

function makeCore() {
  const core = cores.open();
  return { core, account: core.accounts.findByName('acme')!, other: core.accounts.findByName('other')! };
}

function codeOf(run: () => unknown): number | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof ServiceError) return error.code;
    throw error;
  }
}

describe('account config', () => {
  it('has the defaults until set, and keeps what was set per account', () => {
    const { core, account, other } = makeCore();
    expect(core.accountConfig.get(account.id)).toEqual(ACCOUNT_CONFIG_DEFAULTS);
    expect(core.accountConfig.get(account.id)).toEqual({
      apilogs: 'justfaults',
      dailyreport: 'disabled',
      debugmode: 'disabled',
      defaultsender: '',
      mincreditalarm: 0,
      resendfailed: 'disabled',
    });
    const set = core.accountConfig.set(account.id, {
      apilogs: 'JustForFault',
      dailyreport: 'enabled',
      debugmode: 'enabled',
      defaultsender: '۳۰۰۰۱۱۱۱',
      mincreditalarm: '۵۰۰۰',
      resendfailed: 'enabled',
    });
    expect(set).toEqual({
      apilogs: 'justfaults',
      dailyreport: 'enabled',
      debugmode: 'enabled',
      defaultsender: '30001111',
      mincreditalarm: 5000,
      resendfailed: 'enabled',
    });
    expect(core.accountConfig.get(account.id)).toEqual(set);
    expect(core.accountConfig.get(other.id)).toEqual(ACCOUNT_CONFIG_DEFAULTS);
    // A partial change keeps the rest; '' clears the default sender.
    expect(core.accountConfig.set(account.id, { apilogs: 'disabled', defaultsender: '' })).toEqual({
      ...set,
      apilogs: 'disabled',
      defaultsender: '',
    });
    expect(codeOf(() => core.accountConfig.get(987654))).toBe(404);
  });

  it('refuses values outside their sets (400) and lines not of the account (412), changing nothing', () => {
    const { core, account } = makeCore();
    const bad: Array<[Record<string, string | number>, number]> = [
      [{ apilogs: 'sometimes' }, 400],
      [{ dailyreport: 'yes' }, 400],
      [{ debugmode: 'justfaults' }, 400],
      [{ resendfailed: 'on' }, 400],
      [{ mincreditalarm: '-5' }, 400],
      [{ mincreditalarm: '1.5' }, 400],
      [{ mincreditalarm: 'lots' }, 400],
      [{ defaultsender: '30009999' }, 412],
      [{ defaultsender: '12345678' }, 412],
      [{ apilogs: 'enabled', defaultsender: '30009999' }, 412],
    ];
    for (const [changes, code] of bad) expect(codeOf(() => core.accountConfig.set(account.id, changes))).toBe(code);
    expect(core.accountConfig.get(account.id)).toEqual(ACCOUNT_CONFIG_DEFAULTS);
  });

  it('names the sender of a send without one: the default sender, else the first SMS line that may send by API', () => {
    const { core, account } = makeCore();
    expect(core.accountConfig.defaultSender(account.id, 'api-v1')).toBe('30001111');
    core.accountConfig.set(account.id, { defaultsender: '30002222' });
    expect(core.accountConfig.defaultSender(account.id, 'api-v1')).toBe('30002222');
    core.accountConfig.set(account.id, { defaultsender: '' });
    core.accounts.removeLine(account.id, '30001111');
    // 30002222 is the panel's only; the messenger lines are not SMS: none left.
    expect(codeOf(() => core.accountConfig.defaultSender(account.id, 'api-v1'))).toBe(412);
  });
});
