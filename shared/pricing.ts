// What one message costs (PRODUCT.md "Pages and cost"), in one function that the acceptance path,
// its dry run (the composer's preview) and the renderer all call: the final text (well-formed, with
// the opt-out phrase on SMS lines), its encoding and pages (a messenger message is one page,
// whatever its length) and its cost in rials.
import { finalText } from './optout';
import { messageCostRials, segment, type Encoding, type Pricing } from './pages';
import { isMessengerProvider, type Provider } from './status';

export interface PricedText {
  /** The text as it is sent and stored. */
  text: string;
  messenger: boolean;
  /** SMS lines get the opt-out phrase; messenger lines are sent as typed. */
  optOutAdded: boolean;
  encoding: Encoding;
  /** Length as the carrier counts it: septets for GSM-7, UTF-16 code units for UCS-2. */
  units: number;
  /** Pages billed: 1 for a messenger message, else the SMS segmentation of the final text. */
  pages: number;
  /** Capacity of one page at this length (160/153 or 70/67). */
  perPage: number;
  costRials: number;
}

/**
 * Texts are stored as UTF-8, where a lone surrogate (valid in a JSON string) cannot exist: SQLite
 * got invalid bytes and the recorded text differed from the one answered. It becomes U+FFFD
 * first, so the answer, the pages and the record agree.
 */
export function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

export function priceText(message: string, provider: Provider, pricing: Pricing): PricedText {
  const messenger = isMessengerProvider(provider);
  const text = finalText(wellFormed(message), messenger);
  const segmentation = segment(text);
  const pages = messenger ? 1 : segmentation.pages;
  return {
    text,
    messenger,
    optOutAdded: !messenger,
    encoding: segmentation.encoding,
    units: segmentation.units,
    pages,
    perPage: segmentation.perPage,
    costRials: messageCostRials(text, messenger, pricing),
  };
}
