// The OpenAPI document of the HTTP API, generated from the zod schemas the handlers validate with
// (every schema with a meta id lands in components), plus the decisions PRODUCT.md asks us to
// document. Served at GET /openapi.json.
import { z } from 'zod';
import {
  ErrorEnvelopeSchema,
  FileUploadResultSchema,
  MessageInfoSchema,
  SendRequestSchema,
  StatusEntrySchema,
  StatusRequestSchema,
  envelopeOf,
} from '../../../shared/api';

const SendResponseSchema = envelopeOf(z.array(MessageInfoSchema)).meta({ id: 'SendResponse' });
const StatusResponseSchema = envelopeOf(z.array(StatusEntrySchema)).meta({ id: 'StatusResponse' });
const FileUploadResponseSchema = envelopeOf(FileUploadResultSchema).meta({ id: 'FileUploadResponse' });
const HealthSchema = z.object({ message: z.string() }).meta({ id: 'Health' });
const NotImplementedSchema = z.object({ error: z.literal('not implemented yet') }).meta({ id: 'NotImplemented' });
const InternalErrorSchema = z.object({ message: z.string() }).meta({ id: 'InternalError' });

/** Additional schemas registered by other modules (contacts, campaigns) before the document is built. */
const extraPaths: Record<string, unknown> = {};
export function addOpenApiPaths(paths: Record<string, unknown>): void {
  Object.assign(extraPaths, paths);
}

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
  void [HealthSchema, NotImplementedSchema, InternalErrorSchema, ErrorEnvelopeSchema];
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
          summary:
            'Upload a file for bale or rubika sends (multipart field "file"; jpeg, jpg, png, gif, opus, ogg, mp4; at most 15 MB)',
          parameters: [
            { name: 'provider', in: 'path', required: true, schema: { type: 'string', enum: ['bale', 'rubika'] } },
          ],
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
              },
            },
          },
          responses: {
            '201': { description: 'return.status 200', content: json('FileUploadResponse') },
            ...errors(400, 401, 403, 414),
            ...internal,
          },
        },
      },
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
