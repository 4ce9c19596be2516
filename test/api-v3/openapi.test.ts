// GET /openapi.json documents version 3 (with request and response examples that are what the
// schemas accept), the file upload, and version 1: one path per routed method with the
// reference's parameters, the error envelope with entries null, and the IP allow-list. (That the
// document is valid OpenAPI 3.0 is test/api-v2/auth-envelope.test.ts's; the upload's types and
// size are test/api-v3/files.test.ts's.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startServer, type TestServer } from '../helpers/server';
import { V3MessageInfoSchema, V3SendRequestSchema } from '../../shared/api-v3';
import { envelopeOf, StatusRequestSchema } from '../../shared/api';
import { smsMethods } from '../../electron/service/http/v1/sms';
import { readMethods } from '../../electron/service/http/v1/reads';
import { accountMethods } from '../../electron/service/http/v1/account';
import { verifyMethods } from '../../electron/service/http/v1/verify';
import { V1_METHOD_DOCS } from '../../electron/service/http/openapi-v1';

let server: TestServer;
let doc: any;

beforeAll(async () => {
  server = await startServer();
  doc = await (await fetch(`${server.url}/openapi.json`)).json();
});
afterAll(() => server.close());

const schema = (ref: { $ref: string }) => doc.components.schemas[ref.$ref.slice('#/components/schemas/'.length)];

describe('version 3 in OpenAPI', () => {
  it('documents POST /v3/sms/send: the request schema, its error codes, and examples the schemas accept', () => {
    const send = doc.paths['/v3/sms/send'].post;
    const request = send.requestBody.content['application/json'];
    expect(request.schema).toEqual({ $ref: '#/components/schemas/V3SendRequest' });
    const body = schema(request.schema);
    expect([...body.required].sort()).toEqual(['message', 'receivers', 'senders']);
    expect(body.properties.receivers).toMatchObject({ type: 'array', minItems: 1, maxItems: 10_000 });
    const senders = schema(body.properties.senders);
    expect(Object.keys(senders.properties)).toEqual(['sms', 'bale', 'rubika']);
    expect(senders.additionalProperties).toBe(false);
    const files = body.properties.files.allOf?.[0] ?? body.properties.files;
    expect(Object.keys(schema(files).properties)).toEqual(['bale', 'rubika']);
    expect(schema(files).properties.bale).toMatchObject({ type: 'string', maxLength: 100, nullable: true });
    for (const code of ['200', '400', '401', '403', '411', '412', '414', '418', '500'])
      expect(send.responses[code], code).toBeDefined();
    // The examples are what the schemas accept and answer.
    expect(V3SendRequestSchema.safeParse(request.example).success).toBe(true);
    const answer = send.responses['200'].content['application/json'];
    expect(answer.schema).toEqual({ $ref: '#/components/schemas/V3SendResponse' });
    expect(envelopeOf(z.array(V3MessageInfoSchema)).safeParse(answer.example).success).toBe(true);
    const entries = answer.example.entries as Array<{ channel: string; message: string; receptor: string }>;
    expect(entries.map((e) => e.channel)).toEqual(['sms', 'sms', 'bale', 'bale']);
    expect(entries[0]!.message).toBe(`${request.example.message}\nلغو۱۱`);
    expect(entries[2]!.message).toBe(request.example.message);
    // The order is described, and the all-or-nothing credit.
    expect(send.description).toContain('sms, bale, rubika');
    expect(send.description).toMatch(/nothing is sent or\s+charged/);
    const entry = schema(answer.schema).properties.entries.items;
    expect(schema(entry).properties.channel).toMatchObject({ enum: ['sms', 'bale', 'rubika'] });
  });

  it('documents POST /v3/sms/status as version 2’s lookup, with an example', () => {
    const status = doc.paths['/v3/sms/status'].post;
    const request = status.requestBody.content['application/json'];
    expect(request.schema).toEqual({ $ref: '#/components/schemas/StatusRequest' });
    expect(StatusRequestSchema.safeParse(request.example).success).toBe(true);
    expect(status.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/StatusResponse',
    });
    expect(status.responses['200'].content['application/json'].example.entries).toHaveLength(3);
    for (const code of ['400', '401', '403', '414']) expect(status.responses[code], code).toBeDefined();
  });
});

