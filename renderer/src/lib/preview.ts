// The composer's live preview computed locally from shared/ rules (the same functions the service
// uses), so it updates on every keystroke without a round trip.
import { finalText } from '../../../shared/optout';
import { messageCostRials, segment, ucs2Characters, type Encoding, type Pricing } from '../../../shared/pages';
import { isMessengerProvider, type Provider } from '../../../shared/status';

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
  const messenger = isMessengerProvider(provider);
  const final = finalText(text, messenger);
  const seg = segment(final);
  const cost = messageCostRials(final, messenger, pricing);
  return {
    finalText: final,
    optOutAdded: !messenger,
    encoding: seg.encoding,
    characters: seg.units,
    pages: messenger ? 1 : seg.pages,
    perPage: seg.perPage,
    ucs2: [...new Set(ucs2Characters(final))],
    costPerMessageRials: cost,
    totalRials: cost * receivers,
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
