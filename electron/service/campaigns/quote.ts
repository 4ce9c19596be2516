// The dry run of a campaign as drafted in the app's editor: the audience counted and explained,
// each recipient's text built and priced exactly as an execution would (the same template, text
// builder and price function; short links at their full length), a few sample recipients shown
// whole, and the total against the credit. Nothing is written or held.
//
// The audience is read in chunks of number ranges (as an execution freezes it), yielding to the
// event loop between chunks, so a quote of 800,000 recipients never holds the window or the API;
// a newer quote of the same editor makes an older one stop (`stale`).
import { mulberry32 } from '../seeded-random';
import type { Db } from '../db/database';
import type { Segment } from '../../../shared/contacts';
import type { Provider } from '../../../shared/status';
import type { Pricing } from '../../../shared/pages';
import { priceText } from '../../../shared/pricing';
import {
  DEFAULT_UTM_CAMPAIGN,
  DEFAULT_UTM_MEDIUM,
  DEFAULT_UTM_SOURCE,
  LINK_CODE_LENGTH,
  type CampaignDraftFields,
  type CampaignQuote,
  type SampleKind,
} from '../../../shared/campaigns';
import { FIELD_SEPARATOR } from '../contacts/fields';
import { filterProblem } from '../../../shared/column-values';
import { audienceChunks, audienceView, type AudienceRow } from '../contacts/audience';
import { compileTemplate, TextBuilder, untrackedLinks } from './template';
import { campaignUtm, MAX_RECIPIENTS_FOR_LINKS, redirectAddress, SHORT_PATH, taggedAddress } from './links';
import { SendPlan } from './plan';
import { parseQuietHours, parseRfc3339, type QuietHours } from './form';

/** Numbers per inclusion segment in one chunk of the audience. */
export const QUOTE_CHUNK = 5_000;
/** What a sample's short link shows in place of a recipient's own code (the same length). */
const EXAMPLE_CODE = 'x7Kp2QaZ'.slice(0, LINK_CODE_LENGTH);

export interface QuoteDeps {
  db: Db;
  accountId: number;
  now: number;
  /** The account's segments by id (null when unknown or another account's). */
  segment: (segmentId: number) => Segment | null;
  /** The provider of the drafted line, when the account has it. */
  provider: Provider | null;
  pricing: Pricing;
  credit: number;
  linkBase: string;
  timeZone: string;
  /** What creation would refuse first, or null. */
  problem: CampaignQuote['problem'];
  /** True once a newer quote replaced this one: it stops at the next chunk. */
  stale: () => boolean;
  /**
   * Recipients given as they are rather than read from the drafted segments ("resend to failed":
   * an execution's failed recipients with their segment's fields), with each segment's columns.
   */
  recipients?: { columns: Record<number, readonly string[]>; chunks: AsyncIterable<readonly RecipientRow[]> };
}

/** A recipient given to the quote: the number, their segment and its fields (null: none). */
export type RecipientRow = readonly [
  phone: string,
  segmentId: number | null,
  fields: string | null,
  ...rest: unknown[],
];

export class QuoteSuperseded extends Error {}

