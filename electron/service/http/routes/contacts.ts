// Contact upload (spec 4.4) and its processing status (4.5, shape from PRODUCT.md). The upload is
// answered at once (201, return.status 200) with {segment_id, upload_data_id}; the contacts are
// processed by the scheduler in a worker thread and followed with GET .../contacts/{id}.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../core';
import { bearerAuth } from '../auth';
import { sendError, sendOk } from '../envelope';
import { addOpenApiPaths } from '../openapi';
import { UnparsedJson } from '../json-body';
import { envelopeOf } from '../../../../shared/api';
import { ApiCode } from '../../../../shared/status';
import { MAX_UPLOAD_CONTACTS, rejectionReasonText } from '../../../../shared/contacts';
import { phoneProblemTexts } from '../../../../shared/rejections';

export const UploadContactsRequestSchema = z
  .array(z.record(z.string(), z.string()))
  .min(1)
  .max(MAX_UPLOAD_CONTACTS)
  .describe(
    'Flat objects whose values are all strings. phone_number is required in the first object (400); every other key is ' +
      'entirely upper case (at least one capital letter, no small letter; else 400); all objects have exactly the same keys ' +
      "(else 400); an empty array is 400; more than 100,000 contacts is 414. Keys become the columns of the upload's CSV, " +
      'phone_number first, and the columns of the segment ({{KEY}} placeholders in campaign templates).',
  )
  .meta({ id: 'UploadContactsRequest' });

export const UploadContactsResultSchema = z
  .object({
    segment_id: z
      .number()
      .int()
      .describe('The new segment (named upload-{upload_data_id}); usable once the upload is COMPLETED'),
    upload_data_id: z.number().int().describe('Follow processing with GET /v2/sms/campaigns/contacts/{upload_data_id}'),
  })
  .meta({ id: 'UploadContactsResult' });

export const UploadStatusSchema = z
  .object({
    upload_data_id: z.number().int(),
    segment_id: z.number().int(),
    status: z.enum(['PROCESSING', 'COMPLETED', 'FAILED']),
    total: z.number().int().describe('Contacts in the request'),
    valid: z.number().int().describe('Distinct valid numbers now in the segment'),
    invalid: z.number().int().describe('Numbers that are not Iranian mobile numbers after normalization'),
    duplicates: z.number().int().describe('Repeats of a number seen earlier in the upload (the first one is kept)'),
    opted_out: z
      .number()
      .int()
      .describe("Numbers on the account's opt-out list, left out (total = valid + invalid + duplicates + opted_out)"),
    errors: z
      .array(
        z.object({
          row: z.number().int().describe('1 = first contact object'),
          phone_number: z.string().describe('As sent'),
          reason: z
            .string()
            .describe(
              `Persian: "${Object.values(rejectionReasonText).join('", "')}" (invalid, duplicate, opted out); ` +
                `an invalid number says what is wrong with it: "${Object.values(phoneProblemTexts.fa).join('", "')}"`,
            ),
        }),
      )
      .describe('Every row left out, in row order'),
  })
  .meta({ id: 'UploadStatus' });

const UploadContactsResponseSchema = envelopeOf(UploadContactsResultSchema).meta({ id: 'UploadContactsResponse' });
const UploadStatusResponseSchema = envelopeOf(UploadStatusSchema).meta({ id: 'UploadStatusResponse' });
void [UploadContactsRequestSchema, UploadContactsResponseSchema, UploadStatusResponseSchema];

const ref = (id: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${id}` } } });
const error = (description: string) => ({ description, content: ref('ErrorEnvelope') });

addOpenApiPaths({
  '/v2/sms/campaigns/contacts': {
    post: {
      summary:
        'Upload contacts into a new segment (processed in the background: normalized, deduplicated, opt-outs removed)',
      requestBody: { required: true, content: ref('UploadContactsRequest') },
      responses: {
        '201': { description: 'Accepted at once; return.status is 200', content: ref('UploadContactsResponse') },
        '400': error(
          'Not an array, empty array, phone_number missing in the first object, a key not upper case, keys differing between objects, or a value not a string',
        ),
        '401': error('Account not active'),
        '403': error('API key not valid'),
        '414': error('More than 100,000 contacts in one request (request size above the allowed limit)'),
      },
    },
  },
  '/v2/sms/campaigns/contacts/{upload_data_id}': {
    get: {
      summary: 'Processing status of an upload',
      parameters: [{ name: 'upload_data_id', in: 'path', required: true, schema: { type: 'integer' } }],
      responses: {
        '200': {
          description: 'PROCESSING (counters so far), COMPLETED or FAILED',
          content: ref('UploadStatusResponse'),
        },
        '400': error(
          'upload_data_id not an integer, unknown, or an upload of another account (the three are not told apart)',
        ),
        '401': error('Account not active'),
        '403': error('API key not valid'),
      },
    },
  },
});

/**
 * 100,000 contacts with a phone number and two columns of Persian text are about 8 MB (parsed in
 * about 65 ms), with ten columns about 29 MB (about 360 ms); 48 MB leaves room for more. The shape
 * allows one object per contact and some twenty values each, so a body of tiny values (60 ms per
 * MB to parse) is refused as it arrives instead. A body beyond a quarter megabyte is parsed, checked
 * and written in the import worker (Uploads.createFromJson), never on the main thread.
 */
export const CONTACTS_BODY_LIMIT_BYTES = 48 * 1024 * 1024;
const CONTACTS_JSON_SHAPE = { maxContainers: MAX_UPLOAD_CONTACTS + 10, maxValues: 2_200_000, maxDepth: 8 };

export async function contactsRoutes(app: FastifyInstance, { core }: { core: Core }) {
  await app.register(async (authed) => {
    authed.addHook('onRequest', bearerAuth(core));

    authed.post(
      '/v2/sms/campaigns/contacts',
      {
        bodyLimit: CONTACTS_BODY_LIMIT_BYTES,
        config: { upload: true, json: CONTACTS_JSON_SHAPE, jsonOffThread: true },
      },
      async (request, reply) => {
        const body = request.body;
        // A thread writes a JSON upload's file: the workspace's close waits for it (workspace/writers.ts).
        const created =
          body instanceof UnparsedJson
            ? await core.writers.run(() => core.uploads.createFromJson(request.account.id, body.source))
            : core.uploads.create(request.account.id, body);
        return sendOk(reply, created, 201);
      },
    );

    authed.get<{ Params: { upload_data_id: string } }>(
      '/v2/sms/campaigns/contacts/:upload_data_id',
      async (request, reply) => {
        const raw = request.params.upload_data_id;
        if (!/^[0-9]{1,15}$/.test(raw)) return sendError(reply, ApiCode.BadRequest);
        const record = core.uploads.status(request.account.id, Number(raw));
        if (!record) return sendError(reply, ApiCode.BadRequest);
        return sendOk(reply, record);
      },
    );
  });
}
