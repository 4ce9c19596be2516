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
    file: form.file ?? null,
    series,
  };
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
