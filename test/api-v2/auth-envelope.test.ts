// Authentication (spec 5), the envelope and its exceptions (spec 2.1, 7), GET /health,
// POST /v2/sms/outbox (4.5) and the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import type { AddressInfo } from 'node:net';
import { HEALTH_MESSAGE } from '../../electron/service/http/routes/health';
import { buildHttpServer } from '../../electron/service/http/server';
import { INACTIVE_KEY, KEY, post, startServer, type TestServer } from '../helpers/server';
import {
  accountId,
  counts,
  expectEnvelope,
  expectError,
  phones,
  request,
  uploadFile,
  type HttpResult,
} from './support';

let server: TestServer;
let acme: number;
const valid = { message: 'x', sender: '30001111', receivers: ['09121234567'] };

beforeAll(async () => {
  server = await startServer({ clock: new ManualClock() });
  acme = accountId(server.core, 'acme');
});
afterAll(() => server.close());

describe('authentication', () => {
  const endpoints = [
    ['/v2/sms/send', valid],
    ['/v2/sms/status', { messageids: [1] }],
  ] as const;

  it.each(endpoints)('%s: a missing or malformed Authorization header is 403', async (path, body) => {
    expectError(await post(`${server.url}${path}`, body, null), 403);
    for (const authorization of ['', 'Bearer', 'Bearer ', `Basic ${KEY}`, KEY, `Bearer ${KEY} extra`, `Token ${KEY}`]) {
      expectError(await post(`${server.url}${path}`, body, null, { authorization }), 403);
    }
  });

  it.each(endpoints)('%s: an unknown key is 403', async (path, body) => {
    for (const key of ['nope', KEY + 'x', KEY.toUpperCase(), 'k-acme-', 'clé', 'a'.repeat(5000)]) {
      expectError(await post(`${server.url}${path}`, body, key), 403);
    }
  });

  it.each(endpoints)('%s: a key of an inactive account is 401', async (path, body) => {
    expectError(await post(`${server.url}${path}`, body, INACTIVE_KEY), 401);
  });

  it('authenticates before reading the body: a refused caller gets 403/401 even for malformed JSON', async () => {
    expectError(await post(`${server.url}/v2/sms/send`, '{not json', 'nope'), 403);
    expectError(await post(`${server.url}/v2/sms/send`, '{not json', INACTIVE_KEY), 401);
    expectError(await post(`${server.url}/v2/sms/status`, '{not json', null), 403);
  });

  it('accepts the scheme case-insensitively', async () => {
    expectEnvelope(await post(`${server.url}/v2/sms/send`, valid, null, { authorization: `bearer ${KEY}` }), 200);
  });

  it('a revoked key is 403 while the account keeps working with its other keys', async () => {
    const { key, info } = server.core.accounts.createApiKey(acme, 'to revoke');
    expectEnvelope(await post(`${server.url}/v2/sms/send`, valid, key), 200);
    server.core.accounts.revokeApiKey(info.id);
    const before = counts(server.core, acme);
    expectError(await post(`${server.url}/v2/sms/send`, valid, key), 403);
    expectError(await post(`${server.url}/v2/sms/status`, { messageids: [1] }, key), 403);
    expect(counts(server.core, acme)).toEqual(before);
    expectEnvelope(await post(`${server.url}/v2/sms/send`, valid, KEY), 200);
  });

  it('an account deactivated after its key was issued is 401; reactivated, it works again', async () => {
    server.core.accounts.update(acme, { active: false });
    try {
      expectError(await post(`${server.url}/v2/sms/send`, valid), 401);
      expectError(await uploadFile(server.url, 'bale'), 401);
    } finally {
      server.core.accounts.update(acme, { active: true });
    }
    expectEnvelope(await post(`${server.url}/v2/sms/send`, valid), 200);
  });

  it("needs no IP allow-list (spec 5 rule 1): a caller outside the account's list is served", async () => {
    const saved = server.core.accounts.get(acme).ip_allowlist;
    server.core.accounts.update(acme, { ip_allowlist: ['203.0.113.7'] });
    try {
      expectEnvelope(await post(`${server.url}/v2/sms/send`, valid), 200);
      expectEnvelope(await post(`${server.url}/v2/sms/status`, { messageids: [1] }), 200);
    } finally {
      server.core.accounts.update(acme, { ip_allowlist: saved });
    }
  });

  it('file upload: no key 403, unknown key 403, inactive account 401', async () => {
    expectError(await uploadFile(server.url, 'bale', { key: null }), 403);
    expectError(await uploadFile(server.url, 'rubika', { key: 'nope' }), 403);
    expectError(await uploadFile(server.url, 'bale', { key: INACTIVE_KEY }), 401);
  });
});

