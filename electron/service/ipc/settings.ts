// IPC handlers of the settings domain: the service's pricing and simulator, and the app's own
// settings (language, the local HTTP API), whose application is the host's business.
import path from 'node:path';
import { ServiceError } from '../errors';
import { readAppSettings, writeAppSettings } from '../settings/app-settings';
import type { AppSettings } from '../../../shared/ipc/schemas';
import type { AppServices, HandlersOf } from './dispatcher';

function appSettings({ core, host }: AppServices): AppSettings {
  const stored = readAppSettings(core.settings);
  return {
    language: stored.language,
    data_dir: core.dataDir,
    next_data_dir: host.nextDataDir?.get() ?? null,
    http_api: { ...stored.http_api, url: host.httpApi?.url() ?? null, can_toggle: host.httpApi?.canToggle ?? false },
    mode: host.mode,
  };
}

export function settingsHandlers(services: AppServices): HandlersOf<'pricing' | 'simulator' | 'settings'> {
  const { core, host } = services;
  return {
    'pricing:get': () => core.settings.pricing(),
    'pricing:set': (input) => core.settings.setPricing(input),
    'simulator:get': () => core.settings.simulator(),
    'simulator:set': (input) => core.settings.setSimulator(input),
    'settings:get': () => appSettings(services),
    'settings:set': async (patch) => {
      const stored = readAppSettings(core.settings);
      const httpApi = { ...stored.http_api, ...patch.http_api };
      const apiChanged = JSON.stringify(httpApi) !== JSON.stringify(stored.http_api);
      if (apiChanged) {
        if (!host.httpApi?.canToggle || !host.httpApi.apply)
          throw new ServiceError(400, 'the HTTP API address cannot be changed here (web mode shares its server)');
        await host.httpApi.apply(httpApi);
      }
      if (patch.data_dir !== undefined) {
        if (!host.nextDataDir) throw new ServiceError(400, 'the data folder is chosen at start (serve --data)');
        host.nextDataDir.set(path.resolve(patch.data_dir));
      }
      writeAppSettings(core.settings, { language: patch.language ?? stored.language, http_api: httpApi });
      return appSettings(services);
    },
  };
}
