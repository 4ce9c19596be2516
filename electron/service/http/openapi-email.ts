// The embedded email provider's paths in the OpenAPI document (spec 4.6, reference/
// email-relay-provider.md): its own key (`Authorization: Bearer <email key>`, not the SMS API's),
// its bare `{"message"}` errors, and the choices the spec leaves open, with examples.
import { RESERVED_HEADERS, MAX_IDEMPOTENCY_KEY_LENGTH } from '../email/relay/request';
import { MAX_LIST_LIMIT } from '../email/relay/list';
import { DEFER_RETRY_MS, PROCESSING_DELAY_MS } from '../email/relay/sandbox';
import { EMAIL_BODY_LIMIT_BYTES } from './email/routes';
import { RELAY_STATUSES, SANDBOX_RESULTS } from '../../../shared/email';

const TAG = 'Email relay (embedded provider)';
const MESSAGE_ID = '3f2b9c4e-8a51-4d7e-9b0a-6c1d2e3f4a5b';

const problem = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
const errorResponses = (codes: Record<number, string>) =>
  Object.fromEntries(
    Object.entries(codes).map(([code, description]) => [
      code,
      {
        description,
        content: { 'application/json': { schema: problem, example: { message: description } } },
      },
    ]),
  );
const AUTH_ERRORS = {
  401: 'missing API key: send the header Authorization: Bearer <key>',
  403: 'this API key has no access to account "1001"',
};

const party = {
  type: 'object',
  required: ['email'],
  properties: { email: { type: 'string', format: 'email', maxLength: 254 }, name: { type: 'string', nullable: true } },
};
const substitutions = { type: 'object', additionalProperties: true, nullable: true };
const schedule = {
  type: 'object',
  properties: {
    first_attempt: { type: 'string', format: 'date-time', description: 'RFC 3339; later than now: status scheduled' },
    expires: { type: 'string', format: 'date-time', description: 'RFC 3339; default first_attempt + 24 hours' },
  },
};

const sendRequest = {
  type: 'object',
  required: ['from', 'recipients', 'subject'],
  properties: {
    from: party,
    reply_to: { ...party, nullable: true },
    recipients: {
      type: 'array',
      minItems: 1,
      description: `No maximum: as many as fit in the body (${EMAIL_BODY_LIMIT_BYTES / (1024 * 1024)} MB)`,
      items: { type: 'object', required: ['email'], properties: { ...party.properties, substitutions } },
    },
    subject: { type: 'string', minLength: 1, maxLength: 998, description: 'May hold {{ variable }}' },
    text_content: { type: 'string', nullable: true, description: 'At least one of text_content and html_content' },
    html_content: { type: 'string', nullable: true, description: 'Values are HTML-escaped where they are filled in' },
    amp_content: { type: 'string', nullable: true },
    substitutions: { ...substitutions, description: 'Global values; a recipient’s own override them' },
    headers: {
      type: 'object',
      additionalProperties: { type: 'string' },
      nullable: true,
      description: `At most 50, one line each; these may not be set: ${RESERVED_HEADERS.join(', ')} (400)`,
    },
    tags: { type: 'array', items: { type: 'string', maxLength: 100 }, maxItems: 20, nullable: true },
    attachments: {
      type: 'array',
      maxItems: 50,
      nullable: true,
      items: {
        type: 'object',
        required: ['data'],
        properties: {
          data: { type: 'string' },
          base64: { type: 'boolean', nullable: true, description: 'data is base64' },
          content_type: { type: 'string', nullable: true },
          file_name: { type: 'string', nullable: true },
          content_disposition: { type: 'string', enum: ['attachment', 'inline'], nullable: true },
          content_id: { type: 'string', nullable: true },
        },
      },
    },
    tracking: {
      type: 'object',
      nullable: true,
      properties: { open: { type: 'boolean' }, click: { type: 'boolean' } },
    },
    retention: {
      type: 'object',
      nullable: true,
      properties: {
        metadata: { type: 'integer', minimum: 1, maximum: 30 },
        data: { type: 'integer', minimum: 0, maximum: 30 },
      },
    },
    sandbox: { type: 'boolean', nullable: true },
    sandbox_result: { type: 'string', enum: [...SANDBOX_RESULTS], nullable: true, description: 'Default deliver' },
    schedule: { ...schedule, nullable: true },
  },
};

