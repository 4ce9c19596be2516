// A campaign's text per recipient (PRODUCT.md): `{{COLUMN}}` filled from the recipient's segment
// columns (matched without regard to case; a missing value becomes empty; `{{PHONE_NUMBER}}` is
// the number itself), and each `links[i]actual_url` found in the body replaced by the recipient's
// own short link. The template is compiled once per execution into parts; a recipient's text is
// their concatenation. The composer fills its `{{COLUMN}}` by the same rules (without links).
//
// Untracked links (track_links false) are no short links at all: the template writes each as its own
// address with its UTM tags (links.ts's rule), so every recipient's text is final when built.
//
// Links are written in two steps so pricing stays cheap: the personalized text first carries a
// placeholder of exactly the short link's length and kind of characters (so it prices the same),
// and `fillLinks` swaps in the real codes after the acceptance path priced it.
import { FIELD_SEPARATOR } from '../contacts/fields';
import { SHORT_PATH, taggedAddress, type Utm } from './links';
import type { CampaignLink } from './form';

type Part = { text: string } | { column: string } | { link: number };

export interface CompiledTemplate {
  parts: Part[];
  /** Link positions used by the body (a link whose address is not in the body gets no code). */
  links: number[];
  personalized: boolean;
}

// The name is trimmed after the match, not by `\s*` around a lazy group: those overlap on white
// space, and "{{" before 10,000 spaces took 107 s to refuse (a composer's text reaches this).
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
/** `{NAME}` not inside `{{…}}`: what people write meaning a placeholder. */
const SINGLE_BRACE = /(?<!\{)\{([^{}]*)\}(?!\})/g;
export const PHONE_COLUMN = 'PHONE_NUMBER';

/** The names of the body's placeholders, upper-cased as they are matched, each once in order. */
export function placeholderNames(template: CompiledTemplate): string[] {
  return [...new Set(template.parts.flatMap((part) => ('column' in part ? [part.column] : [])))];
}

/** Names written with single braces (`{NAME}`): sent as typed, so probably meant as `{{NAME}}`. */
export function singleBraceNames(body: string): string[] {
  return [...new Set([...body.matchAll(SINGLE_BRACE)].map((match) => match[1]!.trim()).filter((name) => name !== ''))];
}

export function compileTemplate(
  body: string,
  links: ReadonlyArray<{ idx: number; actual_url: string }>,
): CompiledTemplate {
  // Longest address first, so one that extends another is not cut by the shorter one.
  const ordered = [...links].sort((a, b) => b.actual_url.length - a.actual_url.length);
  const taken: Array<{ from: number; to: number; part: Part }> = [];
  const free = (from: number, to: number) => taken.every((t) => to <= t.from || from >= t.to);
  for (const link of ordered) {
    let at = body.indexOf(link.actual_url);
    while (at >= 0) {
      const to = at + link.actual_url.length;
      if (free(at, to)) taken.push({ from: at, to, part: { link: link.idx } });
      at = body.indexOf(link.actual_url, to);
    }
  }
  for (const match of body.matchAll(PLACEHOLDER)) {
    const from = match.index;
    const to = from + match[0].length;
    if (free(from, to)) taken.push({ from, to, part: { column: match[1]!.trim().toUpperCase() } });
  }
  taken.sort((a, b) => a.from - b.from);
  const parts: Part[] = [];
  let at = 0;
  for (const t of taken) {
    if (t.from > at) parts.push({ text: body.slice(at, t.from) });
    parts.push(t.part);
    at = t.to;
  }
  if (at < body.length) parts.push({ text: body.slice(at) });
  const used = [...new Set(taken.flatMap((t) => ('link' in t.part ? [t.part.link] : [])))].sort((a, b) => a - b);
  return { parts, links: used, personalized: taken.some((t) => 'column' in t.part) };
}

/**
 * The template with each link written as its own address, its UTM tags added when it asked for
 * them: an untracked campaign's text, with no code to fill and no click to count.
 */
