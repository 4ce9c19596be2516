// The campaign executions as messaging's send groups (messaging/send-groups.ts): an execution's
// batches are each a send (campaign_batches, migration 0008). Messaging is below campaigns and may
// not read these tables; the core gives it these fragments at composition.
import type { Db } from '../db/database';
import type { SendGroups } from '../messaging/send-groups';

/** An execution is listed at its start, or at its planned time while it waits for it. */
const ROW = 'SELECT id, account_id, COALESCE(started_at, send_at) AS created_at FROM campaign_executions';

export function executionSendGroups(db: Db): SendGroups {
  const campaignStmt = db.prepare<[number], { id: number; name: string; sender: string; template_body: string }>(
    'SELECT id, name, sender, template_body FROM campaigns WHERE id = ?',
  );
  return {
    sendIdsSql: () => 'SELECT send_id FROM campaign_batches WHERE execution_id = ?',
    // The executions are few: counted as they are, sorted by their time as they are read.
    countSql: (and) => `(SELECT count(*) FROM campaign_executions WHERE 1 ${and})`,
    rowsSql: (and) => `${ROW} WHERE 1 ${and} ORDER BY created_at DESC, id DESC LIMIT ?`,
    rowSql: () => `${ROW} WHERE id = ?`,
    campaign: (campaignId) => campaignStmt.get(campaignId),
  };
}
