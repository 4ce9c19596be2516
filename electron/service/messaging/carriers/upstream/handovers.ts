// Where each message handed to a provider stands there (migration 0027, `upstream_handovers`), and
// per line why it is paused and how far its inbox was read (`upstream_lines`, `upstream_inbound`).
// The state machine's every step is one statement here, run inside the carrier's transactions:
// a message is marked `handing_over` (committed) before its call starts, and the call's answer
// (the provider's id and cost, or its refusal) is stored in the same transaction as the reports it
// makes. See shared/gateways.ts HANDOVER_STATES for what each state means.
//
// A message first handed over writes no row of its own until its call is answered (migration
// 0030): it waits in a run of consecutive ids (`upstream_waiting`), goes into a call recorded as
// one row (`upstream_calls`, the `handing_over` of all its messages), and the answer writes its row
// once, accepted or otherwise. A message sent again (a retry, the user's resend, a reconciled one)
// has its row already, and moves through the same states as that row.
import type { Db } from '../../../db/database';
import type { HandoverState, LinePause } from '../../../../../shared/gateways';

export interface HandoverRow {
  message_id: number;
  local_id: number;
  line_id: number;
  account_id: number;
  state: HandoverState;
  due_at: number | null;
  attempts: number;
  upstream_id: string | null;
  cost_rials: number | null;
  cost_reads_left: number;
  code: number | null;
  detail: string | null;
  handed_at: number;
  accepted_at: number | null;
  poll_ms: number | null;
  updated_at: number;
}

/** A message of a call: [message id, local id, account id, handed at (ms)]. */
export type CallMember = readonly [number, number, number, number];

/** A message waiting in a run of ids: first handed over, no row of its own yet. */
export interface FreshMessage {
  id: number;
  account_id: number;
  handed_at: number;
}

/** The rows one statement writes of an answer (the largest that fit first; the last size is 1). */
const ACCEPT_ROWS = [200, 20, 1] as const;

export class Handovers {
  private readonly dueStmt;
  private readonly nextDueStmt;
  private readonly acceptStmt;
  private readonly pollStmt;
  private readonly byIdStmt;
  private readonly countsStmt;
  private readonly costStmt;
  private readonly listStmt;
  private readonly orphanStmt;
  private readonly forgetStmt;
  private readonly earlyForgetStmt;
  private readonly lineStmt;
  private readonly pauseStmt;
  private readonly inboxStmt;
  private readonly batchStmt;
  private readonly seenStmt;
  private readonly inFlightStmt;
  private readonly fileStmt;
  private readonly lastLocalStmt;
  private readonly setLastLocalStmt;
  private readonly moveAllStmt;
  private readonly acceptAllStmts;
  private readonly costStmt2;
  private readonly costReadsStmt;
  private readonly membersStmt;
  private readonly setFileStmt;
  private readonly waitAddStmt;
  private readonly waitPeekStmt;
  private readonly waitDropStmt;
  private readonly waitShrinkStmt;
  private readonly waitCountStmt;
  private readonly waitFirstStmt;
  private readonly recoverRowsStmt;
  private readonly waitForgetStmt;
  private readonly callAddStmt;
  private readonly callEndStmt;
  private readonly callCountStmt;
  private readonly materializeStmt;
  private readonly recoverCallsStmt;
  private readonly dropCallsStmt;

  private readonly earlyKeepStmt;
  private readonly earlyTakeStmt;
  private readonly earlyDropStmt;

