// The message lifecycle (PRODUCT.md "Message lifecycle"; the moves themselves are data in
// shared/lifecycle.ts): what is due when, the guarded moves, refunds exactly once, and the pushes
// to the UI. Who delivers is a Carrier (carriers/): the lifecycle hands due queued messages over
// and applies the outcomes the carrier reports later.
//
// Every move is guarded by the status it moves from, in one transaction per batch: a crash between
// batches loses nothing, and a restart never moves a message twice. Due times live in message_due
// as ranges of consecutive ids (due-ranges.ts).
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { Credit } from '../accounts/credit';
import type { Settings } from '../settings/settings';
import { LIFECYCLE, MessageStatus, moveOf } from '../../../shared/lifecycle';
import { DueRanges, DueRuns } from './due-ranges';
import type { MessageCounts } from './counts';
import type { MessageStates } from './message-states';
import type { Carrier, CarrierReports, Charge, Handover, Outcome } from './carriers/carrier';
import type { StatusChange } from './status-change';

export type { StatusChange };

interface MessageRow {
  id: number;
  account_id: number;
  receptor: string;
  status: MessageStatus;
  cost_rials: number;
  /** What the message is counted by (counts.ts). */
  created_at: number;
  send_id: number;
  sender: string;
  origin: string;
}

/** ROW's columns as an array: better-sqlite3 builds an object a row at half the speed (bench handover100k). */
type StoredRow = [number, number, string, MessageStatus, number, number, number];
/** StoredRow with its send's sender and origin. */
type ReportRow = [...StoredRow, string, string];

// A message's send (its line and origin) is read once per send a batch touches, not joined to each
// of its messages: a batch is mostly one send's.
const ROW = 'SELECT m.id, m.account_id, m.receptor, m.status, m.cost_rials, m.created_at, m.send_id FROM messages m';

// Messages moved per step (one transaction), all from one due range. Kept small so a step is a few
// milliseconds: the scheduler yields between steps, and IPC/HTTP calls wait at most one step
// (test/responsiveness).
export const BATCH = 500;

