// The OpenAPI document of the HTTP API, generated from the zod schemas the handlers validate with
// (every schema with a meta id lands in components), plus the decisions PRODUCT.md asks us to
// document. Served at GET /openapi.json.
import { z } from 'zod';
import {
  ErrorEnvelopeSchema,
  FileUploadResultSchema,
  MAX_P2P_MESSAGES,
  MessageInfoSchema,
  P2pSendRequestSchema,
  SendRequestSchema,
  StatusEntrySchema,
  StatusRequestSchema,
  envelopeOf,
} from '../../../shared/api';
import { ApiCode, apiCodeMessage } from '../../../shared/status';
import { MessageStatus, messageStatusText } from '../../../shared/lifecycle';
import { priceText } from '../../../shared/pricing';
import { DEFAULT_PRICING } from '../settings/settings';
import { V3MessageInfoSchema, V3SendRequestSchema } from '../../../shared/api-v3';
import { ALLOWED_FILE_EXTENSIONS, MAX_FILE_BYTES } from '../files/files';
import { V1_DESCRIPTION, V1_SCHEMAS, v1Paths } from './openapi-v1';
import { EMAIL_DESCRIPTION, emailPaths } from './openapi-email';

const SendResponseSchema = envelopeOf(z.array(MessageInfoSchema)).meta({ id: 'SendResponse' });
const StatusResponseSchema = envelopeOf(z.array(StatusEntrySchema)).meta({ id: 'StatusResponse' });
const FileUploadResponseSchema = envelopeOf(FileUploadResultSchema).meta({ id: 'FileUploadResponse' });
const V3SendResponseSchema = envelopeOf(z.array(V3MessageInfoSchema)).meta({ id: 'V3SendResponse' });
const HealthSchema = z.object({ message: z.string() }).meta({ id: 'Health' });
const NotImplementedSchema = z.object({ error: z.literal('not implemented yet') }).meta({ id: 'NotImplemented' });
const InternalErrorSchema = z.object({ message: z.string() }).meta({ id: 'InternalError' });

/** Additional schemas registered by other modules (contacts, campaigns) before the document is built. */
const extraPaths: Record<string, unknown> = {};
export function addOpenApiPaths(paths: Record<string, unknown>): void {
  Object.assign(extraPaths, paths);
}

const FILE_TYPES = ALLOWED_FILE_EXTENSIONS.join(', ');
const FILE_MB = MAX_FILE_BYTES / (1024 * 1024);
/** What the accepted extensions usually arrive as; the extension is what is checked. */
const FILE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'audio/ogg', 'audio/opus', 'video/mp4'];

const OK = { status: ApiCode.Ok, message: apiCodeMessage[ApiCode.Ok] };
const EXAMPLE_TEXT = 'سلام، سفارش شما ارسال شد';
// Final texts and costs as the acceptance path makes them, at the default prices.
const SMS_EXAMPLE = priceText(EXAMPLE_TEXT, 'sms', DEFAULT_PRICING);
const BALE_EXAMPLE = priceText(EXAMPLE_TEXT, 'bale', DEFAULT_PRICING);
const V3_SEND_EXAMPLE = {
  return: OK,
  entries: [
    ['sms', 1001, SMS_EXAMPLE.text, '30001111', '09121234567', SMS_EXAMPLE.costRials],
    ['sms', 1002, SMS_EXAMPLE.text, '30001111', '09351234567', SMS_EXAMPLE.costRials],
    ['bale', 1003, BALE_EXAMPLE.text, 'acme_bot', '09121234567', BALE_EXAMPLE.costRials],
    ['bale', 1004, BALE_EXAMPLE.text, 'acme_bot', '09351234567', BALE_EXAMPLE.costRials],
  ].map(([channel, messageid, message, sender, receptor, cost]) => ({
    messageid,
    message,
    status: MessageStatus.Queued,
    statustext: messageStatusText[MessageStatus.Queued],
    sender,
    receptor,
    date: 1764000000,
    cost,
    channel,
  })),
};

