// Where each message handed to a provider stands there (migration 0027, `upstream_handovers`), and
// per line why it is paused and how far its inbox was read (`upstream_lines`, `upstream_inbound`).
// The state machine's every step is one statement here, run inside the carrier's transactions:
// a message is marked `handing_over` (committed) before its call starts, and the call's answer
// (the provider's id and cost, or its refusal) is stored in the same transaction as the reports it
// makes. See shared/gateways.ts HANDOVER_STATES for what each state means.
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

export class Handovers {
  private readonly insertStmt;
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
  private readonly lineStmt;
  private readonly pauseStmt;
  private readonly inboxStmt;
  private readonly batchStmt;
  private readonly seenStmt;
  private readonly inFlightStmt;
  private readonly fileStmt;
  private readonly lastLocalStmt;
  private readonly moveAllStmt;
  private readonly acceptAllStmt;
  private readonly costStmt2;
  private readonly localIdsStmt;
  private readonly setFileStmt;

  constructor(db: Db) {
    this.insertStmt = db.prepare(
      `INSERT OR IGNORE INTO upstream_handovers
         (message_id, local_id, line_id, account_id, state, due_at, handed_at, updated_at)
       SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, 'waiting', ?, ?, ? FROM json_each(?)`,
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
    this.acceptAllStmt = db.prepare(
      `UPDATE upstream_handovers SET state = 'accepted', upstream_id = a.upstream_id,
         cost_rials = COALESCE(a.cost_rials, upstream_handovers.cost_rials), cost_reads_left = 0, accepted_at = @now,
         due_at = @due_at, poll_ms = @poll_ms, code = NULL, detail = NULL, updated_at = @now
       FROM (SELECT value ->> 0 AS message_id, value ->> 1 AS upstream_id, value ->> 2 AS cost_rials
             FROM json_each(@records)) AS a
       WHERE upstream_handovers.message_id = a.message_id`,
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
    this.localIdsStmt = db.prepare<[string], { message_id: number; local_id: number }>(
      'SELECT message_id, local_id FROM upstream_handovers WHERE message_id IN (SELECT value FROM json_each(?))',
    );
    this.lastLocalStmt = db.prepare<[], number | null>('SELECT MAX(local_id) FROM upstream_handovers').pluck();
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
   * Messages just handed to the carrier: waiting, due now; each [message id, local id, line id,
   * account id]. One statement for the batch. Inside the lifecycle's transaction.
   */
  add(rows: readonly (readonly [number, number, number, number])[], now: number): void {
    if (rows.length > 0) this.insertStmt.run(now, now, now, JSON.stringify(rows));
  }

  /** The local ids of these messages. */
  localIds(messageIds: readonly number[]): Map<number, number> {
    return new Map(this.localIdsStmt.all(JSON.stringify(messageIds)).map((row) => [row.message_id, row.local_id]));
  }

  /** The highest local id given so far (0 for none). */
  lastLocalId(): number {
    return this.lastLocalStmt.get() ?? 0;
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
   * The provider took these: each [message id, its id there, its cost or null], polled from
   * `now + pollMs`. One statement.
   */
  acceptedAll(records: readonly (readonly [number, string, number | null])[], now: number, pollMs: number): void {
    if (records.length === 0) return;
    this.acceptAllStmt.run({ records: JSON.stringify(records), now, due_at: now + pollMs, poll_ms: pollMs });
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

  /** The provider's cost read (null: this read failed, one fewer left). */
  costRead(messageId: number, costRials: number | null): void {
    this.costStmt2.run(costRials, costRials, messageId);
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
  }

  counts(lineId: number): Map<HandoverState, number> {
    return new Map(this.countsStmt.all(lineId).map((row) => [row.state, row.n]));
  }

  providerCost(lineId: number): number {
    return this.costStmt.get(lineId) ?? 0;
  }

  list(lineId: number, state: HandoverState, limit: number): HandoverRow[] {
    return this.listStmt.all(lineId, state, limit);
  }

  /** Messages of the line on their way: not yet taken by its provider (or not known to be), or not final there. */
  inFlight(lineId: number): number {
    return this.inFlightStmt.get(lineId) ?? 0;
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
