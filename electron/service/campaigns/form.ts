// The rules of spec 4.3 on a campaign request, in the order a client would fix them: the form's
// shape (400: a required field missing, a segment id that is not an integer, more than 10 links, a
// link without its address, a bad extension value), then the send time (417), then the sender line
// (412, checked by the accounts domain), then the segments named (400: unknown or another
// account's). Transports only collect the fields into a CampaignForm (shared/campaigns.ts).
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import { toAsciiDigits } from '../../../shared/digits';
import { parseClock } from '../../../shared/time-zone';
import { checkSeriesForm } from './series-form';
import type { SeriesRule } from './occurrences';
import { AudienceFilter, EDITOR_FILTER_OPS, type ColumnCondition } from '../../../shared/audience-filter';
import { conditionProblem } from '../../../shared/column-values';
import {
  DEFAULT_UTM_CAMPAIGN,
  DEFAULT_UTM_MEDIUM,
  DEFAULT_UTM_SOURCE,
  MAX_LINKS,
  type CampaignForm,
} from '../../../shared/campaigns';

export interface CampaignLink {
  /** Position among the campaign's links (0-based, by the request's index order). */
  idx: number;
  actual_url: string;
  has_utm: boolean;
}

export interface QuietHours {
  /** Minutes after local midnight. */
  start: number;
  end: number;
}

/** A request that passed the shape and date checks; sender and segments are checked against the store next. */
export interface CampaignSpec {
  sender: string;
  name: string;
  template_body: string;
  send_datetime: string;
  sendAt: number;
  include: number[];
  exclude: number[];
  links: CampaignLink[];
  utm: { source: string; medium: string; campaign: string };
  sendRate: number | null;
  quietHours: QuietHours | null;
  /** False: links go out as their own addresses (with their UTM tags), no short link, no click counted. */
  trackLinks: boolean;
  /** Targeting by column; its columns are checked against the inclusion segments next (creation.ts). */
  filter: AudienceFilter | null;
  file: { name: string; bytes: Uint8Array } | null;
  /** Extension: a repeating or date-triggered campaign (series-form.ts); null: a one-off. */
  series: SeriesRule | null;
}

/** A refusal of the form: the detail names the field in the API's words, the reason is for the app. */
const bad = (detail: string, reason?: string) => new ServiceError(ApiCode.BadRequest, detail, reason);

const REQUIRED_REASON = {
  sender: 'campaign_sender_required',
  name: 'campaign_name_required',
  send_datetime: 'campaign_time_required',
} as const;

export function checkCampaignForm(form: CampaignForm): CampaignSpec {
  for (const field of ['sender', 'name', 'send_datetime'] as const)
    if (form[field] === undefined || form[field].trim() === '')
      throw bad(`${field} is required`, REQUIRED_REASON[field]);
  // template_body is passed on unchanged, with no content check (spec 4.3): only its absence is an error.
  if (form.template_body === undefined) throw bad('template_body is required', 'campaign_text_required');

  const include = segmentIds(form.inclusion_segments, 'inclusion_segments');
  const exclude = segmentIds(form.exclusion_segments, 'exclusion_segments');

  const byIndex = new Map<number, { actual_url?: string | undefined; has_utm?: string | undefined }>();
  for (const link of form.links) {
    const entry = byIndex.get(link.index) ?? {};
    if (link.actual_url !== undefined) entry.actual_url ??= link.actual_url;
    if (link.has_utm !== undefined) entry.has_utm ??= link.has_utm;
    byIndex.set(link.index, entry);
  }
  if (byIndex.size > MAX_LINKS) throw bad(`at most ${MAX_LINKS} links`, 'campaign_too_many_links');
  const links = [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, entry], idx): CampaignLink => {
      if (entry.actual_url === undefined || entry.actual_url.trim() === '')
        throw bad(`links[${index}]actual_url is required`, 'campaign_link_empty');
      // A visit is redirected there: web addresses only (a javascript: or data: address is refused).
      const scheme = schemeOf(entry.actual_url.trim());
      if (scheme !== null && scheme !== 'http' && scheme !== 'https')
        throw bad(`links[${index}]actual_url is not a web address`, 'campaign_link_not_web');
      // Spec 4.3: tracking applies when the value is exactly "true"; anything else means no.
      return { idx, actual_url: entry.actual_url.trim(), has_utm: entry.has_utm === 'true' };
    });

  const sendRate = form.send_rate === undefined || form.send_rate.trim() === '' ? null : positive(form.send_rate);
  const quietHours =
    form.quiet_hours === undefined || form.quiet_hours.trim() === '' ? null : parseQuietHours(form.quiet_hours);
  const trackLinks = trackLinksOf(form.track_links);
  const series = checkSeriesForm(form);
  const filter = filterOf(form.filters ?? []);

  const sendAt = parseRfc3339(form.send_datetime!.trim());
  if (sendAt === null) throw new ServiceError(ApiCode.BadDate, form.send_datetime, 'campaign_time_invalid');

  return {
    sender: form.sender!.trim(),
    name: form.name!.trim(),
    template_body: form.template_body,
    send_datetime: form.send_datetime!.trim(),
    sendAt,
    include,
    exclude,
    links,
    utm: {
      source: nonEmpty(form.utm.utm_source) ?? DEFAULT_UTM_SOURCE,
      medium: nonEmpty(form.utm.utm_medium) ?? DEFAULT_UTM_MEDIUM,
      campaign: nonEmpty(form.utm.utm_campaign) ?? DEFAULT_UTM_CAMPAIGN,
    },
    sendRate,
    quietHours,
    trackLinks,
    filter,
    file: form.file ?? null,
    series,
  };
}