  constructor(db: Db) {
    this.earlyKeepStmt = db.prepare(
      `INSERT INTO upstream_early_reports (message_id, line_id, local_id, status, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (message_id) DO UPDATE SET status = COALESCE(excluded.status, status), at = excluded.at`,
    );
    this.earlyTakeStmt = db.prepare<[string], { message_id: number; local_id: number; status: number | null }>(
      `SELECT message_id, local_id, status FROM upstream_early_reports
       WHERE message_id IN (SELECT value FROM json_each(?))`,
    );
    this.earlyDropStmt = db.prepare(
      'DELETE FROM upstream_early_reports WHERE message_id IN (SELECT value FROM json_each(?))',
    );
    this.waitAddStmt = db.prepare(
      `INSERT OR IGNORE INTO upstream_waiting (line_id, first_id, last_id, account_id, handed_at) VALUES (?, ?, ?, ?, ?)`,
    );
    this.waitPeekStmt = db.prepare<
      [number],
      { first_id: number; last_id: number; account_id: number; handed_at: number }
    >('SELECT first_id, last_id, account_id, handed_at FROM upstream_waiting WHERE line_id = ? ORDER BY first_id');
    this.waitDropStmt = db.prepare('DELETE FROM upstream_waiting WHERE line_id = ? AND last_id <= ?');
    this.waitShrinkStmt = db.prepare(
      'UPDATE upstream_waiting SET first_id = ? + 1 WHERE line_id = ? AND first_id <= ? AND last_id > ?',
    );
    this.waitCountStmt = db
      .prepare<[number], number>(
        'SELECT COALESCE(SUM(last_id - first_id + 1), 0) FROM upstream_waiting WHERE line_id = ?',
      )
      .pluck();
    // Every run is due from its hand-over, so the first run tells whether any is (a seek, asked each
    // scheduler round, where a sum or a minimum would read every run).
    this.waitFirstStmt = db
      .prepare<[number], number>('SELECT handed_at FROM upstream_waiting WHERE line_id = ? ORDER BY first_id LIMIT 1')
      .pluck();
    this.waitForgetStmt = db.prepare('DELETE FROM upstream_waiting WHERE first_id >= ? AND last_id <= ?');
    this.callAddStmt = db.prepare('INSERT INTO upstream_calls (line_id, started_at, messages) VALUES (?, ?, ?)');
    this.callEndStmt = db.prepare('DELETE FROM upstream_calls WHERE call_id = ?');
    this.callCountStmt = db
      .prepare<[number], number>(
        'SELECT COALESCE(SUM(json_array_length(messages)), 0) FROM upstream_calls WHERE line_id = ?',
      )
      .pluck();
    this.materializeStmt = db.prepare(
      `INSERT OR IGNORE INTO upstream_handovers
         (message_id, local_id, line_id, account_id, state, due_at, attempts, detail, handed_at, updated_at)
       SELECT value ->> 0, value ->> 1, @line_id, value ->> 2, @state, @due_at, 1, @detail, value ->> 3, @now
       FROM json_each(@members)`,
    );
    this.recoverCallsStmt = db.prepare(
      `INSERT OR IGNORE INTO upstream_handovers
         (message_id, local_id, line_id, account_id, state, due_at, attempts, detail, handed_at, updated_at)
       SELECT j.value ->> 0, j.value ->> 1, c.line_id, j.value ->> 2, 'unknown', @now, 1,
         'the app stopped during the call', j.value ->> 3, @now
       FROM upstream_calls c, json_each(c.messages) j`,
    );
    this.dropCallsStmt = db.prepare('DELETE FROM upstream_calls');
    this.recoverRowsStmt = db.prepare(
      `UPDATE upstream_handovers SET state = 'unknown', due_at = ?, detail = 'the app stopped during the call'
       WHERE state = 'handing_over'`,
    );
    this.dueStmt = db
      .prepare<[number, HandoverState, number, number], number>(
        `SELECT message_id FROM upstream_handovers WHERE line_id = ? AND state = ? AND due_at <= ?
         ORDER BY due_at, message_id LIMIT ?`,
      )
      .pluck();
    this.nextDueStmt = db
      .prepare<[number, HandoverState], number | null>(
        'SELECT MIN(due_at) FROM upstream_handovers WHERE line_id = ? AND state = ? AND due_at IS NOT NULL',
      )
      .pluck();
    this.acceptStmt = db.prepare(
      `UPDATE upstream_handovers SET state = 'accepted', upstream_id = @upstream_id,
         cost_rials = COALESCE(@cost_rials, cost_rials), cost_reads_left = @cost_reads_left, accepted_at = @now,
         due_at = @due_at, poll_ms = @poll_ms,
         code = NULL, detail = NULL, updated_at = @now
       WHERE message_id = @id`,
    );
    this.moveAllStmt = db.prepare(
      `UPDATE upstream_handovers SET state = @state, due_at = @due_at, code = @code, detail = @detail,
         attempts = attempts + @attempt, updated_at = @now
       WHERE message_id IN (SELECT value FROM json_each(@ids))`,
    );
    // An answered message: its row written once when first handed over, moved on when sent again.
    // Many rows a statement (ACCEPT_ROWS sizes): at 200 a call, one crossing into SQLite instead of
    // 200 (one statement unpacking them from JSON measured slower than either).
    this.acceptAllStmts = new Map(
      ACCEPT_ROWS.map((rows) => [
        rows,
        db.prepare(
          `INSERT INTO upstream_handovers
             (message_id, upstream_id, cost_rials, local_id, account_id, handed_at, line_id, state, due_at, attempts,
              accepted_at, poll_ms, updated_at)
           VALUES ${Array.from({ length: rows }, () => "(?, ?, ?, ?, ?, ?, @line_id, 'accepted', @due_at, 1, @now, @poll_ms, @now)").join(', ')}
           ON CONFLICT (message_id) DO UPDATE SET state = 'accepted', upstream_id = excluded.upstream_id,
             cost_rials = COALESCE(excluded.cost_rials, upstream_handovers.cost_rials), cost_reads_left = 0,
             accepted_at = excluded.accepted_at, due_at = excluded.due_at, poll_ms = excluded.poll_ms,
             code = NULL, detail = NULL, updated_at = excluded.updated_at`,
        ),
      ]),
    );
    this.pollStmt = db.prepare(
      'UPDATE upstream_handovers SET due_at = ?, poll_ms = ?, updated_at = ? WHERE message_id = ?',
    );
    this.byIdStmt = db.prepare<[number], HandoverRow>('SELECT * FROM upstream_handovers WHERE message_id = ?');
    this.countsStmt = db.prepare<[number], { state: HandoverState; n: number }>(
      'SELECT state, COUNT(*) AS n FROM upstream_handovers WHERE line_id = ? GROUP BY state',
    );
    this.costStmt = db
      .prepare<[number], number>('SELECT COALESCE(SUM(cost_rials), 0) FROM upstream_handovers WHERE line_id = ?')
      .pluck();
    this.listStmt = db.prepare<[number, HandoverState, number], HandoverRow>(
      'SELECT * FROM upstream_handovers WHERE line_id = ? AND state = ? ORDER BY message_id LIMIT ?',
    );
    this.orphanStmt = db.prepare('DELETE FROM upstream_handovers WHERE message_id = ?');
    this.forgetStmt = db.prepare('DELETE FROM upstream_handovers WHERE message_id BETWEEN ? AND ?');
    this.earlyForgetStmt = db.prepare('DELETE FROM upstream_early_reports WHERE message_id BETWEEN ? AND ?');
    this.lineStmt = db.prepare<
      [number],
      {
        paused_code: number | null;
        paused_text: string | null;
        paused_at: number | null;
        inbox_read_to: number | null;
        inbox_due_at: number | null;
        max_batch: number | null;
      }
    >('SELECT * FROM upstream_lines WHERE line_id = ?');
    this.pauseStmt = db.prepare(
      `INSERT INTO upstream_lines (line_id, paused_code, paused_text, paused_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(line_id) DO UPDATE SET paused_code = excluded.paused_code, paused_text = excluded.paused_text,
         paused_at = excluded.paused_at`,
    );
    this.inboxStmt = db.prepare(
      `INSERT INTO upstream_lines (line_id, inbox_read_to, inbox_due_at) VALUES (?, ?, ?)
       ON CONFLICT(line_id) DO UPDATE SET inbox_read_to = COALESCE(excluded.inbox_read_to, inbox_read_to),
         inbox_due_at = excluded.inbox_due_at`,
    );
    this.batchStmt = db.prepare(
      `INSERT INTO upstream_lines (line_id, max_batch) VALUES (?, ?)
       ON CONFLICT(line_id) DO UPDATE SET max_batch = excluded.max_batch`,
    );
    this.seenStmt = db.prepare('INSERT OR IGNORE INTO upstream_inbound (line_id, upstream_id) VALUES (?, ?)');
    this.inFlightStmt = db
      .prepare<[number], number>(
        `SELECT COUNT(*) FROM upstream_handovers WHERE line_id = ?
           AND state IN ('waiting', 'handing_over', 'unknown', 'review', 'accepted')`,
      )
      .pluck();
    this.costStmt2 = db.prepare(
      `UPDATE upstream_handovers SET cost_rials = COALESCE(?, cost_rials),
         cost_reads_left = CASE WHEN ? IS NULL THEN MAX(0, cost_reads_left - 1) ELSE 0 END
       WHERE message_id = ?`,
    );
    this.costReadsStmt = db.prepare(
      'UPDATE upstream_handovers SET cost_reads_left = ? WHERE message_id IN (SELECT value FROM json_each(?))',
    );
    this.membersStmt = db.prepare<
      [string],
      { message_id: number; local_id: number; account_id: number; handed_at: number }
    >(
      `SELECT message_id, local_id, account_id, handed_at FROM upstream_handovers
       WHERE message_id IN (SELECT value FROM json_each(?))`,
    );
    this.lastLocalStmt = db.prepare<[], number>('SELECT last_local_id FROM upstream_local_ids WHERE only = 1').pluck();
    this.setLastLocalStmt = db.prepare(
      `INSERT INTO upstream_local_ids (only, last_local_id) VALUES (1, ?)
       ON CONFLICT (only) DO UPDATE SET last_local_id = MAX(last_local_id, excluded.last_local_id)`,
    );
    this.fileStmt = db
      .prepare<[number, string], string>(
        'SELECT upstream_file_id FROM upstream_files WHERE line_id = ? AND file_id = ?',
      )
      .pluck();
    this.setFileStmt = db.prepare(
      'INSERT OR REPLACE INTO upstream_files (line_id, file_id, upstream_file_id) VALUES (?, ?, ?)',
    );
  }

