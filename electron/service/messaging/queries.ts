// The app's view of messages: filtered lists (keyset or offset paging, newest first), counts,
// one message's timeline, and a paged reader for exports. Read-only SQL over the core's tables;
// the indexes of migration 0003 and the id order of created-order.ts back every filter the UI offers.
// Counts come from the maintained aggregates (counts.ts) whenever the filter is one they keep
// (account, status, sender, origin, dates): whole 15-minute slots from message_counts, the partial
// slots at a date range's ends from the message states and sources (message-states.ts) of their id
// range. What must read the messages themselves (a receiver, a text, a send, a campaign) runs on a
// reader thread (db/readers.ts), so no search holds the event loop, and so do export pages.
// The text filter compares both sides in shared/search.ts's form (Arabic and Persian letters and
// digits alike, the zero-width non-joiner ignored); the receiver filter takes any part of a number.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';
import type { ReaderPool, SqlParam } from '../db/readers';
import { SLOT_MS } from './counts';
import type { ReceiverCondition, ReceiverIndex } from './receivers';
import type { SendTextIndex, TextCondition } from './send-texts';
import { talliable } from './text-tallies';
import { CreatedOrder, type IdBounds } from './created-order';
import type { MessageStates } from './message-states';
import { ServiceError } from '../errors';
import { ApiCode, messageStatusText, MessageStatus } from '../../../shared/status';
import { phoneSearchDigits } from '../../../shared/phone';
import { searchKey } from '../../../shared/search';
import { textMatch } from '../db/text-match';
import type { MessageFilter, MessageRow } from '../../../shared/ipc/schemas';
import { messageTextSql } from './message-text';
import { accountIdsSql } from '../accounts/accounts';
import type { SendGroups } from './send-groups';

interface RawRow {
  id: number;
  send_id: number;
  account_id: number;
  sender: string;
  provider: string;
  origin: string;
  receptor: string;
  text: string;
  pages: number;
  status: number;
  cost_rials: number;
  created_at: number;
  handed_at: number | null;
  final_at: number | null;
}

const SELECT = `SELECT m.id, m.send_id, m.account_id, s.sender, s.provider, s.origin, m.receptor,
  ${messageTextSql()} AS text, s.pages, m.status, m.cost_rials, m.created_at, m.handed_at, m.final_at
  FROM messages m JOIN sends s ON s.id = m.send_id`;

/** The sends with messages of their own text (a personalized campaign's), on their partial index. */
const OWN_TEXT_SENDS = 'SELECT id FROM sends INDEXED BY sends_own_texts WHERE own_texts > 0';

/** The condition of the partial status index, as migration 0017 wrote it. */
const UNDELIVERED = `m.status <> ${MessageStatus.Delivered}`;

export function statusText(status: number): string {
  return messageStatusText[status as MessageStatus] ?? String(status);
}

export function toMessageRow(row: RawRow): MessageRow {
  return { ...row, status_text: statusText(row.status), created_at: row.created_at };
}

interface Where {
  sql: string;
  params: Array<string | number>;
}

export interface WhereOptions {
  /**
   * For a list (ORDER BY id DESC LIMIT n): conditions whose index would return rows out of id
   * order, for SQLite to sort all of them (a wide date range), are
   * written with a unary + so the planner walks the primary key newest first instead; a date
   * range is narrowed to its id range, since ids are given in creation order.
   */
  ordered?: { idFrom: number | null; idTo: number | null };
  /** The receiver index's condition for filter.receptor; without one (or null: too broad) the messages are read. */
  receptor?: ReceiverCondition | null;
  /** SQL selecting the sends whose own text matches filter.text (send-texts.ts); without one every send's text is read. */
  textSends?: TextCondition;
  /** The campaign executions' sends, for filter.execution_id; without them no execution is known. */
  groups?: SendGroups;
}

/**
 * The WHERE clause of a filter: every condition is on an indexed column or a small table, but for
 * the receiver and the text, which a list answers walking newest first until its page is full.
 */