const summaryProperties = {
  object: { type: 'string', enum: ['message'] },
  id: { type: 'string', format: 'uuid' },
  created_at: { type: 'string', format: 'date-time' },
  updated_at: { type: 'string', format: 'date-time' },
  sent_at: { type: 'string', format: 'date-time', nullable: true },
  delivered_at: { type: 'string', format: 'date-time', nullable: true },
  direction: { type: 'string', enum: ['outgoing'] },
  sender: { type: 'string' },
  recipient: { type: 'string' },
  subject: { type: 'string', description: 'As rendered for this recipient' },
  tags: { type: 'array', items: { type: 'string' } },
  status: { type: 'string', enum: [...RELAY_STATUSES] },
  num_attempts: { type: 'integer' },
  click_count: { type: 'integer' },
  open_count: { type: 'integer' },
  account_id: { type: 'string' },
  schedule,
};
const summary = { type: 'object', properties: summaryProperties };
const message = {
  type: 'object',
  properties: {
    ...summaryProperties,
    delivery_attempts: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          time: { type: 'string', format: 'date-time' },
          log: { type: 'string' },
          status: { type: 'string', enum: [...RELAY_STATUSES] },
        },
      },
    },
    content: { type: 'string', description: 'The raw RFC 822 message this recipient got (To: that recipient alone)' },
  },
};

const summaryExample = {
  object: 'message',
  id: MESSAGE_ID,
  created_at: '2026-01-01T09:00:00.000Z',
  updated_at: '2026-01-01T09:00:01.000Z',
  sent_at: '2026-01-01T09:00:00.000Z',
  delivered_at: '2026-01-01T09:00:01.000Z',
  direction: 'outgoing',
  sender: 'shop@acme.example',
  recipient: 'ali@example.com',
  subject: 'Your order, Ali',
  tags: ['spring'],
  status: 'delivered',
  num_attempts: 1,
  click_count: 0,
  open_count: 0,
  account_id: '1001',
  schedule: { first_attempt: '2026-01-01T09:00:00.000Z', expires: '2026-01-02T09:00:00.000Z' },
};