  /** The provider's id of a messenger file this line uploaded, or undefined. */
  upstreamFile(lineId: number, fileId: string): string | undefined {
    return this.fileStmt.get(lineId, fileId);
  }

  setUpstreamFile(lineId: number, fileId: string, upstreamFileId: string): void {
    this.setFileStmt.run(lineId, fileId, upstreamFileId);
  }

  /**
   * Messages just handed to the carrier, each with its line: they wait as runs of consecutive ids
   * (one row a run, not one a message). Inside the lifecycle's transaction.
   */
  addWaiting(batch: readonly { id: number; account_id: number; line_id: number }[], now: number): void {
    let run: { line: number; account: number; first: number; last: number } | null = null;
    for (const m of batch) {
      if (run && run.line === m.line_id && run.account === m.account_id && run.last + 1 === m.id) run.last = m.id;
      else {
        if (run) this.waitAddStmt.run(run.line, run.first, run.last, run.account, now);
        run = { line: m.line_id, account: m.account_id, first: m.id, last: m.id };
      }
    }
    if (run) this.waitAddStmt.run(run.line, run.first, run.last, run.account, now);
  }

  /** The line's first `limit` messages waiting in runs, in the order they came (nothing is taken). */
  peekWaiting(lineId: number, limit: number): FreshMessage[] {
    const fresh: FreshMessage[] = [];
    if (limit <= 0) return fresh;
    for (const run of this.waitPeekStmt.iterate(lineId)) {
      for (let id = run.first_id; id <= run.last_id && fresh.length < limit; id++)
        fresh.push({ id, account_id: run.account_id, handed_at: run.handed_at });
      if (fresh.length >= limit) break;
    }
    return fresh;
  }

