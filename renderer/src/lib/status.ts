// How the UI shows a message status: a color per status (exhaustive over shared/status.ts) and
// the label in the current language. Persian labels are the spec's texts, defined in shared/.
import { MessageStatus, messageStatusText } from '../../../shared/status';
import type { Language } from './format';

export const ALL_STATUSES: readonly MessageStatus[] = [0, 1, 2, 4, 6, 10, 11, 13, 14, 15, 100];
/** Statuses a stored message can have (0, 15 and 100 are answers only, never stored). */
export const STORED_STATUSES: readonly MessageStatus[] = [1, 2, 4, 6, 10, 11, 13, 14];

const englishLabel: Record<MessageStatus, string> = {
  0: 'Invalid receiver',
  1: 'Queued',
  2: 'Scheduled',
  4: 'With the carrier',
  6: 'Send error',
  10: 'Delivered',
  11: 'Not delivered',
  13: 'Cancelled (refunded)',
  14: 'Blocked',
  15: 'Duplicate number',
  100: 'Unknown message id',
};

export function statusLabel(status: number, language: Language): string {
  if (!isMessageStatus(status)) return String(status);
  return language === 'fa' ? messageStatusText[status] : englishLabel[status];
}

export function isMessageStatus(value: number): value is MessageStatus {
  return (ALL_STATUSES as readonly number[]).includes(value);
}

export function statusColor(status: MessageStatus): string {
  switch (status) {
    case MessageStatus.Delivered:
      return 'green';
    case MessageStatus.Queued:
      return 'gray';
    case MessageStatus.Scheduled:
      return 'indigo';
    case MessageStatus.HandedToCarrier:
      return 'blue';
    case MessageStatus.Undelivered:
      return 'orange';
    case MessageStatus.Cancelled:
      return 'grape';
    case MessageStatus.Blocked:
      return 'dark';
    case MessageStatus.Invalid:
    case MessageStatus.SendError:
      return 'red';
    case MessageStatus.Duplicate:
    case MessageStatus.UnknownId:
      return 'yellow';
  }
}