/** Conditions of the form's filter at most (the filter's own limit). */
export const MAX_FILTERS = 10;

/**
 * Our extension `filters[i]…`: a condition per index, in index order, all to be met. `column`
 * and `op` (equals, contains, in, between) always; equals and contains take `value`; in takes
 * `values` (the field repeated, or one value with a value per line); between takes `kind`
 * (number or date) and `from` and/or `to`. Its columns are checked against the segments later.
 */
export function filterOf(parts: NonNullable<CampaignForm['filters']>): AudienceFilter | null {
  const byIndex = new Map<number, Map<string, string[]>>();
  for (const { index, part, values } of parts) {
    const entry = byIndex.get(index) ?? new Map<string, string[]>();
    entry.set(part, [...(entry.get(part) ?? []), ...values]);
    byIndex.set(index, entry);
  }
  if (byIndex.size === 0) return null;
  if (byIndex.size > MAX_FILTERS) throw bad(`at most ${MAX_FILTERS} filters`, 'filter.too_many');
  const conditions = [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, entry]): ColumnCondition => {
      const one = (part: string) => entry.get(part)?.[0];
      const name = `filters[${index}]`;
      const column = one('column')?.trim() ?? '';
      if (column === '') throw bad(`${name}column is required`, 'filter.column_required');
      const op = one('op')?.trim().toLowerCase() ?? '';
      if (!(EDITOR_FILTER_OPS as readonly string[]).includes(op))
        throw bad(`${name}op is one of ${EDITOR_FILTER_OPS.join(', ')}`, 'filter.op_invalid');
      let condition: ColumnCondition;
      if (op === 'equals' || op === 'contains') {
        const value = one('value');
        if (value === undefined || (op === 'contains' && value.trim() === ''))
          throw bad(`${name}value is required`, 'filter.value_required');
        condition = { column, op, value };
      } else if (op === 'in') {
        const values = (entry.get('values') ?? entry.get('value') ?? [])
          .flatMap((value) => value.split(/\r?\n/))
          .filter((value) => value.trim() !== '');
        if (values.length === 0) throw bad(`${name}values is required`, 'filter.values_required');
        condition = { column, op, values };
      } else {
        const kind = one('kind')?.trim().toLowerCase() ?? '';
        if (kind !== 'number' && kind !== 'date') throw bad(`${name}kind is number or date`, 'filter.kind_invalid');
        const from = one('from')?.trim() || null;
        const to = one('to')?.trim() || null;
        if (from === null && to === null) throw bad(`${name}from or ${name}to is required`, 'filter.bound_required');
        condition = { column, op: 'between', kind, from, to };
      }
      const problem = conditionProblem(condition);
      if (problem === 'bound_invalid')
        throw bad(
          `${name}from/to is not a ${op === 'between' ? (condition as { kind: string }).kind : 'value'}`,
          'filter.bound_invalid',
        );
      if (problem === 'bounds_reversed') throw bad(`${name}from is after ${name}to`, 'filter.bounds_reversed');
      return condition;
    });
  const parsed = AudienceFilter.safeParse({ all: conditions });
  if (!parsed.success) {
    const at = parsed.error.issues[0]?.path;
    const index = typeof at?.[1] === 'number' ? [...byIndex.keys()].sort((a, b) => a - b)[at[1]] : undefined;
    throw bad(
      `filters${index === undefined ? '' : `[${index}]`}: a value is too long or there are too many`,
      'filter.too_long',
    );
  }
  return parsed.data;
}

