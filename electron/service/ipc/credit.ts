// IPC handlers of credit (accounts/credit.ts). Thin: the top-up sign and bounds, the floor at zero,
// the ledger's paging and its charges grouped with their refunds (the bill) live in Credit.
import type { creditContracts } from '../../../shared/ipc/contracts/credit';
import type { AppServices, HandlersFor } from './handler';

export function creditHandlers({ core }: AppServices): HandlersFor<typeof creditContracts> {
  return {
    'credit:balance': ({ account_id }) => ({ account_id, credit_rials: core.credit.balance(account_id) }),
    'credit:topUp': ({ account_id, amount_rials, note, kind }) => ({
      account_id,
      credit_rials: core.credit.adjust(account_id, amount_rials, note ?? '', kind),
    }),
    'credit:ledger': ({ account_id, limit, before_id, send_id, execution_id }) =>
      core.credit.ledger(account_id, { limit, beforeId: before_id, sendId: send_id, executionId: execution_id }),
  };
}
