// An account's version 1 settings (reference/kavenegar-v1.md §1.16 account/config; migration 0013):
// what its logs and daily report hold, debug mode, the default sender of sends that name none, the
// credit alarm and resending. An account without a row has the defaults. Values come from the API
// as text and are checked here, once, whoever sets them.
import type { Db } from '../db/database';
import type { Accounts } from './accounts';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import type { Origin } from '../../../shared/lines';
import { toAsciiDigits } from '../../../shared/digits';

export const LOG_LEVELS = ['justfaults', 'enabled', 'disabled'] as const;
export const SWITCHES = ['enabled', 'disabled'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type Switch = (typeof SWITCHES)[number];

export interface AccountConfigValues {
  apilogs: LogLevel;
  dailyreport: LogLevel;
  debugmode: Switch;
  /** A line number of the account; '' for none. */
  defaultsender: string;
  /** Rials. */
  mincreditalarm: number;
  resendfailed: Switch;
}

/** What a caller may change; values as the API sends them (text), or typed. */
export type AccountConfigChanges = { [K in keyof AccountConfigValues]?: string | number | undefined };

export const ACCOUNT_CONFIG_DEFAULTS: AccountConfigValues = {
  apilogs: 'justfaults',
  dailyreport: 'disabled',
  debugmode: 'disabled',
  defaultsender: '',
  mincreditalarm: 0,
  resendfailed: 'disabled',
};

/** The PHP client's spelling of `justfaults`. */
const LOG_LEVEL_ALIASES: Record<string, LogLevel> = { justforfault: 'justfaults' };

export class AccountConfig {
  private readonly getStmt;
  private readonly putStmt;

  constructor(
    db: Db,
    private readonly accounts: Accounts,
  ) {
    this.getStmt = db.prepare<[number], AccountConfigValues>(
      `SELECT apilogs, dailyreport, debugmode, defaultsender, mincreditalarm, resendfailed
       FROM account_config WHERE account_id = ?`,
    );
    this.putStmt = db.prepare(
      `INSERT INTO account_config (account_id, apilogs, dailyreport, debugmode, defaultsender, mincreditalarm, resendfailed)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(account_id) DO UPDATE SET apilogs = excluded.apilogs, dailyreport = excluded.dailyreport,
         debugmode = excluded.debugmode, defaultsender = excluded.defaultsender,
         mincreditalarm = excluded.mincreditalarm, resendfailed = excluded.resendfailed`,
    );
  }

  /** The account's settings, the defaults where it set none (404 for an unknown account). */
  get(accountId: number): AccountConfigValues {
    this.accounts.get(accountId);
    return { ...ACCOUNT_CONFIG_DEFAULTS, ...this.getStmt.get(accountId) };
  }

  /**
   * Changes the given settings and returns them all. A value outside its set is 400 (nothing
   * changed); a default sender that is not a line of the account is 412; '' clears it.
   */
  set(accountId: number, changes: AccountConfigChanges): AccountConfigValues {
    const next = { ...this.get(accountId) };
    if (changes.apilogs !== undefined) next.apilogs = oneOf('apilogs', changes.apilogs, LOG_LEVELS);
    if (changes.dailyreport !== undefined) next.dailyreport = oneOf('dailyreport', changes.dailyreport, LOG_LEVELS);
    if (changes.debugmode !== undefined) next.debugmode = oneOf('debugmode', changes.debugmode, SWITCHES);
    if (changes.resendfailed !== undefined) next.resendfailed = oneOf('resendfailed', changes.resendfailed, SWITCHES);
    if (changes.mincreditalarm !== undefined) next.mincreditalarm = rials('mincreditalarm', changes.mincreditalarm);
    if (changes.defaultsender !== undefined) next.defaultsender = this.lineOf(accountId, String(changes.defaultsender));
    this.putStmt.run(
      accountId,
      next.apilogs,
      next.dailyreport,
      next.debugmode,
      next.defaultsender,
      next.mincreditalarm,
      next.resendfailed,
    );
    return next;
  }

  /**
   * The sender of a send that names none: the account's default sender, else its first active SMS
   * line that may send for this origin; 412 when it has neither. Whether the default sender may
   * still send is the acceptance path's to say (it answers 412 too).
   */
  defaultSender(accountId: number, origin: Origin): string {
    const configured = this.get(accountId).defaultsender;
    if (configured !== '') return configured;
    const line = this.accounts.firstSmsLine(accountId, origin);
    if (!line)
      throw new ServiceError(ApiCode.InvalidSender, 'no sender given and no default sender', 'no_default_sender');
    return line.number;
  }

  private lineOf(accountId: number, typed: string): string {
    if (typed.trim() === '') return '';
    const line = this.accounts.typedLine(accountId, typed);
    if (!line)
      throw new ServiceError(
        ApiCode.InvalidSender,
        `${typed} is not a line of the account`,
        'default_sender_not_a_line',
      );
    return line.number;
  }
}

function oneOf<T extends string>(name: string, value: string | number, allowed: readonly T[]): T {
  const text = String(value).trim().toLowerCase();
  const known = (LOG_LEVEL_ALIASES[text] ?? text) as T;
  if (!allowed.includes(known))
    throw new ServiceError(
      ApiCode.BadRequest,
      `${name} must be one of ${allowed.join(', ')}`,
      'account_config_invalid',
    );
  return known;
}

function rials(name: string, value: string | number): number {
  const text = toAsciiDigits(String(value).trim());
  if (!/^\d{1,15}$/.test(text))
    throw new ServiceError(ApiCode.BadRequest, `${name} must be a whole number of rials`, 'account_config_invalid');
  return Number(text);
}