describe('version 1 in OpenAPI', () => {
  const routed = { ...smsMethods, ...readMethods, ...accountMethods, ...verifyMethods };
  const METHODS = [
    'sms/send',
    'sms/sendarray',
    'sms/status',
    'sms/statuslocalmessageid',
    'sms/select',
    'sms/selectoutbox',
    'sms/latestoutbox',
    'sms/countoutbox',
    'sms/cancel',
    'sms/receive',
    'sms/countinbox',
    'sms/inboxpaged',
    'verify/lookup',
    'account/info',
    'account/config',
    'utils/getdate',
  ];

  it('documents exactly the methods routed, with their verbs, key and allow-list rules', () => {
    expect(Object.keys(V1_METHOD_DOCS).sort()).toEqual([...METHODS].sort());
    expect(Object.keys(routed).sort()).toEqual([...METHODS].sort());
    const v1Paths = Object.keys(doc.paths).filter((path) => path.startsWith('/v1/'));
    expect(v1Paths.sort()).toEqual(METHODS.map((m) => `/v1/{apiKey}/${m}.json`).sort());
    for (const method of METHODS) {
      const item = doc.paths[`/v1/{apiKey}/${method}.json`];
      const route = routed[method]!;
      expect(Object.keys(item).sort(), method).toEqual(route.postOnly ? ['post'] : ['get', 'post']);
      expect(Boolean(V1_METHOD_DOCS[method]!.postOnly), method).toBe(Boolean(route.postOnly));
      expect(Boolean(V1_METHOD_DOCS[method]!.public), method).toBe(Boolean(route.public));
      expect(Boolean(V1_METHOD_DOCS[method]!.needsConfiguredIp), method).toBe(Boolean(route.needsConfiguredIp));
      for (const operation of Object.values(item) as any[]) {
        expect(operation.security, method).toEqual([]);
        expect(operation.parameters[0]).toMatchObject({ name: 'apiKey', in: 'path', required: true });
        const codes = Object.keys(operation.responses);
        if (route.public) expect(codes, method).not.toContain('403');
        else expect(codes, method).toEqual(expect.arrayContaining(['200', '400', '401', '403', '416', '500']));
        if (route.needsConfiguredIp) expect(codes, method).toContain('407');
        // Errors in the provider's shape: entries null.
        const error = operation.responses['400'].content['application/json'].schema;
        expect(error).toEqual({ $ref: '#/components/schemas/V1ErrorEnvelope' });
      }
    }
    expect(doc.components.schemas.V1ErrorEnvelope.properties.entries).toMatchObject({ nullable: true });
  });

  it('documents sms/inboxpaged’s metadata beside its entries', () => {
    const answer = doc.paths['/v1/{apiKey}/sms/inboxpaged.json'].get.responses['200'].content['application/json'];
    const envelope = schema(answer.schema);
    expect(Object.keys(envelope.properties)).toEqual(['return', 'entries', 'metadata']);
    const metadata = schema(envelope.properties.metadata);
    expect(Object.keys(metadata.properties)).toEqual(['totalCount', 'currentPage', 'totalPages', 'pageSize']);
  });

  it.each<[string, string[]]>([
    ['sms/send', ['receptor', 'message', 'sender', 'date', 'localid']],
    ['sms/sendarray', ['receptor', 'sender', 'message', 'date', 'localmessageids']],
    ['sms/status', ['messageid']],
    ['sms/statuslocalmessageid', ['localid']],
    ['sms/select', ['messageid']],
    ['sms/selectoutbox', ['startdate', 'enddate', 'sender']],
    ['sms/latestoutbox', ['pagesize', 'sender']],
    ['sms/countoutbox', ['startdate', 'enddate', 'status']],
    ['sms/cancel', ['messageid']],
    ['sms/receive', ['linenumber', 'isread']],
    ['sms/countinbox', ['startdate', 'enddate', 'linenumber', 'isread']],
    ['sms/inboxpaged', ['linenumber', 'isread', 'startdate', 'enddate', 'pagenumber']],
    ['verify/lookup', ['receptor', 'template', 'token', 'token2', 'token3', 'token10', 'token20', 'type']],
    ['account/config', ['apilogs', 'dailyreport', 'debugmode', 'defaultsender', 'mincreditalarm', 'resendfailed']],
    ['account/info', []],
    ['utils/getdate', []],
  ])('%s lists the reference’s parameters as query and form fields', (method, params) => {
    const post = doc.paths[`/v1/{apiKey}/${method}.json`].post;
    const query = post.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name);
    expect(query).toEqual(expect.arrayContaining(params));
    if (params.length > 0) {
      const form = post.requestBody.content['application/x-www-form-urlencoded'].schema.properties;
      expect(Object.keys(form)).toEqual(expect.arrayContaining(params));
    }
  });

  it('describes the path pattern, the IP allow-list and the error envelope', () => {
    const description = doc.info.description as string;
    expect(description).toContain('/v1/{apiKey}/{scope}/{method}.json');
    expect(description).toContain('allow-list (416');
    expect(description).toContain('"entries":null');
  });

  it('each documented method answers on its path (not a plain 404)', async () => {
    for (const method of METHODS) {
      const response = await fetch(`${server.url}/v1/k-nobody/${method}.json`, { method: 'POST' });
      const body: any = await response.json();
      if (routed[method]!.public) expect(body.return.status, method).toBe(200);
      else expect(body, method).toEqual({ return: { status: 403, message: expect.any(String) }, entries: null });
    }
  });
});
