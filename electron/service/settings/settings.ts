// Workspace settings kept in the settings table as JSON, one validated value per key: pricing, the
// simulator, and the app's own (app-settings.ts). Nothing else reads or writes that table.
import type { Db } from '../db/database';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { MAX_PRICE_TOMANS } from '../../../shared/credit';
import { z } from 'zod';
import { DEFAULT_UPSTREAM_TIMING, type UpstreamTiming } from '../../../shared/gateways';
import { PricingSchema, SimulatorSchema, type Pricing, type Simulator } from '../../../shared/ipc/schemas';

export { PricingSchema, SimulatorSchema };
export type SimulatorSettings = Simulator;

export const DEFAULT_PRICING: Pricing = { sms_page_tomans: 150, messenger_message_tomans: 50 };
/** The upstream carrier's patience (shared/gateways.ts); only what is set is stored, the rest defaults. */
export const UpstreamTimingSchema = z
  .object({
    timeout_ms: z.number().int().min(50).max(600_000),
    retry_base_ms: z.number().int().min(1).max(3_600_000),
    retry_max_ms: z.number().int().min(1).max(86_400_000),
    poll_first_ms: z.number().int().min(10).max(86_400_000),
    poll_max_ms: z.number().int().min(10).max(86_400_000),
    inbox_ms: z.number().int().min(10).max(86_400_000),
    reconcile_ms: z.number().int().min(10).max(86_400_000),
    concurrency: z.number().int().min(1).max(16),
  })
  .partial();

export const DEFAULT_SIMULATOR: SimulatorSettings = {
  seed: 7,
  handoff_ms: 300,
  delivery_ms: 1500,
  outcomes: { '10': 0.85, '11': 0.08, '13': 0.03, '14': 0.04 },
  reply_share: 0.02,
  optout_share: 0.2,
  reply_ms: 5000,
};

export class Settings {
  private readonly getStmt;
  private readonly setStmt;
  private readonly cache = new Map<string, unknown>();
  private readonly listeners = new Set<(key: string) => void>();

  constructor(private readonly db: Db) {
    this.getStmt = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
    this.setStmt = db.prepare(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
  }

  /** The value stored under `key`, or the fallback when none is stored or it does not match the schema. */
  read<T>(key: string, schema: z.ZodType<T>, fallback: T): T {
    if (this.cache.has(key)) return this.cache.get(key) as T;
    const row = this.getStmt.get(key);
    let stored: unknown = undefined;
    try {
      stored = row ? JSON.parse(row.value) : undefined;
    } catch {
      // A damaged value reads as absent: the fallback, never a crash.
    }
    const parsed = stored === undefined ? undefined : schema.safeParse(stored);
    const value = parsed?.success ? parsed.data : fallback;
    this.cache.set(key, value);
    return value;
  }

  write<T>(key: string, schema: z.ZodType<T>, value: T): T {
    const checked = schema.parse(value);
    this.setStmt.run(key, JSON.stringify(checked));
    this.cache.set(key, checked);
    for (const listener of this.listeners) listener(key);
    return checked;
  }

  pricing(): Pricing {
    return this.read('pricing', PricingSchema, DEFAULT_PRICING);
  }
  /** New prices, each from 0 (free) to MAX_PRICE_TOMANS; anything else is refused (`price_out_of_range`), not clamped. */
  setPricing(pricing: Pricing): Pricing {
    for (const [name, tomans] of Object.entries(pricing))
      if (!Number.isFinite(tomans) || tomans < 0 || tomans > MAX_PRICE_TOMANS)
        throw new ServiceError(
          ApiCode.BadRequest,
          `${name} must be from 0 to ${MAX_PRICE_TOMANS} tomans, not ${tomans}`,
          'price_out_of_range',
        );
    return this.write('pricing', PricingSchema, pricing);
  }
  simulator(): SimulatorSettings {
    return this.read('simulator', SimulatorSchema, DEFAULT_SIMULATOR);
  }
  setSimulator(simulator: SimulatorSettings): SimulatorSettings {
    return this.write('simulator', SimulatorSchema, simulator);
  }
  upstreamTiming(): UpstreamTiming {
    return { ...DEFAULT_UPSTREAM_TIMING, ...this.read('upstream_timing', UpstreamTimingSchema, {}) };
  }
  setUpstreamTiming(timing: Partial<UpstreamTiming>): UpstreamTiming {
    this.write('upstream_timing', UpstreamTimingSchema, {
      ...this.read('upstream_timing', UpstreamTimingSchema, {}),
      ...timing,
    });
    return this.upstreamTiming();
  }
  /** After the table was replaced under it (a restore): every value is read again, and listeners told. */
  reload(): void {
    const keys = [...this.cache.keys()];
    this.cache.clear();
    for (const key of keys) for (const listener of this.listeners) listener(key);
  }
  onChange(listener: (key: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