describe('envelope exceptions (spec 7)', () => {
  it('an unknown path is the plain-text 404, not the envelope, with or without a key', async () => {
    for (const [path, method] of [
      ['/nope', 'GET'],
      ['/v2/sms/nope', 'POST'],
      ['/v2/sms', 'POST'],
      ['/v9/sms/send', 'POST'],
      ['/', 'GET'],
    ] as const) {
      for (const headers of [{}, { authorization: `Bearer ${KEY}` }] as Array<Record<string, string>>) {
        const result = await request(`${server.url}${path}`, { method, headers });
        expect(result.status).toBe(404);
        expect(result.contentType).toMatch(/^text\/plain/);
        expect(result.body).toBeUndefined();
        expect(result.text).not.toContain('return');
      }
    }
  });

  it('a known path with another method is the plain-text 405', async () => {
    for (const [path, method] of [
      ['/v2/sms/send', 'GET'],
      ['/v2/sms/send', 'PUT'],
      ['/v2/sms/status', 'DELETE'],
      ['/v2/sms/outbox', 'GET'],
      ['/upload-file/bale', 'GET'],
      ['/health', 'POST'],
    ] as const) {
      const result = await request(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${KEY}` } });
      expect(result.status, `${method} ${path}`).toBe(405);
      expect(result.contentType).toMatch(/^text\/plain/);
      expect(result.body).toBeUndefined();
    }
  });

  it('a malformed or oversized body does not turn a 404 or 405 into the envelope', async () => {
    const bodies: Array<[string, string]> = [
      ['{not json', 'application/json'],
      ['garbage', 'multipart/form-data'],
      ['x', 'application/xml'],
    ];
    for (const [body, contentType] of bodies) {
      for (const [path, method, code] of [
        ['/nope', 'POST', 404],
        ['/v2/sms/nope', 'DELETE', 404],
        ['/v2/sms/send', 'PUT', 405],
        ['/v2/sms/status', 'PATCH', 405],
      ] as const) {
        const result = await request(`${server.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${KEY}`, 'content-type': contentType },
          body,
        });
        expect(result.status, `${method} ${path} ${contentType}`).toBe(code);
        expect(result.contentType).toMatch(/^text\/plain/);
        expect(result.body).toBeUndefined();
      }
    }
  });

  it('a URL that cannot be decoded is the plain-text 404, not a JSON error', async () => {
    for (const path of ['/%', '/v2/sms/send/%ZZ', '/v2/%E0%A4%A']) {
      const result = await request(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}` },
        body: '{}',
      });
      expect(result.status, path).toBe(404);
      expect(result.contentType).toMatch(/^text\/plain/);
      expect(result.body).toBeUndefined();
    }
  });

  it('GET /health answers {message} only, without a key', async () => {
    const result = await request(`${server.url}/health`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ message: HEALTH_MESSAGE });
    expect(HEALTH_MESSAGE.length).toBeGreaterThan(0);
  });

  it('POST /v2/sms/outbox is 501 {"error":"not implemented yet"} whatever the body or key', async () => {
    const cases: Array<[unknown, string | null]> = [
      [{}, KEY],
      [{ messageids: [1] }, null],
      ['{not json', KEY],
      ['', 'nope'],
      ['[1,2', INACTIVE_KEY],
    ];
    for (const [body, key] of cases) {
      const result = await post(`${server.url}/v2/sms/outbox`, body, key);
      expect(result.status, JSON.stringify(body)).toBe(501);
      expect(result.body).toEqual({ error: 'not implemented yet' });
    }
  });

  it('every error on the v2 endpoints is the envelope with entries [] and HTTP == return.status', async () => {
    expectError(await post(`${server.url}/v2/sms/send`, { ...valid, receivers: ['x'] }), 411);
    expectError(await post(`${server.url}/v2/sms/send`, { ...valid, sender: 'x' }), 412);
    expectError(await post(`${server.url}/v2/sms/send`, { ...valid, message: '' }), 400);
    expectError(await post(`${server.url}/v2/sms/status`, { messageids: ['1'] }), 400);
    expectError(await post(`${server.url}/v2/sms/status`, { messageids: Array(10_001).fill(1) }), 414);
  });
});

