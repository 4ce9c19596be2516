// "Resend to failed": who of an execution's failed recipients a resend would reach, and who it
// leaves out because a message to them cannot succeed (opted out, blocked, not a mobile number),
// counted by reason; and the resend's name in the person's language. The quote, the confirmation
// and the resend itself all read this one rule.
import type { Db } from '../db/database';
import { normalizePhone } from '../../../shared/phone';
import { toPersianDigits } from '../../../shared/digits';
import { MessageStatus } from '../../../shared/lifecycle';
import type { ResendLeftOut } from '../../../shared/campaigns';
import { resultRecipients, type ResultRecipient } from './results';

export type LeftOutReason = keyof ResendLeftOut;

/**
 * Why a failed recipient is left out of a resend, or null when a resend may reach them: an
 * opted-out number (asked now, not when the message failed), a message the carrier or the service
 * blocked, a receiver that is not a mobile number.
 */
export function leftOutReason(
  phone: string,
  status: MessageStatus,
  optedOut: (phone: string) => boolean,
): LeftOutReason | null {
  const normalized = normalizePhone(phone);
  if (normalized === null) return 'invalid';
  if (optedOut(normalized)) return 'opted_out';
  if (status === MessageStatus.Blocked) return 'blocked';
  return null;
}

/** The recipients a resend reaches, in chunks, with the left-out ones counted as they are read. */
export async function* resendRecipients(
  db: Db,
  executionId: number,
  optedOut: (phone: string) => boolean,
  leftOut: ResendLeftOut,
): AsyncGenerator<ResultRecipient[]> {
  for await (const chunk of resultRecipients(db, executionId, 'failed')) {
    const kept: ResultRecipient[] = [];
    for (const recipient of chunk) {
      const reason = leftOutReason(recipient[0], recipient[3], optedOut);
      if (reason === null) kept.push(recipient);
      else leftOut[reason]++;
    }
    yield kept;
  }
}

/** How many resends came before this one in the chain (a resend of a resend is #2). */
export function resendNumber(db: Db, campaignId: number): number {
  let n = 1;
  let resentFrom = db
    .prepare<[number], number | null>('SELECT resent_from FROM campaigns WHERE id = ?')
    .pluck()
    .get(campaignId);
  const parent = db
    .prepare<[number], number | null>(
      'SELECT c.resent_from FROM campaign_executions e JOIN campaigns c ON c.id = e.campaign_id WHERE e.id = ?',
    )
    .pluck();
  // Bounded: a chain is made one resend at a time, but a damaged row must not loop forever.
  while (resentFrom !== null && resentFrom !== undefined && n < 1_000) {
    n++;
    resentFrom = parent.get(resentFrom);
  }
  return n;
}

/** The generated name of a resend, in the person's language (the API's default: English). */
export function resendName(campaignName: string, n: number, language: 'fa' | 'en' = 'en'): string {
  return language === 'fa' ? `${campaignName} (ارسال دوباره ${toPersianDigits(n)})` : `${campaignName} (resend #${n})`;
}
