// The credit ledger: every change of an account's credit is one ledger row written in the same
// transaction as the balance, so sum(ledger) == credit at every commit. Money enters within the
// limits of shared/credit.ts, so every balance and sum stays an exact JavaScript number.
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { MAX_BALANCE_RIALS, MAX_CREDIT_CHANGE_RIALS } from '../../../shared/credit';
import type { LedgerEntry, LedgerKind } from '../../../shared/ipc/schemas';
import type { LedgerGroup, LedgerRow } from '../../../shared/ipc/contracts/credit';

export type { LedgerEntry, LedgerGroup, LedgerKind, LedgerRow };

/** A send as the ledger names its charge: where it came from, its line and text. */
export interface LedgerSend {
  origin: 'api' | 'panel' | 'campaign';
  api_version: number | null;
  sender: string;
  text: string;
  message_count: number;
  total_rials: number;
  created_at: number;
}

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
  /** The send, while it is kept (retention may forget it; its ledger rows stay). */
  send(sendId: number): LedgerSend | undefined;
}

/**
 * The campaign runs as the ledger groups their charges (a run's batches are each a send), which
 * the campaigns domain owns and registers at composition (accounts is below it).
 */
export interface LedgerRuns {
  /** The run whose batch the send is, or null for a send of its own. */
  runOfSend(sendId: number): number | null;
  /** A run's charge: its campaign, its first send (whose charge places it) and its sums. */
  run(executionId: number): LedgerRun | undefined;
  /** The run's sends, newest first, below `beforeSendId`, at most `limit`. */
  sendsOf(executionId: number, beforeSendId: number, limit: number): number[];
}

export interface LedgerRun {
  account_id: number;
  campaign_id: number;
  name: string;
  sender: string;
  first_send_id: number;
  sends: number;
  messages: number;
  charged_rials: number;
  refunded_rials: number;
  refund_count: number;
}

/** How many characters of a send's text name it on the bill. */
const NAME_CHARS = 60;

/** Rials held by reservations of the account whose id is `accountId` (an SQL expression), as a subquery. */
function heldSql(accountId: string): string {
  return `(SELECT COALESCE(SUM(amount_rials), 0) FROM credit_reservations WHERE account_id = ${accountId})`;
}

