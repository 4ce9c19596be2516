// The app's composer over the one acceptance path: the preview is accept's dry run (quote) of the
// very command the panel send records, so the two cannot disagree on the sender line, the final
// text, pages, cost or the credit; it adds only what a person reads (characters forcing UCS-2,
// the receiver lists, the placeholders, a send of the same text a moment ago). A panel send of
// any size is one acceptance: recorded whole or not at all.
//
// `{{COLUMN}}` is filled per recipient by the campaigns' text builder (campaigns/template.ts, the
// same rules): from the chosen segment's columns for its members; pasted numbers have no columns
// (their values are empty, `{{PHONE_NUMBER}}` is the number). The texts go to the acceptance path
// as own texts, so each is priced and charged as its own. The values are the shop's own words
// (typed into its spreadsheets, often on an Arabic keyboard): their Arabic ي/ك go out as Persian
// ی/ک. The HTTP API's sends keep what other programs send.
import type { Core } from '../core';
import { normalizePhone, splitReceivers } from '../../../shared/phone';
import { composePreviewOf, type Personalization } from '../../../shared/compose';
import { summarizePasted, summarizeReceivers, type ClassifiedReceivers } from '../../../shared/receivers';
import type { PricedText } from '../../../shared/pricing';
import type { ComposePreview } from '../../../shared/ipc/schemas';
import type { ParsedInputOf } from '../../../shared/ipc/contracts';
import type { AcceptCommand } from './accept';
import { ApiCode } from '../../../shared/status';
import { toPersianLetters } from '../../../shared/persian-letters';
import {
  compileTemplate,
  placeholderNames,
  singleBraceNames,
  TextBuilder,
  PHONE_COLUMN,
  type CompiledTemplate,
} from '../campaigns/template';

/** What the composer sends (`messages:send`); its preview takes the same without the file. */
export type ComposeInput = ParsedInputOf<'compose:preview'> & Pick<ParsedInputOf<'messages:send'>, 'file_id'>;

/** How far back a send of the same text to the same receivers is said before sending again. */
export const RECENT_DUPLICATE_MS = 10 * 60_000;
/** Sends looked at (newest first) for one: an API sending one message a second makes 600 in ten minutes. */
const RECENT_SENDS_SCANNED = 5_000;
/** Receivers of earlier sends read to count the overlap: a few large sends at most. */
const RECENT_RECEIVERS_READ = 200_000;

/** The text builder's key for numbers without columns (segment ids start at 1). */
const PASTED = 0;

interface Composed {
  command: AcceptCommand & { priceCache: Map<string, PricedText> };
  /** Receivers pasted or listed; the segment's members follow them in `command.receivers`. */
  pasted: number;
  template: CompiledTemplate;
  /** Set for a personalized text, with where each receiver's values come from. */
  fill: {
    builder: TextBuilder;
    /** Per receiver: its column values as the segment stores them, or null (a number not in the segment). */
    fields: Array<string | null>;
    segmentId: number;
  } | null;
  /** Placeholders there are values for: the segment's columns, and PHONE_NUMBER. */
  columns: string[];
}

/** Pasted, listed, then the segment's members: one list, classified once by the acceptance path. */
function compose(core: Core, input: ComposeInput): Composed {
  const pasted = [...(input.receivers_text ? splitReceivers(input.receivers_text) : []), ...(input.receivers ?? [])];
  const template = compileTemplate(input.message, []);
  const segmentId = input.segment_id ?? PASTED;
  let members: string[] = [];
  let memberFields: string[] = [];
  let segmentColumns: string[] = [];
  if (input.segment_id !== undefined)
    // One snapshot: the columns and the members they describe.
    core.db.transaction(() => {
      segmentColumns = core.segments.get(input.account_id, segmentId).columns;
      if (template.personalized) {
        ({ phones: members, fields: memberFields } = core.segments.phonesWithFields(input.account_id, segmentId));
        memberFields = memberFields.map(toPersianLetters);
      } else members = core.segments.phones(input.account_id, segmentId);
    })();
  const columns = segmentColumns.map((c) => c.toUpperCase());
  if (!columns.includes(PHONE_COLUMN)) columns.push(PHONE_COLUMN);

  const receivers = [...pasted, ...members];
  let fill: Composed['fill'] = null;
  let texts: string[] | undefined;
  if (template.personalized) {
    const builder = new TextBuilder(template, { [segmentId]: segmentColumns });
    // A pasted number that is also a member gets the member's values (it is sent once, as pasted).
    const byPhone = new Map<string, string>();
    if (members.length > 0 && pasted.length > 0) members.forEach((phone, i) => byPhone.set(phone, memberFields[i]!));
    const fields: Array<string | null> = new Array(receivers.length);
    texts = new Array(receivers.length);
    for (let i = 0; i < receivers.length; i++) {
      if (i < pasted.length) {
        // The number as sent, for {{PHONE_NUMBER}} and to find it among the members.
        const raw = receivers[i]!;
        const phone = builder.usesPhone || byPhone.size > 0 ? (normalizePhone(raw) ?? raw) : raw;
        const own = byPhone.get(phone) ?? null;
        fields[i] = own;
        texts[i] = builder.cachedText(phone, own === null ? PASTED : segmentId, own ?? '');
      } else {
        const own = memberFields[i - pasted.length] ?? '';
        fields[i] = own;
        texts[i] = builder.cachedText(receivers[i]!, segmentId, own);
      }
    }
    fill = { builder, fields, segmentId };
  }
  return {
    command: {
      accountId: input.account_id,
      origin: 'panel',
      sender: input.sender,
      text: input.message,
      receivers,
      texts,
      rule: 'lenient',
      fileId: input.file_id ?? null,
      // Kept to read each recipient's pages after the dry run.
      priceCache: new Map(),
    },
    pasted: pasted.length,
    template,
    fill,
    columns,
  };
}

