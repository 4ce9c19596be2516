// IPC handlers of the contacts domain: its segments, listed for the composer.
import type { contactsContracts } from '../../../shared/ipc/contracts/contacts';
import type { AppServices, HandlersFor } from './dispatcher';

export function contactsHandlers({ core }: AppServices): HandlersFor<typeof contactsContracts> {
  return {
    'segments:list': ({ account_id }) => {
      core.accounts.get(account_id);
      return core.segments.list(account_id);
    },
  };
}
