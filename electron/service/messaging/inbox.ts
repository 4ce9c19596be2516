// Inbound messages: what customers send to the account's lines (today the simulator's replies;
// an upstream's later). A reply that, as a whole, asks to opt out (shared/optout.ts isOptOutReply)
// puts its sender on the account's opt-out list in the transaction that records it.
//
// Public API (core.inbox):
//   record({accountId, lineNumber, sender, text, receivedAt?, replyTo?}) -> InboundMessage
//   recordAll(inputs)                          -> InboundMessage[] (one transaction)
//   receive(accountId, lineNumber, isRead, limit = 100) -> InboundMessage[]
//       isRead false: the unread ones, oldest first, marked read in the same transaction (API v1's
//       sms/receive with isread=0); true: the read ones, newest first.
//   count(accountId, {from, to, lineNumber?, isRead?}) -> number (from <= received_at < to, ms)
//   paged(accountId, {lineNumber, from, to?, isRead?, page}) -> PagedReplies
//       API v1's sms/inboxpaged: a line's replies of a window of at most two days, 200 a page in
//       receipt order; marks nothing read
//   list(accountId, {before?, limit?, view?, line_number?, unread_only?, opt_outs_only?, search?})
//       -> {items, next}: the Inbox page, newest first, each with the message it answers, the
//       customer's card (contacts' cards) and whether its conversation is done; view 'open' (the
//       default) leaves out the replies of conversations marked done, 'done' lists only them
//   markRead(accountId, ids?) -> number changed;  markSenderRead(accountId, sender) -> number changed
//   counts(accountId) -> {unread, total, unread_by_line}
//   setDone(accountId, lineNumber, sender, done) -> done: a conversation (a number on one of our
//       lines) marked done, its replies read; undone by setDone(..., false) or by its next reply,
//       which re-opens it in the transaction recording it (migration 0036)
//   conversation(accountId, phone) -> the number's card and its conversations, one per line
//   fromSender(accountId, sender, before, limit) -> its replies newest first (a thread's side)
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import { isOptOutReply } from '../../../shared/optout';
import { normalizePhone, phoneSearchDigits } from '../../../shared/phone';
import { normalizeLineNumber } from '../../../shared/lines';
import { escapeLike } from '../db/text-match';
import type {
  ContactCard,
  Conversation,
  InboundMessage,
  InboxCounts,
  InboxFilter,
  InboxItem,
  InboxPage,
} from '../../../shared/ipc/contracts/inbox';
import { messageTextSql } from './message-text';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';

export type { InboundMessage, InboxItem, InboxPage, InboxCounts };

/** sms/inboxpaged (reference/kavenegar-v1.md §1.18): replies per page. */
export const INBOX_PAGE_SIZE = 200;
/** sms/inboxpaged: the widest window one read takes (§1.18: "enddate ≤ 2 days"). */
export const INBOX_PAGE_RANGE_MS = 2 * 24 * 60 * 60 * 1000;

export interface PagedRepliesQuery {
  /** Our line that received them (any digits). */
  lineNumber: string;
  /** ms, inclusive. */
  from: number;
  /** ms, exclusive; absent: INBOX_PAGE_RANGE_MS after `from`. */
  to?: number | undefined;
  /** Only the read ones (true) or the unread ones (false); absent: both. */
  isRead?: boolean | undefined;
  /** Counted from 1. */
  page: number;
}

export interface PagedReplies {
  items: InboundMessage[];
  /** Replies in the window, on every page. */
  total: number;
  page: number;
  /** 0 when the window holds none. */
  pages: number;
  pageSize: number;
}

export interface InboundInput {
  accountId: number;
  /** Our line that received it (any digits). */
  lineNumber: string;
  /** The customer's number, in any accepted form; kept as 09xxxxxxxxx when it is a mobile number. */
  sender: string;
  text: string;
  /** Default: now. */
  receivedAt?: number;
  /** The message it answers, when known. */
  replyTo?: number | null;
}

/** Who the numbers are: the contacts domain's cards (contacts/cards.ts). */
export interface InboxCards {
  card(accountId: number, phone: string): ContactCard;
  cards(accountId: number, phones: readonly string[]): Map<string, ContactCard>;
}

/** What recording needs of the contacts domain's opt-out list. */
export interface InboxOptOuts {
  add(accountId: number, phones: readonly string[]): { added: number };
}

export interface InboundRecorded {
  accountId: number;
  ids: number[];
  optOuts: number;
}

interface Row {
  id: number;
  line_number: string;
  sender: string;
  text: string;
  received_at: number;
  read_at: number | null;
  reply_to: number | null;
  opt_out: number;
}

