// The simulator carrier (PRODUCT.md "Message lifecycle without a carrier"): every message handed
// over gets one final outcome delivery_ms later, drawn from the configured shares by a hash of
// (seed, message id), so a seed always gives the same outcomes. What it still has to report lives
// in simulator_due (ranges of ids, as the lifecycle's own due times), written in the hand-over's
// transaction, so a crash neither loses nor repeats a report.
import type { Db } from '../../db/database';
import type { Clock } from '../../clock';
import type { Settings, SimulatorSettings } from '../../settings/settings';
import type { Worker } from '../../jobs/scheduler';
import { FINAL_STATUSES, MessageStatus } from '../../../../shared/lifecycle';
import { DueRanges, DueRuns } from '../due-ranges';
import { BATCH } from '../lifecycle';
import type { Carrier, CarrierReports, Handover, Outcome } from './carrier';

/** A deterministic uniform number in [0, 1) from (seed, id): splitmix32-style mixing. */
export function draw(seed: number, id: number): number {
  let h = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(id | 0, 0x85ebca6b) ^ Math.floor(id / 0x100000000)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 0x100000000;
}

/** The simulator ends every message in one of the final statuses, by the configured shares. */
export function outcomeFor(simulator: SimulatorSettings, id: number): MessageStatus {
  const shares = FINAL_STATUSES.map((status) =>
    Math.max(0, simulator.outcomes[String(status) as keyof SimulatorSettings['outcomes']] ?? 0),
  );
  const total = shares.reduce((a, b) => a + b, 0);
  let x = draw(simulator.seed, id) * total;
  for (let i = 0; i < FINAL_STATUSES.length; i++) {
    x -= shares[i]!;
    if (x < 0) return FINAL_STATUSES[i]!;
  }
  return MessageStatus.Delivered;
}

export class SimulatorCarrier implements Carrier {
  readonly name = 'simulator';
  readonly worker: Worker;
  private readonly pending: DueRanges;
  private readonly handedStmt;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: Settings,
    private readonly reports: CarrierReports,
  ) {
    this.pending = new DueRanges(db, 'simulator_due');
    this.handedStmt = db.prepare<[number, number, number, number], { id: number }>(
      'SELECT id FROM messages WHERE id BETWEEN ? AND ? AND status = ? ORDER BY id LIMIT ?',
    );
    this.worker = {
      name: 'simulator',
      nextDueAt: () => this.pending.nextDueAt(),
      runDue: () => this.deliver(),
    };
  }

  accept(batch: readonly Handover[], now: number): void {
    const runs = new DueRuns(this.pending);
    const at = now + this.settings.simulator().delivery_ms;
    for (const message of batch) runs.push(message.id, at);
    runs.flush();
  }

  /** Reports the outcomes of one due batch; false when nothing was due. */
  private deliver(): boolean {
    const simulator = this.settings.simulator();
    return this.db.transaction(() => {
      const range = this.pending.firstDue(this.clock.now());
      if (!range) return false;
      const rows = this.handedStmt.all(range.first_id, range.last_id, MessageStatus.HandedToCarrier, BATCH);
      this.pending.consume(range, rows.length < BATCH ? range.last_id : rows[rows.length - 1]!.id);
      const outcomes: Outcome[] = rows.map((row) => ({ id: row.id, status: outcomeFor(simulator, row.id) }));
      // Nested in this transaction: the reports and the range taken off commit together.
      this.reports.report(outcomes);
      return true;
    })();
  }
}