describe('return.message', () => {
  it("is the Persian text of the previous provider's table for each code (reference §2)", async () => {
    const cases: Array<[Promise<HttpResult>, number, string]> = [
      [post(`${server.url}/v2/sms/send`, valid), 200, 'تایید شد'],
      [post(`${server.url}/v2/sms/send`, '{'), 400, 'پارامترها ناقص هستند'],
      [post(`${server.url}/v2/sms/send`, valid, INACTIVE_KEY), 401, 'حساب کاربری غیرفعال شده است'],
      [post(`${server.url}/v2/sms/send`, valid, 'nope'), 403, 'کد شناسائی API-Key معتبر نمی‌باشد'],
      [post(`${server.url}/v2/sms/send`, { ...valid, receivers: ['x'] }), 411, 'دریافت کننده نامعتبر است'],
      [post(`${server.url}/v2/sms/send`, { ...valid, sender: '30002222' }), 412, 'ارسال کننده نامعتبر است'],
      [
        post(`${server.url}/v2/sms/status`, { messageids: Array(10_001).fill(1) }),
        414,
        'حجم درخواست بیشتر از حد مجاز است',
      ],
      [post(`${server.url}/v2/sms/send`, { ...valid, receivers: phones(7000) }), 418, 'اعتبار شما کافی نمی‌باشد'],
    ];
    for (const [pending, status, message] of cases) {
      const result = await pending;
      expect(result.status).toBe(status);
      expect(result.body.return).toEqual({ status, message });
    }
  });
});

