// Receiver classification, the one loop behind every send (API, panel, campaign, preview) and the
// composer's live view: each submitted receiver, in order, is invalid, a duplicate of an earlier
// one, or valid (normalized). The API applies spec 4.1's strict pattern; pasted lists and
// spreadsheets the lenient normalization (Persian digits, spaces, prefixes).
import { normalizePhone, normalizeReceiver } from './phone';

export type ReceiverRule = 'strict' | 'lenient';

export const ReceiverKind = { Valid: 0, Invalid: 1, Duplicate: 2 } as const;
export type ReceiverKind = (typeof ReceiverKind)[keyof typeof ReceiverKind];

export interface ClassifiedReceivers {
  /** Per submitted receiver, in order. */
  kinds: ReceiverKind[];
  /** Per submitted receiver: the normalized number when valid or duplicate, else as submitted. */
  receptors: string[];
  /** Indexes (into the submitted list) of the valid receivers, in order. */
  valid: number[];
  invalidCount: number;
  duplicateCount: number;
}

function normalizerOf(rule: ReceiverRule): (raw: string) => string | null {
  return rule === 'strict' ? normalizeReceiver : normalizePhone;
}

export function classifyReceivers(receivers: readonly string[], rule: ReceiverRule): ClassifiedReceivers {
  const normalize = normalizerOf(rule);
  const kinds: ReceiverKind[] = new Array(receivers.length);
  const receptors: string[] = new Array(receivers.length);
  const valid: number[] = [];
  const seen = new Set<string>();
  let invalidCount = 0;
  for (let i = 0; i < receivers.length; i++) {
    const raw = receivers[i]!;
    const receptor = normalize(raw);
    if (receptor === null) {
      kinds[i] = ReceiverKind.Invalid;
      receptors[i] = raw;
      invalidCount++;
    } else if (seen.has(receptor)) {
      kinds[i] = ReceiverKind.Duplicate;
      receptors[i] = receptor;
    } else {
      seen.add(receptor);
      kinds[i] = ReceiverKind.Valid;
      receptors[i] = receptor;
      valid.push(i);
    }
  }
  return { kinds, receptors, valid, invalidCount, duplicateCount: receivers.length - valid.length - invalidCount };
}

/**
 * The lists a person reads: valid numbers, invalid entries as typed, and each dropped repeat (a
 * number entered three times is listed twice), so the three lists add up to the entries.
 */
export function summarizeReceivers(classified: ClassifiedReceivers): {
  valid: string[];
  invalid: string[];
  duplicates: string[];
} {
  const valid = classified.valid.map((i) => classified.receptors[i]!);
  const invalid: string[] = [];
  const duplicates: string[] = [];
  classified.kinds.forEach((kind, i) => {
    if (kind === ReceiverKind.Invalid) invalid.push(classified.receptors[i]!);
    else if (kind === ReceiverKind.Duplicate) duplicates.push(classified.receptors[i]!);
  });
  return { valid, invalid, duplicates };
}

/**
 * The lists of the first `pasted` receivers (those the person typed or pasted), when a segment's
 * members follow them: its members are counted, not listed. The composer's preview answers these.
 */
export function summarizePasted(
  classified: ClassifiedReceivers,
  pasted: number,
): { valid: string[]; invalid: string[]; duplicates: string[] } {
  return summarizeReceivers({
    ...classified,
    kinds: classified.kinds.slice(0, pasted),
    receptors: classified.receptors.slice(0, pasted),
    valid: classified.valid.filter((i) => i < pasted),
  });
}
