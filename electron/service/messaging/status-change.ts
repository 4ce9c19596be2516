// A message's move as the lifecycle tells it (to the UI, to a carrier's caller): its own module,
// below both the lifecycle and the carrier seam (carriers/carrier.ts), which each name it.
import type { MessageStatus } from '../../../shared/lifecycle';

export interface StatusChange {
  id: number;
  account_id: number;
  status: MessageStatus;
}