type Member = [phone: string, segmentId: number, fields: string];

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function quoteCampaign(
  deps: QuoteDeps,
  fields: CampaignDraftFields,
  seed: number,
): Promise<CampaignQuote> {
  const named = [
    ...fields.inclusion_segments.map((id) => ({ id, role: 'include' as const })),
    ...fields.exclusion_segments.map((id) => ({ id, role: 'exclude' as const })),
  ];
  const segments = named.flatMap(({ id, role }) => {
    const segment = deps.segment(id);
    return segment ? [{ segment, role, view: audienceView(deps.db, segment) }] : [];
  });
  const readable = (role: 'include' | 'exclude') =>
    segments.flatMap((s) => (s.role === role && s.view !== null ? [s.view] : []));
  const include = readable('include');
  const exclude = readable('exclude');
  const columnsBySegment: ReadonlyArray<readonly [number, readonly string[]]> = deps.recipients
    ? Object.entries({ 0: [], ...deps.recipients.columns }).map(([id, names]) => [Number(id), names] as const)
    : include.map((s) => [s.id, s.columns] as const);

  const columns: string[] = [];
  for (const [, names] of columnsBySegment)
    for (const column of names) if (!columns.includes(column.toUpperCase())) columns.push(column.toUpperCase());
  if (!columns.includes('PHONE_NUMBER')) columns.push('PHONE_NUMBER');

  const links = fields.links
    .map((link, idx) => ({ idx, actual_url: link.actual_url.trim(), has_utm: link.has_utm }))
    .filter((link) => link.actual_url !== '');
  const utm = {
    utm_source: fields.utm.utm_source?.trim() || DEFAULT_UTM_SOURCE,
    utm_medium: fields.utm.utm_medium?.trim() || DEFAULT_UTM_MEDIUM,
    utm_campaign: fields.utm.utm_campaign?.trim() || DEFAULT_UTM_CAMPAIGN,
  };
  // Untracked links are in the text itself, utm_campaign's `{id}` with the id creation would give
  // the campaign now (SQLite's next rowid), so the texts are priced as they will go out.
  const untrackedUtm = campaignUtm({ id: nextCampaignId(deps.db), ...utm });
  const compiled = compileTemplate(fields.template_body, links);
  const template = fields.track_links ? compiled : untrackedLinks(compiled, links, untrackedUtm);
  const builder = new TextBuilder(
    template,
    Object.fromEntries(columnsBySegment.map(([id, names]) => [String(id), [...names]])),
    deps.linkBase,
  );
  const placeholders = [...new Set(template.parts.flatMap((part) => ('column' in part ? [part.column] : [])))].map(
    (name) => ({ name, known: columns.includes(name), missing: 0 }),
  );
  // Where each placeholder's value sits in each segment's fields (undefined: not a column there).
  const valueIndex = new Map(
    columnsBySegment.map(([id, names]) => [
      id,
      placeholders.map((p) => names.findIndex((c) => c.toUpperCase() === p.name)),
    ]),
  );

  const provider = deps.provider ?? 'sms';
  const prices = new Map<string, { pages: number; cost: number; length: number }>();
  const price = (text: string) => {
    let priced = prices.get(text);
    if (priced === undefined) {
      if (prices.size > 100_000) prices.clear();
      const p = priceText(text, provider, deps.pricing);
      prices.set(text, (priced = { pages: p.pages, cost: p.costRials, length: p.units }));
    }
    return priced;
  };

  const random = mulberry32(seed);
  const samples: Partial<Record<SampleKind, Member>> = {};
  let longest = -1;
  let included = 0;
  let duplicates = 0;
  let excluded = 0;
  let optedOut = 0;
  let filteredOut = 0;
  let recipients = 0;
  let totalPages = 0;
  let totalCost = 0;

  // A filter that cannot be evaluated (a bound that is no number) is the quote's problem, not its count.
  const filter = fields.filter && filterProblem(fields.filter.all, null) === null ? fields.filter : null;
  const audience = {
    include: include.map((s) => s.id),
    exclude: exclude.map((s) => s.id),
    accountId: deps.accountId,
    filter,
  };
  // Recipients without a segment (their row gone) are segment 0, which has no columns.
  const chunks: AsyncIterable<readonly AudienceRow[]> | Iterable<readonly AudienceRow[]> = deps.recipients
    ? given(deps.recipients.chunks)
    : audienceChunks(deps.db, audience, QUOTE_CHUNK);
  for await (const chunk of chunks) {
    if (deps.stale()) throw new QuoteSuperseded();
    for (const [phone, segmentId, memberFields, inSegments, isExcluded, isOptedOut, isFilteredOut] of chunk) {
      included++;
      duplicates += inSegments - 1;
      if (isExcluded) {
        excluded++;
        continue;
      }
      if (isOptedOut) {
        optedOut++;
        continue;
      }
      if (isFilteredOut) {
        filteredOut++;
        continue;
      }
      recipients++;
      const member: Member = [phone, segmentId, memberFields];
      const priced = price(builder.cachedText(phone, segmentId, memberFields));
      totalPages += priced.pages;
      totalCost += priced.cost;
      samples.first ??= member;
      if (priced.length > longest) {
        longest = priced.length;
        samples.longest = member;
      }
      // Reservoir sampling: each recipient is the random one with the same chance.
      if (random() * recipients < 1) samples.random = member;
      if (placeholders.length > 0) {
        const indexes = valueIndex.get(segmentId)!;
        const values = memberFields.split(FIELD_SEPARATOR);
        for (let i = 0; i < placeholders.length; i++) {
          const at = indexes[i]!;
          const name = placeholders[i]!.name;
          if ((at < 0 && name !== 'PHONE_NUMBER') || (at >= 0 && (values[at] ?? '').trim() === ''))
            placeholders[i]!.missing++;
        }
      }
    }
    await yieldToLoop();
  }

  const sampleRows = (['first', 'longest', 'random'] as const).flatMap((kind) => {
    const member = samples[kind];
    if (!member) return [];
    const priced = priceText(builder.text(...member), provider, deps.pricing);
    return [
      {
        kind,
        receptor: member[0],
        text: builder.fillLinks(priced.text, () => EXAMPLE_CODE),
        encoding: priced.encoding,
        characters: [...priced.text].length,
        pages: priced.pages,
        cost_rials: priced.costRials,
      },
    ];
  });

  const sendAt = fields.send_datetime === null ? deps.now : parseRfc3339(fields.send_datetime.trim());
  let quietHours: QuietHours | null = null;
  try {
    quietHours =
      fields.quiet_hours === null || fields.quiet_hours.trim() === '' ? null : parseQuietHours(fields.quiet_hours);
  } catch {
    quietHours = null;
  }
  const estimatedLast =
    sendAt === null || recipients === 0
      ? null
      : new SendPlan({
          start: Math.max(sendAt, deps.now),
          sendRate: fields.send_rate,
          quietHours,
          timeZone: deps.timeZone,
        }).dueOf(recipients - 1);

  const exampleLink = deps.linkBase + SHORT_PATH + EXAMPLE_CODE;
  let problem = deps.problem;
  if (problem === null && template.links.length > 0 && recipients > MAX_RECIPIENTS_FOR_LINKS)
    problem = {
      code: 414,
      field: 'inclusion_segments',
      detail: `at most ${MAX_RECIPIENTS_FOR_LINKS} recipients in a campaign with links`,
    };
  return {
    audience: {
      segments: segments.map(({ segment, role, view }) => ({
        segment_id: segment.id,
        name: segment.name,
        role,
        members: segment.member_count,
        ready: view !== null,
      })),
      included,
      duplicates,
      excluded,
      opted_out: optedOut,
      filtered_out: filteredOut,
      recipients,
    },
    columns,
    placeholders,
    links: links.map((link) => {
      if (!fields.track_links) {
        const tags = link.has_utm ? untrackedUtm : null;
        const written = taggedAddress(link.actual_url, tags);
        return {
          idx: link.idx,
          actual_url: link.actual_url,
          in_body: compiled.links.includes(link.idx),
          redirect_to: redirectAddress(link.actual_url, tags),
          short_example: written,
          added_characters: written.length - link.actual_url.length,
        };
      }
      // A visit is redirected with the campaign's id, unknown until creation: `{id}` stands for it.
      const tags = { source: utm.utm_source, medium: utm.utm_medium, campaign: utm.utm_campaign };
      return {
        idx: link.idx,
        actual_url: link.actual_url,
        in_body: compiled.links.includes(link.idx),
        redirect_to: redirectAddress(link.actual_url, link.has_utm ? tags : null),
        short_example: exampleLink,
        added_characters: exampleLink.length - link.actual_url.length,
      };
    }),
    provider: deps.provider,
    samples: sampleRows,
    total_pages: totalPages,
    total_cost_rials: totalCost,
    credit_rials: deps.credit,
    enough_credit: totalCost <= deps.credit,
    send_at: sendAt,
    estimated_last_message_at: estimatedLast,
    problem,
    track_links: fields.track_links,
    // A series' estimate is the core's (creation.ts), from this quote's cost.
    monthly: null,
  };
}

/** Given recipients as audience rows: each in one segment, none excluded or opted out (already left out). */
async function* given(chunks: AsyncIterable<readonly RecipientRow[]>): AsyncGenerator<AudienceRow[]> {
  for await (const chunk of chunks)
    yield chunk.map(([phone, segmentId, fields]) => [phone, segmentId ?? 0, fields ?? '', 1, 0, 0, 0] as AudienceRow);
}

/** The id the next campaign created will get (SQLite's rowid: one more than the largest). */
function nextCampaignId(db: Db): number {
  return db.prepare<[], number>('SELECT COALESCE(max(id), 0) + 1 FROM campaigns').pluck().get()!;
}
