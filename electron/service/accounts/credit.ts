// The credit ledger: every change of an account's credit is one ledger row written in the same
// transaction as the balance, so sum(ledger) == credit at every commit. Money enters within the
// limits of shared/credit.ts, so every balance and sum stays an exact JavaScript number.
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { MAX_BALANCE_RIALS, MAX_CREDIT_CHANGE_RIALS } from '../../../shared/credit';
import type { LedgerEntry, LedgerKind } from '../../../shared/ipc/schemas';
import type { LedgerRow } from '../../../shared/ipc/contracts/credit';

export type { LedgerEntry, LedgerKind, LedgerRow };

/** A ledger row with the send of the message a refund row returns (null for other rows). */
type ScannedRow = LedgerEntry & { refunded_send: number | null };

/**
 * What the ledger reads of the messages a refund row names, which the messaging domain owns and
 * gives the ledger at composition (accounts is below messaging and may not read its tables): a
 * refund's send, joined in the page's one statement, and a send's range of message ids.
 */
export interface LedgerMessages {
  /**
   * Left-joins, as `m`, the message whose id is `messageId` (an SQL expression over the outer row)
   * when `when` holds, on its primary key: `${m}.send_id` is its send (NULL when not joined).
   */
  leftJoinMessageSql(m: string, messageId: string, when: string): string;
  /** The ids of a send's first and last messages (its messages' ids are consecutive); null when it has none. */
  idRange(sendId: number): { first: number | null; last: number | null };
}

