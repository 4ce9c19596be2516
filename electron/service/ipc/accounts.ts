// IPC handlers of the accounts domain: accounts, API keys, lines, credit. Thin: the rules (name
// uniqueness, opening credit, the top-up sign, a line that is not there) live in accounts/.
import type { AppServices, HandlersOf } from './dispatcher';

export function accountsHandlers({ core }: AppServices): HandlersOf<'accounts' | 'apiKeys' | 'lines' | 'credit'> {
  return {
    'accounts:list': () => core.accounts.list(),
    'accounts:create': (input) => core.accounts.create(input),
    'accounts:update': ({ id, ...changes }) => core.accounts.update(id, changes),
    'apiKeys:list': ({ account_id }) => core.accounts.listApiKeys(account_id),
    'apiKeys:create': ({ account_id, label }) => core.accounts.createApiKey(account_id, label ?? ''),
    'apiKeys:revoke': ({ id }) => core.accounts.revokeApiKey(id),
    'lines:list': ({ account_id }) => core.accounts.listLines(account_id),
    'lines:upsert': ({ account_id, ...line }) => core.accounts.upsertLine(account_id, line),
    'lines:remove': ({ account_id, number }) => core.accounts.removeLine(account_id, number),
    'credit:balance': ({ account_id }) => ({ account_id, credit_rials: core.credit.balance(account_id) }),
    'credit:topUp': ({ account_id, amount_rials, note, kind }) => ({
      account_id,
      credit_rials: core.credit.adjust(account_id, amount_rials, note ?? '', kind),
    }),
    'credit:ledger': ({ account_id, limit, before_id }) => {
      core.accounts.get(account_id);
      const entries = core.credit.ledger(account_id, { limit, beforeId: before_id });
      return { entries, next_before_id: entries.length === limit ? entries[entries.length - 1]!.id : null };
    },
  };
}
