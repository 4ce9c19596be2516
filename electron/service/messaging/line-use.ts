// "This line has sent", as the accounts domain asks before deleting a line (accounts.registerLineUse):
// a line with sends keeps their history. Accounts is below messaging and may not read its tables.
import type { Db } from '../db/database';
import type { LineUse } from '../accounts/accounts';
import { MessageStatus } from '../../../shared/lifecycle';

export function lineHasSent(db: Db): LineUse {
  // sends.sender is the line's stored number (the sends_sender index answers at once).
  const sentStmt = db
    .prepare<[string, number], number>('SELECT 1 FROM sends WHERE sender = ? AND line_id = ? LIMIT 1')
    .pluck();
  return (line) => sentStmt.get(line.number, line.id) !== undefined;
}

/**
 * "This line has messages on their way" (accounts.registerLineBusy): queued or scheduled ones, or,
 * on the simulator, ones with it. A provider's messages are the upstream carrier's to say
 * (handovers.ts inFlight): there a message may rest at 4 for good once its status is past the
 * provider's window. Read from the totals (one row per status and sender), never the messages.
 */
export function lineHasMessagesOnTheirWay(db: Db): LineUse {
  const stmt = db
    .prepare<[number, string, string], number>(
      `SELECT 1 FROM message_totals WHERE account_id = ? AND sender = ? AND n > 0
         AND status IN (SELECT value FROM json_each(?)) LIMIT 1`,
    )
    .pluck();
  const waiting = JSON.stringify([MessageStatus.Queued, MessageStatus.Scheduled]);
  const simulated = JSON.stringify([MessageStatus.Queued, MessageStatus.Scheduled, MessageStatus.HandedToCarrier]);
  return (line) =>
    stmt.get(line.account_id, line.number, line.gateway.kind === 'simulator' ? simulated : waiting) !== undefined;
}
