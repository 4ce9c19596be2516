// Settings of the app itself (not of the messaging service): the local HTTP API's address, stored
// through Settings under 'app', and the rules of changing them. Applying a change that needs the
// host (restarting the API, moving the data folder) is the host's business: it says what it can
// do through AppSettingsHost.
//
// `language` is still stored and answered for older clients, but the app no longer reads or
// writes it: the language is each person's own (the renderer's lib/preferences.ts, kept in the
// desktop app's profile or the browser), so one person's switch no longer switches everyone on
// the same `serve`.
import path from 'node:path';
import { z } from 'zod';
import type { Settings } from './settings';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { LanguageSchema, type AppSettings, type AppSettingsPatchSchema } from '../../../shared/ipc/schemas';

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
export type AppSettingsPatch = z.output<typeof AppSettingsPatchSchema>;

/** What the process around the core can do about the app's settings (Electron main, or `serve`). */
export interface AppSettingsHost {
  mode: 'desktop' | 'web';
  /** The local HTTP API as the host runs it. */
  httpApi?: {
    /** Where it answers now, or null when off. */
    url(): string | null;
    /** False when it cannot be switched (web mode: the UI is served by the same server). */
    canToggle: boolean;
    /** Applies a changed address or on/off (desktop: restarts the server). */
    apply?(config: StoredAppSettings['http_api']): Promise<void>;
  };
  /** Desktop: the workspace folder chosen for the next start. */
  nextDataDir?: { get(): string | null; set(dir: string): void };
}

const KEY = 'app';

export function readAppSettings(settings: Settings): StoredAppSettings {
  return settings.read(KEY, StoredAppSettingsSchema, StoredAppSettingsSchema.parse({}));
}

export function writeAppSettings(settings: Settings, value: StoredAppSettings): StoredAppSettings {
  return settings.write(KEY, StoredAppSettingsSchema, value);
}

/** The app's settings as stored, with what the host runs now (the API's address, the data folders). */
export function appSettings(settings: Settings, dataDir: string, host: AppSettingsHost): AppSettings {
  const stored = readAppSettings(settings);
  return {
    language: stored.language,
    data_dir: dataDir,
    next_data_dir: host.nextDataDir?.get() ?? null,
    http_api: { ...stored.http_api, url: host.httpApi?.url() ?? null, can_toggle: host.httpApi?.canToggle ?? false },
    mode: host.mode,
  };
}

/**
 * Changes the app's settings: a changed HTTP API address or on/off is applied by the host first
 * (400 where the host cannot, web mode sharing its server), a data folder is kept for the next
 * start (400 where the folder is chosen at start), then the rest is stored.
 */
export async function updateAppSettings(
  settings: Settings,
  dataDir: string,
  host: AppSettingsHost,
  patch: AppSettingsPatch,
): Promise<AppSettings> {
  const stored = readAppSettings(settings);
  const httpApi = { ...stored.http_api, ...patch.http_api };
  const apiChanged = JSON.stringify(httpApi) !== JSON.stringify(stored.http_api);
  if (apiChanged) {
    if (!host.httpApi?.canToggle || !host.httpApi.apply)
      throw new ServiceError(
        ApiCode.BadRequest,
        'the HTTP API address cannot be changed here (web mode shares its server)',
        'http_api_fixed',
      );
    await host.httpApi.apply(httpApi);
    if (httpApi.enabled && host.httpApi.url() === null) {
      // The port is taken, or the host is not this computer's: back to the address that worked.
      await host.httpApi.apply(stored.http_api);
      throw new ServiceError(
        ApiCode.BadRequest,
        `the HTTP API cannot listen on ${httpApi.host}:${httpApi.port}`,
        'http_api_address_unavailable',
      );
    }
  }
  if (patch.data_dir !== undefined) {
    if (!host.nextDataDir)
      throw new ServiceError(ApiCode.BadRequest, 'the data folder is chosen at start (serve --data)', 'data_dir_fixed');
    host.nextDataDir.set(path.resolve(patch.data_dir));
  }
  writeAppSettings(settings, { language: patch.language ?? stored.language, http_api: httpApi });
  return appSettings(settings, dataDir, host);
}
