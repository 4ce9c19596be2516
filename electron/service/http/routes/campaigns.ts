// Campaigns over HTTP (spec 4.3, 2.4, 3.2; PRODUCT.md "Campaign creation" and "Campaign execution
// report"): creation from form fields, the execution report and its recipients, pause, resume and
// cancel, and the public short links. Thin on purpose: the transport only collects the wire fields
// into a CampaignForm and every rule is the core's, so the app's own calls and the API agree.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { z } from 'zod';
import type { Core } from '../../core';
import { bearerAuth } from '../auth';
import { sendError, sendOk } from '../envelope';
import { addOpenApiPaths } from '../openapi';
import { ServiceError } from '../../errors';
import { BODY_LIMIT_BYTES } from '../context';
import { sendDeadLink } from '../dead-link-page';
import { CONTACTS_BODY_LIMIT_BYTES } from './contacts';
import { fileBytes } from '../multipart-file';
import { envelopeOf } from '../../../../shared/api';
import { ApiCode } from '../../../../shared/status';
import {
  CampaignSeriesSchema,
  CreateCampaignResultSchema,
  DEFAULT_UTM_CAMPAIGN,
  DEFAULT_UTM_MEDIUM,
  DEFAULT_UTM_SOURCE,
  EXECUTION_STATUSES,
  ExecutionMessageSchema,
  ExecutionReportSchema,
  LINK_CODE_LENGTH,
  MAX_DAYS_BEFORE,
  FILTER_PARTS,
  MAX_LINKS,
  WEEKDAYS,
  type CampaignForm,
  type FilterPart,
} from '../../../../shared/campaigns';
import { MAX_PAGE_SIZE } from '../../campaigns';

/** Every value a field was sent with, in order (forms repeat keys for inclusion_segments and the like). */
type Fields = Map<string, string[]>;

const LINK_KEY = /^links\[([0-9]{1,9})\](actual_url|has_utm)$/;
const FILTER_KEY = new RegExp(`^filters\\[([0-9]{1,9})\\](${FILTER_PARTS.join('|')})$`);
const ID = /^[0-9]{1,15}$/;
const DEFAULT_PAGE_SIZE = 500;

/** The fields of a campaign request, whatever its encoding. */
export function campaignForm(fields: Fields): CampaignForm {
  // A field expected once but sent twice: the first value counts (the simplest rule to explain).
  const one = (key: string) => fields.get(key)?.[0];
  const links: CampaignForm['links'] = [];
  for (const [key, values] of fields) {
    const match = LINK_KEY.exec(key);
    if (!match || values.length === 0) continue;
    const index = Number(match[1]);
    links.push(match[2] === 'actual_url' ? { index, actual_url: values[0] } : { index, has_utm: values[0] });
  }
  const filters: NonNullable<CampaignForm['filters']> = [];
  for (const [key, values] of fields) {
    const match = FILTER_KEY.exec(key);
    if (match && values.length > 0) filters.push({ index: Number(match[1]), part: match[2] as FilterPart, values });
  }
  return {
    sender: one('sender'),
    name: one('name'),
    template_body: one('template_body'),
    send_datetime: one('send_datetime'),
    inclusion_segments: fields.get('inclusion_segments') ?? [],
    exclusion_segments: fields.get('exclusion_segments') ?? [],
    links,
    utm: {
      utm_source: one('utm.utm_source'),
      utm_medium: one('utm.utm_medium'),
      utm_campaign: one('utm.utm_campaign'),
    },
    send_rate: one('send_rate'),
    quiet_hours: one('quiet_hours'),
    track_links: one('track_links'),
    repeat: one('repeat'),
    repeat_time: one('repeat_time'),
    repeat_weekdays: fields.get('repeat_weekdays')?.join(','),
    repeat_day: one('repeat_day'),
    repeat_calendar: one('repeat_calendar'),
    repeat_until: one('repeat_until'),
    trigger_column: one('trigger_column'),
    trigger_days_before: one('trigger_days_before'),
    trigger_time: one('trigger_time'),
    filters,
    file: null,
  };
}

