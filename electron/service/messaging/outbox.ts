// The outbox as API version 1 reads it (reference/kavenegar-v1.md §1.5–1.8): an account's own
// messages by id, by a time range of at most a day, newest first, and counted over a range. Every
// read is bounded by an index: ids by the primary key; a range by the message ids that bound it
// (created-order.ts) and the account's sends between them (sends_account, or sends_sender for one
// line), each send's messages by messages_send; the newest by the same indexes walked backwards.
// No read scans the messages table or other accounts' sends.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';
import { unixSeconds } from '../clock';
import type { Accounts, Line } from '../accounts/accounts';
import { CreatedOrder } from './created-order';
import { ServiceError } from '../errors';
import { ApiCode, isMessengerProvider, type Provider } from '../../../shared/status';
import { MessageStatus, messageStatusText } from '../../../shared/lifecycle';
import { countPages } from '../../../shared/pages';
import type { MessageInfo } from '../../../shared/api';
import { messageTextSql } from './message-text';

/** The widest range a range read or count takes (§1.6, §1.8, §1.11: "range ≤ 1 day"). */
export const RANGE_LIMIT_MS = 24 * 60 * 60 * 1000;
/** sms/select: ids per call (§1.5, 414 above). */
export const SELECT_LIMIT = 500;
/** sms/latestoutbox: the page size when none is given, and the largest (§1.7, the old docs' 500). */
export const LATEST_LIMIT = 500;
/**
 * sms/selectoutbox: the most entries one call answers (the reference names none). A busier day
 * answers its oldest 10,000; the caller asks again from the last one's date.
 */
export const RANGE_ROWS_LIMIT = 10_000;

export interface TimeRange {
  /** ms, inclusive */
  from: number;
  /** ms, exclusive */
  to: number;
}

/**
 * The range of a range read (`startdate`, `enddate` as ms): an end before the start, or a range
 * wider than a day, is 417 (the reference's "date wrong" code; it names no other for ranges). No
 * end: a day from the start, or now if that is sooner (countoutbox's "empty ⇒ now").
 */
export function readRange(from: number, to: number | undefined, now: number): TimeRange {
  const end = to ?? Math.max(from, Math.min(now, from + RANGE_LIMIT_MS));
  if (end < from) throw new ServiceError(ApiCode.BadDate, 'enddate is before startdate');
  if (end - from > RANGE_LIMIT_MS) throw new ServiceError(ApiCode.BadDate, 'the range is wider than a day');
  return { from, to: end };
}

export interface OutboxCount {
  /** SMS pages (a messenger message is one). */
  sumpart: number;
  sumcount: number;
  /** rials */
  cost: number;
}

interface Row {
  id: number;
  text: string;
  status: number;
  sender: string;
  receptor: string;
  created_at: number;
  cost_rials: number;
}

const COLUMNS = `m.id, ${messageTextSql()} AS text, m.status, s.sender, m.receptor, m.created_at, m.cost_rials`;

// The statements of the reads, by whether a line or statuses narrow them (outbox.test.ts checks
// that each one searches by index).
const JOINED = 'FROM sends s JOIN messages m ON m.send_id = s.id';
const IN_RANGE = 's.account_id = ? AND s.id BETWEEN ? AND ? AND m.id BETWEEN ? AND ?';
// A line's sends come from sends_sender (line numbers are unique, so they are the account's own):
// the unary + keeps the planner off sends_account, which would walk all the account's sends.
const OF_ACCOUNT = (bySender: boolean) => (bySender ? '+s.account_id = ? AND s.sender = ?' : 's.account_id = ?');
const OF_STATUSES = (narrowed: boolean) => (narrowed ? 'AND m.status IN (SELECT value FROM json_each(?))' : '');
export const BETWEEN_SQL = (bySender: boolean) =>
  `SELECT ${COLUMNS} ${JOINED} WHERE ${OF_ACCOUNT(bySender)} AND s.id BETWEEN ? AND ? AND m.id BETWEEN ? AND ?
   ORDER BY s.id, m.id LIMIT ?`;
export const LATEST_SQL = (bySender: boolean) =>
  `SELECT ${COLUMNS} ${JOINED} WHERE ${OF_ACCOUNT(bySender)} ORDER BY s.id DESC, m.id DESC LIMIT ?`;
export const COUNT_SQL = (byStatus: boolean) =>
  `SELECT COUNT(*) AS sumcount, SUM(CASE WHEN m.text IS NULL THEN s.pages ELSE 0 END) AS sumpart,
     SUM(m.cost_rials) AS cost ${JOINED} WHERE ${IN_RANGE} ${OF_STATUSES(byStatus)}`;
export const OWN_TEXTS_SQL = (byStatus: boolean) =>
  `SELECT m.text, s.provider ${JOINED} WHERE ${IN_RANGE} ${OF_STATUSES(byStatus)} AND m.text IS NOT NULL`;

function entry(row: Row): MessageInfo {
  return {
    messageid: row.id,
    message: row.text,
    status: row.status,
    statustext: messageStatusText[row.status as MessageStatus] ?? String(row.status),
    sender: row.sender,
    receptor: row.receptor,
    date: unixSeconds(row.created_at),
    cost: row.cost_rials,
  };
}

