// The composer's instant preview, on every keystroke without a round trip: the shared pricing
// (shared/pricing.ts), the very function the core's acceptance path and its dry run price with.
// The core's quote of the whole send (compose:preview) follows a moment later and has the last word.
import { ucs2Characters, type Encoding, type Pricing } from '../../../shared/pages';
import { priceText } from '../../../shared/pricing';
import type { Provider } from '../../../shared/status';

export interface ComposePreview {
  finalText: string;
  /** SMS lines get the opt-out phrase; messenger lines are sent as typed. */
  optOutAdded: boolean;
  encoding: Encoding;
  /** Units as the carrier counts them (septets or UTF-16 code units). */
  characters: number;
  pages: number;
  perPage: number;
  /** Distinct characters that force UCS-2, in order of first appearance. */
  ucs2: string[];
  costPerMessageRials: number;
  totalRials: number;
}

export function composePreview(text: string, provider: Provider, pricing: Pricing, receivers: number): ComposePreview {
  const price = priceText(text, provider, pricing);
  return {
    finalText: price.text,
    optOutAdded: price.optOutAdded,
    encoding: price.encoding,
    characters: price.units,
    pages: price.pages,
    perPage: price.perPage,
    ucs2: [...new Set(ucs2Characters(price.text))],
    costPerMessageRials: price.costRials,
    totalRials: price.costRials * receivers,
  };
}

/** Splits a text into runs so the UI can mark the characters that force UCS-2. */
export function ucs2Runs(text: string): Array<{ text: string; ucs2: boolean }> {
  const forcing = new Set(ucs2Characters(text));
  const runs: Array<{ text: string; ucs2: boolean }> = [];
  for (const ch of text) {
    const ucs2 = forcing.has(ch) && ch !== '\n';
    const last = runs[runs.length - 1];
    if (last && last.ucs2 === ucs2) last.text += ch;
    else runs.push({ text: ch, ucs2 });
  }
  return runs;
}