/**
 * A field's value as text. Forms only carry text; a JSON body (or a multipart field sent as
 * application/json) may carry numbers and booleans, which mean their usual text. Anything else is
 * passed on as its JSON so the core refuses it like any other bad value; null counts as absent.
 */
function text(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function add(fields: Fields, key: string, value: unknown): void {
  for (const one of Array.isArray(value) ? value : [value]) {
    const asText = text(one);
    if (asText === undefined) continue;
    const values = fields.get(key);
    if (values) values.push(asText);
    else fields.set(key, [asText]);
  }
}

/** URL-encoded forms (parsed by the server into strings and arrays) and JSON objects alike. */
function objectFields(body: unknown): Fields {
  const fields: Fields = new Map();
  // Anything but an object (no body, a JSON array or scalar) has no fields: the core's 400 for
  // the missing ones follows.
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fields;
  for (const [key, value] of Object.entries(body)) {
    // A JSON body may send the filter as a list of conditions, {column, op, value, …} each: the
    // same as its `filters[i]<part>` fields.
    if (key === 'filters' && Array.isArray(value)) {
      value.forEach((condition: unknown, i) => {
        if (typeof condition !== 'object' || condition === null) return;
        for (const [part, partValue] of Object.entries(condition)) add(fields, `filters[${i}]${part}`, partValue);
      });
    } else add(fields, key, value);
  }
  return fields;
}

/**
 * The campaign's contact file is held in memory and written whole, as a contact upload's body is,
 * so it has the same bound and the same refusal (414, before the rest is read). Spec 4.3 applies no
 * limit; an unbounded file would let one request take all the memory there is.
 */
export const CAMPAIGN_FILE_LIMIT_BYTES = CONTACTS_BODY_LIMIT_BYTES;

/** Multipart: every field part, and the first file part named `file` read whole (at most CAMPAIGN_FILE_LIMIT_BYTES). */
async function multipartForm(request: FastifyRequest): Promise<CampaignForm> {
  const fields: Fields = new Map();
  let file: CampaignForm['file'] = null;
  const parts: AsyncIterableIterator<Multipart> = request.parts({
    // Text fields up to the body limit: the parser's default would silently cut a long
    // template_body at 1 MB.
    limits: { fileSize: CAMPAIGN_FILE_LIMIT_BYTES, fieldSize: BODY_LIMIT_BYTES },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'field') add(fields, part.fieldname, part.value);
      else if (part.fieldname === 'file' && file === null)
        file = { name: part.filename, bytes: await fileBytes(part, 'campaign file') };
      // Another file part is nobody's business, but it must be read through for the parser to go on.
      else for await (const _chunk of part.file);
    }
  } catch (error) {
    // Like the file upload: the multipart parser reports a malformed body (no boundary, data cut
    // off) with plain errors that carry no code, the caller's fault (400). Coded errors (a file too
    // large) go on to the error handler, which knows them.
    if (error instanceof Error && 'code' in error) throw error;
    throw new ServiceError(ApiCode.BadRequest, 'malformed multipart body');
  }
  return { ...campaignForm(fields), file };
}