export class Lifecycle implements CarrierReports {
  readonly carrier: Carrier;
  private readonly due: DueRanges;
  private readonly rangeStmt;
  private readonly byIdStmt;
  private readonly byIdsStmt;
  private readonly sendStmt;
  private readonly moveStmt;
  private readonly handStmt;
  private readonly handRangeStmt;
  private readonly finishStmt;
  private readonly costStmt;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly credit: Credit,
    private readonly settings: Settings,
    /** The aggregates every move updates in its own transaction. */
    private readonly counts: MessageCounts,
    /** Each message's status for lookups by id, written with the aggregates. */
    private readonly states: MessageStates,
    /** Whether a receiver is on the account's opt-out list (the contacts domain's). */
    private readonly isOptedOut: (accountId: number, phone: string) => boolean,
    /** Told after each committed batch of moves (pushes to the UI). */
    private readonly onChanges: (changes: StatusChange[]) => void,
    /** Who delivers, built with the lifecycle as the reports it makes (index.ts gives it the rest). */
    carrier: (reports: CarrierReports) => Carrier,
  ) {
    this.due = new DueRanges(db, 'message_due');
    this.rangeStmt = db
      .prepare<[number, number, number], StoredRow>(`${ROW} WHERE m.id BETWEEN ? AND ? ORDER BY m.id LIMIT ?`)
      .raw(true);
    this.byIdStmt = db.prepare<[number], StoredRow>(`${ROW} WHERE m.id = ?`).raw(true);
    // A report's messages with their sends', in one statement: a batch of one-message sends would
    // otherwise read two rows per message.
    this.byIdsStmt = db
      .prepare<[string], ReportRow>(
        `SELECT m.id, m.account_id, m.receptor, m.status, m.cost_rials, m.created_at, m.send_id, s.sender, s.origin
         FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.id IN (SELECT value FROM json_each(?))`,
      )
      .raw(true);
    this.sendStmt = db.prepare<[number], { sender: string; origin: string }>(
      'SELECT sender, origin FROM sends WHERE id = ?',
    );
    this.moveStmt = db.prepare('UPDATE messages SET status = ? WHERE id = ? AND status = ?');
    this.handStmt = db.prepare('UPDATE messages SET status = ?, handed_at = ? WHERE id = ? AND status = ?');
    this.handRangeStmt = db.prepare(
      'UPDATE messages SET status = ?, handed_at = ? WHERE id BETWEEN ? AND ? AND status = ?',
    );
    this.finishStmt = db.prepare('UPDATE messages SET status = ?, final_at = ? WHERE id = ? AND status = ?');
    this.costStmt = db.prepare('UPDATE messages SET cost_rials = ? WHERE id = ?');
    this.carrier = carrier(this);
  }

  /** When the next message is due (ms), or null when none waits. */
  nextDueAt(): number | null {
    return this.due.nextDueAt();
  }

  /** Marks messages firstId..lastId as due at `dueAt` (ms) for their next move. Inside the caller's transaction. */
  schedule(dueAt: number, firstId: number, lastId: number): void {
    this.due.add(dueAt, firstId, lastId);
  }

  /**
   * Moves one batch of due messages, up to BATCH ids of the earliest due ranges: scheduled
   * ones are released into the queue, queued ones handed to the carrier (or blocked before it when
   * opted out). Returns the changes made, and null when nothing was due.
   */
  step(): StatusChange[] | null {
    const now = this.clock.now();
    const handoffMs = this.settings.simulator().handoff_ms;
    const changes = this.moves(() => {
      const ranges = this.due.takeDue(
        now,
        BATCH,
        (first, last, limit) => this.rangeStmt.all(first, last, limit),
        (row) => row[0],
      );
      if (ranges === null) return null;
      const changes: StatusChange[] = [];
      const handovers: Handover[] = [];
      for (const read of ranges) this.stepRange(this.withSends(read), now, handoffMs, changes, handovers);
      // In the order of the messages, as they are told (the hand-overs were moved together).
      changes.sort((x, y) => x.id - y.id);
      if (handovers.length > 0) this.carrier.accept(handovers, now);
      return changes;
    });
    if (changes !== null && changes.length > 0) this.onChanges(changes);
    return changes;
  }

  /**
   * One due range's messages of a step: released, blocked or handed over. Its own released runs:
   * a run may pass over ids between its messages, which in one range are the same send's, but
   * between two ranges may be another send's, due at another time.
   */
  private stepRange(
    rows: MessageRow[],
    now: number,
    handoffMs: number,
    changes: StatusChange[],
    handovers: Handover[],
  ): void {
    const handed: MessageRow[] = [];
    const released = new DueRuns(this.due);
    for (const row of rows) {
      if (row.status === MessageStatus.Scheduled) {
        if (this.apply(row, MessageStatus.Queued, now)) {
          changes.push({ id: row.id, account_id: row.account_id, status: MessageStatus.Queued });
          released.push(row.id, now + handoffMs);
        }
      } else if (row.status === MessageStatus.Queued) {
        // An opted-out receiver is blocked before the carrier: never sent, so refunded.
        if (!this.isOptedOut(row.account_id, row.receptor)) handed.push(row);
        else if (this.apply(row, MessageStatus.Blocked, now))
          changes.push({ id: row.id, account_id: row.account_id, status: MessageStatus.Blocked });
      }
      // Anything else has moved on since it was scheduled: the carrier reports it.
    }
    for (const row of this.handOver(rows, handed, now)) {
      changes.push({ id: row.id, account_id: row.account_id, status: MessageStatus.HandedToCarrier });
      handovers.push({ id: row.id, account_id: row.account_id, receptor: row.receptor, sender: row.sender });
    }
    released.flush();
  }

  /**
   * Takes the due times of messages firstId..lastId (ranges that lie inside it, as a send's do)
   * off the lifecycle: its scheduled messages wait in 2 until schedule() gives them a time again
   * (a paused campaign). Inside the caller's transaction.
   */
  withdraw(firstId: number, lastId: number): void {
    this.due.withdraw(firstId, lastId);
  }

  /**
   * Cancels up to `limit` messages of firstId..lastId from `fromId` on that were not handed to the
   * carrier yet (1 or 2): each ends 13, its cost refunded exactly once. One transaction; returns
   * the id to continue from (null when the range is done) so a large cancel yields between batches.
   */
  cancelRange(fromId: number, lastId: number, limit = BATCH * 10): { changes: StatusChange[]; next: number | null } {
    const now = this.clock.now();
    const result = this.moves(() => {
      const read = this.rangeStmt.all(fromId, lastId, limit);
      const changes: StatusChange[] = [];
      for (const row of this.withSends(read))
        if (
          (row.status === MessageStatus.Queued || row.status === MessageStatus.Scheduled) &&
          this.apply(row, MessageStatus.Cancelled, now)
        )
          changes.push({ id: row.id, account_id: row.account_id, status: MessageStatus.Cancelled });
      const next = read.length < limit ? null : read[read.length - 1]![0] + 1;
      return { changes, next };
    });
    if (result.changes.length > 0) this.onChanges(result.changes);
    return result;
  }

  /**
   * Cancels the account's messages among `ids` that were not handed to the carrier yet (1 or 2):
   * each ends 13, its cost refunded exactly once. Ids of other accounts, unknown ids and messages
   * that moved on are left as they are. One transaction (callers pass at most a few hundred ids).
   */
  cancel(accountId: number, ids: readonly number[]): StatusChange[] {
    const now = this.clock.now();
    const changes = this.moves(() => {
      const changes: StatusChange[] = [];
      for (const id of new Set(ids)) {
        const row = this.byId(id);
        if (
          row &&
          row.account_id === accountId &&
          (row.status === MessageStatus.Queued || row.status === MessageStatus.Scheduled) &&
          this.apply(row, MessageStatus.Cancelled, now)
        )
          changes.push({ id: row.id, account_id: row.account_id, status: MessageStatus.Cancelled });
      }
      return changes;
    });
    if (changes.length > 0) this.onChanges(changes);
    return changes;
  }

  /** The carrier's reports: each a guarded move, applied only when the lifecycle allows it from where the message is. */
  report(outcomes: readonly Outcome[]): StatusChange[] {
    const now = this.clock.now();
    const changes = this.moves(() => {
      const changes: StatusChange[] = [];
      const rows = this.byIds(outcomes.map((outcome) => outcome.id));
      for (const outcome of outcomes) {
        const row = rows.get(outcome.id);
        if (row && this.apply(row, outcome.status, now, outcome.refund === true))
          changes.push({ id: row.id, account_id: row.account_id, status: outcome.status });
      }
      return changes;
    });
    if (changes.length > 0) this.onChanges(changes);
    return changes;
  }

  charged(charges: readonly Charge[]): void {
    if (charges.length === 0) return;
    this.moves(() => {
      // Per account, what goes back (our price above the provider's) or is taken (below): one ledger row a call.
      const back = new Map<number, { rials: number; n: number }>();
      for (const charge of charges) {
        const row = this.byId(charge.id);
        if (!row || LIFECYCLE[row.status].final || row.cost_rials === charge.cost_rials) continue;
        this.costStmt.run(charge.cost_rials, row.id);
        this.counts.recosted(row, charge.cost_rials - row.cost_rials);
        const entry = back.get(row.account_id) ?? { rials: 0, n: 0 };
        entry.rials += row.cost_rials - charge.cost_rials;
        entry.n += 1;
        back.set(row.account_id, entry);
      }
      for (const [accountId, { rials, n }] of back)
        if (rials !== 0) this.credit.providerCost(accountId, rials, `provider's cost of ${n} message(s)`);
    });
  }

  /** These messages with their sends' line and origin (a message whose send is gone is left out). */
  private withSends(rows: readonly StoredRow[]): MessageRow[] {
    const sends = new Map<number, { sender: string; origin: string } | undefined>();
    const found: MessageRow[] = [];
    for (const row of rows) {
      const sendId = row[6];
      if (!sends.has(sendId)) sends.set(sendId, this.sendStmt.get(sendId));
      const send = sends.get(sendId);
      if (send) found.push(messageRow(row, send));
    }
    return found;
  }

  /** These messages with their sends' line and origin, by id (one whose send is gone is left out). */
  private byIds(ids: readonly number[]): Map<number, MessageRow> {
    const rows = new Map<number, MessageRow>();
    for (const row of this.byIdsStmt.all(JSON.stringify(ids)))
      rows.set(row[0], messageRow(row, { sender: row[7], origin: row[8] }));
    return rows;
  }

  private byId(id: number): MessageRow | undefined {
    const row = this.byIdStmt.get(id);
    const send = row && this.sendStmt.get(row[6]);
    return row && send ? messageRow(row, send) : undefined;
  }

  /** One transaction of moves, the aggregates and states they change written at its end. */
  private moves<T>(work: () => T): T {
    return this.db.transaction(() => this.states.batch(() => this.counts.batch(work)))();
  }

  /**
   * Hands the batch's queued messages (those not blocked) to the carrier with one statement over
   * the batch's ids: every message of that range still queued is one of them, as the batch read it
   * in this transaction. Returns the messages moved.
   */
  private handOver(rows: readonly MessageRow[], handed: MessageRow[], now: number): MessageRow[] {
    if (handed.length === 0) return handed;
    const to = MessageStatus.HandedToCarrier;
    // Messages just released are queued now too (they are due later): then one by one, as apply() would.
    const queued = rows.reduce((n, row) => n + (row.status === MessageStatus.Queued ? 1 : 0), 0);
    if (queued !== handed.length || moveOf(MessageStatus.Queued, to)?.refund !== false)
      return handed.filter((row) => this.apply(row, to, now));
    const changed = this.handRangeStmt.run(
      to,
      now,
      rows[0]!.id,
      rows[rows.length - 1]!.id,
      MessageStatus.Queued,
    ).changes;
    // Read in this transaction, so none can have moved meanwhile: anything else is a fault, undone.
    if (changed !== handed.length) throw new Error(`handed ${changed} messages where ${handed.length} were queued`);
    for (const row of handed) {
      this.counts.moved(row, row.cost_rials, to, 0);
      this.states.moved(row.id, row.account_id, to);
      row.status = to;
    }
    return handed;
  }

  /** One guarded move with its refund; false when the lifecycle forbids it or the message moved meanwhile. */
  private apply(row: MessageRow, to: MessageStatus, now: number, refundAnyway = false): boolean {
    const move = moveOf(row.status, to);
    if (move === null) return false;
    const stmt = to === MessageStatus.HandedToCarrier ? this.handStmt : LIFECYCLE[to].final ? this.finishStmt : null;
    const changed = stmt
      ? stmt.run(to, now, row.id, row.status).changes
      : this.moveStmt.run(to, row.id, row.status).changes;
    if (changed === 0) return false;
    const refunded = (move.refund || refundAnyway) && this.credit.refundMessage(row.account_id, row.id, row.cost_rials);
    this.counts.moved(row, row.cost_rials, to, refunded ? row.cost_rials : 0);
    this.states.moved(row.id, row.account_id, to);
    row.status = to;
    return true;
  }
}

function messageRow(
  [id, account_id, receptor, status, cost_rials, created_at, send_id]: StoredRow | ReportRow,
  send: { sender: string; origin: string },
): MessageRow {
  return {
    id,
    account_id,
    receptor,
    status,
    cost_rials,
    created_at,
    send_id,
    sender: send.sender,
    origin: send.origin,
  };
}