/** A filter as the form's parts (the app's drafts go through the same checks as the API's fields). */
export function filterParts(filter: AudienceFilter | null): NonNullable<CampaignForm['filters']> {
  if (filter === null) return [];
  return filter.all.flatMap((condition, index) => {
    const parts: NonNullable<CampaignForm['filters']> = [
      { index, part: 'column', values: [condition.column] },
      { index, part: 'op', values: [condition.op] },
    ];
    if (condition.op === 'equals' || condition.op === 'contains')
      parts.push({ index, part: 'value', values: [condition.value] });
    else if (condition.op === 'in') parts.push({ index, part: 'values', values: condition.values });
    else if (condition.op === 'between') {
      parts.push({ index, part: 'kind', values: [condition.kind] });
      if (condition.from !== null) parts.push({ index, part: 'from', values: [condition.from] });
      if (condition.to !== null) parts.push({ index, part: 'to', values: [condition.to] });
    }
    return parts;
  });
}

/** An address's scheme, lower case; null when it has none (`shop.ir/x`, `shop.ir:8080/x`). */
export function schemeOf(address: string): string | null {
  return /^([a-z][a-z0-9+.-]*):(?![0-9])/i.exec(address)?.[1]?.toLowerCase() ?? null;
}

function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value.trim() === '' ? null : value.trim();
}

function segmentIds(values: readonly string[], field: string): number[] {
  const ids: number[] = [];
  for (const value of values) {
    const trimmed = value.trim();
    if (!/^-?[0-9]{1,15}$/.test(trimmed)) throw bad(`${field}: ${JSON.stringify(value)} is not an integer`);
    const id = Number(trimmed);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

function positive(value: string): number {
  // Our extension fields take Persian and Arabic digits as well as Latin ones.
  const trimmed = toAsciiDigits(value).trim();
  if (!/^[0-9]{1,9}$/.test(trimmed) || Number(trimmed) < 1)
    throw bad('send_rate is messages per minute, 1 or more', 'campaign_send_rate');
  return Number(trimmed);
}

/** Our extension track_links: "true" or "false" (any case, white space around), absent or empty for true. */
function trackLinksOf(value: string | undefined): boolean {
  const trimmed = value?.trim().toLowerCase() ?? '';
  if (trimmed === '' || trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  throw bad('track_links is true or false', 'campaign_track_links');
}

/**
 * "22:00-08:00" (minutes after local midnight): two clock times as the editor's clock fields take
 * them (shared/time-zone.ts), white space around either allowed; start and end must differ.
 */
export function parseQuietHours(value: string): QuietHours {
  const ends = toAsciiDigits(value).split('-');
  const clocks = ends.length === 2 ? ends.map(parseClock) : [];
  const minutes = clocks.map((clock) => (clock === null ? NaN : clock.hour * 60 + clock.minute));
  const [start = NaN, end = NaN] = minutes;
  if (Number.isNaN(start) || Number.isNaN(end) || start === end)
    throw bad('quiet_hours is HH:MM-HH:MM, for example 22:00-08:00', 'campaign_quiet_hours');
  return { start, end };
}

const RFC3339 =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|([+-])([0-9]{2}):([0-9]{2}))$/;

/**
 * RFC 3339 date-time (section 5.6: `T` and `Z` in either case, an offset always, fractions of a
 * second allowed) to ms; null when it does not parse or names a time that does not exist (month
 * 13, 30 February, a leap second, which no clock here can hold).
 */
export function parseRfc3339(value: string): number | null {
  const match = RFC3339.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  let offsetMinutes = 0;
  if (match[8]!.toUpperCase() !== 'Z') {
    const offsetHours = Number(match[10]);
    const offsetMins = Number(match[11]);
    if (offsetHours > 23 || offsetMins > 59) return null;
    offsetMinutes = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const fraction = match[7] ? Math.floor(Number(`0${match[7]}`) * 1000) : 0;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, fraction);
  // Date.UTC maps years 0..99 to 1900..1999.
  const fixed = year < 100 ? new Date(utc).setUTCFullYear(year) : utc;
  return fixed - offsetMinutes * 60_000;
}