export function filterWhere(filter: MessageFilter, options: WhereOptions = {}): Where {
  const ordered = options.ordered;
  const parts: string[] = [];
  const params: Array<string | number> = [];
  if (filter.account_id !== undefined) {
    parts.push('m.account_id = ?');
    params.push(filter.account_id);
  }
  if (filter.status && filter.status.length > 0) {
    const statuses = [...new Set(filter.status)];
    parts.push(`m.status IN (${statuses.map(() => '?').join(',')})`);
    params.push(...statuses);
    // The status index keeps the messages not delivered (migration 0017); SQLite uses a partial
    // index only when the query states its condition in the same words.
    if (!statuses.includes(MessageStatus.Delivered)) parts.push(UNDELIVERED);
  }
  if (filter.sender) {
    parts.push('m.send_id IN (SELECT id FROM sends WHERE sender = ?)');
    params.push(filter.sender);
  }
  if (filter.receptor) {
    // Any part of a number, in any digits: its digits anywhere in the stored 09… form (a whole number
    // compares equal). Not a number at all (letters): nothing matches. The receiver index
    // (receivers.ts) answers without reading the messages; a part too broad for it (a list finds its
    // page walking newest first, where matches are dense) reads them.
    const digits = phoneSearchDigits(filter.receptor);
    if (digits === null || digits === '') parts.push('0');
    else if (options.receptor) {
      parts.push(options.receptor.sql);
      params.push(...options.receptor.params);
    } else if (digits.length === 11) {
      parts.push('m.receptor = ?');
      params.push(digits);
    } else {
      parts.push('instr(m.receptor, ?) > 0');
      params.push(digits);
    }
  }
  if (filter.send_id !== undefined) {
    parts.push('m.send_id = ?');
    params.push(filter.send_id);
  }
  if (filter.execution_id !== undefined) {
    // A campaign execution's messages: the sends of its batches (campaigns/send-groups.ts).
    if (options.groups) {
      parts.push(`m.send_id IN (${options.groups.sendIdsSql()})`);
      params.push(filter.execution_id);
    } else parts.push('0');
  }
  if (filter.origin) {
    parts.push('s.origin = ?');
    params.push(filter.origin);
  }
  const createdAt = ordered ? '+m.created_at' : 'm.created_at';
  if (filter.from !== undefined) {
    parts.push(`${createdAt} >= ?`);
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    parts.push(`${createdAt} < ?`);
    params.push(filter.to);
  }
  if (ordered && (filter.from !== undefined || filter.to !== undefined)) {
    // No message in the range: an empty id range.
    if (ordered.idFrom === null || ordered.idTo === null) parts.push('0');
    else {
      parts.push('m.id BETWEEN ? AND ?');
      params.push(ordered.idFrom, ordered.idTo);
    }
  }
  const text = textKey(filter);
  if (text !== '') {
    // A message's text is its own (a personalized campaign message) or its send's (NULL here): the
    // matching sends are found once, and only the messages with their own text are read one by one.
    const ownMatches = textMatch('m.text', text);
    // Own texts are only in sends that counted some (sends_own_texts).
    // (OR and AND, not CASE: SQLite cuts them short as conditions, never inside a CASE's value.)
    if (options.textSends) {
      // The sends the text index found (few), and those with own texts: their messages come
      // through the send index, whatever else the filter says.
      const found = options.textSends;
      parts.push(
        `m.send_id IN (${found.sql} UNION ${OWN_TEXT_SENDS})
         AND ((m.text IS NULL AND m.send_id IN (${found.sql})) OR (m.text IS NOT NULL AND ${ownMatches.sql}))`,
      );
      params.push(...found.params, ...found.params, ...ownMatches.params);
    } else {
      // Each message's send's text (alias s: the caller joins the sends), as a list walks newest first.
      const shared = textMatch('s.text', text);
      parts.push(
        `((m.text IS NULL AND ${shared.sql}) OR (m.text IS NOT NULL AND m.send_id IN (${OWN_TEXT_SENDS}) AND ${ownMatches.sql}))`,
      );
      params.push(...shared.params, ...ownMatches.params);
    }
  }
  return { sql: parts.length > 0 ? 'WHERE ' + parts.join(' AND ') : '', params };
}

/** Whether a filter reads every message it passes (a receiver, a text): those reads run on a reader thread. */
function scans(filter: MessageFilter): boolean {
  return filter.receptor !== undefined || textKey(filter) !== '';
}

