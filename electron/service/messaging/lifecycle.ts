// The message lifecycle (PRODUCT.md "Message lifecycle"; the moves themselves are data in
// shared/lifecycle.ts): what is due when, the guarded moves, refunds exactly once, and the pushes
// to the UI. Who delivers is a Carrier (carriers/): the lifecycle hands due queued messages over
// and applies the outcomes the carrier reports later.
//
// Every move is guarded by the status it moves from, in one transaction per batch: a crash between
// batches loses nothing, and a restart never moves a message twice. Due times live in message_due
// as ranges of consecutive ids (due-ranges.ts).
import type { Db } from '../db/database';
import type { Statement } from 'better-sqlite3';
import type { Clock } from '../clock';
import type { Credit } from '../accounts/credit';
import type { Settings } from '../settings/settings';
import { LIFECYCLE, MessageStatus, moveOf } from '../../../shared/lifecycle';
import { DueRanges, DueRuns, RANGE_MESSAGES, type DueRangesJson } from './due-ranges';
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
/** StoredRow with its send's sender and origin (null when the send is gone) and its due range's index. */
type DueRow = [...StoredRow, string | null, string | null, number];

// A cancel reads a message's send (its line and origin) once per send it touches, not joined to each
// of its messages: a cancel is mostly one send's. A step and a report join it: they gather many
// sends, often of one message each.
const ROW = 'SELECT m.id, m.account_id, m.receptor, m.status, m.cost_rials, m.created_at, m.send_id FROM messages m';

// Messages moved per step (one transaction), from the earliest due ranges. Kept small so a step is a few
// milliseconds: the scheduler yields between steps, and IPC/HTTP calls wait at most one step
// (test/responsiveness).
export const BATCH = 500;

export class Lifecycle implements CarrierReports {
  readonly carrier: Carrier;
  private readonly due: DueRanges;
  private readonly rangeStmt;
  private readonly dueRowsStmt;
  private readonly byIdStmt;
  private readonly byIdsStmt;
  private readonly sendStmt;
  private readonly moveOneStmts;
  private readonly moveManyStmts;
  private readonly moveRunStmts;
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
    // A step's ranges, the messages with their sends', in one statement: a step over many
    // one-message sends would otherwise make two reads per send.
    this.dueRowsStmt = db
      .prepare<[DueRangesJson, number], DueRow>(
        `SELECT m.id, m.account_id, m.receptor, m.status, m.cost_rials, m.created_at, m.send_id, s.sender, s.origin, r.key
         FROM ${RANGE_MESSAGES} LEFT JOIN sends s ON s.id = m.send_id LIMIT ?`,
      )
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
    // Each move guarded by the status it moves from: of one message, or of many by a JSON list of ids.
    const moveStmts = (ids: string) => ({
      handed: db.prepare(`UPDATE messages SET status = ?, handed_at = ? WHERE ${ids} AND status = ?`),
      final: db.prepare(`UPDATE messages SET status = ?, final_at = ? WHERE ${ids} AND status = ?`),
      other: db.prepare(`UPDATE messages SET status = ? WHERE ${ids} AND status = ?`),
    });
    this.moveOneStmts = moveStmts('id = ?');
    this.moveManyStmts = moveStmts('id IN (SELECT value FROM json_each(?))');
    // Consecutive ids (a bulk send's step): a range of the primary key, no list to build and read.
    this.moveRunStmts = moveStmts('id BETWEEN ? AND ?');
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
        (json, limit) => this.dueRowsStmt.all(json, limit),
        (row) => row[0],
        (row) => row[9],
      );
      if (ranges === null) return null;
      const changes: StatusChange[] = [];
      const handed: MessageRow[] = [];
      for (const rows of ranges) this.stepRange(withDueSends(rows), now, handoffMs, changes, handed);
      const handovers: Handover[] = [];
      for (const row of this.handOver(handed, now)) {
        changes.push({ id: row.id, account_id: row.account_id, status: MessageStatus.HandedToCarrier });
        handovers.push({ id: row.id, account_id: row.account_id, receptor: row.receptor, sender: row.sender });
      }
      // In the order of the messages, as they are told (the hand-overs were moved together).
      changes.sort((x, y) => x.id - y.id);
      if (handovers.length > 0) this.carrier.accept(handovers, now);
      return changes;
    });
    if (changes !== null && changes.length > 0) this.onChanges(changes);
    return changes;
  }

  /**
   * One due range's messages of a step: released or blocked, and those to hand over added to
   * `handed` (the step hands them over together). Its own released runs: a run may pass over ids
   * between its messages, which in one range are the same send's, but between two ranges may be
   * another send's, due at another time.
   */
  private stepRange(
    rows: MessageRow[],
    now: number,
    handoffMs: number,
    changes: StatusChange[],
    handed: MessageRow[],
  ): void {
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
      const ids = outcomes.map((outcome) => outcome.id);
      const rows = this.byIds(ids);
      // Moves that refund nothing, gathered per (from, to) and made together below. An id reported
      // twice moves one by one: its second move reads where the first left it.
      const together = new Set(ids).size === ids.length ? new MovesByKind() : null;
      for (const outcome of outcomes) {
        const row = rows.get(outcome.id);
        if (!row) continue;
        const to = outcome.status;
        const move = moveOf(row.status, to);
        if (together !== null && move !== null && !move.refund && outcome.refund !== true) together.add(row, to);
        else if (!this.apply(row, to, now, outcome.refund === true)) continue;
        changes.push({ id: row.id, account_id: row.account_id, status: to });
      }
      for (const { from, to, rows } of together?.kinds() ?? []) this.moveAll(rows, from, to, now);
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
   * Hands the step's queued messages (those not blocked) to the carrier with one statement over
   * their ids: the step read each of them queued in this transaction. Returns the messages moved.
   */
  private handOver(handed: MessageRow[], now: number): MessageRow[] {
    const to = MessageStatus.HandedToCarrier;
    // A hand-over that refunded would need apply()'s ledger row per message.
    if (moveOf(MessageStatus.Queued, to)?.refund !== false) return handed.filter((row) => this.apply(row, to, now));
    this.moveAll(handed, MessageStatus.Queued, to, now);
    return handed;
  }

  /**
   * Moves `rows`, all at `from` as read in this transaction, to `to` with one guarded statement:
   * a move of the table that refunds nothing. Every one moves: none can have moved meanwhile, so
   * anything else is a fault, and the transaction is undone.
   */
  private moveAll(rows: readonly MessageRow[], from: MessageStatus, to: MessageStatus, now: number): void {
    if (rows.length === 0) return;
    const first = rows[0]!.id;
    const last = rows[rows.length - 1]!.id;
    // Every id of first..last is one of `rows` (in id order, none twice) when there are as many.
    const run = last - first + 1 === rows.length && rows.every((row, i) => row.id === first + i);
    const changed = run
      ? moveStmt(this.moveRunStmts, to).run(...moveParams(to, now, [first, last], from)).changes
      : moveStmt(this.moveManyStmts, to).run(...moveParams(to, now, [JSON.stringify(rows.map((row) => row.id))], from))
          .changes;
    if (changed !== rows.length)
      throw new Error(`moved ${changed} messages to ${to} where ${rows.length} were ${from}`);
    for (const row of rows) {
      this.counts.moved(row, row.cost_rials, to, 0);
      this.states.moved(row.id, row.account_id, to);
      row.status = to;
    }
  }

  /** One guarded move with its refund; false when the lifecycle forbids it or the message moved meanwhile. */
  private apply(row: MessageRow, to: MessageStatus, now: number, refundAnyway = false): boolean {
    const move = moveOf(row.status, to);
    if (move === null) return false;
    const changed = moveStmt(this.moveOneStmts, to).run(...moveParams(to, now, [row.id], row.status)).changes;
    if (changed === 0) return false;
    const refunded = (move.refund || refundAnyway) && this.credit.refundMessage(row.account_id, row.id, row.cost_rials);
    this.counts.moved(row, row.cost_rials, to, refunded ? row.cost_rials : 0);
    this.states.moved(row.id, row.account_id, to);
    row.status = to;
    return true;
  }
}

