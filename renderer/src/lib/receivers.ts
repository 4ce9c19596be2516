// What the composer shows before sending: the pasted receivers split, normalized leniently
// (Persian digits, spaces, +98/0098 prefixes) and sorted into valid, invalid and duplicate.
import { normalizePhone, splitReceivers } from '../../../shared/phone';

export interface ReceiversAnalysis {
  /** Every receiver in pasted order, as it will be submitted (normalized when valid). */
  submitted: string[];
  /** Distinct valid numbers, 09xxxxxxxxx. */
  valid: string[];
  /** Entries that are no mobile number, as typed. */
  invalid: string[];
  /** Normalized numbers seen more than once, each listed once (as the service reports them). */
  duplicates: string[];
}

export function analyzeReceivers(text: string, extra: readonly string[] = []): ReceiversAnalysis {
  const submitted: string[] = [];
  const valid: string[] = [];
  const invalid: string[] = [];
  const duplicates: string[] = [];
  const seen = new Set<string>();
  for (const raw of [...splitReceivers(text), ...extra]) {
    const phone = normalizePhone(raw);
    if (phone === null) {
      // Submitted as typed: the service answers it with status 0, so the result lists it too.
      invalid.push(raw);
      submitted.push(raw);
    } else if (seen.has(phone)) {
      if (!duplicates.includes(phone)) duplicates.push(phone);
      submitted.push(phone);
    } else {
      seen.add(phone);
      valid.push(phone);
      submitted.push(phone);
    }
  }
  return { submitted, valid, invalid, duplicates };
}
