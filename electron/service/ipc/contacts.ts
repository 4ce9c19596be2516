// IPC handlers of the contacts domain.
import type { AppServices, HandlersOf } from './dispatcher';

export function contactsHandlers({ core }: AppServices): HandlersOf<'segments'> {
  return {
    'segments:list': ({ account_id }) => {
      core.accounts.get(account_id);
      return core.segments.list(account_id);
    },
  };
}