// send-p2p: two texts to one number (each a message), the same pair again (15), an invalid number (0).
const P2P_EXAMPLE_REQUEST = {
  sender: '30001111',
  messages: [
    { receiver: '09121234567', message: 'علی جان، سفارش ۱۰۲۴ ارسال شد' },
    { receiver: '+989351234567', message: 'مریم جان، سفارش ۱۰۲۵ ارسال شد' },
    { receiver: '09121234567', message: 'علی جان، کد تخفیف شما: ۷۷۱۲' },
    { receiver: '09121234567', message: 'علی جان، سفارش ۱۰۲۴ ارسال شد' },
    { receiver: '0912', message: 'سلام' },
  ],
};
const p2pSent = (messageid: number, i: number, receptor: string) => {
  const priced = priceText(P2P_EXAMPLE_REQUEST.messages[i]!.message, 'sms', DEFAULT_PRICING);
  const status = MessageStatus.Queued;
  const statustext = messageStatusText[status];
  return {
    messageid,
    message: priced.text,
    status,
    statustext,
    sender: '30001111',
    receptor,
    date: 1764000000,
    cost: priced.costRials,
  };
};
const p2pRejected = (status: MessageStatus, receptor: string) => {
  const statustext = messageStatusText[status];
  return { messageid: 0, message: '', status, statustext, sender: '', receptor, date: 0, cost: 0 };
};
const P2P_EXAMPLE = {
  return: OK,
  // The repeat with another text goes out after the first occurrences, as a send of its own.
  entries: [
    p2pSent(1001, 0, '09121234567'),
    p2pSent(1002, 1, '09351234567'),
    p2pSent(1003, 2, '09121234567'),
    p2pRejected(MessageStatus.Duplicate, '09121234567'),
    p2pRejected(MessageStatus.Invalid, '0912'),
  ],
};

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (id: string) => ({ 'application/json': { schema: ref(id) } });
const errors = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((code) => [
      String(code),
      { description: `Error ${code}; entries is []`, content: json('ErrorEnvelope') },
    ]),
  );
const internal = {
  '500': { description: 'Unexpected error: {"message"} without the envelope', content: json('InternalError') },
};