const accountParameter = { name: 'account_id', in: 'path', required: true, schema: { type: 'string' } };
const messageParameter = { name: 'message_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

/** Cancel, by DELETE (the contract) or POST (the alias). */
const cancel = {
  tags: [TAG],
  summary: 'Cancel a queued or scheduled message',
  description: 'DELETE, as in the provider’s published contract and its SDK; POST is taken too.',
  parameters: [accountParameter, messageParameter],
  responses: {
    '200': {
      description: 'The cancelled message',
      content: { 'application/json': { schema: message, example: { ...summaryExample, status: 'cancelled' } } },
    },
    ...errorResponses({
      ...AUTH_ERRORS,
      404: `no message "${MESSAGE_ID}" in this account`,
      409: `message ${MESSAGE_ID} is delivered: only a queued or scheduled message can be cancelled`,
    }),
  },
};

export const EMAIL_DESCRIPTION = [
  'The email relay of spec 4.6 is embedded: {email_api_url} is this server, under /v2/accounts/{account_id}/messages.',
  'Its keys are the provider’s own (email_accounts of the seed), not the SMS API’s; its errors are a bare',
  '{"message"} (never the envelope). Nothing leaves the machine: the sandbox moves each message to the outcome its',
  'sandbox_result asks for (an account seeded with sandbox: false behaves the same). A method a path of the',
  'provider does not take is 405 with an Allow header and the same {"message"}.',
].join(' ');

export function emailPaths(): Record<string, unknown> {
  const messages = '/v2/accounts/{account_id}/messages';
  return {
    [messages]: {
      post: {
        tags: [TAG],
        summary: 'Send one email per recipient (as many recipients as fit in the body)',
        description: [
          'Each recipient gets its own message with that recipient alone in To; {{ variable }} in the subject and',
          'bodies take the recipient’s substitutions, else the global ones, else nothing. The key is checked before',
          `the body is read. A body over ${EMAIL_BODY_LIMIT_BYTES / (1024 * 1024)} MB is 413.`,
          `Idempotency-Key (at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, kept 24 hours, per account, method and`,
          'path): the same key and body answer the first answer again with Idempotent-Replayed: true; another body,',
          'or a request with the key still being processed, is 409; after a failed first request (400, 413, 5xx) 412.',
          `Sandbox: at first_attempt a message is processed, ${PROCESSING_DELAY_MS / 1000} s later delivered,`,
          'bounced, failed or suppressed as sandbox_result says; defer makes it deferred and tried again',
          `${DEFER_RETRY_MS / 1000} s later: delivered before expires, else failed.`,
        ].join(' '),
        parameters: [
          accountParameter,
          { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: sendRequest,
              example: {
                from: { email: 'shop@acme.example', name: 'Acme' },
                recipients: [
                  { email: 'ali@example.com', name: 'Ali', substitutions: { name: 'Ali' } },
                  { email: 'sara@example.com', name: 'Sara', substitutions: { name: 'Sara' } },
                ],
                subject: 'Your order, {{ name }}',
                text_content: 'Hello {{ name }}, your order {{ order }} is on its way.',
                html_content: '<p>Hello {{ name }}, your order {{ order }} is on its way.</p>',
                substitutions: { order: 'A-1001' },
                tags: ['spring'],
                sandbox_result: 'deliver',
              },
            },
          },
        },
        responses: {
          '202': {
            description: 'One message per recipient, in order; status queued, or scheduled for a future first_attempt',
            headers: { 'Idempotent-Replayed': { schema: { type: 'string', enum: ['true'] } } },
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    object: { type: 'string', enum: ['list'] },
                    data: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: {
                          object: { type: 'string', enum: ['message'] },
                          id: { type: 'string', format: 'uuid' },
                          recipient: {
                            type: 'object',
                            properties: { ...party.properties, substitutions },
                          },
                          status: { type: 'string', enum: ['queued', 'scheduled'] },
                          error: { type: 'string', nullable: true },
                          schedule,
                        },
                      },
                    },
                  },
                },
                example: {
                  object: 'list',
                  data: [
                    {
                      object: 'message',
                      id: MESSAGE_ID,
                      recipient: { email: 'ali@example.com', name: 'Ali', substitutions: { name: 'Ali' } },
                      status: 'queued',
                      error: null,
                      schedule: { first_attempt: '2026-01-01T09:00:00.000Z', expires: '2026-01-02T09:00:00.000Z' },
                    },
                  ],
                },
              },
            },
          },
          ...errorResponses({
            400: 'recipients[2].email is not an email address: "bob@"',
            ...AUTH_ERRORS,
            409: 'this Idempotency-Key was already used with another body; use a new key for a new request',
            412: 'the first request with this Idempotency-Key failed (HTTP 400); send the corrected request with a new key',
            413: 'body is larger than 10 MB',
            500: 'internal error; try again later',
          }),
        },
      },
      get: {
        tags: [TAG],
        summary: 'List messages, newest first',
        description: [
          'Filters: status (comma-separated, any case: Bounced,Failed), sender and recipient (the address, any case),',
          'subject (contains), tags (comma-separated: any of them), from_time ≤ created_at < to_time (RFC 3339).',
          `limit 1..${MAX_LIST_LIMIT} (default ${MAX_LIST_LIMIT}). after=<next_cursor> gives the next (older) page,`,
          'before=<previous_cursor> the previous (newer) one; has_more tells whether more follow in the direction',
          'asked; a cursor is null when nothing lies that way. Anything out of range is 400.',
        ].join(' '),
        parameters: [
          accountParameter,
          ...['status', 'sender', 'recipient', 'subject', 'tags', 'after', 'before'].map((name) => ({
            name,
            in: 'query',
            required: false,
            schema: { type: 'string' },
          })),
          ...['from_time', 'to_time'].map((name) => ({
            name,
            in: 'query',
            required: false,
            schema: { type: 'string', format: 'date-time' },
          })),
          {
            name: 'limit',
            in: 'query',
            required: false,
            schema: { type: 'integer', minimum: 1, maximum: MAX_LIST_LIMIT },
          },
        ],
        responses: {
          '200': {
            description: 'A page of message summaries',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    object: { type: 'string', enum: ['list'] },
                    data: { type: 'array', items: summary },
                    pagination: {
                      type: 'object',
                      properties: {
                        has_more: { type: 'boolean' },
                        next_cursor: { type: 'string', nullable: true },
                        previous_cursor: { type: 'string', nullable: true },
                      },
                    },
                  },
                },
                example: {
                  object: 'list',
                  data: [summaryExample],
                  pagination: { has_more: true, next_cursor: 'bTo0Mg', previous_cursor: null },
                },
              },
            },
          },
          ...errorResponses({ 400: 'limit must be a whole number from 1 to 100', ...AUTH_ERRORS }),
        },
      },
    },
    [`${messages}/{message_id}`]: {
      get: {
        tags: [TAG],
        summary: 'One message: its moves and the raw RFC 822 content its recipient got',
        parameters: [accountParameter, messageParameter],
        responses: {
          '200': {
            description: 'The message (Message-ID and Date fixed: two reads are the same)',
            content: {
              'application/json': {
                schema: message,
                example: {
                  ...summaryExample,
                  delivery_attempts: [
                    { time: '2026-01-01T09:00:00.000Z', log: 'Picked up for sending (sandbox)', status: 'processed' },
                    { time: '2026-01-01T09:00:01.000Z', log: '250 2.0.0 OK: delivered', status: 'delivered' },
                  ],
                  content: `From: Acme <shop@acme.example>\r\nTo: Ali <ali@example.com>\r\nSubject: Your order, Ali\r\n…`,
                },
              },
            },
          },
          ...errorResponses({ ...AUTH_ERRORS, 404: `no message "${MESSAGE_ID}" in this account` }),
        },
      },
    },
    [`${messages}/{message_id}/cancel`]: {
      delete: cancel,
      post: {
        ...cancel,
        summary: 'Cancel a queued or scheduled message: POST, kept as an alias of DELETE',
        description: 'What earlier versions of Chapar took; the same as DELETE in every way.',
      },
    },
  };
}
