// IPC handlers of the Inbox. Thin: the rules (opt-out replies, what is read, what "done" means)
// live in messaging/inbox.ts and messaging/conversations.ts, a number's card in contacts/cards.ts.
import type { inboxContracts } from '../../../shared/ipc/contracts/inbox';
import type { AppServices, HandlersFor } from './handler';
import { reply, replyPreview } from '../messaging/replies';

export function inboxHandlers({ core }: AppServices): HandlersFor<typeof inboxContracts> {
  return {
    'inbox:list': ({ account_id, ...options }) => core.inbox.list(account_id, options),
    'inbox:markRead': ({ account_id, ids }) => core.inbox.markRead(account_id, ids),
    'inbox:counts': ({ account_id }) => core.inbox.counts(account_id),
    'inbox:conversation': ({ account_id, phone }) => core.inbox.conversation(account_id, phone),
    'inbox:thread': ({ account_id, phone, before, limit }) =>
      core.conversations.thread(account_id, phone, { before, limit }),
    'inbox:setDone': ({ account_id, line_number, phone, done }) => ({
      done: core.inbox.setDone(account_id, line_number, phone, done),
    }),
    'inbox:markSenderRead': ({ account_id, phone }) => core.inbox.markSenderRead(account_id, phone),
    'inbox:replyPreview': (input) => replyPreview(core, input),
    'inbox:reply': (input) => {
      const { send_id, accepted, total_rials } = reply(core, input);
      return { send_id, accepted, total_rials };
    },
  };
}
