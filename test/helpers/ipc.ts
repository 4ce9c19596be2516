// IPC calls as core tests make them, straight into a dispatcher (no transport): `ok` answers the
// value or fails the test with the refusal; `refused` answers the refusal or fails when accepted.
// Its input is loose on purpose: refusals are mostly tested with input the contract rejects.
import type { Channel, InputOf, OutputOf } from '../../shared/ipc/contracts';
import type { IpcError } from '../../shared/ipc/contract';
import type { IpcDispatcher } from '../../electron/service/ipc/dispatcher';

/** `ok` and `refused` over the dispatcher `current()` returns (tests make a new one per case). */
export function ipcCalls(current: () => IpcDispatcher) {
  return {
    async ok<C extends Channel>(channel: C, input?: InputOf<C>): Promise<OutputOf<C>> {
      const result = await current().invoke(channel, input);
      if (!result.ok)
        throw new Error(`${channel}: ${result.error.code} ${result.error.message} ${result.error.detail ?? ''}`);
      return result.value as OutputOf<C>;
    },
    async refused(channel: string, input?: unknown): Promise<IpcError> {
      const result = await current().invoke(channel, input);
      if (result.ok) throw new Error(`${channel} was accepted`);
      return result.error;
    },
  };
}