export function buildOpenApiDocument(): Record<string, unknown> {
  // Touch the schemas so their ids are registered even if tree-shaken imports were lazy.
  void [SendRequestSchema, StatusRequestSchema, SendResponseSchema, StatusResponseSchema, FileUploadResponseSchema];
  void P2pSendRequestSchema;
  void [HealthSchema, NotImplementedSchema, InternalErrorSchema, ErrorEnvelopeSchema];
  void [V3SendRequestSchema, V3SendResponseSchema, ...V1_SCHEMAS];
  const generated = z.toJSONSchema(z.globalRegistry, {
    target: 'openapi-3.0',
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
  });
  // zod stamps each registered schema with `$id`, a keyword OpenAPI 3.0 Schema Objects do not
  // allow (validators reject the document); the component's name already identifies it.
  const schemas = Object.fromEntries(
    Object.entries(generated.schemas).map(([id, schema]) => {
      const { $id: _id, ...rest } = schema as Record<string, unknown>;
      return [id, rest];
    }),
  );
  return {
    openapi: '3.0.3',
    info: {
      title: 'Chapar local messaging service',
      version: '2.0.0',
      description: [
        'Every answer uses the envelope {return:{status,message},entries}; the HTTP status equals return.status',
        '(201 answers keep 200 in the body) and entries is [] on every error. return.message is Persian.',
        'Exceptions: 500 {"message"}, GET /health {"message"}, POST /v2/sms/outbox 501 {"error"},',
        'unknown path 404 / known path with another method 405 as plain text.',
        'Pages: GSM-7 160 then 153 per page (extension characters count two), otherwise UCS-2 70 then 67',
        'in UTF-16 units, counted on the final text (with \\nلغو۱۱ on SMS lines): pages = ceil(units / 153 or 67).',
        'cost (rials) = pages x page price (tomans) x 10; messenger lines cost a fixed price per message.',
        'Lifecycle: 1 -> 4 -> 10 | 11 | 13 | 14, reported by the carrier (the simulator); 13 refunds the cost once;',
        'opted-out receivers end as 14, refunded. Status lookups take at most 10,000 ids, as many as one send makes (414 above).',
        'Version 3 (/v3) sends one text over SMS, bale and rubika lines in one call, all or nothing.',
        V1_DESCRIPTION,
        EMAIL_DESCRIPTION,
      ].join(' '),
    },
    components: {
      schemas,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key from Settings or the seed file' },
      },
    },
    security: [{ bearer: [] }],
    paths: {
      '/v2/sms/send': {
        post: {
          summary: 'Send one text to up to 10,000 receivers',
          requestBody: { required: true, content: json('SendRequest') },
          responses: {
            '200': { description: 'One entry per submitted receiver, in order', content: json('SendResponse') },
            ...errors(400, 401, 403, 411, 412, 414, 418),
            ...internal,
          },
        },
      },
      '/v2/sms/send-p2p': {
        post: {
          tags: ['Extensions'],
          summary: `Extension: send each receiver its own text, up to ${MAX_P2P_MESSAGES.toLocaleString('en')} messages`,
          description: [
            'Not in the spec: the personalized send of the version 2 provider whose API this one imitates',
            '(messages of {message, receiver}), so that a program written for it works here too. Same key,',
            'envelope, rules and codes as /v2/sms/send: the sender line (412), file_id (spec 4.1 rule 7, 400),',
            `1 to ${MAX_P2P_MESSAGES.toLocaleString('en')} messages (414 above, 400 for an empty list or text),`,
            'each text made final on its own (SMS lines get \\nلغو۱۱) and priced by its own pages, the credit',
            'checked against the total (418), 411 when no receiver is valid. entries: one per submitted message,',
            'in order: status 1 with its message id and final text, 0 for an invalid receiver (echoed as',
            'received), 15 for a duplicate. A receiver named again with another text is not a duplicate: each',
            'message is its own, and both are sent. The same receiver with the same text (as submitted) again is',
            'a duplicate (15), as a receiver repeated in /v2/sms/send. All or nothing: a refusal records nothing.',
            'Message ids rise in the order the messages were accepted: a receiver named again with another text',
            'goes out in a further send after the first occurrences, so its id can be above later entries.',
          ].join(' '),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('P2pSendRequest'), example: P2P_EXAMPLE_REQUEST } },
          },
          responses: {
            '200': {
              description: 'One entry per submitted message, in order',
              content: { 'application/json': { schema: ref('SendResponse'), example: P2P_EXAMPLE } },
            },
            ...errors(400, 401, 403, 411, 412, 414, 418),
            ...internal,
          },
        },
      },
      '/v2/sms/status': {
        post: {
          summary: 'Status of sent messages (unknown or foreign ids: status 100)',
          requestBody: { required: true, content: json('StatusRequest') },
          responses: {
            '200': { description: 'One entry per id', content: json('StatusResponse') },
            ...errors(400, 401, 403, 414),
            ...internal,
          },
        },
      },
      '/v2/sms/outbox': {
        post: {
          summary: 'Not implemented',
          security: [],
          responses: { '501': { description: 'Always', content: json('NotImplemented') } },
        },
      },
      '/upload-file/{provider}': {
        post: {
          summary: `Upload a file for bale or rubika sends (multipart field "file"; ${FILE_TYPES}; at most ${FILE_MB} MB)`,
          description: [
            `One part named "file", whose file name ends in one of ${FILE_TYPES} (any case; otherwise 400).`,
            `At most ${FILE_MB} MB (${MAX_FILE_BYTES} bytes; more is 414, as soon as the file passes it); an empty file is 400.`,
            'Answers HTTP 201 with return.status 200 and entries {file_id}, a UUID: the file belongs to the key’s',
            'account and to the provider of the path. A send may attach it as file_id (version 2) or files.{provider}',
            '(version 3) only from that account and from a line of that provider; otherwise 400 (spec 4.1 rule 7).',
          ].join(' '),
          parameters: [
            { name: 'provider', in: 'path', required: true, schema: { type: 'string', enum: ['bale', 'rubika'] } },
          ],
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: ['file'],
                  properties: {
                    file: {
                      type: 'string',
                      format: 'binary',
                      description: `${FILE_TYPES}; at most ${FILE_MB} MB`,
                    },
                  },
                },
                encoding: { file: { contentType: FILE_MIME_TYPES.join(', ') } },
              },
            },
          },
          responses: {
            '201': {
              description: 'return.status 200; entries.file_id is the file’s UUID',
              content: {
                'application/json': {
                  schema: ref('FileUploadResponse'),
                  example: {
                    return: OK,
                    entries: { file_id: '3f2b9c4e-8a51-4d7e-9b0a-6c1d2e3f4a5b' },
                  },
                },
              },
            },
            ...errors(400, 401, 403, 414),
            ...internal,
          },
        },
      },
      '/v3/sms/send': {
        post: {
          tags: ['Version 3'],
          summary: 'Send one text to up to 10,000 receivers over SMS, bale and rubika at once (all or nothing)',
          description: [
            'senders names one line per channel to send on (at least one): senders.sms an SMS line, senders.bale',
            'a bale line, senders.rubika a rubika line, each of the account with can_send_api_campaign (412',
            'otherwise, and 412 for a line of another provider under a key). files optionally attaches a file',
            'from POST /upload-file/{provider} to the bale and/or rubika messages (spec 4.1 rule 7: 400 for',
            "another account's file, another provider's, or a channel not sent on). Each channel is a send of its",
            'own with the rules of version 2: SMS texts get the opt-out phrase and are priced by pages, messenger',
            'texts are unchanged at the fixed messenger price. The credit is checked for the whole call: if any',
            'channel is refused (418 credit short for all channels together, 411, 412, 400) nothing is sent or',
            'charged. entries: channel by channel in the order sms, bale, rubika (those in senders), and within a',
            'channel one entry per submitted receiver in the order given (invalid: status 0, duplicate: status',
            '15, messageid 0, on every channel). So entries[c * receivers.length + i] is receiver i on the c-th channel.',
          ].join(' '),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: ref('V3SendRequest'),
                example: {
                  message: EXAMPLE_TEXT,
                  receivers: ['09121234567', '+989351234567'],
                  senders: { sms: '30001111', bale: 'acme_bot' },
                  files: { bale: '3f2b9c4e-8a51-4d7e-9b0a-6c1d2e3f4a5b' },
                },
              },
            },
          },
          responses: {
            '200': {
              description: 'One entry per channel and submitted receiver, channel by channel',
              content: { 'application/json': { schema: ref('V3SendResponse'), example: V3_SEND_EXAMPLE } },
            },
            ...errors(400, 401, 403, 411, 412, 414, 418),
            ...internal,
          },
        },
      },
      '/v3/sms/status': {
        post: {
          tags: ['Version 3'],
          summary: 'Status of sent messages of any channel (unknown or foreign ids: status 100); as /v2/sms/status',
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: ref('StatusRequest'), example: { messageids: [1001, 1002, 1003] } },
            },
          },
          responses: {
            '200': {
              description: 'One entry per id, in order',
              content: {
                'application/json': {
                  schema: ref('StatusResponse'),
                  example: {
                    return: OK,
                    entries: [
                      ...[MessageStatus.Delivered, MessageStatus.HandedToCarrier, MessageStatus.UnknownId].map(
                        (status, i) => ({ messageid: 1001 + i, status, statustext: messageStatusText[status] }),
                      ),
                    ],
                  },
                },
              },
            },
            ...errors(400, 401, 403, 414),
            ...internal,
          },
        },
      },
      ...v1Paths(),
      ...emailPaths(),
      '/gateway/reports/{line}/{token}': Object.fromEntries(
        (['get', 'post'] as const).map((method) => [
          method,
          {
            summary: "A delivery report from a line's HTTP gateway (extension; Kannel's dlr-url)",
            description:
              'Not of the spec. The address is made by Chapar for each message it hands to an HTTP gateway ' +
              "(the `{report}` placeholder of the line's address template): `?m=<message id>&l=<local id>&type=%d`, " +
              "where `type` is Kannel's report type (1 delivered, 2 not delivered, 16 refused by the SMSC, 4 and 8 " +
              "on its way). The token, made from the line's key, is the only credential. A report of a message the " +
              'line is not waiting on is answered 200 and changes nothing (`applied: false`), so a gateway does not ' +
              'retry it for ever.',
            security: [],
            parameters: [
              { name: 'line', in: 'path', required: true, schema: { type: 'integer' } },
              { name: 'token', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'm', in: 'query', schema: { type: 'integer' }, description: "Chapar's message id" },
              { name: 'l', in: 'query', schema: { type: 'integer' }, description: "The message's local id" },
              { name: 'type', in: 'query', schema: { type: 'integer' }, description: 'The report type (%d)' },
            ],
            responses: {
              '200': {
                description: 'Taken: `entries` is `{"applied": true|false}`',
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: {
                        return: { type: 'object' },
                        entries: { type: 'object', properties: { applied: { type: 'boolean' } } },
                      },
                    },
                  },
                },
              },
              ...errors(403, 404),
              ...internal,
            },
          },
        ]),
      ),
      '/health': {
        get: {
          summary: 'Liveness',
          security: [],
          responses: { '200': { description: 'Alive', content: json('Health') } },
        },
      },
      ...extraPaths,
    },
  };
}