/** What sms/select answers for an id that is not the account's: nothing but "unknown" (as sms/status). */
function unknown(messageid: number): MessageInfo {
  const status = MessageStatus.UnknownId;
  return {
    messageid,
    message: '',
    status,
    statustext: messageStatusText[status],
    sender: '',
    receptor: '',
    date: 0,
    cost: 0,
  };
}

export class Outbox {
  private readonly createdOrder: CreatedOrder;
  private readonly byIds: Statement<[number, string], Row>;
  private readonly sendOf: Statement<[number], { send_id: number }>;
  private readonly statements = new Map<string, Statement<unknown[], unknown>>();

  constructor(
    private readonly db: Db,
    private readonly accounts: Accounts,
  ) {
    this.createdOrder = new CreatedOrder(db);
    this.byIds = db.prepare(
      `SELECT ${COLUMNS} FROM messages m JOIN sends s ON s.id = m.send_id
       WHERE m.account_id = ? AND m.id IN (SELECT value FROM json_each(?))`,
    );
    this.sendOf = db.prepare('SELECT send_id FROM messages WHERE id = ?');
  }

  private prepare<T>(sql: string): Statement<unknown[], T> {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare<unknown[], unknown>(sql)));
    return statement as Statement<unknown[], T>;
  }

  /** sms/select: each id in the order asked; one that is not the account's is status 100 and nothing more. */
  select(accountId: number, ids: readonly number[]): MessageInfo[] {
    if (ids.length > SELECT_LIMIT)
      throw new ServiceError(ApiCode.TooLarge, `at most ${SELECT_LIMIT} ids, not ${ids.length}`);
    const wanted = ids.filter((id) => Number.isSafeInteger(id) && id > 0);
    const found = new Map<number, MessageInfo>();
    for (const row of this.byIds.all(accountId, JSON.stringify(wanted))) found.set(row.id, entry(row));
    return ids.map((id) => found.get(id) ?? unknown(id));
  }

  /**
   * The account's line a read names (`sender`, `linenumber`): as written or in its stored form
   * (Persian digits, spaces). Not the account's: 412. Inactive lines keep their history readable.
   */
  ownLine(accountId: number, number: string): Line {
    const line = this.accounts.typedLine(accountId, number);
    if (!line) throw new ServiceError(ApiCode.InvalidSender, `line ${number} is not the account's`);
    return line;
  }

  /** sms/selectoutbox: the account's messages created in the range, oldest first, from one line if named. */
  between(accountId: number, range: TimeRange, sender?: string): MessageInfo[] {
    const line = sender === undefined ? undefined : this.ownLine(accountId, sender);
    const bounds = this.bounds(range);
    if (bounds === null) return [];
    const rows = this.prepare<Row>(BETWEEN_SQL(line !== undefined)).all(
      accountId,
      ...(line ? [line.number] : []),
      bounds.firstSend,
      bounds.lastSend,
      bounds.firstId,
      bounds.lastId,
      RANGE_ROWS_LIMIT,
    );
    return rows.map(entry);
  }

  /** sms/latestoutbox: the account's newest messages, newest first, from one line if named. */
  latest(accountId: number, limit: number, sender?: string): MessageInfo[] {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new ServiceError(ApiCode.BadRequest, 'pagesize is at least 1');
    if (limit > LATEST_LIMIT)
      throw new ServiceError(ApiCode.TooLarge, `pagesize is at most ${LATEST_LIMIT}, not ${limit}`);
    const line = sender === undefined ? undefined : this.ownLine(accountId, sender);
    const rows = this.prepare<Row>(LATEST_SQL(line !== undefined)).all(
      accountId,
      ...(line ? [line.number] : []),
      limit,
    );
    return rows.map(entry);
  }

  /** sms/countoutbox: the account's messages created in the range, of some statuses if named. */
  count(accountId: number, range: TimeRange, statuses?: readonly number[]): OutboxCount {
    const bounds = this.bounds(range);
    if (bounds === null || statuses?.length === 0) return { sumpart: 0, sumcount: 0, cost: 0 };
    const params = [
      accountId,
      bounds.firstSend,
      bounds.lastSend,
      bounds.firstId,
      bounds.lastId,
      ...(statuses ? [JSON.stringify(statuses)] : []),
    ];
    const shared = this.prepare<{ sumcount: number; sumpart: number | null; cost: number | null }>(
      COUNT_SQL(statuses !== undefined),
    ).get(...params)!;
    // A message with its own text (a personalized campaign's) has its own pages.
    let ownPages = 0;
    for (const own of this.prepare<{ text: string; provider: Provider }>(OWN_TEXTS_SQL(statuses !== undefined)).iterate(
      ...params,
    ))
      ownPages += isMessengerProvider(own.provider) ? 1 : countPages(own.text);
    return { sumcount: shared.sumcount, sumpart: (shared.sumpart ?? 0) + ownPages, cost: shared.cost ?? 0 };
  }

  /** The message ids created in the range and the sends they belong to; null when there are none. */
  private bounds(range: TimeRange): { firstId: number; lastId: number; firstSend: number; lastSend: number } | null {
    if (range.to <= range.from) return null;
    const firstId = this.createdOrder.firstIdFrom(range.from);
    const lastId = this.createdOrder.lastIdBefore(range.to);
    if (firstId === null || lastId === null || lastId < firstId) return null;
    return {
      firstId,
      lastId,
      firstSend: this.sendOf.get(firstId)!.send_id,
      lastSend: this.sendOf.get(lastId)!.send_id,
    };
  }
}