  /** Takes the line's waiting runs up to message id `through` (what peekWaiting gave, in order). */
  takeWaiting(lineId: number, through: number): void {
    this.waitDropStmt.run(lineId, through);
    this.waitShrinkStmt.run(through, lineId, through, through);
  }

  /** When a message of the line waiting (in a run or as a row) is due (a past time: now), or null. */
  nextWaiting(lineId: number): number | null {
    const runs = this.waitFirstStmt.get(lineId) ?? null;
    const rows = this.nextDue(lineId, 'waiting');
    return runs === null ? rows : rows === null ? runs : Math.min(runs, rows);
  }

  /** Records a call about to start (its messages handing over); returns its id. */
  startCall(lineId: number, now: number, members: readonly CallMember[]): number {
    return Number(this.callAddStmt.run(lineId, now, JSON.stringify(members)).lastInsertRowid);
  }

  /** The call was answered (its messages' rows written in the same transaction). */
  endCall(callId: number): void {
    this.callEndStmt.run(callId);
  }

  /**
   * Rows for messages of a call that have none yet, in `state` (those sent again keep theirs), so
   * the state machine's moves apply to them as to any.
   */
  materialize(
    lineId: number,
    members: readonly CallMember[],
    state: HandoverState,
    dueAt: number | null,
    now: number,
    detail: string | null = null,
  ): void {
    if (members.length === 0) return;
    this.materializeStmt.run({ line_id: lineId, members: JSON.stringify(members), state, due_at: dueAt, detail, now });
  }

