// Short tracked links (PRODUCT.md): each recipient's text carries its own `{base}/l/{code}` per
// link of the campaign, and a visit records a click and redirects to the original address.
//
// A code is not stored anywhere: it is the (execution, recipient seq, link) triple, numbered into
// 46 bits and put through a keyed permutation of the 46-bit numbers (a Feistel network), written
// in 8 base-57 characters (57^8 > 2^46). A million recipients cost no extra rows and no lookups
// when their texts are built, and decoding a code finds its message directly. Codes cannot be
// walked: the key is a random secret of the workspace, and of the 57^8 ≈ 1.1e14 possible codes only
// the ones of real recipients decode to one (at ten million sent links, one guess in ten million
// hits anything).
//
// The alphabet leaves out 0, O, 1, I and l: nothing to misread on a phone screen, and no "11" can
// appear in a code, so the opt-out phrase rule (shared/optout.ts) never sees a variant inside one.
import { createHash } from 'node:crypto';
import { LINK_CODE_LENGTH } from '../../../shared/campaigns';
import { schemeOf } from './form';

const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const RADIX = ALPHABET.length;
/** The permuted numbers: 46 bits, two halves of 23. */
const HALF = 2 ** 23;
const DOMAIN = HALF * HALF;
const ROUNDS = 4;
const DIGIT = new Map([...ALPHABET].map((ch, i) => [ch, i]));

/** Link index: 4 bits (at most 10 links). Recipient seq: 24 bits (16.7 million). The execution: the other 18 bits. */
const LINK_BITS = 16;
const SEQ_SPAN = 2 ** 24;
export const MAX_EXECUTION_FOR_LINKS = Math.floor(DOMAIN / (SEQ_SPAN * LINK_BITS)) - 1;
export const MAX_RECIPIENTS_FOR_LINKS = SEQ_SPAN;

export interface LinkRef {
  executionId: number;
  seq: number;
  link: number;
}

/** The path of a short link under its base address. */
export const SHORT_PATH = '/l/';

export class LinkCodes {
  private readonly keys: number[];

  constructor(secret: string) {
    const digest = createHash('sha256').update(`chapar-links:${secret}`).digest();
    this.keys = Array.from({ length: ROUNDS }, (_, i) => digest.readUInt32LE(i * 4));
  }

  encode({ executionId, seq, link }: LinkRef): string {
    if (executionId > MAX_EXECUTION_FOR_LINKS || seq >= SEQ_SPAN || link >= LINK_BITS)
      throw new RangeError('link out of the code space');
    let x = this.permute((executionId * SEQ_SPAN + seq) * LINK_BITS + link);
    let code = '';
    for (let i = 0; i < LINK_CODE_LENGTH; i++) {
      code = ALPHABET[x % RADIX]! + code;
      x = Math.floor(x / RADIX);
    }
    return code;
  }

  /** The triple a code stands for, or null when the string is no code at all. */
  decode(code: string): LinkRef | null {
    if (code.length !== LINK_CODE_LENGTH) return null;
    let x = 0;
    for (const ch of code) {
      const digit = DIGIT.get(ch);
      if (digit === undefined) return null;
      x = x * RADIX + digit;
    }
    if (x >= DOMAIN) return null;
    x = this.unpermute(x);
    const link = x % LINK_BITS;
    const rest = Math.floor(x / LINK_BITS);
    return { executionId: Math.floor(rest / SEQ_SPAN), seq: rest % SEQ_SPAN, link };
  }

  private round(value: number, key: number): number {
    let h = Math.imul(value ^ key, 0x9e3779b1);
    h ^= h >>> 15;
    h = Math.imul(h, 0x85ebca77);
    h ^= h >>> 13;
    h = Math.imul(h ^ (key >>> 7), 0xc2b2ae3d);
    h ^= h >>> 16;
    return h & (HALF - 1);
  }

  private permute(x: number): number {
    let left = Math.floor(x / HALF);
    let right = x % HALF;
    for (const key of this.keys) {
      const next = left ^ this.round(right, key);
      left = right;
      right = next;
    }
    return left * HALF + right;
  }

  private unpermute(x: number): number {
    let left = Math.floor(x / HALF);
    let right = x % HALF;
    for (let i = this.keys.length - 1; i >= 0; i--) {
      const previous = right ^ this.round(left, this.keys[i]!);
      right = left;
      left = previous;
    }
    return left * HALF + right;
  }
}

/** How many characters one short link takes in a text: the base address, `/l/` and the code. */
export function shortLinkLength(base: string): number {
  return base.length + SHORT_PATH.length + LINK_CODE_LENGTH;
}

/** The tags a campaign's links carry when they ask for them (`has_utm`). */
export interface Utm {
  source: string;
  medium: string;
  campaign: string;
}

/** A campaign's UTM tags: `{id}` in utm_campaign is the campaign's id. */
export function campaignUtm(campaign: {
  id: number;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
}): Utm {
  return {
    source: campaign.utm_source,
    medium: campaign.utm_medium,
    campaign: campaign.utm_campaign.replaceAll('{id}', String(campaign.id)),
  };
}

/**
 * The address with utm_source, utm_medium and utm_campaign added (none when `utm` is null): its own
 * query (byte for byte, minus utm_* pairs it is given anew) and fragment kept, the rest as written.
 * What a visit of a short link is sent to (redirectAddress), and what an untracked link is written
 * as in the text itself.
 */
export function taggedAddress(address: string, utm: Utm | null): string {
  if (utm === null) return address;
  const hashAt = address.indexOf('#');
  const fragment = hashAt < 0 ? '' : address.slice(hashAt);
  const beforeFragment = hashAt < 0 ? address : address.slice(0, hashAt);
  const queryAt = beforeFragment.indexOf('?');
  const base = queryAt < 0 ? beforeFragment : beforeFragment.slice(0, queryAt);
  const own = queryAt < 0 ? [] : beforeFragment.slice(queryAt + 1).split('&');
  const given = new Set(['utm_source', 'utm_medium', 'utm_campaign']);
  const kept = own.filter((pair) => pair !== '' && !given.has(decodeKey(pair)));
  const added = [
    `utm_source=${encodeText(utm.source)}`,
    `utm_medium=${encodeText(utm.medium)}`,
    `utm_campaign=${encodeText(utm.campaign)}`,
  ];
  return `${base}?${[...kept, ...added].join('&')}${fragment}`;
}

/**
 * Where a visit goes: the original address with the UTM tags when the link asked for them
 * (taggedAddress). An address without a scheme (`shop.ir/sale`, as people write them in texts)
 * is taken as https.
 */
export function redirectAddress(actualUrl: string, utm: Utm | null): string {
  // A Location header carries ASCII only: what is outside it (a Persian path) goes UTF-8 percent-encoded.
  const ascii = taggedAddress(actualUrl, utm).replace(/[^\x21-\x7e]+/gu, (run) => encodeText(run));
  return schemeOf(ascii) !== null ? ascii : `https://${ascii}`;
}

/**
 * UTF-8 percent-encoding of any text: a lone surrogate (half of a character, which no UTF-8 can
 * carry and encodeURIComponent throws on) goes as U+FFFD, so a quote or a click never fails on it.
 */
function encodeText(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udfff]/gu, '\ufffd'));
}

function decodeKey(pair: string): string {
  const key = pair.split('=', 1)[0]!;
  try {
    return decodeURIComponent(key.replaceAll('+', ' '));
  } catch {
    return key;
  }
}
