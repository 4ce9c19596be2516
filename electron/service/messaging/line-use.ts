// "This line has sent", as the accounts domain asks before deleting a line (accounts.registerLineUse):
// a line with sends keeps their history. Accounts is below messaging and may not read its tables.
import type { Db } from '../db/database';
import type { LineUse } from '../accounts/accounts';

export function lineHasSent(db: Db): LineUse {
  // sends.sender is the line's stored number (the sends_sender index answers at once).
  const sentStmt = db
    .prepare<[string, number], number>('SELECT 1 FROM sends WHERE sender = ? AND line_id = ? LIMIT 1')
    .pluck();
  return (line) => sentStmt.get(line.number, line.id) !== undefined;
}
