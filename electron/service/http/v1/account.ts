// Version 1's account methods (reference/kavenegar-v1.md §1.15–1.17): account/info, account/config
// (core.accountConfig keeps and checks the six settings) and utils/getdate, the one method without
// a key. Their entries are objects, not arrays, as the provider's clients read them.
import type { V1Call, V1Methods } from './routes';
import { unixSeconds } from '../../clock';
import { DEFAULT_TIME_ZONE, wallTimeAt } from '../../../../shared/time-zone';

/**
 * account/info's `expiredate`: Chapar's accounts do not expire, so a fixed date far ahead,
 * 2100-01-01 00:00:00 UTC, that a client comparing it with today never takes for expired.
 */
export const NEVER_EXPIRES = 4_102_444_800;

/** account/config's settings, by their parameter names. */
const CONFIG_KEYS = ['apilogs', 'dailyreport', 'debugmode', 'defaultsender', 'mincreditalarm', 'resendfailed'] as const;
type ConfigKey = (typeof CONFIG_KEYS)[number];

/** The settings a call names; the PHP client sends `debug` for `debugmode`. */
function configChanges({ params }: V1Call): Partial<Record<ConfigKey, string>> {
  const changes: Partial<Record<ConfigKey, string>> = {};
  for (const key of CONFIG_KEYS) {
    const value = params.string(key) ?? (key === 'debugmode' ? params.string('debug') : undefined);
    if (value !== undefined) changes[key] = value;
  }
  return changes;
}

/** No settings named: the settings as they are; else changed first, then read. */
function config(call: V1Call) {
  const changes = configChanges(call);
  if (Object.keys(changes).length > 0) call.core.accountConfig.set(call.account.id, changes);
  return call.core.accountConfig.get(call.account.id);
}

/**
 * utils/getdate's entries: the time in Tehran, Gregorian, and `datetime` as the reference shows it,
 * `MM/DD/YYYY hh:mm:ss` on a 12-hour clock with the Persian designator (ق.ظ before noon, ب.ظ after),
 * e.g. `02/06/2012 01:53:46 ب.ظ`.
 */
export function serverDate(ms: number) {
  const { year, month, day, hour, minute, second } = wallTimeAt(ms, DEFAULT_TIME_ZONE);
  const two = (value: number) => String(value).padStart(2, '0');
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  const datetime = `${two(month)}/${two(day)}/${year} ${two(hour12)}:${two(minute)}:${two(second)} ${hour < 12 ? 'ق.ظ' : 'ب.ظ'}`;
  return { datetime, year, month, day, hour, minute, second, unixtime: unixSeconds(ms) };
}

export const accountMethods: V1Methods = {
  'account/info': {
    // The Go client posts its AccountConfig here (reference §1.16): settings named make it a config call.
    handler: (call) =>
      Object.keys(configChanges(call)).length > 0
        ? config(call)
        : {
            remaincredit: call.core.credit.available(call.account.id),
            expiredate: NEVER_EXPIRES,
            type: 'master',
          },
  },

  'account/config': { handler: config },

  'utils/getdate': { public: true, handler: ({ core }) => serverDate(core.clock.now()) },
};
