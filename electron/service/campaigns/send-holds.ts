// "A campaign batch names this send", as messaging asks before deleting a send whose messages
// retention removed (messaging.forgetting.registerSendHold): the batch keeps its send, so the
// execution's report keeps its cost and refunds. Messaging is below campaigns and may not read its
// tables; the condition enters its one DELETE (the campaign_batches_send index answers at once).
import type { SendHold } from '../messaging/forget';

export const campaignBatchHoldsSend: SendHold = (sendId) =>
  `EXISTS (SELECT 1 FROM campaign_batches WHERE send_id = ${sendId})`;
