// Settings of the app itself (not of the messaging service): language and the local HTTP API's
// address, stored through Settings under 'app'. Applying a change that needs the host (restarting
// the API, moving the data folder) is the host's business.
import { z } from 'zod';
import type { Settings } from './settings';
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

export function readAppSettings(settings: Settings): StoredAppSettings {
  return settings.read(KEY, StoredAppSettingsSchema, StoredAppSettingsSchema.parse({}));
}

export function writeAppSettings(settings: Settings, value: StoredAppSettings): StoredAppSettings {
  return settings.write(KEY, StoredAppSettingsSchema, value);
}