/** Messages moving from one status to another, made with one statement. */
interface MovesOfKind {
  from: MessageStatus;
  to: MessageStatus;
  rows: MessageRow[];
}

/** Moves gathered by their kind, (from, to), in the order each kind first came. */
class MovesByKind {
  private readonly byKind = new Map<string, MovesOfKind>();

  add(row: MessageRow, to: MessageStatus): void {
    const key = `${row.status}>${to}`;
    const kind = this.byKind.get(key);
    if (kind) kind.rows.push(row);
    else this.byKind.set(key, { from: row.status, to, rows: [row] });
  }

  kinds(): Iterable<MovesOfKind> {
    return this.byKind.values();
  }
}

interface MoveStmts {
  handed: Statement;
  final: Statement;
  other: Statement;
}

/** The statement of a move to `to`: a hand-over records when, and so does an end. */
function moveStmt(stmts: MoveStmts, to: MessageStatus): Statement {
  return to === MessageStatus.HandedToCarrier ? stmts.handed : LIFECYCLE[to].final ? stmts.final : stmts.other;
}

/** The parameters of moveStmt(…, to): the time only where it is recorded. */
function moveParams(to: MessageStatus, now: number, ids: readonly unknown[], from: MessageStatus): unknown[] {
  const timed = to === MessageStatus.HandedToCarrier || LIFECYCLE[to].final;
  return timed ? [to, now, ...ids, from] : [to, ...ids, from];
}

/** A step's rows as messages (one whose send is gone is left out). */
function withDueSends(rows: readonly DueRow[]): MessageRow[] {
  const found: MessageRow[] = [];
  for (const row of rows)
    if (row[7] !== null && row[8] !== null) found.push(messageRow(row, { sender: row[7], origin: row[8] }));
  return found;
}

function messageRow(
  [id, account_id, receptor, status, cost_rials, created_at, send_id]: StoredRow | ReportRow | DueRow,
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
