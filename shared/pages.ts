// SMS segmentation of a final text (PRODUCT.md "Pages and cost"): GSM-7 160 / 153 per page with
// extension characters counting two, otherwise UCS-2 70 / 67 per page in UTF-16 code units.

const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '^{}\\[~]|€\f';

const basic = new Set(GSM7_BASIC);
const extension = new Set(GSM7_EXTENSION);

export type Encoding = 'GSM-7' | 'UCS-2';

export interface Segmentation {
  encoding: Encoding;
  /** Length as the carrier counts it: septets for GSM-7, UTF-16 code units for UCS-2. */
  units: number;
  pages: number;
  /** Capacity of one page at this length (160/153 or 70/67). */
  perPage: number;
}

/** Characters that force UCS-2 (for highlighting in the composer), in order of appearance. */
export function ucs2Characters(text: string): string[] {
  const found: string[] = [];
  for (const ch of text) if (!basic.has(ch) && !extension.has(ch)) found.push(ch);
  return found;
}

export function segment(text: string): Segmentation {
  let septets = 0;
  let gsm = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (basic.has(ch)) septets += 1;
    else if (extension.has(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) return paginate('GSM-7', septets, 160, 153);
  return paginate('UCS-2', text.length, 70, 67);
}

// PRODUCT.md's rule to the letter: pages = ceil(units / per-page capacity). Real handsets also
// avoid splitting an extension character or a surrogate pair across pages, which can add a page at
// a boundary; we count as the product brief documents, so cost is predictable from the length.
function paginate(encoding: Encoding, units: number, single: number, multi: number): Segmentation {
  if (units <= single) return { encoding, units, pages: 1, perPage: single };
  return { encoding, units, pages: Math.ceil(units / multi), perPage: multi };
}

export function countPages(text: string): number {
  return segment(text).pages;
}

export interface Pricing {
  /** Price of one SMS page, in tomans. */
  sms_page_tomans: number;
  /** Price of one messenger (bale, rubika) message, in tomans. */
  messenger_message_tomans: number;
}

/** Cost of one message in rials (tomans x 10), from its final text and the line's provider. */
export function messageCostRials(finalText: string, messenger: boolean, pricing: Pricing): number {
  if (messenger) return Math.round(pricing.messenger_message_tomans * 10);
  return Math.round(countPages(finalText) * pricing.sms_page_tomans * 10);
}