/**
 * Whether a list may walk many messages to fill its page: a search, delivered messages (no index:
 * they are listed walking the table, fast where they are dense, long for a small account), a line
 * or an origin (conditions on the send). Those lists are read on a reader thread.
 */
function walksFar(filter: MessageFilter): boolean {
  return (
    scans(filter) ||
    !!filter.sender ||
    !!filter.origin ||
    (filter.status !== undefined && filter.status.includes(MessageStatus.Delivered))
  );
}

/** The filter's text in search form ('' when there is none to match). */
function textKey(filter: MessageFilter): string {
  return filter.text === undefined ? '' : searchKey(filter.text);
}

/** The indexes' answers for a filter's receiver and text (MessageQueries.searches). */
type Searches = Pick<WhereOptions, 'receptor' | 'textSends'>;

function andWhere(where: Where, condition: string, ...params: Array<string | number>): Where {
  return {
    sql: where.sql ? `${where.sql} AND ${condition}` : `WHERE ${condition}`,
    params: [...where.params, ...params],
  };
}

export class MessageQueries {
  private readonly statements = new Map<string, Statement<unknown[], unknown>>();

  constructor(
    private readonly db: Db,
    private readonly readers: ReaderPool,
    private readonly receivers?: ReceiverIndex,
    private readonly texts?: SendTextIndex,
    /** Without them, the messages of a date range's partial slots are read. */
    private readonly states?: MessageStates,
    /** The campaign executions, for a filter by one (by the campaigns domain, which is above messaging). */
    private readonly groups?: SendGroups,
  ) {
    this.createdOrder = new CreatedOrder(db);
  }

  /**
   * What the indexes say of the filter's searches: the receiver index's condition (null when none
   * is asked, or too broad for it) and the ids of the sends whose text matches when they are few
   * (their messages come through the send index, however far back); with more, each message's
   * send's text is compared as a list walks newest first, where they are dense.
   */
  private async searches(filter: MessageFilter): Promise<Searches> {
    const digits = filter.receptor ? phoneSearchDigits(filter.receptor) : null;
    const receptor = digits && this.receivers ? await this.receivers.condition(digits) : null;
    const key = textKey(filter);
    if (key === '' || !this.texts) return { receptor };
    const ids = await this.texts.sends(key);
    if (!ids) return { receptor };
    return { receptor, textSends: { sql: 'SELECT value FROM json_each(?)', params: [JSON.stringify(ids)] } };
  }

  /** Statements differ only by which filters are present: cache them by their SQL. */
  private prepare(sql: string) {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], unknown>(sql);
      if (this.statements.size > 200) this.statements.clear();
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private readonly createdOrder: CreatedOrder;

  /** The id range of messages created in [from, to): ids are given in creation order. */
  private idRange(filter: MessageFilter): { idFrom: number | null; idTo: number | null } {
    const idFrom = filter.from === undefined ? 0 : this.createdOrder.firstIdFrom(filter.from);
    const idTo = filter.to === undefined ? Number.MAX_SAFE_INTEGER : this.createdOrder.lastIdBefore(filter.to);
    return { idFrom, idTo };
  }

  private listSql(filter: MessageFilter & { cursor?: number | null }, searches: Searches = {}): Where {
    let where = filterWhere(filter, { ordered: this.idRange(filter), ...searches, groups: this.groups });
    if (filter.cursor) where = andWhere(where, 'm.id < ?', filter.cursor);
    if (searches.textSends && !searches.receptor) {
      // The sends a text was found in: their messages newest first through the send index, send by
      // send from the newest (a send's messages are given ids together, after every earlier send's:
      // the same order as by id), stopping when the page is full. (With a receiver's condition,
      // its few messages lead instead.)
      const select = SELECT.replace('FROM messages m', 'FROM messages m INDEXED BY messages_send');
      return {
        sql: `${select} ${where.sql} ORDER BY m.send_id DESC, m.id DESC LIMIT ? OFFSET ?`,
        params: where.params,
      };
    }
    return { sql: `${SELECT} ${where.sql} ORDER BY m.id DESC LIMIT ? OFFSET ?`, params: where.params };
  }