/** A positive integer query value, its default when absent or empty; null when it is anything else. */
function positiveQuery(value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^[0-9]{1,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= max ? n : null;
}

const CreateCampaignResponseSchema = envelopeOf(CreateCampaignResultSchema).meta({ id: 'CreateCampaignResponse' });
const ExecutionReportResponseSchema = envelopeOf(ExecutionReportSchema).meta({ id: 'ExecutionReportResponse' });
const ExecutionMessagesResponseSchema = envelopeOf(z.array(ExecutionMessageSchema)).meta({
  id: 'ExecutionMessagesResponse',
});
const CampaignExecutionsResponseSchema = envelopeOf(
  z.object({
    campaign_id: z.number().int(),
    series: CampaignSeriesSchema.meta({ id: 'CampaignSeries' })
      .nullable()
      .describe('Extension: the series of a repeating or date-triggered campaign; null for a one-off'),
    executions: z.array(ExecutionReportSchema).describe('Every execution of the campaign, newest first'),
  }),
).meta({ id: 'CampaignExecutionsResponse' });
void [
  CreateCampaignResponseSchema,
  ExecutionReportResponseSchema,
  ExecutionMessagesResponseSchema,
  CampaignExecutionsResponseSchema,
];

const ref = (id: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${id}` } } });
const error = (description: string) => ({ description, content: ref('ErrorEnvelope') });
const authErrors = { '401': error('Account not active'), '403': error('API key not valid') };
const executionParam = {
  name: 'execution_id',
  in: 'path',
  required: true,
  schema: { type: 'integer', minimum: 1 },
  description: 'execution_id of the creation answer',
};
const campaignParam = {
  name: 'campaign_id',
  in: 'path',
  required: true,
  schema: { type: 'integer', minimum: 1 },
  description: 'campaign_id of the creation answer',
};
const badCampaign = error(
  'campaign_id not a positive integer, unknown, or a campaign of another account (the three are not told apart)',
);
const badExecution = error(
  'execution_id not a positive integer, unknown, or an execution of another account (the three are not told apart)',
);

const shortLinkText =
  `A short link is {base}/l/{code} with a ${LINK_CODE_LENGTH}-character code, so each link replaced in a text ` +
  `adds (length of the base address + ${3 + LINK_CODE_LENGTH}) characters in place of the original address; the ` +
  "base is a setting (default: this server's own address, for example http://127.0.0.1:8080 makes links of " +
  `${'http://127.0.0.1:8080'.length + 3 + LINK_CODE_LENGTH} characters).`;

const campaignFieldSchema = {
  type: 'object',
  required: ['sender', 'name', 'template_body', 'send_datetime'],
  properties: {
    sender: {
      type: 'string',
      description: "One of the account's lines holding can_send_panel_campaign (else 412)",
    },
    name: { type: 'string', description: 'Campaign name' },
    template_body: {
      type: 'string',
      description:
        'The text, stored unchanged (no content check). {{COLUMN}} placeholders are filled per recipient from the ' +
        "segment's columns (a missing value becomes empty); each links[i]actual_url found in it is replaced by the " +
        "recipient's own short link. SMS lines append the opt-out phrase exactly as direct sends do. " +
        shortLinkText,
    },
    send_datetime: {
      type: 'string',
      format: 'date-time',
      description:
        'RFC 3339 with an offset (2026-11-27T10:00:00+03:30); anything else, or a time that does not exist ' +
        '(month 13, 30 February), is 417. A past time starts at once.',
    },
    inclusion_segments: {
      type: 'array',
      items: { type: 'string', pattern: '^-?[0-9]+$' },
      description:
        'Repeat the field for several segments (segment_id of a contact upload). A value that is not an integer, ' +
        "or a segment unknown or of another account, is 400. Audience = union of these segments' numbers minus " +
        'the exclusion segments minus opted-out numbers, deduplicated, frozen when the execution starts.',
    },
    exclusion_segments: {
      type: 'array',
      items: { type: 'string', pattern: '^-?[0-9]+$' },
      description: 'Segments whose numbers are left out; same rules as inclusion_segments',
    },
    'links[i]actual_url': {
      type: 'string',
      description:
        `The field name carries the index: links[0]actual_url, links[1]actual_url, … At most ${MAX_LINKS} ` +
        `links (more is 400); a links[i]has_utm without its links[i]actual_url is 400. ${shortLinkText} ` +
        'A visit records a click and redirects (302) to this address, its own query and fragment kept; an ' +
        'address without a scheme is taken as https.',
    },
    'links[i]has_utm': {
      type: 'string',
      description:
        'utm_source, utm_medium and utm_campaign are added to link i when the value is exactly "true"; any other ' +
        'value (and the default) means false',
    },
    'utm.utm_source': { type: 'string', description: `Default ${DEFAULT_UTM_SOURCE}` },
    'utm.utm_medium': { type: 'string', description: `Default ${DEFAULT_UTM_MEDIUM}` },
    'utm.utm_campaign': {
      type: 'string',
      description: `Default ${DEFAULT_UTM_CAMPAIGN}; {id} stands for the campaign id`,
    },
    send_rate: {
      type: 'string',
      pattern: '^[0-9]+$',
      description:
        'Extension: at most this many messages per minute (a positive integer, else 400); default: as fast as ' +
        'possible. The report gives estimated_last_message_at.',
    },
    quiet_hours: {
      type: 'string',
      pattern: '^[0-9]{1,2}:[0-9]{2}-[0-9]{1,2}:[0-9]{2}$',
      description:
        "Extension: HH:MM-HH:MM in the account's time zone (22:00-08:00 spans midnight) during which no " +
        'message goes out; messages due inside it wait in status 2 until it ends. Start equal to end, or not a ' +
        'time, is 400.',
    },
    track_links: {
      type: 'string',
      enum: ['true', 'false'],
      default: 'true',
      description:
        'Extension: "false" sends the links untracked: each links[i]actual_url found in template_body stays the ' +
        'original address, with utm_source, utm_medium and utm_campaign added when its has_utm is "true" (the ' +
        'same tags a visit of a short link is redirected with), and no short link is made, so no visit is counted ' +
        '(the report has track_links false). Absent, empty or "true": short tracked links. Any other value is 400. ' +
        'On a line that delivers through a real provider, short links need a base a phone can open: a loopback, ' +
        'private or link-local base (127.0.0.0/8, ::1, localhost, 10/8, 172.16/12, 192.168/16, 169.254/16, ' +
        'fc00::/7, fe80::/10, a local network name) is 400 unless track_links is "false".',
    },
    'filters[i]column': {
      type: 'string',
      description:
        'Extension, targeting by column: condition i of the audience filter names a column of the inclusion ' +
        'segments (matched ignoring case, Arabic/Persian letter forms and digits). Every condition must hold. The ' +
        'index is in the field name, as for links: filters[0]column, filters[1]column, … at most 10. A number in ' +
        'several inclusion segments is judged by the columns of the first of them (in the request’s order) that ' +
        'has it, the same row its {{COLUMN}} placeholders are filled from; a member of a segment without the ' +
        'column does not match. A column no inclusion segment has is 400 (after the segment checks). Example: ' +
        'filters[0]column=CITY&filters[0]op=equals&filters[0]value=تهران sends to Tehran whether it was written ' +
        'تهران or تهران with Arabic letters or presentation forms (but not the older spelling طهران).',
      example: 'CITY',
    },
    'filters[i]op': {
      type: 'string',
      enum: ['equals', 'contains', 'in', 'between'],
      description:
        'equals and contains compare folded text (Unicode NFKC, digits of any script as 0-9, ي/ى as ی, ك as ک, ' +
        'ة as ه, أ/إ as ا, ZWNJ, tatweel and diacritics removed, spaces collapsed, case ignored); in is equals to ' +
        'any of filters[i]values; between compares numbers or dates (filters[i]kind), ends included. Anything ' +
        'else is 400.',
    },
    'filters[i]value': {
      type: 'string',
      description: 'The value of equals (may be empty: an empty cell) or contains (not empty)',
    },
    'filters[i]values': {
      type: 'array',
      items: { type: 'string' },
      description:
        'The values of in: repeat the field, or send one value with a value per line (1 to 1,000 values). ' +
        'Example: filters[0]values=تهران&filters[0]values=کرج',
    },
    'filters[i]kind': {
      type: 'string',
      enum: ['number', 'date'],
      description:
        'What between compares. number: digits of any script, ٬ or , between thousands, ٫ or . before decimals. ' +
        'date: Jalali 1370/05/12 or 1370-5-12 (a year below 1700 is Jalali), Gregorian 1991-08-03 or 1991/08/03, ' +
        'day first 03/08/1991 (month first only when the middle number cannot be a month), or an Excel day ' +
        'number (33453 is 1991-08-03). Cells that are no number or date do not match.',
    },
    'filters[i]from': {
      type: 'string',
      description:
        'Start of between (included); empty or absent: open. A value that is no number/date, or after to, is 400.',
      example: '1370/01/01',
    },
    'filters[i]to': {
      type: 'string',
      description: 'End of between (included); empty or absent: open. One of from and to is required.',
      example: '1379/12/29',
    },
    repeat: {
      type: 'string',
      enum: ['daily', 'weekly', 'monthly'],
      example: 'weekly',
      description:
        'Extension: the campaign repeats, each occurrence an execution of its own (its own report, its audience ' +
        'frozen and its credit reserved at its time), at repeat_time in the account’s time zone, the first at or ' +
        'after send_datetime ("not before"); the answer’s execution_id is that first occurrence. Needs repeat_time; ' +
        'weekly needs repeat_weekdays, monthly repeat_day. An occurrence runs late when the service comes back the ' +
        'same local day; a day it was not running at all ends FAILED with error "missed: …", nothing sent. ' +
        'Excludes trigger_*.',
    },
    repeat_time: {
      type: 'string',
      pattern: '^[0-9]{1,2}:[0-9]{2}$',
      example: '09:00',
      description: "Extension: HH:MM in the account's time zone (Persian digits accepted)",
    },
    repeat_weekdays: {
      type: 'string',
      example: 'sat,mon,wed',
      description: `Extension, weekly: one or more of ${WEEKDAYS.join(',')}, comma-separated (or the field repeated)`,
    },
    repeat_day: {
      type: 'string',
      pattern: '^[0-9]{1,2}$',
      example: '1',
      description:
        'Extension, monthly: the day of the month, 1 to 31, in repeat_calendar; a month without that day sends on ' +
        'its last day (31 → 30 Mehr, 30 → 29 Esfand of a common year, 31 → 28 February)',
    },
    repeat_calendar: {
      type: 'string',
      enum: ['jalali', 'gregorian'],
      default: 'jalali',
      description: 'Extension, monthly: the calendar of repeat_day',
    },
    repeat_until: {
      type: 'string',
      format: 'date',
      example: '2027-03-20',
      description:
        'Extension: the last local day (YYYY-MM-DD, Gregorian) an occurrence may fall on, inclusive; before the ' +
        'first occurrence is 400',
    },
    trigger_column: {
      type: 'string',
      example: 'BIRTHDAY',
      description:
        'Extension: a date-triggered campaign. Every day at trigger_time, an occurrence (an execution) goes to the ' +
        'members of the audience whose date in this column falls trigger_days_before days later, by its month and ' +
        'day in the calendar it was written in (Jalali ۱۳۷۰/۰۵/۱۲ or 1370/05/12, Gregorian 1991-08-03, Excel date ' +
        'numbers). A day nobody matches completes with audience 0. Excludes repeat*.',
    },
    trigger_days_before: {
      type: 'string',
      pattern: '^[0-9]{1,3}$',
      default: '0',
      example: '3',
      description: `Extension: 0 (on the day) to ${MAX_DAYS_BEFORE}`,
    },
    trigger_time: {
      type: 'string',
      pattern: '^[0-9]{1,2}:[0-9]{2}$',
      example: '09:00',
      description: "Extension: HH:MM in the account's time zone, required with trigger_column",
    },
  },
};

addOpenApiPaths({
  '/v2/sms/campaigns': {
    post: {
      summary: 'Create a campaign and its one execution (SCHEDULED), run as a job at send_datetime (at once when past)',
      description:
        'Form fields of spec 4.3 plus our extensions send_rate, quiet_hours, track_links, the audience filter ' +
        'filters[i]… (targeting by column; in a JSON body also "filters": [{"column": …, "op": …, …}]) and the ' +
        'series fields (repeat*, trigger*: a campaign that runs by itself; its executions are listed by ' +
        'GET /v2/sms/campaigns/{campaign_id}/executions). A field expected once but sent ' +
        'several times counts with its first value. A JSON object body with the same keys (arrays for repeated ' +
        'ones) is accepted too. Checks, in order: required fields and field shapes (400), send_datetime (417), ' +
        'sender (412), segments (400), the filter’s columns (400), then short links a phone can open on a line with a real provider (400). ' +
        'The credit for the whole execution is reserved when it starts; when it is ' +
        'short the execution ends FAILED with the reason in the report, and nothing is recorded.',
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              ...campaignFieldSchema,
              properties: {
                ...campaignFieldSchema.properties,
                file: {
                  type: 'string',
                  format: 'binary',
                  description:
                    'Optional contact file, kept as given: no check of its content, no error when absent. At most ' +
                    `${CAMPAIGN_FILE_LIMIT_BYTES / (1024 * 1024)} MB (${CAMPAIGN_FILE_LIMIT_BYTES} bytes), the ` +
                    'contact upload’s limit; a larger file is 414 and nothing is created (spec 4.3 sets no limit).',
                },
              },
            },
          },
          'application/x-www-form-urlencoded': { schema: campaignFieldSchema },
        },
      },
      responses: {
        '201': {
          description: 'Created; return.status is 200 and execution_status SCHEDULED',
          content: ref('CreateCampaignResponse'),
        },
        '400': error(
          'A required field missing (sender, name, template_body, send_datetime), a segment id not an integer, a ' +
            `segment unknown or of another account, more than ${MAX_LINKS} links, a link without actual_url, a ` +
            'bad send_rate, quiet_hours or track_links, a bad or contradictory series field (repeat*, trigger*), or short links under a base no phone can open (loopback, ' +
            'private, link-local) on a line that delivers through a real provider: set a public short link base, ' +
            'or send track_links=false; or a filter that cannot be used (more than 10 conditions, a condition ' +
            'without its column, op, value(s), kind or bounds, a bound that is no number or date, from after to, a ' +
            'column no inclusion segment has)',
        ),
        ...authErrors,
        '412': error('sender is not a line of the account, or lacks can_send_panel_campaign'),
        '414': error(
          `The file part is larger than ${CAMPAIGN_FILE_LIMIT_BYTES / (1024 * 1024)} MB (refused as it arrives)`,
        ),
        '417': error('send_datetime is not RFC 3339, or names a time that does not exist'),
      },
    },
  },
  '/v2/sms/campaigns/{campaign_id}/executions': {
    get: {
      summary: 'Extension: a campaign’s executions (each occurrence of a series is one), with its series',
      description:
        'Every execution’s report, newest first (the same record as GET /v2/sms/campaigns/executions/{execution_id}), ' +
        'and for a repeating or date-triggered campaign its series: next occurrence, paused, ended, and each ' +
        'occurrence’s local day with its execution_id and status (missed: the service was not running that day).',
      parameters: [campaignParam],
      responses: {
        '200': { description: 'The campaign’s executions', content: ref('CampaignExecutionsResponse') },
        '400': badCampaign,
        ...authErrors,
      },
    },
  },
  ...Object.fromEntries(
    (
      [
        [
          'pause',
          'Extension: pause a series as a whole: no occurrence is made until it is resumed; the next one, not ' +
            'started yet, is withdrawn (its execution is gone); one running keeps going (pause it by its execution).',
        ],
        ['resume', 'Extension: resume a paused series: the next occurrence from now on (none made up for)'],
        ['end', 'Extension: end a series for good; the next occurrence, not started yet, ends CANCELLED'],
      ] as const
    ).map(([action, summary]) => [
      `/v2/sms/campaigns/{campaign_id}/series/${action}`,
      {
        post: {
          summary,
          parameters: [campaignParam],
          responses: {
            '200': { description: 'The campaign after the change', content: ref('CampaignExecutionsResponse') },
            '400': error(`${badCampaign.description}; or not a series, or a series that has ended`),
            ...authErrors,
          },
        },
      },
    ]),
  ),
  '/v2/sms/campaigns/executions/{execution_id}': {
    get: {
      summary: 'Execution report',
      description:
        `execution_status is one of ${EXECUTION_STATUSES.join(', ')}. Counts add up: audience = sent + skipped, ` +
        'sent = delivered + failed + pending, cost = the sum of the messages’ costs. Fields marked Extension are ours.',
      parameters: [executionParam],
      responses: {
        '200': { description: 'The report', content: ref('ExecutionReportResponse') },
        '400': badExecution,
        ...authErrors,
      },
    },
  },
  '/v2/sms/campaigns/executions/{execution_id}/messages': {
    get: {
      summary: 'Recipients of an execution (one row per recorded message, by message id), paged',
      parameters: [
        executionParam,
        {
          name: 'page',
          in: 'query',
          schema: { type: 'integer', minimum: 1, default: 1 },
          description: 'From 1; not a positive integer is 400; past the end gives []',
        },
        {
          name: 'size',
          in: 'query',
          schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
          description: `Rows per page, 1 to ${MAX_PAGE_SIZE} (else 400)`,
        },
        {
          name: 'status',
          in: 'query',
          style: 'form',
          explode: true,
          schema: { type: 'array', items: { type: 'integer' } },
          description: 'Extension: only messages in these statuses (repeat the parameter, or separate with commas)',
        },
        {
          name: 'clicked',
          in: 'query',
          schema: { type: 'string', enum: ['true', 'false'] },
          description: 'Extension: only recipients who did (true) or did not (false) visit a short link',
        },
      ],
      responses: {
        '200': { description: 'entries: the rows of the page', content: ref('ExecutionMessagesResponse') },
        '400': error(`${badExecution.description}; or page, size, status or clicked malformed`),
        ...authErrors,
      },
    },
  },
  ...Object.fromEntries(
    (
      [
        [
          'cancel',
          'Extension: cancel. Nothing more is recorded, the unused credit reservation is released, and messages ' +
            'not handed to the carrier yet end as 13, refunded.',
        ],
        [
          'pause',
          'Extension: pause. Sending stops after the current batch; messages not yet due stay in status 2. The ' +
            'report shows paused: true and execution_status unchanged.',
        ],
        ['resume', 'Extension: resume a paused execution (its remaining messages are planned again from now)'],
      ] as const
    ).map(([action, summary]) => [
      `/v2/sms/campaigns/executions/{execution_id}/${action}`,
      {
        post: {
          summary,
          parameters: [executionParam],
          responses: {
            '200': { description: 'The report after the change', content: ref('ExecutionReportResponse') },
            '400': error(`${badExecution.description}; or the execution has ended (COMPLETED, FAILED, CANCELLED)`),
            ...authErrors,
          },
        },
      },
    ]),
  ),
  '/l/{code}': {
    get: {
      summary: 'Short link visit (public, no key): records the click (time, message, user agent) and redirects',
      description: shortLinkText,
      security: [],
      parameters: [
        {
          name: 'code',
          in: 'path',
          required: true,
          schema: { type: 'string', minLength: LINK_CODE_LENGTH, maxLength: LINK_CODE_LENGTH },
        },
      ],
      responses: {
        '302': {
          description:
            'Location: the original address with its own query and fragment, plus utm_source, utm_medium and ' +
            'utm_campaign when its has_utm was "true"',
          headers: { Location: { schema: { type: 'string' } } },
        },
        '404': {
          description:
            'No such link (an unknown code, or a recipient whose message is not recorded yet): a small HTML page ' +
            'saying so in the visitor’s language, Persian (lang="fa", dir="rtl") when Accept-Language ranks ' +
            'Persian above English, else English. Codes stay valid as long as the campaign does, so no answer is 410.',
          content: { 'text/html': { schema: { type: 'string' } } },
        },
      },
    },
  },
});

export async function campaignRoutes(app: FastifyInstance, { core }: { core: Core }) {
  await app.register(async (authed) => {
    authed.addHook('onRequest', bearerAuth(core));

    authed.post('/v2/sms/campaigns', { config: { upload: true } }, async (request, reply) => {
      const form = request.isMultipart() ? await multipartForm(request) : campaignForm(objectFields(request.body));
      return sendOk(reply, core.campaigns.create(request.account.id, form), 201);
    });

    type ExecutionRoute = { Params: { execution_id: string } };
    const executionId = (request: FastifyRequest<ExecutionRoute>): number | null =>
      ID.test(request.params.execution_id) && Number(request.params.execution_id) > 0
        ? Number(request.params.execution_id)
        : null;

    authed.get<ExecutionRoute>('/v2/sms/campaigns/executions/:execution_id', async (request, reply) => {
      const id = executionId(request);
      if (id === null) return sendError(reply, ApiCode.BadRequest);
      return sendOk(reply, core.campaigns.report(request.account.id, id));
    });

    authed.get<ExecutionRoute & { Querystring: Record<string, string | string[] | undefined> }>(
      '/v2/sms/campaigns/executions/:execution_id/messages',
      async (request, reply) => {
        const id = executionId(request);
        const page = positiveQuery(request.query.page, 1);
        const size = positiveQuery(request.query.size, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
        if (id === null || page === null || size === null) return sendError(reply, ApiCode.BadRequest);
        const rawStatus = request.query.status;
        const statusTexts = (Array.isArray(rawStatus) ? rawStatus : rawStatus === undefined ? [] : [rawStatus])
          .flatMap((value) => value.split(','))
          .filter((value) => value !== '');
        if (!statusTexts.every((value) => /^[0-9]{1,3}$/.test(value))) return sendError(reply, ApiCode.BadRequest);
        const rawClicked = Array.isArray(request.query.clicked) ? request.query.clicked[0] : request.query.clicked;
        if (rawClicked !== undefined && rawClicked !== '' && rawClicked !== 'true' && rawClicked !== 'false')
          return sendError(reply, ApiCode.BadRequest);
        const rows = core.campaigns.messages(request.account.id, id, {
          page,
          size,
          ...(statusTexts.length > 0 ? { status: statusTexts.map(Number) } : {}),
          ...(rawClicked === 'true' || rawClicked === 'false' ? { clicked: rawClicked === 'true' } : {}),
        });
        return sendOk(reply, rows);
      },
    );

    type CampaignRoute = { Params: { campaign_id: string } };
    const campaignOf = (request: FastifyRequest<CampaignRoute>) => {
      const raw = request.params.campaign_id;
      if (!ID.test(raw) || Number(raw) < 1) return null;
      const { campaign_id, series, executions } = core.campaigns.get(request.account.id, Number(raw));
      return { campaign_id, series, executions };
    };
    authed.get<CampaignRoute>('/v2/sms/campaigns/:campaign_id/executions', async (request, reply) => {
      const answer = campaignOf(request);
      return answer === null ? sendError(reply, ApiCode.BadRequest) : sendOk(reply, answer);
    });
    const seriesActions = {
      pause: (account: number, id: number) => core.campaigns.seriesPause(account, id),
      resume: (account: number, id: number) => core.campaigns.seriesResume(account, id),
      end: (account: number, id: number) => core.campaigns.seriesEnd(account, id),
    };
    for (const [action, act] of Object.entries(seriesActions))
      authed.post<CampaignRoute>(`/v2/sms/campaigns/:campaign_id/series/${action}`, async (request, reply) => {
        const raw = request.params.campaign_id;
        if (!ID.test(raw) || Number(raw) < 1) return sendError(reply, ApiCode.BadRequest);
        act(request.account.id, Number(raw));
        return sendOk(reply, campaignOf(request));
      });

    for (const action of ['cancel', 'pause', 'resume'] as const)
      authed.post<ExecutionRoute>(`/v2/sms/campaigns/executions/:execution_id/${action}`, async (request, reply) => {
        const id = executionId(request);
        if (id === null) return sendError(reply, ApiCode.BadRequest);
        return sendOk(reply, core.campaigns[action](request.account.id, id));
      });
  });

  // Public: the recipient's phone has no key. Only GET: a HEAD (link scanners, previews) would
  // count as a visit, since finding the address records the click.
  app.get<{ Params: { code: string } }>('/l/:code', { exposeHeadRoute: false }, async (request, reply) => {
    const location = core.campaigns.click(request.params.code, request.headers['user-agent'] ?? '');
    // A person followed it from a text message: they get a page in their language, not the API's 404.
    if (location === null) return sendDeadLink(reply, request.headers);
    // Every visit must reach us to be counted: no cache may answer it.
    return reply.header('cache-control', 'no-store').redirect(location, 302);
  });
}
