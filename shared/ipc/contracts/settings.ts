// IPC contracts of the settings domain: The service's pricing and simulator, and the app's own settings.
import { defineContract } from '../contract';
import * as s from '../schemas';

export const settingsContracts = {
  // ---- service settings
  'pricing:get': defineContract({ channel: 'pricing:get', input: s.NoInput, output: s.PricingSchema }),
  'pricing:set': defineContract({ channel: 'pricing:set', input: s.PricingSchema, output: s.PricingSchema }),
  'simulator:get': defineContract({ channel: 'simulator:get', input: s.NoInput, output: s.SimulatorSchema }),
  'simulator:set': defineContract({ channel: 'simulator:set', input: s.SimulatorSchema, output: s.SimulatorSchema }),
  // ---- app settings
  'settings:get': defineContract({ channel: 'settings:get', input: s.NoInput, output: s.AppSettingsSchema }),
  'settings:set': defineContract({
    channel: 'settings:set',
    input: s.AppSettingsPatchSchema,
    output: s.AppSettingsSchema,
  }),
} as const;