  /**
   * A page newest first. Filters the indexes answer are read here (a few milliseconds); one that
   * may walk far to fill its page (walksFar) is read on a reader thread.
   */
  async list(filter: MessageFilter & { cursor?: number | null; offset?: number; limit: number }): Promise<{
    rows: MessageRow[];
    next_cursor: number | null;
  }> {
    const read = (sql: string, params: readonly SqlParam[]): Promise<RawRow[]> =>
      walksFar(filter)
        ? this.readers.all<RawRow>(sql, params)
        : Promise.resolve(this.prepare(sql).all(...params) as RawRow[]);
    const statuses = [...new Set(filter.status ?? [])];
    const searches = await this.searches(filter);
    let raw: RawRow[];
    if (statuses.length > 1 && statuses.length <= 20) {
      // Several statuses: each one's newest rows come in id order from the status index; merging
      // them beats sorting every match of all of them.
      const wanted = filter.limit + 1 + (filter.offset ?? 0);
      const perStatus = await Promise.all(
        statuses.map((status) => {
          const { sql, params } = this.listSql({ ...filter, status: [status] }, searches);
          return read(sql, [...params, wanted, 0]);
        }),
      );
      raw = perStatus
        .flat()
        .sort((a, b) => b.id - a.id)
        .slice(filter.offset ?? 0, (filter.offset ?? 0) + filter.limit + 1);
    } else {
      const { sql, params } = this.listSql(filter, searches);
      raw = await read(sql, [...params, filter.limit + 1, filter.offset ?? 0]);
    }
    const more = raw.length > filter.limit;
    const rows = (more ? raw.slice(0, filter.limit) : raw).map(toMessageRow);
    return { rows, next_cursor: more ? rows[rows.length - 1]!.id : null };
  }

  /**
   * How many messages match. Whole 15-minute slots of account, status, sender and origin are summed
   * from the aggregates, and a date range's partial slots at its ends from the message states; the
   * rest (a receiver, a text, a send, a campaign) is counted on a reader thread over the id range
   * the dates give.
   */
  async count(filter: MessageFilter): Promise<number> {
    if (filter.receptor === undefined && !filter.status?.length && textKey(filter) !== '')
      return this.textCount(filter);
    if (scans(filter) || filter.send_id !== undefined || filter.execution_id !== undefined)
      return this.scanCount(filter);
    if (filter.from === undefined && filter.to === undefined) return this.totalsCount(filter);
    const from = filter.from ?? 0;
    const to = filter.to ?? Number.MAX_SAFE_INTEGER;
    if (to <= from) return 0;
    const firstSlot = Math.ceil(from / SLOT_MS);
    const endSlot = Math.floor(to / SLOT_MS);
    // Less than one whole slot: the messages of the range by id.
    if (endSlot <= firstSlot) return this.partCount(filter, from, to);
    const ends = await Promise.all([
      this.partCount(filter, from, firstSlot * SLOT_MS),
      this.partCount(filter, endSlot * SLOT_MS, to),
    ]);
    return this.slotsCount(filter, firstSlot, endSlot) + ends[0] + ends[1];
  }

  /**
   * The messages created in [from, to), less than two slots of them (a date range's ends): ids
   * follow creation, so they are an id range, counted from the message states and sources (a
   * few milliseconds at 750,000 messages). Those in chunks the states have not filled yet (after
   * an upgrade) are counted from the messages.
   */
  private async partCount(filter: MessageFilter, from: number, to: number): Promise<number> {
    if (to <= from) return 0;
    const part = { ...filter, from, to };
    const sources = this.states?.sourcesOf(filter) ?? null;
    if (!this.states || sources === null) return this.scanCount(part);
    const { idFrom, idTo } = this.idRange(part);
    if (idFrom === null || idTo === null || idTo < idFrom) return 0;
    const { counted, unread } = this.states.count(idFrom, idTo, filter.status, sources);
    return counted + (unread ? await this.scanCount(part, unread) : 0);
  }

