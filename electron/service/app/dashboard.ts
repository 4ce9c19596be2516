// Dashboard figures: today's and this week's sends by outcome, the delivery rate, cost, credit,
// and hourly/daily buckets for the chart. One grouped scan of the week over the covering index
// (account_id, created_at, status, cost_rials); accounts are few, so "all accounts" is one scan each.
import type { Db } from '../db/database';
import type { Clock } from '../clock';
import type { DashboardStats, StatusCounts } from '../../../shared/ipc/schemas';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

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
    case 10:
      counts.delivered += n;
      break;
    case 11:
      counts.undelivered += n;
      break;
    case 13:
      counts.cancelled += n;
      break;
    case 14:
      counts.blocked += n;
      break;
    default:
      counts.pending += n;
  }
  // Cancelled messages are refunded (status 13); the rest stay charged.
  if (status !== 13) counts.cost_rials += cost;
}

/** Start of the user's day containing `now` (ms), for a UTC offset in minutes. */
export function startOfDay(now: number, utcOffsetMinutes: number): number {
  const offset = utcOffsetMinutes * 60_000;
  return Math.floor((now + offset) / DAY) * DAY - offset;
}

export class Dashboard {
  private readonly groupStmt;
  private readonly accountsStmt;
  private readonly creditStmt;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    // created_at is in unix seconds: bucket by whole hours from the week's start.
    this.groupStmt = db.prepare<[number, number, number, number], GroupRow>(
      `SELECT (created_at - ?) / 3600 AS hour, status, COUNT(*) AS n, SUM(cost_rials) AS cost
       FROM messages WHERE account_id = ? AND created_at >= ? AND created_at < ?
       GROUP BY hour, status`,
    );
    this.accountsStmt = db.prepare<[], { id: number; credit_rials: number }>('SELECT id, credit_rials FROM accounts ORDER BY id');
    this.creditStmt = db.prepare<[number], { credit_rials: number }>('SELECT credit_rials FROM accounts WHERE id = ?');
  }

  stats(input: { account_id?: number; utc_offset_minutes?: number; now?: number }): DashboardStats {
    const now = input.now ?? this.clock.now();
    const offset = input.utc_offset_minutes ?? -new Date(now).getTimezoneOffset();
    const today = startOfDay(now, offset);
    const weekStart = today - 6 * DAY;
    const weekEnd = today + DAY;

    const accountIds =
      input.account_id !== undefined ? [input.account_id] : this.accountsStmt.all().map((account) => account.id);
    const credit =
      input.account_id !== undefined
        ? (this.creditStmt.get(input.account_id)?.credit_rials ?? null)
        : this.accountsStmt.all().reduce((sum, account) => sum + account.credit_rials, 0);

    const hourly = Array.from({ length: 24 }, (_, i) => ({ ...emptyCounts(), start: today + i * HOUR, end: today + (i + 1) * HOUR }));
    const daily = Array.from({ length: 7 }, (_, i) => ({ ...emptyCounts(), start: weekStart + i * DAY, end: weekStart + (i + 1) * DAY }));
    const week = emptyCounts();
    const todayCounts = emptyCounts();
    const startSeconds = Math.ceil(weekStart / 1000);
    for (const accountId of accountIds) {
      for (const row of this.groupStmt.iterate(startSeconds, accountId, startSeconds, Math.ceil(weekEnd / 1000))) {
        const at = weekStart + row.hour * HOUR;
        add(week, row.status, row.n, row.cost);
        add(daily[Math.min(6, Math.floor((at - weekStart) / DAY))]!, row.status, row.n, row.cost);
        if (at >= today) {
          add(todayCounts, row.status, row.n, row.cost);
          add(hourly[Math.min(23, Math.floor((at - today) / HOUR))]!, row.status, row.n, row.cost);
        }
      }
    }
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