describe('unexpected errors (spec 7)', () => {
  it('answer HTTP 500 with {"message"} only: no return, no entries', async () => {
    // A route of a plugin that fails unexpectedly, on the real server and error handler.
    const app = await buildHttpServer({
      core: server.core,
      plugins: [
        (plugin) => {
          plugin.post('/test-only/boom', async () => {
            throw new Error('disk on fire');
          });
        },
      ],
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const address = app.server.address() as AddressInfo;
      const result = await post(`http://127.0.0.1:${address.port}/test-only/boom`, {});
      expect(result.status).toBe(500);
      expect(Object.keys(result.body)).toEqual(['message']);
      expect(result.body.message).toMatch(/[\u0600-\u06ff]/);
      expect(result.text).not.toContain('disk on fire');
    } finally {
      await app.close();
    }
  });
});

describe('GET /openapi.json', () => {
  // The keywords an OpenAPI 3.0 Schema Object may hold (OAS 3.0.3 §4.7.24); anything else, such as
  // $id or const, makes validators reject the document.
  const SCHEMA_KEYWORDS = new Set([
    'title',
    'multipleOf',
    'maximum',
    'exclusiveMaximum',
    'minimum',
    'exclusiveMinimum',
    'maxLength',
    'minLength',
    'pattern',
    'maxItems',
    'minItems',
    'uniqueItems',
    'maxProperties',
    'minProperties',
    'required',
    'enum',
    'type',
    'allOf',
    'oneOf',
    'anyOf',
    'not',
    'items',
    'properties',
    'additionalProperties',
    'description',
    'format',
    'default',
    'nullable',
    'discriminator',
    'readOnly',
    'writeOnly',
    'xml',
    'externalDocs',
    'example',
    'deprecated',
    '$ref',
  ]);

  function checkSchema(schema: unknown, where: string, refs: string[], problems: string[]): void {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      problems.push(`${where}: not a schema object`);
      return;
    }
    for (const [key, value] of Object.entries(schema)) {
      if (!SCHEMA_KEYWORDS.has(key) && !key.startsWith('x-')) problems.push(`${where}: keyword ${key}`);
      if (key === '$ref') refs.push(String(value));
      if (key === 'properties')
        for (const [name, sub] of Object.entries(value as object)) checkSchema(sub, `${where}.${name}`, refs, problems);
      if (key === 'items' || key === 'not' || (key === 'additionalProperties' && typeof value === 'object'))
        checkSchema(value, `${where}.${key}`, refs, problems);
      if (key === 'allOf' || key === 'oneOf' || key === 'anyOf')
        (value as unknown[]).forEach((sub, i) => checkSchema(sub, `${where}.${key}[${i}]`, refs, problems));
    }
  }

  it('is an OpenAPI 3.0 document whose schemas are valid 3.0 Schema Objects and whose $refs all resolve', async () => {
    const result = await request(`${server.url}/openapi.json`);
    expect(result.status).toBe(200);
    const doc = result.body;
    expect(doc.openapi).toMatch(/^3\.0\.\d+$/);
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.info.version).toEqual(expect.any(String));
    const refs: string[] = [];
    const problems: string[] = [];
    for (const [name, schema] of Object.entries(doc.components.schemas)) checkSchema(schema, name, refs, problems);
    for (const [path, item] of Object.entries(
      doc.paths as Record<string, Record<string, { responses: object; requestBody?: { content: object } }>>,
    )) {
      for (const [method, operation] of Object.entries(item)) {
        expect(Object.keys(operation.responses).length, `${method} ${path}`).toBeGreaterThan(0);
        const contents = [
          ...Object.values(operation.requestBody?.content ?? {}),
          ...Object.values(operation.responses).flatMap((response: { content?: object }) =>
            Object.values(response.content ?? {}),
          ),
        ] as Array<{ schema: unknown }>;
        for (const content of contents) checkSchema(content.schema, `${method} ${path}`, refs, problems);
      }
    }
    expect(problems).toEqual([]);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
  });

  it('documents POST /v2/sms/send with the SendRequest schema and its error codes', async () => {
    const doc = (await request(`${server.url}/openapi.json`)).body;
    const send = doc.paths['/v2/sms/send'].post;
    expect(send.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SendRequest' });
    for (const code of ['200', '400', '401', '403', '411', '412', '414', '418'])
      expect(send.responses[code], code).toBeDefined();
    const schema = doc.components.schemas.SendRequest;
    expect(schema.type).toBe('object');
    expect([...schema.required].sort()).toEqual(['message', 'receivers', 'sender']);
    expect(schema.properties.message).toMatchObject({ type: 'string', minLength: 1 });
    expect(schema.properties.sender).toMatchObject({ type: 'string' });
    expect(schema.properties.receivers).toMatchObject({
      type: 'array',
      minItems: 1,
      maxItems: 10_000,
      items: { type: 'string' },
    });
    expect(schema.properties.file_id).toMatchObject({ type: 'string', maxLength: 100, nullable: true });
    expect(doc.paths['/v2/sms/status'].post).toBeDefined();
    expect(doc.paths['/v2/sms/outbox'].post.responses['501']).toBeDefined();
    expect(doc.paths['/health'].get).toBeDefined();
  });
});
