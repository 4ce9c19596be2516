// IPC handlers of the dashboard (messaging/dashboard.ts builds the figures).
import type { dashboardContracts } from '../../../shared/ipc/contracts/dashboard';
import type { AppServices, HandlersFor } from './handler';

export function dashboardHandlers({ core }: AppServices): HandlersFor<typeof dashboardContracts> {
  return {
    'dashboard:stats': (input) => core.messaging.dashboard.stats(input),
  };
}
