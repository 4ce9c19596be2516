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
  }

  balance(accountId: number): number {
    const row = this.balanceStmt.get(accountId);
    if (!row) throw new ServiceError(ApiCode.NotFound, `account ${accountId}`);
    return row.credit_rials;
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

  /** Debits a send's total; call inside the send's transaction. Throws 418 when short. */
  debitSend(accountId: number, sendId: number, totalRials: number): void {
    if (this.balance(accountId) < totalRials) throw new ServiceError(ApiCode.NoCredit);
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