export class Credit {
  private readonly balanceStmt;
  private readonly balancesStmt;
  private readonly addStmt;
  private readonly entryStmt;
  private readonly refundStmt;
  private readonly heldStmt;
  private readonly reserveStmt;
  private readonly drawStmt;
  private readonly reservationStmt;
  private readonly releaseStmt;
  private readonly scanStmt;
  private readonly refundGroupStmt;
  private readonly sendRefundsStmt;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly messages: LedgerMessages,
  ) {
    this.balanceStmt = db.prepare<[number], { credit_rials: number }>('SELECT credit_rials FROM accounts WHERE id = ?');
    this.balancesStmt = db.prepare<[], { credit_rials: number }>('SELECT credit_rials FROM accounts');
    this.addStmt = db.prepare('UPDATE accounts SET credit_rials = credit_rials + ? WHERE id = ?');
    this.entryStmt = db.prepare(
      `INSERT INTO credit_ledger (account_id, amount_rials, kind, send_id, message_id, note, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    // The partial unique index on message_id makes a second refund of a message a no-op.
    this.refundStmt = db.prepare(
      `INSERT OR IGNORE INTO credit_ledger (account_id, amount_rials, kind, message_id, created_at)
       VALUES (?, ?, 'refund', ?, ?)`,
    );
    this.heldStmt = db.prepare<[number], { held: number }>(
      'SELECT COALESCE(SUM(amount_rials), 0) AS held FROM credit_reservations WHERE account_id = ?',
    );
    this.reserveStmt = db.prepare(
      'INSERT INTO credit_reservations (account_id, amount_rials, note, created_at) VALUES (?, ?, ?, ?)',
    );
    this.drawStmt = db.prepare('UPDATE credit_reservations SET amount_rials = max(0, amount_rials - ?) WHERE id = ?');
    this.reservationStmt = db.prepare<[number], { account_id: number; amount_rials: number }>(
      'SELECT account_id, amount_rials FROM credit_reservations WHERE id = ?',
    );
    this.releaseStmt = db.prepare('DELETE FROM credit_reservations WHERE id = ?');
    // Newest first, on the (account_id, id) index; a refund row names its message, whose send
    // groups it (one primary-key lookup).
    this.scanStmt = db.prepare<[number, number, number], ScannedRow>(
      `SELECT l.*, m.send_id AS refunded_send FROM credit_ledger l
       ${messages.leftJoinMessageSql('m', 'l.message_id', "l.kind = 'refund'")}
       WHERE l.account_id = ? AND l.id < ? ORDER BY l.id DESC LIMIT ?`,
    );
    // SQLite takes the bare created_at from the row of max(id): the newest refund's time.
    this.refundGroupStmt = db.prepare<
      [number, number],
      { count: number; amount: number; newest: number | null; created_at: number }
    >(
      `SELECT count(*) AS count, COALESCE(sum(amount_rials), 0) AS amount, max(id) AS newest, created_at
       FROM credit_ledger WHERE kind = 'refund' AND message_id BETWEEN ? AND ?`,
    );
    this.sendRefundsStmt = db.prepare<[number, number, number, number, number], LedgerEntry>(
      `SELECT * FROM credit_ledger WHERE kind = 'refund' AND message_id BETWEEN ? AND ?
       AND account_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
    );
  }

  balance(accountId: number): number {
    const row = this.balanceStmt.get(accountId);
    if (!row) throw new ServiceError(ApiCode.NotFound, `account ${accountId}`);
    return row.credit_rials;
  }

  /** The account's credit, null for no such account (a read that shows it, as the dashboard). */
  balanceOrNull(accountId: number): number | null {
    return this.balanceStmt.get(accountId)?.credit_rials ?? null;
  }

  /** The credit of every account together (the dashboard over all accounts). */
  totalBalance(): number {
    return this.balancesStmt.all().reduce((sum, account) => sum + account.credit_rials, 0);
  }

  /** Credit not held by a reservation: what a send may spend now (a reservation's own batches may spend what it holds too). */
  available(accountId: number): number {
    return this.balance(accountId) - this.heldStmt.get(accountId)!.held;
  }

  /** Rials held by reservations of the account (running campaign executions). */
  held(accountId: number): number {
    return this.heldStmt.get(accountId)!.held;
  }

  /**
   * Holds `amountRials` of the account's available credit for work that spends it in batches (a
   * campaign execution): other sends can no longer spend it. Throws 418 when not available.
   * Nothing is debited: each batch is debited as it is recorded (debitSend with the reservation),
   * and what is left is released. Call inside the caller's transaction.
   */
  reserve(accountId: number, amountRials: number, note = ''): number {
    if (this.available(accountId) < amountRials) throw new ServiceError(ApiCode.NoCredit);
    return Number(this.reserveStmt.run(accountId, amountRials, note, this.clock.now()).lastInsertRowid);
  }

  /** What a reservation still holds (0 when released or unknown). */
  reserved(reservationId: number): number {
    return this.reservationStmt.get(reservationId)?.amount_rials ?? 0;
  }

  /** Lets go of what a reservation still holds (its batches were debited as they went). */
  release(reservationId: number): void {
    this.releaseStmt.run(reservationId);
  }

  /**
   * Adds credit by hand (a top-up is positive), or corrects it either way (kind 'adjust'), never
   * below zero. Every way money enters goes through here (the Credit tab, an account's opening
   * credit, seed files): at most MAX_CREDIT_CHANGE_RIALS at once, and a balance of at most
   * MAX_BALANCE_RIALS after it. A correction downwards is bounded by the balance itself (418).
   */
  adjust(accountId: number, amountRials: number, note = '', kind: 'topup' | 'adjust' = 'topup'): number {
    if (!Number.isInteger(amountRials)) throw new ServiceError(ApiCode.BadRequest, 'amount must be whole rials');
    if (!Number.isSafeInteger(amountRials) || amountRials > MAX_CREDIT_CHANGE_RIALS)
      throw new ServiceError(
        ApiCode.BadRequest,
        `at most ${MAX_CREDIT_CHANGE_RIALS} rials at once, not ${amountRials}`,
        'amount_too_large',
      );
    if (kind === 'topup' && amountRials <= 0)
      throw new ServiceError(
        ApiCode.BadRequest,
        'a top-up is positive; use kind adjust to correct',
        'amount_not_positive',
      );
    return this.db.transaction(() => {
      const balance = this.balance(accountId);
      if (balance + amountRials < 0) throw new ServiceError(ApiCode.NoCredit);
      if (amountRials > 0 && balance + amountRials > MAX_BALANCE_RIALS)
        throw new ServiceError(
          ApiCode.BadRequest,
          `the balance would pass ${MAX_BALANCE_RIALS} rials`,
          'balance_too_large',
        );
      this.addStmt.run(amountRials, accountId);
      this.entryStmt.run(accountId, amountRials, kind, null, null, note, this.clock.now());
      return balance + amountRials;
    })();
  }

  /**
   * What a provider charged otherwise than our price list (upstream lines): `amountRials` back to
   * the account (positive) or taken (negative), as an adjustment. The provider already charged; a
   * balance never goes below zero here (the rest is named in the note, for the user to settle).
   * Inside the caller's transaction.
   */
  providerCost(accountId: number, amountRials: number, note: string): void {
    if (!Number.isSafeInteger(amountRials) || amountRials === 0) return;
    const amount = Math.max(amountRials, -this.balance(accountId));
    const short = amount === amountRials ? '' : ` (${amount - amountRials} rials more than the balance)`;
    if (amount === 0 && short === '') return;
    this.addStmt.run(amount, accountId);
    this.entryStmt.run(accountId, amount, 'adjust', null, null, note + short, this.clock.now());
  }

  /**
   * What a send may spend: the available credit, plus what its reservation holds when it is a
   * reserved batch.
   */
  spendable(accountId: number, reservationId?: number | null): number {
    const own = reservationId == null ? 0 : this.reserved(reservationId);
    return this.available(accountId) + own;
  }

  /**
   * Debits a send's total; call inside the send's transaction. Throws 418 when short. A reserved
   * batch is paid from its reservation first (which shrinks by as much), then from available credit.
   */
  debitSend(accountId: number, sendId: number, totalRials: number, reservationId?: number | null): void {
    if (this.spendable(accountId, reservationId) < totalRials) throw new ServiceError(ApiCode.NoCredit);
    if (reservationId != null) this.drawStmt.run(totalRials, reservationId);
    this.addStmt.run(-totalRials, accountId);
    this.entryStmt.run(accountId, -totalRials, 'send', sendId, null, '', this.clock.now());
  }

  /** Refunds one message's cost, exactly once; call inside the status change's transaction. */
  refundMessage(accountId: number, messageId: number, costRials: number): boolean {
    if (costRials <= 0) return false;
    const inserted = this.refundStmt.run(accountId, costRials, messageId, this.clock.now()).changes === 1;
    if (inserted) this.addStmt.run(costRials, accountId);
    return inserted;
  }

  /**
   * A page of an account's ledger, newest first (404 for an unknown account); pass
   * `next_before_id` as `beforeId` for the next, older page (null on the last one).
   *
   * The refunds of one send are one row (`refund_count` of them, their sum), placed where its
   * newest refund is: a send whose 200 messages failed is one line, not 200. The page reads the
   * ledger newest first on its index and sums each send's refunds over one range of the refund
   * index, so its cost follows the rows it passes, never the size of the ledger. With `sendId`,
   * the page is that send's refunds themselves, one row each (what a grouped row expands to).
   */
  ledger(
    accountId: number,
    options: { limit?: number; beforeId?: number; sendId?: number } = {},
  ): { entries: LedgerRow[]; next_before_id: number | null } {
    this.balance(accountId);
    const limit = Math.min(options.limit ?? 100, 1000);
    const before = options.beforeId ?? Number.MAX_SAFE_INTEGER;
    if (options.sendId !== undefined) return this.refundsOfSend(accountId, options.sendId, before, limit);
    const rows: LedgerRow[] = [];
    // The sends whose refunds were met on this call: their row, or null when it belongs to a
    // newer page (its newest refund is at or after `before`).
    const groups = new Map<number, LedgerRow | null>();
    // One row more than asked tells whether an older page has anything.
    let cursor = before;
    scan: for (;;) {
      const chunk = this.scanStmt.all(accountId, cursor, Math.max(limit * 4, 200));
      for (const { refunded_send: sendId, ...entry } of chunk) {
        if (sendId === null) {
          rows.push({ ...entry, refund_count: null });
        } else if (!groups.has(sendId)) {
          const group = this.refundGroup(accountId, sendId);
          const shown = group !== null && group.id < before;
          groups.set(sendId, shown ? group : null);
          if (shown) rows.push(group);
        }
        if (rows.length > limit) break scan;
      }
      if (chunk.length === 0) break;
      cursor = chunk[chunk.length - 1]!.id;
    }
    const more = rows.length > limit;
    const entries = rows.slice(0, limit);
    return { entries, next_before_id: more ? entries[entries.length - 1]!.id : null };
  }

  /** The refunds of one send as one ledger row: their sum, at the newest one's id and time. */
  private refundGroup(accountId: number, sendId: number): LedgerRow | null {
    // A send's messages have consecutive ids: its refunds are one range of the refund index.
    const { first, last } = this.messages.idRange(sendId);
    if (first === null || last === null) return null;
    const group = this.refundGroupStmt.get(first, last)!;
    if (group.newest === null) return null;
    return {
      id: group.newest,
      account_id: accountId,
      amount_rials: group.amount,
      kind: 'refund',
      send_id: sendId,
      message_id: null,
      note: '',
      created_at: group.created_at,
      refund_count: group.count,
    };
  }

  private refundsOfSend(
    accountId: number,
    sendId: number,
    before: number,
    limit: number,
  ): { entries: LedgerRow[]; next_before_id: number | null } {
    const { first, last } = this.messages.idRange(sendId);
    if (first === null || last === null) return { entries: [], next_before_id: null };
    const found = this.sendRefundsStmt.all(first, last, accountId, before, limit + 1);
    const entries = found.slice(0, limit).map((entry) => ({ ...entry, refund_count: null }));
    return { entries, next_before_id: found.length > limit ? entries[entries.length - 1]!.id : null };
  }

  /** sum(ledger) for an account: equals balance() at every commit (tests check it). */
  ledgerSum(accountId: number): number {
    return this.db
      .prepare<[number], { total: number }>(
        'SELECT COALESCE(SUM(amount_rials), 0) AS total FROM credit_ledger WHERE account_id = ?',
      )
      .get(accountId)!.total;
  }
}

