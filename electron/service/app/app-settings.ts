// Settings of the app itself (not of the messaging service): language, the workspace folder and
// the local HTTP API's address. Stored in the workspace's settings table under 'app'; applying a
// change that needs the host (restarting the API, moving the data folder) is the host's business.
import { z } from 'zod';
import type { Core } from '../core';
import { LanguageSchema } from '../../../shared/ipc/schemas';

export const StoredAppSettingsSchema = z.object({
  language: LanguageSchema.default('system'),
  http_api: z
    .object({
      enabled: z.boolean().default(true),
      host: z.string().default('127.0.0.1'),
      port: z.number().int().default(8080),
    })
    .default({ enabled: true, host: '127.0.0.1', port: 8080 }),
});
export type StoredAppSettings = z.infer<typeof StoredAppSettingsSchema>;

const KEY = 'app';

export function readAppSettings(core: Core): StoredAppSettings {
  const row = core.db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(KEY);
  let stored: unknown = {};
  try {
    stored = row ? JSON.parse(row.value) : {};
  } catch {
    stored = {};
  }
  const parsed = StoredAppSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : StoredAppSettingsSchema.parse({});
}

export function writeAppSettings(core: Core, settings: StoredAppSettings): StoredAppSettings {
  const checked = StoredAppSettingsSchema.parse(settings);
  core.db
    .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value')
    .run(KEY, JSON.stringify(checked));
  return checked;
}
