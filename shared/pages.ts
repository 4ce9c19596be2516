// SMS segmentation of a final text (PRODUCT.md "Pages and cost"): GSM-7 160 / 153 per page with
// extension characters counting two, otherwise UCS-2 70 / 67 per page in UTF-16 code units; a
// page boundary never splits an extension character or a surrogate pair.

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
  if (gsm) return paginate('GSM-7', text, septets, 160, 153);
  return paginate('UCS-2', text, text.length, 70, 67);
}

// Beyond one page, characters are packed page by page as a phone or carrier does: an extension
// character (escape + character) or a surrogate pair (an emoji) is never split across two pages,
// so a page can end one unit short and the text may need one page more than units / perPage.
function paginate(encoding: Encoding, text: string, units: number, single: number, multi: number): Segmentation {
  if (units <= single) return { encoding, units, pages: 1, perPage: single };
  let pages = 1;
  let used = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let size = 1;
    if (encoding === 'GSM-7') size = extension.has(text[i]!) ? 2 : 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        size = 2;
        i++;
      }
    }
    if (used + size > multi) {
      pages++;
      used = 0;
    }
    used += size;
  }
  return { encoding, units, pages, perPage: multi };
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
