// IPC contracts of the dashboard (the messaging domain's figures): today, the week, by hour and by day.
import { z } from 'zod';
import { defineContract } from '../contract';
import { EpochMs, Id, Rials } from '../primitives';

export const StatusCountsSchema = z.object({
  total: z.number().int().nonnegative(),
  /** 1, 2, 4: not final yet. */
  pending: z.number().int().nonnegative(),
  delivered: z.number().int().nonnegative(),
  undelivered: z.number().int().nonnegative(),
  cancelled: z.number().int().nonnegative(),
  blocked: z.number().int().nonnegative(),
  /** Charged minus refunded. */
  cost_rials: Rials,
});
export type StatusCounts = z.infer<typeof StatusCountsSchema>;

const DAY_MS = 86_400_000;
/** The latest time a JavaScript date can hold. */
const LAST_DATE_MS = 8_640_000_000_000_000;

export const DashboardInputSchema = z.object({
  account_id: Id.optional(),
  /** The user's offset from UTC in minutes (Tehran: 210), so "today" is the user's day. */
  utc_offset_minutes: z.number().int().min(-840).max(840).optional(),
  /**
   * "Now" for the figures; defaults to the core's clock. From the 9th of January 1970, so the week's
   * buckets start at an epoch time, to two days before the last date JavaScript can hold, so they
   * end at one.
   */
  now: EpochMs.min(8 * DAY_MS)
    .max(LAST_DATE_MS - 2 * DAY_MS)
    .optional(),
});

export const DashboardBucketSchema = StatusCountsSchema.extend({ start: EpochMs, end: EpochMs });

export const DashboardStatsSchema = z.object({
  now: EpochMs,
  today: StatusCountsSchema,
  /** The last 7 days including today. */
  week: StatusCountsSchema,
  /** delivered / finished over the week; null when nothing finished. */
  delivery_rate: z.number().min(0).max(1).nullable(),
  credit_rials: Rials.nullable(),
  /**
   * The week's cost by who set it: what providers charged for lines with a real gateway (their own
   * `cost`, mirrored), and the price list's for lines on the simulator.
   */
  week_cost: z.object({ provider_rials: Rials, price_list_rials: Rials }),
  /** Today by hour (24 buckets). */
  hourly: z.array(DashboardBucketSchema),
  /** The week by day (7 buckets, oldest first). */
  daily: z.array(DashboardBucketSchema),
});
export type DashboardStats = z.infer<typeof DashboardStatsSchema>;

export const dashboardContracts = {
  'dashboard:stats': defineContract({
    channel: 'dashboard:stats',
    input: DashboardInputSchema,
    output: DashboardStatsSchema,
  }),
} as const;
