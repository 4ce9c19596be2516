// Version 1 in the OpenAPI document (spec 9, reference/kavenegar-v1.md §1): one path per method,
// `/v1/{apiKey}/{scope}/{method}.json`, GET with a query or POST with a form body (the two merged),
// and the previous provider's envelope (`entries: null` on errors). The method list is checked
// against the routed method tables by test/api-v3/openapi.test.ts, so neither drifts from the other.
import { z } from 'zod';
import { ApiStatusSchema, MessageInfoSchema } from '../../../shared/api';

const V1StatusSchema = z
  .object({ messageid: z.number().int(), status: z.number().int(), statustext: z.string() })
  .meta({ id: 'V1Status' });
const V1LocalStatusSchema = z
  .object({ messageid: z.number().int(), localid: z.string(), status: z.number().int(), statustext: z.string() })
  .meta({ id: 'V1LocalStatus' });
const V1CountOutboxSchema = z
  .object({
    startdate: z.number().int(),
    enddate: z.number().int(),
    sumpart: z.number().int().describe('SMS pages'),
    sumcount: z.number().int().describe('Messages'),
    cost: z.number().describe('Rials'),
  })
  .meta({ id: 'V1CountOutbox' });
const V1ReceivedSchema = z
  .object({
    messageid: z.number().int(),
    message: z.string(),
    sender: z.string().describe('Who wrote it'),
    receptor: z.string().describe('Your line'),
    date: z.number().int().describe('Unix seconds'),
  })
  .meta({ id: 'V1Received' });
const V1PageMetadataSchema = z
  .object({
    totalCount: z.number().int().describe('Replies in the window (and filter), on every page'),
    currentPage: z.number().int().describe('The page answered, counted from 1'),
    totalPages: z.number().int().describe('0 when the window holds none'),
    pageSize: z.number().int().describe('200'),
  })
  .meta({ id: 'V1PageMetadata' });
const V1CountInboxSchema = z
  .object({ startdate: z.number().int(), enddate: z.number().int(), sumcount: z.number().int() })
  .meta({ id: 'V1CountInbox' });
const V1AccountInfoSchema = z
  .object({
    remaincredit: z.number().describe('Rials'),
    expiredate: z.number().int().describe('Unix seconds'),
    type: z.string().describe('master'),
  })
  .meta({ id: 'V1AccountInfo' });
const V1AccountConfigSchema = z
  .object({
    apilogs: z.string(),
    dailyreport: z.string(),
    debugmode: z.string(),
    defaultsender: z.string(),
    mincreditalarm: z.union([z.string(), z.number()]),
    resendfailed: z.string(),
  })
  .meta({ id: 'V1AccountConfig' });
const V1DateSchema = z
  .object({
    datetime: z.string(),
    year: z.number().int(),
    month: z.number().int(),
    day: z.number().int(),
    hour: z.number().int(),
    minute: z.number().int(),
    second: z.number().int(),
    unixtime: z.number().int(),
  })
  .meta({ id: 'V1Date' });
const V1ErrorEnvelopeSchema = z
  .object({ return: ApiStatusSchema, entries: z.null().describe('Always null on errors') })
  .meta({ id: 'V1ErrorEnvelope' });