export function preview(core: Core, input: ComposeInput): ComposePreview {
  const composed = compose(core, input);
  const { command, pasted } = composed;
  const quote = core.messaging.accept.quote(command);
  // The lists people read are the pasted part; a segment's members are counted, not listed.
  const { classified } = quote;
  const lists = summarizePasted(classified, pasted);
  const receptors = classified.valid.map((i) => classified.receptors[i]!);
  return composePreviewOf({
    provider: quote.line.provider,
    message: input.message,
    price: quote.price,
    lists,
    accepted: quote.accepted,
    totalRials: quote.totalRials,
    creditRials: quote.creditRials,
    enoughCredit: quote.refusal !== ApiCode.NoCredit,
    personalization: composed.fill ? personalization(composed, classified, quote.price) : null,
    columns: composed.columns,
    singleBraces: singleBraceNames(input.message),
    recentDuplicate: recentDuplicate(core, input.account_id, quote.price.text, receptors),
  });
}

/** The first recipient's text, the longest one's pages, and who lacks a value for each placeholder. */
function personalization(composed: Composed, classified: ClassifiedReceivers, template: PricedText): Personalization {
  const { command, columns } = composed;
  const { builder, fields, segmentId } = composed.fill!;
  const texts = command.texts!;
  const { valid, receptors } = classified;
  const priced = (i: number) => command.priceCache.get(texts[i] ?? command.text)!;
  const placeholders = placeholderNames(composed.template).map((name) => ({
    name,
    known: columns.includes(name),
    missing: 0,
  }));
  let maxPages = 0;
  for (const i of valid) {
    maxPages = Math.max(maxPages, priced(i).pages);
    const own = fields[i] ?? null;
    for (const placeholder of placeholders) {
      const value = builder.value(placeholder.name, receptors[i]!, own === null ? PASTED : segmentId, own ?? '');
      if (value.trim() === '') placeholder.missing++;
    }
  }
  const first = valid[0];
  return {
    sample: first === undefined ? null : { receptor: receptors[first]!, price: priced(first) },
    maxPages: first === undefined ? template.pages : maxPages,
    placeholders,
  };
}

/**
 * The latest send of the same final text (the template, when personalized) within the last
 * minutes that reached some of these receivers, and how many of them it (or another such send)
 * reached. Sends are read newest first on the account's id index and the walk stops at the first
 * one older than the window: the cost follows the recent sends, not the size of the tables.
 */
function recentDuplicate(
  core: Core,
  accountId: number,
  finalText: string,
  receptors: readonly string[],
): ComposePreview['recent_duplicate'] {
  if (receptors.length === 0) return null;
  const since = core.clock.now() - RECENT_DUPLICATE_MS;
  const same: Array<{ id: number; created_at: number }> = [];
  let scanned = 0;
  const recent = core.db
    .prepare<[number], { id: number; created_at: number; text: string }>(
      'SELECT id, created_at, text FROM sends WHERE account_id = ? ORDER BY id DESC',
    )
    .iterate(accountId);
  for (const send of recent) {
    if (send.created_at < since || ++scanned > RECENT_SENDS_SCANNED) break;
    if (send.text === finalText) same.push({ id: send.id, created_at: send.created_at });
  }
  if (same.length === 0) return null;
  const draft = new Set(receptors);
  const reached = new Set<string>();
  let latest: { id: number; created_at: number } | null = null;
  let read = 0;
  const receiversOf = core.db.prepare<[number], string>('SELECT receptor FROM messages WHERE send_id = ?').pluck();
  for (const send of same) {
    let hit = false;
    for (const receptor of receiversOf.iterate(send.id)) {
      if (draft.has(receptor)) {
        reached.add(receptor);
        hit = true;
      }
      if (++read > RECENT_RECEIVERS_READ) break;
    }
    if (hit) latest ??= send;
    if (read > RECENT_RECEIVERS_READ) break;
  }
  return latest === null ? null : { send_id: latest.id, at: latest.created_at, overlap: reached.size };
}

export function panelSend(
  core: Core,
  input: ComposeInput,
): { send_id: number; accepted: number; total_rials: number; invalid: string[]; duplicates: string[] } {
  const { command } = compose(core, input);
  const acceptance = core.messaging.accept.accept(command);
  const { invalid, duplicates } = summarizeReceivers(acceptance.classified);
  return {
    send_id: acceptance.sendId,
    accepted: acceptance.accepted,
    total_rials: acceptance.totalRials,
    invalid,
    duplicates,
  };
}