  /**
   * Calls a crash, a kill or a restore caught in flight: their messages may have reached the
   * provider, so each is unknown (found again before anything is sent again), those first handed
   * over with the rows written now, those sent again with theirs.
   */
  recoverCalls(now: number): void {
    this.recoverCallsStmt.run({ now });
    this.dropCallsStmt.run();
    this.recoverRowsStmt.run(now);
  }

  /** Local id, account and hand-over time of those of these messages that have rows. */
  members(messageIds: readonly number[]): Map<number, CallMember> {
    if (messageIds.length === 0) return new Map();
    return new Map(
      this.membersStmt
        .all(JSON.stringify(messageIds))
        .map((row) => [row.message_id, [row.message_id, row.local_id, row.account_id, row.handed_at] as const]),
    );
  }

  /** The highest local id given so far (0 for none). */
  lastLocalId(): number {
    return this.lastLocalStmt.get() ?? 0;
  }

  /** Local ids up to `localId` were given: kept before the call that carries them starts. */
  setLastLocalId(localId: number): void {
    this.setLastLocalStmt.run(localId);
  }

  /** The line's messages in `state` due by `now`, earliest first. */
  due(lineId: number, state: HandoverState, now: number, limit: number): number[] {
    return this.dueStmt.all(lineId, state, now, limit);
  }

  nextDue(lineId: number, state: HandoverState): number | null {
    return this.nextDueStmt.get(lineId, state) ?? null;
  }

  get(messageId: number): HandoverRow | undefined {
    return this.byIdStmt.get(messageId);
  }

  /** Moves a message to `state`, due again at `dueAt` (null: nothing left to do), with the provider's code and words. */
  move(
    messageId: number,
    state: HandoverState,
    now: number,
    dueAt: number | null,
    why: { code?: number | null; detail?: string | null; attempt?: boolean } = {},
  ): void {
    this.moveAll([messageId], state, now, dueAt, why);
  }

  /** Moves these messages to `state` together (one statement), as move() does one. */
  moveAll(
    messageIds: readonly number[],
    state: HandoverState,
    now: number,
    dueAt: number | null,
    why: { code?: number | null; detail?: string | null; attempt?: boolean } = {},
  ): void {
    if (messageIds.length === 0) return;
    this.moveAllStmt.run({
      ids: JSON.stringify(messageIds),
      state,
      due_at: dueAt,
      code: why.code ?? null,
      detail: why.detail ?? null,
      attempt: why.attempt ? 1 : 0,
      now,
    });
  }

  /**
   * The provider took these: each [message id, its id there, its cost or null, local id, account
   * id, handed at], polled from `now + pollMs`.
   */
  acceptedAll(
    lineId: number,
    records: readonly (readonly [number, string, number | null, number, number, number])[],
    now: number,
    pollMs: number,
  ): void {
    const named = { line_id: lineId, due_at: now + pollMs, now, poll_ms: pollMs };
    let at = 0;
    for (const rows of ACCEPT_ROWS) {
      const stmt = this.acceptAllStmts.get(rows)!;
      for (; records.length - at >= rows; at += rows) stmt.run(...records.slice(at, at + rows).flat(), named);
    }
  }

  accepted(
    messageId: number,
    upstreamId: string,
    costRials: number | null,
    now: number,
    pollMs: number,
    costReadsLeft = 0,
  ): void {
    this.acceptStmt.run({
      id: messageId,
      upstream_id: upstreamId,
      cost_rials: costRials,
      cost_reads_left: costReadsLeft,
      now,
      due_at: now + pollMs,
      poll_ms: pollMs,
    });
  }