interface ItemRow extends Row {
  done: number;
  replied_id: number | null;
  replied_text: string | null;
  replied_at: number | null;
  replied_line: string | null;
}

const COLUMNS = 'id, line_number, sender, text, received_at, read_at, reply_to, opt_out';
/** The page's rows and API reads are bounded: a caller asking more gets this many. */
const MAX_LIMIT = 500;
/** IN lists are chunked (STYLE.md) well below SQLite's parameter limit. */
const CHUNK = 500;

// sms/inboxpaged's statements (exported for the plan test). They walk inbound_account_received
// over the window (at most two days), whose order (received_at, then the rowid, id) is the pages'
// order: no sort, and no ties for a page boundary to split.
const PAGED_WINDOW = `FROM inbound_messages
  WHERE account_id = @account AND received_at >= @from AND received_at < @to AND line_number = @line
    AND (@read IS NULL OR (read_at IS NOT NULL) = @read)`;
export const PAGED_SQL = `SELECT ${COLUMNS} ${PAGED_WINDOW} ORDER BY received_at, id LIMIT @limit OFFSET @offset`;
export const PAGED_COUNT_SQL = `SELECT count(*) ${PAGED_WINDOW}`;

/** sms/inboxpaged's window and filters, as its statements bind them. */
interface PagedParams {
  account: number;
  from: number;
  to: number;
  line: string;
  /** 1 read, 0 unread, null both. */
  read: 0 | 1 | null;
}

/** Seconds from `from` to `to` (ms), as the API gives times: what a refusal of a window names. */
const secondsBetween = (from: number, to: number) => Math.ceil((to - from) / 1000);

/** The card of a number no segment holds. */
const noCard = (phone: string): ContactCard => ({ phone, name: null, segments: [], segment_count: 0 });

const toMessage = (row: Row): InboundMessage => ({ ...row, opt_out: row.opt_out === 1 });
const bound = (limit: number) => Math.min(Math.max(Math.trunc(limit) || 0, 0), MAX_LIMIT);