/**
 * Joins, as `l`, the refunds of the messages whose ids lie in [first, last] (SQL expressions over
 * the outer row), on the refund index: `total(l.amount_rials)` is what they returned. For a read
 * of another domain that keeps ranges of message ids (a campaign execution's batches) and sums
 * their refunds within its one statement.
 */
export function joinRefundsSql(l: string, first: string, last: string): string {
  return `JOIN credit_ledger ${l} ON ${l}.kind = 'refund' AND ${l}.message_id BETWEEN ${first} AND ${last}`;
}

/**
 * What the message whose id is `messageId` (an SQL expression over the outer row) was refunded, as
 * a scalar subquery on the refund index (NULL when it was not): for messaging's counts, which keep
 * what each message returned beside what it cost.
 */
export function refundOfMessageSql(messageId: string): string {
  return `(SELECT l.amount_rials FROM credit_ledger l WHERE l.kind = 'refund' AND l.message_id = ${messageId})`;
}

/**
 * Whether a database (a backup about to be restored, opened on its own handle) holds a balance or
 * ledger amount beyond exact JavaScript counting: its money could not be counted here.
 */
export function hasUncountableAmounts(db: Db): boolean {
  const uncountable = db
    .prepare<[number, number, number, number], number>(
      `SELECT EXISTS (SELECT 1 FROM accounts WHERE credit_rials NOT BETWEEN ? AND ?)
           OR EXISTS (SELECT 1 FROM credit_ledger WHERE amount_rials NOT BETWEEN ? AND ?)`,
    )
    .pluck()
    .get(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  return uncountable === 1;
}
