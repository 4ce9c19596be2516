// What a message status is called where people read it: a short label per language (badges,
// filters, timelines, the exports' status column) and the full text (the spec's Persian statustext
// verbatim, and its English counterpart) shown on hover. One place for every label: the renderer's
// badges and the core's exports both read this table. Whether a final status costs money is told
// here too, from the lifecycle's refunding moves, so the UI's hint and the table cannot disagree.
import { LIFECYCLE, isMessageStatus, moveOf, type MessageStatus, type MessageStatusName } from './lifecycle';

export type LabelLanguage = 'fa' | 'en';

interface StatusWords {
  /** A few words, to fit a badge or a spreadsheet cell. */
  fa: string;
  en: string;
  /** English counterpart of the spec's Persian statustext (the Persian full text is LIFECYCLE[s].text). */
  enFull: string;
}

// Keyed by the lifecycle's names: a status added to the table without its words fails typecheck.
const WORDS: Record<MessageStatusName, StatusWords> = {
  Invalid: { fa: 'گیرنده نامعتبر', en: 'Invalid receiver', enFull: 'Invalid receiver' },
  Queued: { fa: 'در صف ارسال', en: 'Queued', enFull: 'In the sending queue' },
  Scheduled: { fa: 'زمان‌بندی شده', en: 'Scheduled', enFull: 'Scheduled' },
  HandedToCarrier: { fa: 'ارسال شده به مخابرات', en: 'With the carrier', enFull: 'Handed to the carrier' },
  SendError: { fa: 'خطا در ارسال', en: 'Send error', enFull: 'Error sending the message from the given line' },
  Delivered: { fa: 'رسیده به گیرنده', en: 'Delivered', enFull: 'Delivered to the receiver' },
  Undelivered: { fa: 'نرسیده', en: 'Not delivered', enFull: 'A problem delivering the message' },
  Cancelled: {
    fa: 'لغو شده (برگشت هزینه)',
    en: 'Cancelled (refunded)',
    enFull: 'Cancelled by the sender, or sending it failed; its cost was refunded to the account',
  },
  Blocked: { fa: 'بلاک شده', en: 'Blocked', enFull: 'Blocked' },
  Duplicate: { fa: 'شماره تکراری', en: 'Duplicate number', enFull: 'Duplicate number' },
  UnknownId: { fa: 'شناسه نامعتبر', en: 'Unknown message id', enFull: 'Invalid message identifier' },
};

/** The short label of a status ('' for a number that is no status). */
export function statusShortLabel(status: number, language: LabelLanguage): string {
  if (!isMessageStatus(status)) return '';
  return WORDS[LIFECYCLE[status].name][language];
}

/** The full text of a status: the spec's statustext in Persian, its counterpart in English. */
export function statusFullText(status: number, language: LabelLanguage): string {
  if (!isMessageStatus(status)) return '';
  return language === 'fa' ? LIFECYCLE[status].text : WORDS[LIFECYCLE[status].name].enFull;
}

/** What a final status costs: always charged, always refunded, or depending on where it was reached from. */
export type FinalCost = 'charged' | 'refunded' | 'depends';

/**
 * Whether the stored statuses that move into `status` give the cost back (shared/lifecycle.ts):
 * 13 always, 14 only when blocked before the carrier (an opted-out receiver), 10 and 11 never.
 */
export function finalCost(status: MessageStatus): FinalCost {
  const refunds = Object.values(LIFECYCLE).flatMap((rule) =>
    rule.moves.filter((move) => move.to === status).map((move) => move.refund),
  );
  if (refunds.length === 0 || refunds.every((refund) => !refund)) return 'charged';
  return refunds.every((refund) => refund) ? 'refunded' : 'depends';
}

/**
 * Whether one message that reached `status` from `from` got its cost back; null while the status
 * may still move (the cost is charged for now).
 */
export function refundedMove(from: number, status: number): boolean | null {
  if (!isMessageStatus(status) || !LIFECYCLE[status].final) return null;
  return moveOf(from, status)?.refund ?? false;
}