export class Inbox {
  private readonly insertStmt;
  private readonly unreadStmt;
  private readonly unreadAllLinesStmt;
  private readonly readStmt;
  private readonly readAllLinesStmt;
  private readonly markStmt;
  private readonly pagedStmt;
  private readonly pagedCountStmt;
  private readonly reopenStmt;
  private readonly fromSenderStmt;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** The contacts domain's opt-out list (read lazily: it is built after messaging). */
    private readonly optouts: () => InboxOptOuts,
    /** Told after replies were recorded (pushes to the window). */
    private readonly onRecorded: (recorded: InboundRecorded) => void = () => undefined,
    /** The contacts domain's cards (read lazily, as the opt-out list). */
    private readonly contactCards: () => InboxCards | null = () => null,
  ) {
    this.reopenStmt = db.prepare('DELETE FROM inbound_done WHERE account_id = ? AND line_number = ? AND sender = ?');
    this.fromSenderStmt = db.prepare<[number, string, number, number], Row>(
      `SELECT ${COLUMNS} FROM inbound_messages INDEXED BY inbound_sender
       WHERE account_id = ? AND sender = ? AND id < ? ORDER BY id DESC LIMIT ?`,
    );
    this.insertStmt = db.prepare<[number, string, string, string, number, number | null, number], Row>(
      `INSERT INTO inbound_messages (account_id, line_number, sender, text, received_at, reply_to, opt_out)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
    );
    this.unreadStmt = db.prepare<[number, string, number], Row>(
      `SELECT ${COLUMNS} FROM inbound_messages WHERE account_id = ? AND line_number = ? AND read_at IS NULL ORDER BY id LIMIT ?`,
    );
    this.unreadAllLinesStmt = db.prepare<[number, number], Row>(
      `SELECT ${COLUMNS} FROM inbound_messages WHERE account_id = ? AND read_at IS NULL ORDER BY id LIMIT ?`,
    );
    this.readStmt = db.prepare<[number, string, number], Row>(
      `SELECT ${COLUMNS} FROM inbound_messages WHERE account_id = ? AND line_number = ? AND read_at IS NOT NULL ORDER BY id DESC LIMIT ?`,
    );
    this.readAllLinesStmt = db.prepare<[number, number], Row>(
      `SELECT ${COLUMNS} FROM inbound_messages WHERE account_id = ? AND read_at IS NOT NULL ORDER BY id DESC LIMIT ?`,
    );
    this.markStmt = db.prepare('UPDATE inbound_messages SET read_at = ? WHERE id = ? AND read_at IS NULL');
    this.pagedStmt = db.prepare<[PagedParams & { limit: number; offset: number }], Row>(PAGED_SQL);
    this.pagedCountStmt = db.prepare<[PagedParams], number>(PAGED_COUNT_SQL).pluck();
  }

  record(input: InboundInput): InboundMessage {
    return this.recordAll([input])[0]!;
  }

  /** Records replies in one transaction; an opt-out reply's sender goes on its account's list in it too. */
  recordAll(inputs: readonly InboundInput[]): InboundMessage[] {
    const now = this.clock.now();
    const recorded = new Map<number, InboundRecorded>();
    const rows = this.db.transaction(() =>
      inputs.map((input) => {
        const sender = normalizePhone(input.sender) ?? input.sender.trim();
        // Only a number the list can hold is an opt-out (a short code or a name cannot be).
        const optOut = isOptOutReply(input.text) && normalizePhone(sender) !== null;
        if (optOut) this.optouts().add(input.accountId, [sender]);
        const line = normalizeLineNumber(input.lineNumber);
        // A new reply re-opens its conversation.
        this.reopenStmt.run(input.accountId, line, sender);
        const row = this.insertStmt.get(
          input.accountId,
          line,
          sender,
          input.text,
          input.receivedAt ?? now,
          input.replyTo ?? null,
          optOut ? 1 : 0,
        )!;
        const entry = recorded.get(input.accountId) ?? { accountId: input.accountId, ids: [], optOuts: 0 };
        entry.ids.push(row.id);
        if (optOut) entry.optOuts++;
        recorded.set(input.accountId, entry);
        return toMessage(row);
      }),
    )();
    for (const entry of recorded.values()) this.onRecorded(entry);
    return rows;
  }

  /** API v1's sms/receive. lineNumber null: every line of the account. */
  receive(accountId: number, lineNumber: string | null, isRead: boolean, limit = 100): InboundMessage[] {
    const take = bound(limit);
    const line = lineNumber === null ? null : normalizeLineNumber(lineNumber);
    if (isRead)
      return (
        line === null ? this.readAllLinesStmt.all(accountId, take) : this.readStmt.all(accountId, line, take)
      ).map(toMessage);
    const now = this.clock.now();
    return this.db.transaction(() => {
      const rows =
        line === null ? this.unreadAllLinesStmt.all(accountId, take) : this.unreadStmt.all(accountId, line, take);
      for (const row of rows) {
        this.markStmt.run(now, row.id);
        row.read_at = now;
      }
      return rows.map(toMessage);
    })();
  }

  /** How many arrived from `from` (inclusive) to `to` (exclusive), ms; on one line and read or not, when given. */
  count(
    accountId: number,
    { from, to, lineNumber, isRead }: { from: number; to: number; lineNumber?: string | null; isRead?: boolean | null },
  ): number {
    let sql = 'SELECT count(*) FROM inbound_messages WHERE account_id = ? AND received_at >= ? AND received_at < ?';
    const params: Array<number | string> = [accountId, from, to];
    if (lineNumber !== undefined && lineNumber !== null && lineNumber !== '') {
      sql += ' AND line_number = ?';
      params.push(normalizeLineNumber(lineNumber));
    }
    if (isRead === true) sql += ' AND read_at IS NOT NULL';
    if (isRead === false) sql += ' AND read_at IS NULL';
    return (
      this.db
        .prepare<unknown[], number>(sql)
        .pluck()
        .get(...params) ?? 0
    );
  }

  /**
   * API v1's sms/inboxpaged: the replies one line received from `from` (inclusive) to `to`
   * (exclusive), a page of INBOX_PAGE_SIZE at a time, in receipt order (received_at, then id): a
   * page holds the same replies however often it is read, so long as none arrives inside the
   * window meanwhile. The window is at most INBOX_PAGE_RANGE_MS wide, else 400 (the reference
   * names no code for it; 400 as for any parameter out of its bounds).
   * [I] It marks nothing read, unlike receive's unread fetch: it is the lossless read, which a
   * client can repeat after a lost answer (the reference does not say; nothing in it marks).
   */
  paged(accountId: number, query: PagedRepliesQuery): PagedReplies {
    const { from, page } = query;
    const to = query.to ?? from + INBOX_PAGE_RANGE_MS;
    if (to < from) throw new ServiceError(ApiCode.BadRequest, 'enddate is before startdate');
    if (to - from > INBOX_PAGE_RANGE_MS)
      throw new ServiceError(
        ApiCode.BadRequest,
        `enddate is ${secondsBetween(from, to)} seconds after startdate; one read spans at most ` +
          `${INBOX_PAGE_RANGE_MS / 1000} (2 days): read a longer period as several windows`,
      );
    if (!Number.isSafeInteger(page) || page < 1) throw new ServiceError(ApiCode.BadRequest, 'pagenumber counts from 1');
    const params: PagedParams = {
      account: accountId,
      from,
      to,
      line: normalizeLineNumber(query.lineNumber),
      read: query.isRead === undefined ? null : query.isRead ? 1 : 0,
    };
    // One transaction, so the total and the page are of the same moment.
    return this.db.transaction(() => {
      const total = this.pagedCountStmt.get(params) ?? 0;
      const offset = (page - 1) * INBOX_PAGE_SIZE;
      // A page past the last is empty, without walking the window to skip to it.
      const rows = offset >= total ? [] : this.pagedStmt.all({ ...params, limit: INBOX_PAGE_SIZE, offset });
      return {
        items: rows.map(toMessage),
        total,
        page,
        pages: Math.ceil(total / INBOX_PAGE_SIZE),
        pageSize: INBOX_PAGE_SIZE,
      };
    })();
  }

  /** The Inbox page: newest first, `before` the previous page's `next`; each reply with the message it answers. */
  list(accountId: number, options: InboxFilter & { before?: number; limit?: number } = {}): InboxPage {
    const take = Math.max(bound(options.limit ?? 50), 1);
    const where = ['i.account_id = ?'];
    const params: Array<number | string> = [accountId];
    if (options.before !== undefined) {
      where.push('i.id < ?');
      params.push(options.before);
    }
    const done = `EXISTS (SELECT 1 FROM inbound_done d
      WHERE d.account_id = i.account_id AND d.line_number = i.line_number AND d.sender = i.sender)`;
    const view = options.view ?? 'open';
    if (view === 'open') where.push(`NOT ${done}`);
    if (view === 'done') where.push(done);
    if (options.line_number !== undefined && options.line_number.trim() !== '') {
      where.push('i.line_number = ?');
      params.push(normalizeLineNumber(options.line_number));
    }
    if (options.unread_only) where.push('i.read_at IS NULL');
    if (options.opt_outs_only) where.push('i.opt_out = 1');
    const term = options.search?.trim() ?? '';
    if (term !== '') {
      // Not a number at all: no sender can match.
      const digits = phoneSearchDigits(term);
      if (digits === null) return { items: [], next: null };
      where.push("i.sender LIKE ? ESCAPE '\\'");
      params.push(`%${escapeLike(digits)}%`);
    }
    // The answered message must be this account's: a reply_to given by an upstream is not trusted.
    const rows = this.db
      .prepare<unknown[], ItemRow>(
        `SELECT i.id, i.line_number, i.sender, i.text, i.received_at, i.read_at, i.reply_to, i.opt_out,
                ${done} AS done, m.id AS replied_id, ${messageTextSql()} AS replied_text, m.created_at AS replied_at,
                s.sender AS replied_line
         FROM inbound_messages i
         LEFT JOIN messages m ON m.id = i.reply_to AND m.account_id = i.account_id
         LEFT JOIN sends s ON s.id = m.send_id
         WHERE ${where.join(' AND ')}
         ORDER BY i.id DESC LIMIT ?`,
      )
      .all(...params, take + 1);
    const more = rows.length > take;
    const page = rows.slice(0, take);
    const cards = this.cardsOf(
      accountId,
      page.map((row) => row.sender),
    );
    const items = page.map(({ replied_id, replied_text, replied_at, replied_line, done, ...row }): InboxItem => ({
      ...toMessage(row),
      contact: cards.get(row.sender) ?? noCard(row.sender),
      done: done === 1,
      replied:
        replied_id === null
          ? null
          : { id: replied_id, text: replied_text ?? '', sent_at: replied_at ?? 0, line_number: replied_line ?? '' },
    }));
    return { items, next: more ? items[items.length - 1]!.id : null };
  }

  /** Marks replies read (all the account's unread ones when `ids` is absent); returns how many changed. */
  markRead(accountId: number, ids?: readonly number[]): number {
    const now = this.clock.now();
    if (ids === undefined)
      return this.db
        .prepare('UPDATE inbound_messages SET read_at = ? WHERE account_id = ? AND read_at IS NULL')
        .run(now, accountId).changes;
    let changed = 0;
    this.db.transaction(() => {
      for (let i = 0; i < ids.length; i += CHUNK) {
        const chunk = ids.slice(i, i + CHUNK);
        changed += this.db
          .prepare(
            `UPDATE inbound_messages SET read_at = ? WHERE account_id = ? AND read_at IS NULL AND id IN (${chunk.map(() => '?').join(',')})`,
          )
          .run(now, accountId, ...chunk).changes;
      }
    })();
    return changed;
  }

  /** Marks one number's replies read (its thread opened); returns how many changed. */
  markSenderRead(accountId: number, sender: string): number {
    const phone = normalizePhone(sender) ?? sender.trim();
    return this.db
      .prepare(
        `UPDATE inbound_messages INDEXED BY inbound_sender SET read_at = ?
         WHERE account_id = ? AND sender = ? AND read_at IS NULL`,
      )
      .run(this.clock.now(), accountId, phone).changes;
  }

  /**
   * Marks a conversation done (its replies read with it) or open again. A conversation the number
   * never wrote on (no reply from it to that line) is 404: there is nothing to mark.
   */
  setDone(accountId: number, lineNumber: string, sender: string, done: boolean): boolean {
    const line = normalizeLineNumber(lineNumber);
    const phone = normalizePhone(sender) ?? sender.trim();
    return this.db.transaction(() => {
      const exists = this.db
        .prepare<[number, string, string], number>(
          `SELECT 1 FROM inbound_messages INDEXED BY inbound_sender
           WHERE account_id = ? AND sender = ? AND line_number = ? LIMIT 1`,
        )
        .pluck()
        .get(accountId, phone, line);
      if (exists === undefined) throw new ServiceError(ApiCode.NotFound, `no reply from ${phone} to line ${line}`);
      if (!done) {
        this.reopenStmt.run(accountId, line, phone);
        return false;
      }
      const now = this.clock.now();
      this.db
        .prepare(
          `INSERT INTO inbound_done (account_id, line_number, sender, done_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (account_id, line_number, sender) DO UPDATE SET done_at = excluded.done_at`,
        )
        .run(accountId, line, phone, now);
      this.db
        .prepare(
          `UPDATE inbound_messages INDEXED BY inbound_sender SET read_at = ?
           WHERE account_id = ? AND sender = ? AND line_number = ? AND read_at IS NULL`,
        )
        .run(now, accountId, phone, line);
      return true;
    })();
  }

  /** A number's card and its conversations: one per line it wrote to, the latest reply's first. */
  conversation(accountId: number, phone: string): Conversation {
    const number = normalizePhone(phone) ?? phone.trim();
    const lines = this.db
      .prepare<[number, string], { line_number: string; done: number; unread: number; last_at: number }>(
        `SELECT i.line_number, max(i.received_at) AS last_at,
                sum(i.read_at IS NULL) AS unread,
                EXISTS (SELECT 1 FROM inbound_done d WHERE d.account_id = i.account_id
                          AND d.line_number = i.line_number AND d.sender = i.sender) AS done
         FROM inbound_messages i INDEXED BY inbound_sender
         WHERE i.account_id = ? AND i.sender = ?
         GROUP BY i.line_number ORDER BY max(i.id) DESC`,
      )
      .all(accountId, number)
      .map((row) => ({ line_number: row.line_number, done: row.done === 1, unread: row.unread, last_at: row.last_at }));
    return { phone: number, contact: this.cardsOf(accountId, [number]).get(number) ?? noCard(number), lines };
  }

  /** A number's replies older than `before` (an id), newest first: its side of a thread. */
  fromSender(accountId: number, sender: string, before: number, limit: number): InboundMessage[] {
    const phone = normalizePhone(sender) ?? sender.trim();
    return this.fromSenderStmt.all(accountId, phone, before, bound(limit)).map(toMessage);
  }

  private cardsOf(accountId: number, phones: readonly string[]): Map<string, ContactCard> {
    return this.contactCards()?.cards(accountId, phones) ?? new Map<string, ContactCard>();
  }

  counts(accountId: number): InboxCounts {
    const unread =
      this.db
        .prepare<[number], number>('SELECT count(*) FROM inbound_messages WHERE account_id = ? AND read_at IS NULL')
        .pluck()
        .get(accountId) ?? 0;
    const total =
      this.db
        .prepare<[number], number>('SELECT count(*) FROM inbound_messages WHERE account_id = ?')
        .pluck()
        .get(accountId) ?? 0;
    // Per line on the partial index of unread replies (inbound_unread): read ones are not in it.
    const unreadByLine = this.db
      .prepare<[number], { line_number: string; unread: number }>(
        `SELECT line_number, count(*) AS unread FROM inbound_messages INDEXED BY inbound_unread
         WHERE account_id = ? AND read_at IS NULL GROUP BY line_number ORDER BY line_number`,
      )
      .all(accountId);
    return { unread, total, unread_by_line: unreadByLine };
  }
}
