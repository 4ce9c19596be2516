// Workspace settings kept in the settings table as JSON: pricing and the simulator gateway.
import { z } from 'zod';
import type { Db } from '../db/database';
import type { Pricing } from '../../../shared/pages';

export const PricingSchema = z.object({
  sms_page_tomans: z.number().nonnegative(),
  messenger_message_tomans: z.number().nonnegative(),
});

export const SimulatorSchema = z.object({
  seed: z.number().int(),
  handoff_ms: z.number().int().nonnegative(),
  delivery_ms: z.number().int().nonnegative(),
  /** Shares of the final statuses; they need not sum to 1 (they are normalized). */
  outcomes: z
    .object({ '10': z.number(), '11': z.number(), '13': z.number(), '14': z.number() })
    .partial()
    .refine((o) => Object.values(o).some((share) => share > 0), 'at least one outcome share must be positive')
    .refine((o) => Object.values(o).every((share) => share >= 0), 'shares cannot be negative'),
});
export type SimulatorSettings = z.infer<typeof SimulatorSchema>;

export const DEFAULT_PRICING: Pricing = { sms_page_tomans: 150, messenger_message_tomans: 50 };
export const DEFAULT_SIMULATOR: SimulatorSettings = {
  seed: 7,
  handoff_ms: 300,
  delivery_ms: 1500,
  outcomes: { '10': 0.85, '11': 0.08, '13': 0.03, '14': 0.04 },
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

  private read<T>(key: string, schema: z.ZodType<T>, fallback: T): T {
    if (this.cache.has(key)) return this.cache.get(key) as T;
    const row = this.getStmt.get(key);
    const parsed = row ? schema.safeParse(JSON.parse(row.value)) : undefined;
    const value = parsed?.success ? parsed.data : fallback;
    this.cache.set(key, value);
    return value;
  }

  private write<T>(key: string, schema: z.ZodType<T>, value: T): T {
    const checked = schema.parse(value);
    this.setStmt.run(key, JSON.stringify(checked));
    this.cache.set(key, checked);
    for (const listener of this.listeners) listener(key);
    return checked;
  }

  pricing(): Pricing {
    return this.read('pricing', PricingSchema, DEFAULT_PRICING);
  }
  setPricing(pricing: Pricing): Pricing {
    return this.write('pricing', PricingSchema, pricing);
  }
  simulator(): SimulatorSettings {
    return this.read('simulator', SimulatorSchema, DEFAULT_SIMULATOR);
  }
  setSimulator(simulator: SimulatorSettings): SimulatorSettings {
    return this.write('simulator', SimulatorSchema, simulator);
  }
  onChange(listener: (key: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
