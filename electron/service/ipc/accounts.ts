// IPC handlers of the accounts domain: accounts, API keys, lines. Thin: the rules (name
// uniqueness, opening credit with the account, a line's form, what may be deleted) live in accounts/.
import type { accountsContracts } from '../../../shared/ipc/contracts/accounts';
import type { AppServices, HandlersFor } from './handler';

export function accountsHandlers({ core }: AppServices): HandlersFor<typeof accountsContracts> {
  return {
    'accounts:list': () => core.accounts.list(),
    'accounts:create': (input) => core.accounts.create(input),
    'accounts:update': ({ id, ...changes }) => core.accounts.update(id, changes),
    'apiKeys:list': ({ account_id }) => core.accounts.listApiKeys(account_id),
    'apiKeys:create': ({ account_id, label }) => core.accounts.createApiKey(account_id, label ?? ''),
    'apiKeys:revoke': ({ id }) => core.accounts.revokeApiKey(id),
    'lines:list': ({ account_id }) => core.accounts.listLines(account_id),
    'lines:upsert': ({ account_id, ...line }) => core.accounts.upsertLine(account_id, line),
    'lines:add': ({ account_id, ...line }) => core.accounts.addLine(account_id, line),
    'lines:remove': ({ account_id, number }) => core.accounts.removeLine(account_id, number),
    'lines:delete': ({ account_id, number }) => (core.accounts.deleteLine(account_id, number), null),
  };
}
