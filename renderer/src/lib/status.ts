// How the UI shows a message status, all read from the lifecycle table (shared/lifecycle.ts):
// the statuses and their order, which can be stored, the colour of each status's tone, and its
// label — the spec's Persian text, or the English one keyed by the status's name, so a status
// added to the table without an English label fails typecheck.
import {
  ALL_STATUSES,
  LIFECYCLE,
  STORED_STATUSES,
  isMessageStatus,
  type MessageStatus,
  type MessageStatusName,
  type StatusTone,
} from '../../../shared/lifecycle';
import type { Language } from './format';

export { ALL_STATUSES, STORED_STATUSES, isMessageStatus };

const englishLabel: Record<MessageStatusName, string> = {
  Invalid: 'Invalid receiver',
  Queued: 'Queued',
  Scheduled: 'Scheduled',
  HandedToCarrier: 'With the carrier',
  SendError: 'Send error',
  Delivered: 'Delivered',
  Undelivered: 'Not delivered',
  Cancelled: 'Cancelled (refunded)',
  Blocked: 'Blocked',
  Duplicate: 'Duplicate number',
  UnknownId: 'Unknown message id',
};

export function statusLabel(status: number, language: Language): string {
  if (!isMessageStatus(status)) return String(status);
  return language === 'fa' ? LIFECYCLE[status].text : englishLabel[LIFECYCLE[status].name];
}

export function toneColor(tone: StatusTone): string {
  switch (tone) {
    case 'success':
      return 'green';
    case 'waiting':
      return 'gray';
    case 'scheduled':
      return 'indigo';
    case 'in-flight':
      return 'blue';
    case 'problem':
      return 'orange';
    case 'refunded':
      return 'grape';
    case 'blocked':
      return 'dark';
    case 'rejected':
      return 'red';
  }
}

export function statusColor(status: MessageStatus): string {
  return toneColor(LIFECYCLE[status].tone);
}
