// IPC handlers of the Inbox. Thin: the rules (opt-out replies, what is read) live in
// messaging/inbox.ts.
import type { inboxContracts } from '../../../shared/ipc/contracts/inbox';
import type { AppServices, HandlersFor } from './handler';

export function inboxHandlers({ core }: AppServices): HandlersFor<typeof inboxContracts> {
  return {
    'inbox:list': ({ account_id, ...options }) => core.inbox.list(account_id, options),
    'inbox:markRead': ({ account_id, ids }) => core.inbox.markRead(account_id, ids),
    'inbox:counts': ({ account_id }) => core.inbox.counts(account_id),
  };
}