export function untrackedLinks(
  template: CompiledTemplate,
  links: readonly Pick<CampaignLink, 'idx' | 'actual_url' | 'has_utm'>[],
  utm: Utm,
): CompiledTemplate {
  const address = new Map(links.map((link) => [link.idx, taggedAddress(link.actual_url, link.has_utm ? utm : null)]));
  return {
    ...template,
    parts: template.parts.map((part) => ('link' in part ? { text: address.get(part.link)! } : part)),
    links: [],
  };
}

/** 8 characters per link position, letters only like a real code: priced exactly as one. */
const placeholderCode = (link: number) => `QzXqjWv${'abcdefghjk'[link]}`;

export class TextBuilder {
  private readonly columnIndexes = new Map<number, Map<string, number>>();
  private readonly placeholders: string[];
  private readonly cache = new Map<number, Map<string, string>>();
  /** True when a text shows the number itself ({{PHONE_NUMBER}} not a column of the segment). */
  readonly usesPhone: boolean;

  constructor(
    private readonly template: CompiledTemplate,
    /** The columns of each inclusion segment, by segment id. */
    private readonly segmentColumns: Record<string, string[]>,
    /** Where short links point; a template without links needs none. */
    private readonly linkBase = '',
  ) {
    this.placeholders = Array.from({ length: 10 }, (_, i) => linkBase + SHORT_PATH + placeholderCode(i));
    this.usesPhone = template.parts.some((part) => 'column' in part && part.column === PHONE_COLUMN);
  }

  /** True when every recipient gets the same text (no placeholder, no link). */
  get shared(): boolean {
    return !this.template.personalized && this.template.links.length === 0;
  }

  get hasLinks(): boolean {
    return this.template.links.length > 0;
  }

  /** The recipient's text with link placeholders (what is priced). */
  text(phone: string, segmentId: number, fields: string): string {
    let values: string[] | null = null;
    let out = '';
    for (const part of this.template.parts) {
      if ('text' in part) out += part.text;
      else if ('link' in part) out += this.placeholders[part.link]!;
      else {
        const index = this.columnIndex(segmentId, part.column);
        if (index === undefined) out += part.column === PHONE_COLUMN ? phone : '';
        else out += (values ??= fields.split(FIELD_SEPARATOR))[index] ?? '';
      }
    }
    return out;
  }

  /** What a placeholder (upper-cased name) becomes in the recipient's text ('' when they have no value). */
  value(column: string, phone: string, segmentId: number, fields: string): string {
    const index = this.columnIndex(segmentId, column);
    if (index === undefined) return column === PHONE_COLUMN ? phone : '';
    return fields.split(FIELD_SEPARATOR)[index] ?? '';
  }

  /**
   * text(), the same string object for recipients of one segment with the same values: their
   * texts are priced once (the acceptance path keys its prices by text, and a string's hash is
   * computed once per object). Bounded; the number-showing templates are not cached.
   */
  cachedText(phone: string, segmentId: number, fields: string): string {
    if (this.usesPhone) return this.text(phone, segmentId, fields);
    let bySegment = this.cache.get(segmentId);
    if (bySegment === undefined) this.cache.set(segmentId, (bySegment = new Map()));
    let text = bySegment.get(fields);
    if (text === undefined) {
      if (bySegment.size >= 50_000) bySegment.clear();
      bySegment.set(fields, (text = this.text(phone, segmentId, fields)));
    }
    return text;
  }

  /** The final text with each link placeholder replaced by the recipient's short link. */
  fillLinks(finalText: string, code: (link: number) => string): string {
    let out = finalText;
    for (const link of this.template.links)
      out = out.replaceAll(this.placeholders[link]!, this.linkBase + SHORT_PATH + code(link));
    return out;
  }

  private columnIndex(segmentId: number, column: string): number | undefined {
    let indexes = this.columnIndexes.get(segmentId);
    if (indexes === undefined) {
      indexes = new Map((this.segmentColumns[segmentId] ?? []).map((name, i) => [name.toUpperCase(), i]));
      this.columnIndexes.set(segmentId, indexes);
    }
    return indexes.get(column);
  }
}
