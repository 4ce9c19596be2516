// Dashboard figures: today's and this week's sends by outcome, the delivery rate, cost, credit,
// and hourly/daily buckets for the chart. The week's messages are aggregated in slices of the id
// range, yielding to the event loop between slices: with a million messages the figures take a
// moment, but no IPC call or API request waits behind them. Messages get their ids in creation
// order, so the week starts at the first id created in it.
import type { Db } from '../db/database';
import { CreatedOrder } from './created-order';
import type { Clock } from '../clock';
import type { z } from 'zod';
import type { DashboardInputSchema, DashboardStats, StatusCounts } from '../../../shared/ipc/schemas';
import { MessageStatus, REFUNDING_STATUSES, sqlList } from '../../../shared/lifecycle';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Ids per slice: a few milliseconds of SQLite work each. */
const SLICE = 5_000;
/** Answers computed this recently are reused (a dashboard refreshing on every status event). */
const FRESH_MS = 1000;

interface GroupRow {
  hour: number;
  status: number;
  n: number;
  cost: number;
}

function emptyCounts(): StatusCounts {
  return { total: 0, pending: 0, delivered: 0, undelivered: 0, cancelled: 0, blocked: 0, cost_rials: 0 };
}

function add(counts: StatusCounts, status: number, n: number, cost: number): void {
  counts.total += n;
  switch (status) {
    case MessageStatus.Delivered:
      counts.delivered += n;
      break;
    case MessageStatus.Undelivered:
      counts.undelivered += n;
      break;
    case MessageStatus.Cancelled:
      counts.cancelled += n;
      break;
    case MessageStatus.Blocked:
      counts.blocked += n;
      break;
    default:
      counts.pending += n;
  }
  counts.cost_rials += cost;
}

/** Start of the user's day containing `now` (ms), for a UTC offset in minutes. */
export function startOfDay(now: number, utcOffsetMinutes: number): number {
  const offset = utcOffsetMinutes * 60_000;
  return Math.floor((now + offset) / DAY) * DAY - offset;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export type DashboardInput = z.output<typeof DashboardInputSchema>;

export class Dashboard {
  private readonly createdOrder: CreatedOrder;
  private readonly lastIdStmt;
  private readonly sliceStmt;
  private readonly sliceAllStmt;
  private readonly accountsStmt;
  private readonly creditStmt;
  private readonly recent = new Map<string, { at: number; stats: Promise<DashboardStats> }>();

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.createdOrder = new CreatedOrder(db);
    this.lastIdStmt = db.prepare<[], { id: number | null }>('SELECT MAX(id) AS id FROM messages');
    // NOT INDEXED: walk the slice by rowid, never the whole week through an index, per slice.
    // Cost is what the account paid: a refund (every 13, the 14s of opted-out receivers) is taken
    // off, looked up for those two statuses only.
    const slice = (accountCondition: string) =>
      `SELECT (created_at - ?) / ${HOUR} AS hour, status, COUNT(*) AS n,
         SUM(cost_rials) - SUM(CASE WHEN status IN (${sqlList(REFUNDING_STATUSES)}) THEN COALESCE((SELECT amount_rials FROM credit_ledger l
           WHERE l.kind = 'refund' AND l.message_id = messages.id), 0) ELSE 0 END) AS cost
       FROM messages NOT INDEXED
       WHERE id >= ? AND id < ? ${accountCondition} AND created_at >= ? AND created_at < ?
       GROUP BY hour, status`;
    this.sliceStmt = db.prepare<[number, number, number, number, number, number], GroupRow>(
      slice('AND account_id = ?'),
    );
    this.sliceAllStmt = db.prepare<[number, number, number, number, number], GroupRow>(slice(''));
    this.accountsStmt = db.prepare<[], { credit_rials: number }>('SELECT credit_rials FROM accounts');
    this.creditStmt = db.prepare<[number], { credit_rials: number }>('SELECT credit_rials FROM accounts WHERE id = ?');
  }

  stats(input: DashboardInput): Promise<DashboardStats> {
    const key = JSON.stringify([input.account_id, input.utc_offset_minutes, input.now]);
    const now = Date.now();
    const cached = this.recent.get(key);
    if (cached && now - cached.at < FRESH_MS) return cached.stats;
    const stats = this.compute(input);
    this.recent.set(key, { at: now, stats });
    stats.catch(() => this.recent.delete(key));
    if (this.recent.size > 50) this.recent.delete(this.recent.keys().next().value!);
    return stats;
  }

  private async compute(input: DashboardInput): Promise<DashboardStats> {
    const now = input.now ?? this.clock.now();
    const offset = input.utc_offset_minutes ?? -new Date(now).getTimezoneOffset();
    const today = startOfDay(now, offset);
    const weekStart = today - 6 * DAY;
    const weekEnd = today + DAY;
    const hourly = Array.from({ length: 24 }, (_, i) => ({
      ...emptyCounts(),
      start: today + i * HOUR,
      end: today + (i + 1) * HOUR,
    }));
    const daily = Array.from({ length: 7 }, (_, i) => ({
      ...emptyCounts(),
      start: weekStart + i * DAY,
      end: weekStart + (i + 1) * DAY,
    }));
    const week = emptyCounts();
    const todayCounts = emptyCounts();

    const first = this.createdOrder.firstIdFrom(weekStart);
    const last = this.lastIdStmt.get()?.id ?? null;
    if (first !== null && last !== null) {
      for (let lo = first; lo <= last; lo += SLICE) {
        const rows =
          input.account_id !== undefined
            ? this.sliceStmt.all(weekStart, lo, lo + SLICE, input.account_id, weekStart, weekEnd)
            : this.sliceAllStmt.all(weekStart, lo, lo + SLICE, weekStart, weekEnd);
        for (const row of rows) {
          // Buckets count from the user's midnight, so hours line up with the user's clock.
          const at = weekStart + row.hour * HOUR;
          add(week, row.status, row.n, row.cost);
          add(daily[Math.min(6, Math.floor((at - weekStart) / DAY))]!, row.status, row.n, row.cost);
          if (at >= today) {
            add(todayCounts, row.status, row.n, row.cost);
            add(hourly[Math.min(23, Math.floor((at - today) / HOUR))]!, row.status, row.n, row.cost);
          }
        }
        if (lo + SLICE <= last) await yieldToLoop();
      }
    }
    const credit =
      input.account_id !== undefined
        ? (this.creditStmt.get(input.account_id)?.credit_rials ?? null)
        : this.accountsStmt.all().reduce((sum, account) => sum + account.credit_rials, 0);
    const finished = week.delivered + week.undelivered + week.cancelled + week.blocked;
    return {
      now,
      today: todayCounts,
      week,
      delivery_rate: finished > 0 ? week.delivered / finished : null,
      credit_rials: credit,
      hourly,
      daily,
    };
  }
}
