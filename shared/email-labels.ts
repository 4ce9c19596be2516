// What an email recipient's status is called where people read it, per language: the results
// page's badges and filters and the exports' status column both read this table (as the SMS
// statuses' words live in status-labels.ts), so a screen and its spreadsheet never disagree.
import type { EmailRecipientStatus } from './email';
import type { LabelLanguage } from './status-labels';

export const EMAIL_STATUS_LABELS: Record<LabelLanguage, Record<EmailRecipientStatus, string>> = {
  en: {
    pending: 'Waiting',
    queued: 'Queued',
    scheduled: 'Scheduled',
    processed: 'Processed',
    deferred: 'Deferred',
    delivered: 'Delivered',
    bounced: 'Bounced',
    failed: 'Failed',
    suppressed: 'Suppressed',
    cancelled: 'Cancelled',
    sent: 'Accepted',
    error: 'Refused',
  },
  fa: {
    pending: 'در انتظار',
    queued: 'در صف',
    scheduled: 'زمان‌بندی‌شده',
    processed: 'در حال ارسال',
    deferred: 'به تعویق افتاده',
    delivered: 'تحویل‌شده',
    bounced: 'برگشتی',
    failed: 'ناموفق',
    suppressed: 'ارسال‌نشدنی',
    cancelled: 'لغوشده',
    sent: 'پذیرفته‌شده',
    error: 'ردشده',
  },
};

export function emailStatusLabel(status: EmailRecipientStatus, language: LabelLanguage): string {
  return EMAIL_STATUS_LABELS[language][status];
}
