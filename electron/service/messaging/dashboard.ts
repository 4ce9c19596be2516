// Dashboard figures: today's and this week's sends by outcome, the delivery rate, cost, credit,
// and hourly/daily buckets for the chart. Read from the maintained aggregates (counts.ts, migration
// 0017): a week is at most 672 slots of 15 minutes per status, whatever the number of messages, so
// the figures take a millisecond on the main thread. Every time zone's hours and midnights fall on
// a slot boundary (offsets are whole quarters of an hour), so the buckets are exact.
import type { Db } from '../db/database';
import { SLOT_MS } from './counts';
import type { Clock } from '../clock';
import type { Credit } from '../accounts/credit';
import { accountIdsSql } from '../accounts/accounts';
import type { z } from 'zod';
import type { DashboardInputSchema, DashboardStats, StatusCounts } from '../../../shared/ipc/schemas';
import { MessageStatus } from '../../../shared/lifecycle';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
interface SenderRow {
  account_id: number;
  sender: string;
  cost: number;
}
interface GroupRow {
  slot: number;
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

export type DashboardInput = z.output<typeof DashboardInputSchema>;

export class Dashboard {
  private readonly slotsStmt;
  private readonly slotsAllStmt;

  private readonly sendersStmt;
  private readonly sendersAllStmt;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly credit: Credit,
    /** Whether a line's gateway is a provider account (its costs are the provider's). */
    private readonly atProvider: (accountId: number, sender: string) => boolean,
  ) {
    // Cost is what the account paid: refunds are taken off.
    const slots = (accounts: string) =>
      `SELECT slot, status, SUM(n) AS n, SUM(cost_rials - refunded_rials) AS cost FROM message_counts
       WHERE account_id ${accounts} AND slot >= ? AND slot < ? GROUP BY slot, status`;
    this.slotsStmt = db.prepare<[number, number, number], GroupRow>(slots('= ?'));
    this.slotsAllStmt = db.prepare<[number, number], GroupRow>(slots(`IN ${accountIdsSql()}`));
    const senders = (accounts: string) =>
      `SELECT account_id, sender, SUM(cost_rials - refunded_rials) AS cost FROM message_counts
       WHERE account_id ${accounts} AND slot >= ? AND slot < ? GROUP BY account_id, sender`;
    this.sendersStmt = db.prepare<[number, number, number], SenderRow>(senders('= ?'));
    this.sendersAllStmt = db.prepare<[number, number], SenderRow>(senders(`IN ${accountIdsSql()}`));
  }

  stats(input: DashboardInput): DashboardStats {
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

    const from = Math.floor(weekStart / SLOT_MS);
    const to = Math.floor(weekEnd / SLOT_MS);
    const rows =
      input.account_id !== undefined ? this.slotsStmt.all(input.account_id, from, to) : this.slotsAllStmt.all(from, to);
    for (const row of rows) {
      // Buckets count from the user's midnight, so hours line up with the user's clock.
      const at = Math.max(weekStart, row.slot * SLOT_MS);
      add(week, row.status, row.n, row.cost);
      add(daily[Math.min(6, Math.floor((at - weekStart) / DAY))]!, row.status, row.n, row.cost);
      if (at >= today) {
        add(todayCounts, row.status, row.n, row.cost);
        add(hourly[Math.min(23, Math.floor((at - today) / HOUR))]!, row.status, row.n, row.cost);
      }
    }
    const weekCost = { provider_rials: 0, price_list_rials: 0 };
    const senders =
      input.account_id !== undefined
        ? this.sendersStmt.all(input.account_id, from, to)
        : this.sendersAllStmt.all(from, to);
    for (const row of senders)
      if (this.atProvider(row.account_id, row.sender)) weekCost.provider_rials += row.cost;
      else weekCost.price_list_rials += row.cost;
    const credit =
      input.account_id !== undefined ? this.credit.balanceOrNull(input.account_id) : this.credit.totalBalance();
    const finished = week.delivered + week.undelivered + week.cancelled + week.blocked;
    return {
      now,
      today: todayCounts,
      week,
      delivery_rate: finished > 0 ? week.delivered / finished : null,
      credit_rials: credit,
      week_cost: weekCost,
      hourly,
      daily,
    };
  }
}