export class Credit {
  private readonly balanceStmt;
  private readonly balancesStmt;
  private readonly addStmt;
  private readonly entryStmt;
  private readonly refundStmt;
  private readonly heldStmt;
  private readonly availableStmt;
  private readonly reserveStmt;
  private readonly drawStmt;
  private readonly reservationStmt;
  private readonly releaseStmt;
  private readonly scanStmt;
  private readonly refundSumStmt;
  private readonly sendRefundsStmt;
  private runs: LedgerRuns | null = null;
  /** Accounts whose credit changed since they were last told, and who is told. */
  private readonly changed = new Set<number>();
  private changeListener: ((credits: Array<{ account_id: number; credit_rials: number }>) => void) | null = null;

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
    this.heldStmt = db.prepare<[number], { held: number }>(`SELECT ${heldSql('?')} AS held`);
    // Every send reads it (the refusal check): one statement, not the balance's and the holds'.
    this.availableStmt = db
      .prepare<[number], number>(`SELECT credit_rials - ${heldSql('a.id')} FROM accounts a WHERE id = ?`)
      .pluck();
    this.reserveStmt = db.prepare(
      'INSERT INTO credit_reservations (account_id, amount_rials, note, created_at) VALUES (?, ?, ?, ?)',
    );
    this.drawStmt = db.prepare('UPDATE credit_reservations SET amount_rials = max(0, amount_rials - ?) WHERE id = ?');
    this.reservationStmt = db.prepare<[number], { account_id: number; amount_rials: number }>(
      'SELECT account_id, amount_rials FROM credit_reservations WHERE id = ?',
    );
    this.releaseStmt = db.prepare('DELETE FROM credit_reservations WHERE id = ?');
    // Newest first, on the (account_id, id) index. A refund whose message is kept is summed in its
    // send's row (or its run's), so it is passed over here, inside SQLite (one primary-key lookup).
    this.scanStmt = db.prepare<[number, number, number], LedgerEntry>(
      `SELECT l.* FROM credit_ledger l
       ${messages.leftJoinMessageSql('m', 'l.message_id', "l.kind = 'refund'")}
       WHERE l.account_id = ? AND l.id < ? AND (l.kind <> 'refund' OR m.send_id IS NULL)
       ORDER BY l.id DESC LIMIT ?`,
    );
    this.refundSumStmt = db.prepare<[number, number], { count: number; amount: number }>(
      `SELECT count(*) AS count, COALESCE(sum(amount_rials), 0) AS amount
       FROM credit_ledger WHERE kind = 'refund' AND message_id BETWEEN ? AND ?`,
    );
    this.sendRefundsStmt = db.prepare<[number, number, number, number, number], LedgerEntry>(
      `SELECT * FROM credit_ledger WHERE kind = 'refund' AND message_id BETWEEN ? AND ?
       AND account_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
    );
  }

  /**
   * Tells `listener` whose credit changed and what it is now: once for all the writes of a turn of
   * the event loop (a batch of refunds is one call), after their transaction has ended.
   */
  onChange(listener: (credits: Array<{ account_id: number; credit_rials: number }>) => void): void {
    this.changeListener = listener;
  }

  private touched(accountId: number): void {
    if (this.changeListener === null) return;
    this.changed.add(accountId);
    if (this.changed.size === 1) setImmediate(() => this.tellChanges());
  }

  private tellChanges(): void {
    if (!this.db.open) return this.changed.clear();
    // Transactions are synchronous: one still open here is another's, and its writes tell later.
    if (this.db.inTransaction) return void setImmediate(() => this.tellChanges());
    const credits = [...this.changed].flatMap((account_id) => {
      const credit_rials = this.balanceOrNull(account_id);
      return credit_rials === null ? [] : [{ account_id, credit_rials }];
    });
    this.changed.clear();
    if (credits.length > 0) this.changeListener?.(credits);
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
    const available = this.availableStmt.get(accountId);
    if (available === undefined) throw new ServiceError(ApiCode.NotFound, `account ${accountId}`);
    return available;
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
    this.touched(accountId);
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
    this.touched(accountId);
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
   * `spendable`: what spendable() gave the caller earlier in this same transaction (the acceptance's
   * refusal check), so it is not read twice; null: read here.
   */
  debitSend(
    accountId: number,
    sendId: number,
    totalRials: number,
    reservationId?: number | null,
    spendable: number | null = null,
  ): void {
    if ((spendable ?? this.spendable(accountId, reservationId)) < totalRials) throw new ServiceError(ApiCode.NoCredit);
    if (reservationId != null) this.drawStmt.run(totalRials, reservationId);
    this.touched(accountId);
    this.addStmt.run(-totalRials, accountId);
    this.entryStmt.run(accountId, -totalRials, 'send', sendId, null, '', this.clock.now());
  }

  /** Refunds one message's cost, exactly once; call inside the status change's transaction. */
  refundMessage(accountId: number, messageId: number, costRials: number): boolean {
    if (costRials <= 0) return false;
    const inserted = this.refundStmt.run(accountId, costRials, messageId, this.clock.now()).changes === 1;
    if (inserted) {
      this.addStmt.run(costRials, accountId);
      this.touched(accountId);
    }
    return inserted;
  }

  /** The campaigns domain groups its runs' sends on the bill (see LedgerRuns). */
  registerRuns(runs: LedgerRuns): void {
    this.runs = runs;
  }

  /**
   * A page of an account's bill, newest first (404 for an unknown account); pass `next_before_id`
   * as `beforeId` for the next, older page (null on the last one).
   *
   * Each charge is one row with its refunds taken off: a campaign's run (all its batches' sends) or
   * a send of its own, named, placed at its first charge (so refunds coming later change its sums,
   * not its place). Top-ups and corrections are rows of their own, as is a refund whose message is
   * no longer kept. The page reads the ledger newest first on its index, passing over refunds in
   * SQLite and a run's later batches here, and sums each charge over its sends' ranges of the
   * refund index: its cost follows the rows it passes, never the size of the ledger.
   * With `executionId`, the page is that run's sends, a row each (`beforeId` a send id); with
   * `sendId`, that send's refunds, one row each.
   */
  ledger(
    accountId: number,
    options: { limit?: number; beforeId?: number; sendId?: number; executionId?: number } = {},
  ): { entries: LedgerRow[]; next_before_id: number | null } {
    this.balance(accountId);
    const limit = Math.min(options.limit ?? 100, 1000);
    const before = options.beforeId ?? Number.MAX_SAFE_INTEGER;
    if (options.sendId !== undefined) return this.refundsOfSend(accountId, options.sendId, before, limit);
    if (options.executionId !== undefined) return this.sendsOfRun(accountId, options.executionId, before, limit);
    const rows: LedgerRow[] = [];
    // One row more than asked tells whether an older page has anything.
    let cursor = before;
    scan: for (;;) {
      const chunk = this.scanStmt.all(accountId, cursor, Math.max(limit * 4, 200));
      for (const entry of chunk) {
        const row = this.billRow(entry);
        if (row !== null) rows.push(row);
        if (rows.length > limit) break scan;
      }
      if (chunk.length === 0) break;
      cursor = chunk[chunk.length - 1]!.id;
    }
    const more = rows.length > limit;
    const entries = rows.slice(0, limit);
    return { entries, next_before_id: more ? entries[entries.length - 1]!.id : null };
  }

  /** The bill's row an entry starts, or null when it is summed in another's (a run's later batch). */
  private billRow(entry: LedgerEntry): LedgerRow | null {
    if (entry.kind !== 'send' || entry.send_id === null) return { ...entry, group: null };
    const runId = this.runs?.runOfSend(entry.send_id) ?? null;
    if (runId === null) return { ...entry, ...this.sendGroup(entry.send_id, -entry.amount_rials) };
    const run = this.runs!.run(runId);
    if (!run || run.account_id !== entry.account_id) return { ...entry, group: null };
    if (run.first_send_id !== entry.send_id) return null;
    return {
      ...entry,
      amount_rials: run.refunded_rials - run.charged_rials,
      group: {
        execution_id: runId,
        campaign_id: run.campaign_id,
        name: run.name,
        origin: 'campaign',
        api_version: null,
        sender: run.sender,
        sends: run.sends,
        messages: run.messages,
        charged_rials: run.charged_rials,
        refunded_rials: run.refunded_rials,
        refund_count: run.refund_count,
      },
    };
  }

  /** One send's charge with its refunds: the net and the group it is (`charged`: its debit). */
  private sendGroup(sendId: number, charged: number): { amount_rials: number; group: LedgerGroup } {
    const send = this.messages.send(sendId);
    const { first, last } = this.messages.idRange(sendId);
    const refunds = first === null || last === null ? { count: 0, amount: 0 } : this.refundSumStmt.get(first, last)!;
    return {
      amount_rials: refunds.amount - charged,
      group: {
        execution_id: null,
        campaign_id: null,
        name: send ? send.text.replace(/\s+/g, ' ').trim().slice(0, NAME_CHARS) : '',
        origin: send?.origin ?? null,
        api_version: send?.api_version ?? null,
        sender: send?.sender ?? '',
        sends: 1,
        messages: send?.message_count ?? 0,
        charged_rials: charged,
        refunded_rials: refunds.amount,
        refund_count: refunds.count,
      },
    };
  }

  /** A run's sends, a row each (id: the send's), newest first. */
  private sendsOfRun(
    accountId: number,
    executionId: number,
    before: number,
    limit: number,
  ): { entries: LedgerRow[]; next_before_id: number | null } {
    const run = this.runs?.run(executionId);
    if (!run || run.account_id !== accountId) return { entries: [], next_before_id: null };
    const found = this.runs!.sendsOf(executionId, before, limit + 1);
    const entries = found.slice(0, limit).flatMap((sendId): LedgerRow[] => {
      const send = this.messages.send(sendId);
      if (!send) return [];
      const { amount_rials, group } = this.sendGroup(sendId, send.total_rials);
      return [
        {
          id: sendId,
          account_id: accountId,
          amount_rials,
          kind: 'send',
          send_id: sendId,
          message_id: null,
          note: '',
          created_at: send.created_at,
          group,
        },
      ];
    });
    return { entries, next_before_id: found.length > limit ? found[limit - 1]! : null };
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
    const entries = found.slice(0, limit).map((entry) => ({ ...entry, group: null }));
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
