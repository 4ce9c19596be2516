// IPC handlers of the lines' gateways. Thin: the rules live in accounts (what may be set), the
// upstream carrier (a message's state at its provider) and messaging/gateways.ts (the key kept).
import type { gatewaysContracts } from '../../../shared/ipc/contracts/gateways';
import type { AppServices, HandlersFor } from './handler';

export function gatewaysHandlers({ core }: AppServices): HandlersFor<typeof gatewaysContracts> {
  return {
    'lines:setGateway': (input) => core.gateways.set(input),
    'lines:testGateway': ({ account_id, number }) => core.gateways.test(account_id, number),
    'gateways:queues': ({ account_id }) => core.gateways.queues(account_id),
    'gateways:handovers': ({ account_id, number, state, limit }) =>
      core.gateways.handovers(account_id, number, state, limit),
    'gateways:resume': ({ account_id, number }) => core.gateways.resume(account_id, number),
    'gateways:retry': ({ account_id, number, message_ids }) => core.gateways.retry(account_id, number, message_ids),
    'gateways:markFailed': ({ account_id, number, message_ids }) =>
      core.gateways.markFailed(account_id, number, message_ids),
  };
}
