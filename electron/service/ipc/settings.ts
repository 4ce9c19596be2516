// IPC handlers of the settings domain: the service's pricing and simulator, and the app's own
// settings, whose rules (what the host can apply) live in settings/app-settings.ts.
import { appSettings, updateAppSettings } from '../settings/app-settings';
import type { settingsContracts } from '../../../shared/ipc/contracts/settings';
import type { AppServices, HandlersFor } from './handler';

export function settingsHandlers({ core, host }: AppServices): HandlersFor<typeof settingsContracts> {
  return {
    'pricing:get': () => core.settings.pricing(),
    'pricing:set': (input) => core.settings.setPricing(input),
    'simulator:get': () => core.settings.simulator(),
    'simulator:set': (input) => core.settings.setSimulator(input),
    'settings:get': () => appSettings(core.settings, core.dataDir, host),
    'settings:set': (patch) => updateAppSettings(core.settings, core.dataDir, host, patch),
  };
}
