// What the composer shows before sending: the pasted receivers split and classified by the same
// shared loop every send goes through (lenient: Persian digits, spaces, +98/0098 prefixes).
import { splitReceivers } from '../../../shared/phone';
import { classifyReceivers, summarizeReceivers } from '../../../shared/receivers';

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
  const classified = classifyReceivers([...splitReceivers(text), ...extra], 'lenient');
  // Invalid entries are submitted as typed: the service answers them with status 0.
  return { submitted: classified.receptors, ...summarizeReceivers(classified) };
}
