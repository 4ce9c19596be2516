// The composer's instant preview, on every keystroke without a round trip: the shared pricing
// (shared/pricing.ts), the very function the core's acceptance path and its dry run price with.
// The core's quote of the whole send (compose:preview) follows a moment later and has the last word.
//
// Characters that need the 70-a-page alphabet are pointed out only when they cost money: an SMS
// text ends with the Persian opt-out phrase (70 a page whatever was typed) and a messenger message
// has one price whatever its length, so a Persian letter there changes nothing.
import { ucs2Characters, type Encoding, type Pricing } from '../../../shared/pages';
import { priceText, type PricedText } from '../../../shared/pricing';
import type { Provider } from '../../../shared/status';

export interface ComposePreview {
  finalText: string;
  /** SMS lines get the opt-out phrase; messenger lines are sent as typed. */
  optOutAdded: boolean;
  messenger: boolean;
  encoding: Encoding;
  /** Units as the carrier counts them (septets or UTF-16 code units). */
  characters: number;
  pages: number;
  perPage: number;
  /** Distinct typed characters that raise the price (in order of first appearance); empty when none do. */
  costly: string[];
  /** Characters a page would hold without them (set when `costly` is not empty). */
  perPageWithout: number | null;
  costPerMessageRials: number;
  totalRials: number;
}

export function composePreview(text: string, provider: Provider, pricing: Pricing, receivers: number): ComposePreview {
  const price = priceText(text, provider, pricing);
  const costly = costlyCharacters(text, (t) => priceText(t, provider, pricing));
  return {
    finalText: price.text,
    optOutAdded: price.optOutAdded,
    messenger: price.messenger,
    encoding: price.encoding,
    characters: price.units,
    pages: price.pages,
    perPage: price.perPage,
    costly: costly.characters,
    perPageWithout: costly.perPageWithout,
    costPerMessageRials: price.costRials,
    totalRials: price.costRials * receivers,
  };
}

/**
 * The typed characters that force the 70-a-page alphabet, when the same text with plain letters in
 * their place would be priced in the 160-a-page one and cost less; otherwise none. `price` is the
 * line's pricing of a typed text.
 */
export function costlyCharacters(
  message: string,
  price: (text: string) => PricedText,
): { characters: string[]; perPageWithout: number | null } {
  const none = { characters: [], perPageWithout: null };
  const forcing = [...new Set(ucs2Characters(message))];
  if (forcing.length === 0) return none;
  const swap = new Set(forcing);
  const plain = price([...message].map((ch) => (swap.has(ch) ? 'x' : ch)).join(''));
  const priced = price(message);
  if (plain.encoding === priced.encoding || plain.costRials >= priced.costRials) return none;
  return { characters: forcing, perPageWithout: plain.perPage };
}

/** Splits a text into runs so the UI can mark the given characters. */
export function markedRuns(text: string, marked: ReadonlySet<string>): Array<{ text: string; marked: boolean }> {
  const runs: Array<{ text: string; marked: boolean }> = [];
  for (const ch of text) {
    const on = marked.has(ch) && ch !== '\n';
    const last = runs[runs.length - 1];
    if (last && last.marked === on) last.text += ch;
    else runs.push({ text: ch, marked: on });
  }
  return runs;
}

/** Characters a person cannot see, by their name's key under `compose.invisible` (i18n). */
const INVISIBLE: Record<string, string> = {
  '\u200c': 'zwnj',
  '\u200d': 'zwj',
  '\u200b': 'zwsp',
  '\u200e': 'lrm',
  '\u200f': 'rlm',
  '\u061c': 'alm',
  '\u00a0': 'nbsp',
  '\u202f': 'nnbsp',
  '\u2009': 'thinSpace',
  '\u00ad': 'softHyphen',
  '\ufeff': 'bom',
  '\u2028': 'lineSeparator',
  '\t': 'tab',
  ' ': 'space',
  '\n': 'newline',
  '\r': 'newline',
};

/** The i18n key naming an invisible character (`compose.invisible.<key>`), or null for a visible one. */
export function invisibleName(ch: string): string | null {
  if (INVISIBLE[ch] !== undefined) return INVISIBLE[ch];
  // Other format and space characters (bidi controls, odd spaces) are named by their code.
  return /^[\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Cc}]$/u.test(ch) ? 'other' : null;
}

/** U+200C for a character, as a name's fallback. */
export function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