const v1Envelope = (entries: z.ZodType, id: string) => ({
  id,
  schema: z.object({ return: ApiStatusSchema, entries }).meta({ id }),
});
const V1_ENVELOPES = {
  messages: v1Envelope(z.array(MessageInfoSchema), 'V1MessagesResponse'),
  statuses: v1Envelope(z.array(V1StatusSchema), 'V1StatusResponse'),
  localStatuses: v1Envelope(z.array(V1LocalStatusSchema), 'V1LocalStatusResponse'),
  countOutbox: v1Envelope(z.array(V1CountOutboxSchema), 'V1CountOutboxResponse'),
  received: v1Envelope(z.array(V1ReceivedSchema), 'V1ReceiveResponse'),
  countInbox: v1Envelope(z.array(V1CountInboxSchema), 'V1CountInboxResponse'),
  inboxPage: {
    id: 'V1InboxPagedResponse',
    schema: z
      .object({ return: ApiStatusSchema, entries: z.array(V1ReceivedSchema), metadata: V1PageMetadataSchema })
      .meta({ id: 'V1InboxPagedResponse' }),
  },
  accountInfo: v1Envelope(V1AccountInfoSchema, 'V1AccountInfoResponse'),
  accountConfig: v1Envelope(V1AccountConfigSchema, 'V1AccountConfigResponse'),
  date: v1Envelope(V1DateSchema, 'V1DateResponse'),
} as const;
/** Version 1's schemas, touched so their ids are registered before the document is generated. */
export const V1_SCHEMAS = [V1ErrorEnvelopeSchema, ...Object.values(V1_ENVELOPES).map((each) => each.schema)];

interface V1Param {
  name: string;
  required?: boolean;
  description: string;
}
interface V1MethodDoc {
  summary: string;
  params: V1Param[];
  answers: keyof typeof V1_ENVELOPES;
  /** Errors besides those of every method (400, 401, 403, 416). */
  errors: number[];
  postOnly?: boolean;
  /** Needs a registered IP (407 while the allow-list is empty). */
  needsConfiguredIp?: boolean;
  /** The key in the path may be anything (`0`). */
  public?: boolean;
}

const ids500 = 'comma-separated message ids (or the key repeated), at most 500 (414)';
const date = (what: string) => `${what}, Unix seconds`;
/** A range's end; 0 is a client's default (Java's countOutbox(startdate) sends enddate=0), as absent. */
const END_DATE = {
  name: 'enddate',
  description: date('end; absent or 0: now; before startdate or more than a day after it: 417'),
};