  /** A report pushed before the answer of its message's call was applied (applied with it: takeEarlyReports). */
  keepEarlyReport(lineId: number, messageId: number, localId: number, status: number | null, now: number): void {
    this.earlyKeepStmt.run(messageId, lineId, localId, status, now);
  }

  /** The reports kept for these messages, removed as they are read. */
  takeEarlyReports(messageIds: readonly number[]): { message_id: number; local_id: number; status: number | null }[] {
    const ids = JSON.stringify(messageIds);
    const rows = this.earlyTakeStmt.all(ids);
    if (rows.length > 0) this.earlyDropStmt.run(ids);
    return rows;
  }

  /** The provider's cost read (null: this read failed, one fewer left). */
  costRead(messageId: number, costRials: number | null): void {
    this.costStmt2.run(costRials, costRials, messageId);
  }

  /** These messages' costs are read from the provider, at most `reads` times (with their statuses). */
  readCosts(messageIds: readonly number[], reads: number): void {
    if (messageIds.length > 0) this.costReadsStmt.run(reads, JSON.stringify(messageIds));
  }

  /** Polls again later (growing intervals). */
  pollLater(messageId: number, dueAt: number, pollMs: number, now: number): void {
    this.pollStmt.run(dueAt, pollMs, now, messageId);
  }

  /** A message gone from messaging (its account removed): nothing is left to deliver. */
  drop(messageId: number): void {
    this.orphanStmt.run(messageId);
  }

  forget(firstId: number, lastId: number): void {
    this.forgetStmt.run(firstId, lastId);
    this.waitForgetStmt.run(firstId, lastId);
    // Also a report a gateway pushed for an id its line never sent: nothing else would take it.
    this.earlyForgetStmt.run(firstId, lastId);
  }

  /** The line's messages by state, those waiting in runs and those in calls included. */
  counts(lineId: number): Map<HandoverState, number> {
    const counts = new Map(this.countsStmt.all(lineId).map((row) => [row.state, row.n]));
    const add = (state: HandoverState, n: number) => {
      if (n > 0) counts.set(state, (counts.get(state) ?? 0) + n);
    };
    add('waiting', this.waitCountStmt.get(lineId) ?? 0);
    add('handing_over', this.callCountStmt.get(lineId) ?? 0);
    return counts;
  }

  providerCost(lineId: number): number {
    return this.costStmt.get(lineId) ?? 0;
  }

  list(lineId: number, state: HandoverState, limit: number): HandoverRow[] {
    return this.listStmt.all(lineId, state, limit);
  }

  /** Messages of the line on their way: not yet taken by its provider (or not known to be), or not final there. */
  inFlight(lineId: number): number {
    const rows = this.inFlightStmt.get(lineId) ?? 0;
    return rows + (this.waitCountStmt.get(lineId) ?? 0) + (this.callCountStmt.get(lineId) ?? 0);
  }

  pause(lineId: number): LinePause | null {
    const row = this.lineStmt.get(lineId);
    return row && row.paused_code !== null
      ? { code: row.paused_code, text: row.paused_text ?? '', at: row.paused_at ?? 0 }
      : null;
  }

  setPause(lineId: number, pause: LinePause | null): void {
    this.pauseStmt.run(lineId, pause?.code ?? null, pause?.text ?? null, pause?.at ?? null);
  }

  maxBatch(lineId: number): number | null {
    return this.lineStmt.get(lineId)?.max_batch ?? null;
  }

  setMaxBatch(lineId: number, max: number | null): void {
    this.batchStmt.run(lineId, max);
  }

  inbox(lineId: number): { readTo: number | null; dueAt: number | null } {
    const row = this.lineStmt.get(lineId);
    return { readTo: row?.inbox_read_to ?? null, dueAt: row?.inbox_due_at ?? null };
  }

  /** The inbox read up to `readTo` (null: unchanged), next read at `dueAt`. */
  setInbox(lineId: number, readTo: number | null, dueAt: number): void {
    this.inboxStmt.run(lineId, readTo, dueAt);
  }

  /** Whether this reply (the provider's id) is new; marks it seen. Inside the recording's transaction. */
  firstSeen(lineId: number, upstreamId: string): boolean {
    return this.seenStmt.run(lineId, upstreamId).changes === 1;
  }
}
