// The credit ledger: every change of an account's credit is one ledger row written in the same
// transaction as the balance, so sum(ledger) == credit at every commit.
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import type { LedgerEntry, LedgerKind } from '../../../shared/ipc/schemas';

export type { LedgerEntry, LedgerKind };

export class Credit {
  private readonly balanceStmt;
  private readonly addStmt;
  private readonly entryStmt;
  private readonly refundStmt;
  private readonly heldStmt;
  private readonly reserveStmt;
  private readonly drawStmt;
  private readonly reservationStmt;
  private readonly releaseStmt;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.balanceStmt = db.prepare<[number], { credit_rials: number }>('SELECT credit_rials FROM accounts WHERE id = ?');
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
  }

  balance(accountId: number): number {
    const row = this.balanceStmt.get(accountId);
    if (!row) throw new ServiceError(ApiCode.NotFound, `account ${accountId}`);
    return row.credit_rials;
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

  /** Adds credit by hand (a top-up is positive), or corrects it either way (kind 'adjust'), never below zero. */
  adjust(accountId: number, amountRials: number, note = '', kind: 'topup' | 'adjust' = 'topup'): number {
    if (!Number.isSafeInteger(amountRials)) throw new ServiceError(ApiCode.BadRequest, 'amount must be whole rials');
    if (kind === 'topup' && amountRials < 0)
      throw new ServiceError(ApiCode.BadRequest, 'a top-up is positive; use kind adjust to correct');
    return this.db.transaction(() => {
      const balance = this.balance(accountId);
      if (balance + amountRials < 0) throw new ServiceError(ApiCode.NoCredit);
      this.addStmt.run(amountRials, accountId);
      this.entryStmt.run(accountId, amountRials, kind, null, null, note, this.clock.now());
      return balance + amountRials;
    })();
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
   */
  ledger(
    accountId: number,
    options: { limit?: number; beforeId?: number } = {},
  ): { entries: LedgerEntry[]; next_before_id: number | null } {
    this.balance(accountId);
    const limit = Math.min(options.limit ?? 100, 1000);
    const entries = this.db
      .prepare<[number, number, number], LedgerEntry>(
        'SELECT * FROM credit_ledger WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?',
      )
      .all(accountId, options.beforeId ?? Number.MAX_SAFE_INTEGER, limit);
    return { entries, next_before_id: entries.length === limit ? entries[entries.length - 1]!.id : null };
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
