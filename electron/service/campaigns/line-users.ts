// "A campaign names this line", as the accounts domain asks before deleting a line
// (accounts.registerLineUse): a campaign's sender stays what it names. Accounts is below campaigns
// and may not read its tables.
import type { Db } from '../db/database';
import type { LineUse } from '../accounts/accounts';
import { toAsciiDigits } from '../../../shared/digits';

export function campaignNamesLine(db: Db): LineUse {
  const sendersStmt = db
    .prepare<[number], string>('SELECT DISTINCT sender FROM campaigns WHERE account_id = ?')
    .pluck();
  // A campaign keeps the sender as it was typed: compared in the normalized form.
  return (line) =>
    sendersStmt.all(line.account_id).some((sender) => toAsciiDigits(sender) === toAsciiDigits(line.number));
}