  /** Conditions of the aggregates' own columns (account, status, sender, origin). */
  private countsWhere(filter: MessageFilter): Where {
    const parts: string[] = [];
    const params: Array<string | number> = [];
    if (filter.account_id !== undefined) {
      parts.push('account_id = ?');
      params.push(filter.account_id);
    } else parts.push(`account_id IN ${accountIdsSql()}`);
    if (filter.status && filter.status.length > 0) {
      const statuses = [...new Set(filter.status)];
      parts.push(`status IN (${statuses.map(() => '?').join(',')})`);
      params.push(...statuses);
    }
    if (filter.sender) {
      parts.push('sender = ?');
      params.push(filter.sender);
    }
    if (filter.origin) {
      parts.push('origin = ?');
      params.push(filter.origin);
    }
    return { sql: 'WHERE ' + parts.join(' AND '), params };
  }

  private totalsCount(filter: MessageFilter): number {
    const where = this.countsWhere(filter);
    const sql = `SELECT COALESCE(SUM(n), 0) AS n FROM message_totals ${where.sql}`;
    return (this.prepare(sql).get(...where.params) as { n: number }).n;
  }

  private slotsCount(filter: MessageFilter, firstSlot: number, endSlot: number): number {
    const where = andWhere(this.countsWhere(filter), 'slot >= ? AND slot < ?', firstSlot, endSlot);
    const sql = `SELECT COALESCE(SUM(n), 0) AS n FROM message_counts ${where.sql}`;
    return (this.prepare(sql).get(...where.params) as { n: number }).n;
  }

  /**
   * A text search without a condition on the messages themselves: texts live per send, so the
   * sends are searched and their messages counted from message_count; only the messages with their
   * own text (a personalized campaign's, counted in sends.own_texts) are read, through their sends.
   */
  private async textCount(filter: MessageFilter): Promise<number> {
    const key = textKey(filter);
    const parts: string[] = [];
    const params: Array<string | number> = [];
    // Retention removes the oldest messages, whole sends at a time: sends before the first message
    // kept have none left.
    parts.push('s.id >= COALESCE((SELECT send_id FROM messages ORDER BY id LIMIT 1), 9e18)');
    // (+: the text is read from every send anyway; walking an index first would only add lookups.)
    if (filter.account_id !== undefined) {
      parts.push('+s.account_id = ?');
      params.push(filter.account_id);
    }
    if (filter.sender) {
      parts.push('s.sender = ?');
      params.push(filter.sender);
    }
    if (filter.origin) {
      parts.push('s.origin = ?');
      params.push(filter.origin);
    }
    if (filter.from !== undefined) {
      parts.push('s.created_at >= ?');
      params.push(filter.from);
    }
    if (filter.to !== undefined) {
      parts.push('s.created_at < ?');
      params.push(filter.to);
    }
    if (filter.send_id !== undefined) {
      parts.push('s.id = ?');
      params.push(filter.send_id);
    }
    if (filter.execution_id !== undefined) {
      if (this.groups) {
        parts.push(`s.id IN (${this.groups.sendIdsSql()})`);
        params.push(filter.execution_id);
      } else parts.push('0');
    }
    const sends = parts.join(' AND ');
    const sendMatches = textMatch('s.text', key);
    const ownMatches = textMatch('m.text', key);
    const shared = await this.sharedTextCount(filter, key, { sql: sends, params }, sendMatches);
    const sql = `SELECT ${shared.sql}
      + (SELECT COUNT(*) FROM messages m WHERE m.send_id IN (SELECT s.id FROM sends s INDEXED BY sends_own_texts WHERE ${sends} AND s.own_texts > 0)
           AND m.text IS NOT NULL AND ${ownMatches.sql}) AS n`;
    return (await this.readers.get<{ n: number }>(sql, [...shared.params, ...params, ...ownMatches.params]))!.n;
  }