/** The methods of version 1, as the previous provider documented them and Chapar implements them. */
export const V1_METHOD_DOCS: Record<string, V1MethodDoc> = {
  'sms/send': {
    summary: 'One text to 1..200 receptors from one line (SMS lines get the opt-out phrase, as in version 2)',
    params: [
      { name: 'receptor', required: true, description: 'comma-separated numbers, at most 200 (414)' },
      { name: 'message', required: true, description: 'the text' },
      {
        name: 'sender',
        description: "a line of the account with can_send_api_campaign; absent: account/config's defaultsender",
      },
      {
        name: 'date',
        description: date(
          'when to send; absent or 0: now, scheduled messages stay status 2 until then; past or invalid: 417',
        ),
      },
      {
        name: 'localid',
        description:
          'comma-separated, one per receptor (400 otherwise); a localid sent before returns the earlier message, no second charge',
      },
      { name: 'type', description: 'taken and not acted on' },
      { name: 'hide', description: 'taken and not acted on' },
      { name: 'tag', description: 'taken and not acted on' },
    ],
    answers: 'messages',
    errors: [411, 412, 414, 417, 418],
  },
  'sms/sendarray': {
    summary: 'N (sender, receptor, message) triples; POST only',
    params: [
      { name: 'receptor', required: true, description: 'JSON array of numbers, at most 200 (414)' },
      { name: 'sender', required: true, description: 'JSON array of lines, as long as receptor (419)' },
      { name: 'message', required: true, description: 'JSON array of texts, as long as receptor (419)' },
      { name: 'date', description: date('one time for all; absent or 0: now; past or invalid: 417') },
      {
        name: 'localmessageids',
        description: 'JSON array (or comma list), one per receptor (419); localmessageid and localid are read too',
      },
      { name: 'type', description: 'JSON array; taken and not acted on' },
    ],
    answers: 'messages',
    errors: [411, 412, 414, 417, 418, 419],
    postOnly: true,
  },
  'sms/status': {
    summary: 'Status of messages; an unknown or foreign id is status 100',
    params: [{ name: 'messageid', required: true, description: ids500 }],
    answers: 'statuses',
    errors: [414],
  },
  'sms/statuslocalmessageid': {
    summary: 'Status of messages by the localid they were sent with; unknown: status 100',
    params: [{ name: 'localid', required: true, description: 'comma-separated local ids, at most 500 (414)' }],
    answers: 'localStatuses',
    errors: [414],
  },
  'sms/select': {
    summary: 'Sent messages by id, whole',
    params: [{ name: 'messageid', required: true, description: ids500 }],
    answers: 'messages',
    errors: [407, 414],
    needsConfiguredIp: true,
  },
  'sms/selectoutbox': {
    summary: 'Sent messages of a period',
    params: [
      { name: 'startdate', required: true, description: date('start') },
      END_DATE,
      { name: 'sender', description: 'only this line' },
    ],
    answers: 'messages',
    errors: [407, 412, 414, 417],
    needsConfiguredIp: true,
  },
  'sms/latestoutbox': {
    summary: 'The latest sent messages',
    params: [
      { name: 'pagesize', description: 'how many, at most 500 (absent or 0: 500)' },
      { name: 'sender', description: 'only this line (412 when not the account’s)' },
    ],
    answers: 'messages',
    errors: [407, 412, 414],
    needsConfiguredIp: true,
  },
  'sms/countoutbox': {
    summary: 'Counts of sent messages and pages, and their cost, in a period',
    params: [
      { name: 'startdate', required: true, description: date('start') },
      END_DATE,
      { name: 'status', description: 'only messages in this status (0, a client’s default, is no filter)' },
    ],
    answers: 'countOutbox',
    errors: [417],
  },
  'sms/cancel': {
    summary: 'Cancels messages scheduled with date: they end 13, refunded; others answer their current status',
    params: [{ name: 'messageid', required: true, description: ids500 }],
    answers: 'statuses',
    errors: [414],
  },
  'sms/receive': {
    summary: 'Replies received on a line, at most 100 a call; isread=0 reads the unread ones and marks them read',
    params: [
      { name: 'linenumber', required: true, description: 'a line of the account' },
      { name: 'isread', required: true, description: '0 unread (then marked read), 1 already read' },
    ],
    answers: 'received',
    errors: [412],
  },
  'sms/countinbox': {
    summary: 'Count of replies received in a period',
    params: [
      { name: 'startdate', required: true, description: date('start') },
      END_DATE,
      { name: 'linenumber', description: 'only this line' },
      { name: 'isread', description: '0 or 1' },
    ],
    answers: 'countInbox',
    errors: [412, 417],
  },
  'sms/inboxpaged': {
    summary: 'Replies received on a line in a window of at most 2 days, 200 a page, oldest first; marks nothing read',
    params: [
      { name: 'linenumber', required: true, description: 'a line of the account (412 otherwise)' },
      { name: 'startdate', required: true, description: date('start, inclusive') },
      {
        name: 'enddate',
        description: date(
          'end, exclusive; absent or 0: 2 days after startdate; before startdate or more than 2 days after it: 400',
        ),
      },
      { name: 'isread', description: '0 only unread, 1 only read; absent: both. Nothing is marked read' },
      {
        name: 'pagenumber',
        description:
          'counted from 1 (absent or 0: 1; negative: 400); a page past the last answers no entries. Pages are in ' +
          'order of receipt (then id), so a page keeps its replies while none arrives inside the window',
      },
    ],
    answers: 'inboxPage',
    errors: [412],
  },
  'verify/lookup': {
    summary: 'A template (OTP) send; templates are managed in the app',
    params: [
      { name: 'receptor', required: true, description: 'one number' },
      { name: 'template', required: true, description: 'template name (424 when unknown or inactive)' },
      { name: 'token', required: true, description: 'at most 100 characters, no spaces (431)' },
      { name: 'token2', description: 'as token' },
      { name: 'token3', description: 'as token' },
      { name: 'token10', description: 'may hold up to 5 spaces' },
      { name: 'token20', description: 'may hold up to 8 spaces' },
      { name: 'type', description: 'sms (default) or call; call only with a numeric token (428)' },
    ],
    answers: 'messages',
    errors: [411, 412, 418, 422, 424, 428, 431, 432],
  },
  'account/info': {
    summary: 'Remaining credit (rials)',
    params: [],
    answers: 'accountInfo',
    errors: [],
  },
  'account/config': {
    summary: 'Reads the account settings, or changes those given',
    params: [
      { name: 'apilogs', description: 'justfaults | enabled | disabled' },
      { name: 'dailyreport', description: 'enabled | disabled' },
      { name: 'debugmode', description: 'enabled | disabled' },
      { name: 'defaultsender', description: 'a line of the account (412), used by sms/send without sender' },
      { name: 'mincreditalarm', description: 'rials' },
      { name: 'resendfailed', description: 'enabled | disabled' },
    ],
    answers: 'accountConfig',
    errors: [412],
  },
  'utils/getdate': {
    summary: "The server's date and time; any key (0 included)",
    params: [],
    answers: 'date',
    errors: [],
    public: true,
  },
};

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** The paths of version 1: one per method, GET (query) and POST (form body, merged with the query). */
export function v1Paths(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const [name, doc] of Object.entries(V1_METHOD_DOCS)) {
    const common = doc.public ? [400] : [400, 401, 403, 416];
    const codes = [...new Set([...common, ...doc.errors])].sort((a, b) => a - b);
    const responses = {
      '200': {
        description: 'The provider’s envelope',
        content: { 'application/json': { schema: ref(V1_ENVELOPES[doc.answers].id) } },
      },
      ...Object.fromEntries(
        codes.map((code) => [
          String(code),
          {
            description: `Error ${code}; entries is null`,
            content: { 'application/json': { schema: ref('V1ErrorEnvelope') } },
          },
        ]),
      ),
      '500': {
        description: 'Unexpected error: {"message"} without the envelope',
        content: { 'application/json': { schema: ref('InternalError') } },
      },
    };
    const description = [
      doc.summary + '.',
      doc.needsConfiguredIp ? 'Needs an IP registered in the allow-list (407 while it is empty).' : '',
      'Lists: comma-separated, or the key repeated; empty values and the text null count as absent.',
    ]
      .filter(Boolean)
      .join(' ');
    const keyParam = {
      name: 'apiKey',
      in: 'path',
      required: true,
      description: doc.public ? 'Any value, e.g. 0' : 'The API key (403 unknown, 401 inactive account)',
      schema: { type: 'string' },
    };
    const query = doc.params.map((param) => ({
      name: param.name,
      in: 'query',
      required: false,
      description: param.required ? `Required (here or in the form body): ${param.description}` : param.description,
      schema: { type: 'string' },
    }));
    const form = {
      required: false,
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            properties: Object.fromEntries(
              doc.params.map((param) => [param.name, { type: 'string', description: param.description }]),
            ),
          },
        },
      },
    };
    const tags = ['Version 1'];
    const security: unknown[] = [];
    paths[`/v1/{apiKey}/${name}.json`] = {
      ...(doc.postOnly
        ? {}
        : { get: { tags, summary: doc.summary, description, security, parameters: [keyParam, ...query], responses } }),
      post: {
        tags,
        summary: doc.summary,
        description,
        security,
        parameters: [keyParam, ...query],
        ...(doc.params.length > 0 ? { requestBody: form } : {}),
        responses,
      },
    };
  }
  return paths;
}

export const V1_DESCRIPTION = [
  'Version 1 (/v1/{apiKey}/{scope}/{method}.json) imitates the previous provider’s REST API so that its',
  'official clients work unchanged: the key in the path (403 unknown, 401 inactive account), the caller’s IP',
  'checked against the account’s allow-list (416, loopback included; 407 for select, selectoutbox and',
  'latestoutbox while the list is empty), GET with a query or POST with a form body (merged; repeated keys',
  'joined with commas; empty values and the text null, what PHP sends for a default, absent; a trailing',
  'slash after .json and absolute-form targets accepted),',
  'limits of 200 receptors and 500 ids (414), and errors as {"return":{"status","message"},"entries":null}',
  'with the HTTP status equal to return.status.',
].join(' ');
