// The composer's preview as the app shows it (compose:preview), built from a priced text and the
// receivers counted: one mapping for the core's dry run and the renderer tests' fake of it.
import { ucs2Characters } from './pages';
import type { PricedText } from './pricing';
import type { Provider } from './status';
import type { ComposePreview } from './ipc/schemas';

/** Positions (UTF-16 index) of the characters that force UCS-2 in the typed message. */
export function ucs2Positions(message: string): Array<{ char: string; index: number }> {
  const found: Array<{ char: string; index: number }> = [];
  let index = 0;
  for (const char of message) {
    if (ucs2Characters(char).length > 0) found.push({ char, index });
    index += char.length;
  }
  return found;
}

/** What a personalized text adds to the preview (the core fills `{{COLUMN}}` per recipient). */
export interface Personalization {
  /** The first recipient's text, priced: what the preview shows. */
  sample: { receptor: string; price: PricedText } | null;
  /** The most pages of any recipient's text. */
  maxPages: number;
  placeholders: ComposePreview['placeholders'];
}

export function composePreviewOf(quote: {
  provider: Provider;
  /** The message as typed (UCS-2 positions point into it). */
  message: string;
  price: PricedText;
  /** The pasted receivers people read (a segment's members are counted, not listed). */
  lists: { valid: string[]; invalid: string[]; duplicates: string[] };
  /** Messages the send records, segment members included. */
  accepted: number;
  totalRials: number;
  creditRials: number;
  /** The acceptance path's word: it would not refuse the send for credit. */
  enoughCredit: boolean;
  /** Set when the text has placeholders. */
  personalization?: Personalization | null;
  /** The segment's columns and PHONE_NUMBER, offered as placeholders (also when the text has none). */
  columns?: string[];
  singleBraces?: string[];
  recentDuplicate?: ComposePreview['recent_duplicate'];
}): ComposePreview {
  const { lists, personalization } = quote;
  // A personalized preview shows the first recipient's own text and price.
  const price = personalization?.sample?.price ?? quote.price;
  return {
    provider: quote.provider,
    messenger: price.messenger,
    final_text: price.text,
    opt_out_added: price.optOutAdded,
    encoding: price.encoding,
    characters: [...price.text].length,
    units: price.units,
    pages: price.pages,
    per_page: price.perPage,
    ucs2_characters: ucs2Positions(quote.message),
    cost_per_message_rials: price.costRials,
    total_cost_rials: quote.totalRials,
    credit_rials: quote.creditRials,
    enough_credit: quote.enoughCredit,
    receivers: { ...lists, segment_members: quote.accepted - lists.valid.length, total: quote.accepted },
    personalized: personalization != null,
    sample_receptor: personalization?.sample?.receptor ?? null,
    max_pages: personalization ? personalization.maxPages : price.pages,
    columns: quote.columns ?? ['PHONE_NUMBER'],
    placeholders: personalization?.placeholders ?? [],
    single_braces: quote.singleBraces ?? [],
    recent_duplicate: quote.recentDuplicate ?? null,
  };
}