  /**
   * textCount's messages of their send's text (a scalar SQL expression): summed from the text
   * tallies for a term without digits (text-tallies.ts), over the sends the filter's dates give
   * (sends and their messages are given ids in the order they are created, a send's messages all
   * at its time); otherwise over the sends the text index proposes (send-texts.ts), each one's
   * text checked, or over every send.
   */
  private async sharedTextCount(filter: MessageFilter, key: string, sends: Where, match: Where): Promise<Where> {
    if (this.texts && filter.send_id === undefined && filter.execution_id === undefined && talliable(key)) {
      const { idFrom, idTo } = this.idRange(filter);
      if (idFrom === null || idTo === null) return { sql: '0', params: [] };
      const sendOf = (id: number) =>
        this.prepare('SELECT send_id FROM messages WHERE id = ?').pluck().get(id) as number | undefined;
      const ids = {
        lo: filter.from === undefined ? 0 : (sendOf(idFrom) ?? Number.MAX_SAFE_INTEGER),
        hi: filter.to === undefined ? Number.MAX_SAFE_INTEGER : (sendOf(idTo) ?? 0),
      };
      return this.texts.tallies.sharedMessages(key, filter, ids, sends, match);
    }
    const candidates = (this.texts ? await this.texts.countCandidates(key) : null) ?? { sql: 'sends s', params: [] };
    return {
      sql: `(SELECT COALESCE(SUM(s.message_count - s.own_texts), 0) FROM ${candidates.sql} WHERE ${sends.sql} AND ${match.sql})`,
      params: [...candidates.params, ...sends.params, ...match.params],
    };
  }

  /** Counts the messages themselves on a reader thread; dates (or `ids`, within them) bound the id range walked. */
  private async scanCount(filter: MessageFilter, ids?: IdBounds): Promise<number> {
    const where = filterWhere(filter, {
      ordered: ids ? { idFrom: ids.lo, idTo: ids.hi } : this.idRange(filter),
      ...(await this.searches(filter)),
      groups: this.groups,
    });
    // The join is only needed when a condition reads the send.
    const needsSend = /\bs\./.test(where.sql);
    const sql = needsSend
      ? `SELECT COUNT(*) AS n FROM messages m JOIN sends s ON s.id = m.send_id ${where.sql}`
      : `SELECT COUNT(*) AS n FROM messages m ${where.sql}`;
    return (await this.readers.get<{ n: number }>(sql, where.params))!.n;
  }

  get(messageId: number, accountId?: number): MessageRow {
    const where = accountId === undefined ? 'WHERE m.id = ?' : 'WHERE m.id = ? AND m.account_id = ?';
    const params = accountId === undefined ? [messageId] : [messageId, accountId];
    const row = this.prepare(`${SELECT} ${where}`).get(...params) as RawRow | undefined;
    if (!row) throw new ServiceError(ApiCode.NotFound, `message ${messageId}`);
    return toMessageRow(row);
  }

  timeline(messageId: number, accountId?: number) {
    const message = this.get(messageId, accountId);
    const events: Array<{ status: number; status_text: string; at: number }> = [];
    // A message handed on was queued first; one still scheduled shows its own status.
    const first = message.status === MessageStatus.Scheduled ? MessageStatus.Scheduled : MessageStatus.Queued;
    events.push({ status: first, status_text: statusText(first), at: message.created_at });
    if (message.handed_at !== null)
      events.push({
        status: MessageStatus.HandedToCarrier,
        status_text: statusText(MessageStatus.HandedToCarrier),
        at: message.handed_at,
      });
    if (message.final_at !== null)
      events.push({ status: message.status, status_text: message.status_text, at: message.final_at });
    return { message, events };
  }

  /** Reads the filtered rows in pages (newest first) for exports, each on a reader thread. */
  async *pages(filter: MessageFilter, pageSize = 2000): AsyncGenerator<MessageRow[]> {
    let cursor: number | null = null;
    const searches = await this.searches(filter);
    for (;;) {
      const { sql, params } = this.listSql({ ...filter, cursor }, searches);
      const raw = await this.readers.all<RawRow>(sql, [...params, pageSize + 1, 0]);
      const more = raw.length > pageSize;
      const rows = (more ? raw.slice(0, pageSize) : raw).map(toMessageRow);
      const page = { rows, next_cursor: more ? rows[rows.length - 1]!.id : null };
      if (page.rows.length > 0) yield page.rows;
      if (page.next_cursor === null) return;
      cursor = page.next_cursor;
    }
  }

  /** EXPLAIN QUERY PLAN of a list query (tests check that indexes serve the filters). */
  listPlan(filter: MessageFilter & { cursor?: number | null }): string[] {
    // Several statuses are listed one status at a time (see list()).
    const one = filter.status && filter.status.length > 1 ? { ...filter, status: [filter.status[0]!] } : filter;
    const { sql, params } = this.listSql(one);
    return (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params, 100, 0) as Array<{ detail: string }>).map(
      (r) => r.detail,
    );
  }
}
