// The seed's email_accounts (PRODUCT.md): account ids as numbers or strings, keys stored hashed
// only, keys limited to some operations, applying the same seed again changing nothing; and the
// email paths of GET /openapi.json with an example the provider accepts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySeed } from '../../electron/service/seed';
import { parseSendRequest } from '../../electron/service/email/relay/request';
import {
  EMAIL_KEY,
  READ_ONLY_KEY,
  call,
  emailSeed,
  messagesUrl,
  sendBody,
  startEmailServer,
  type EmailServer,
} from './support';

let server: EmailServer;
beforeAll(async () => {
  server = await startEmailServer();
});
afterAll(() => server.close());

const table = (name: string) => server.core.db.prepare(`SELECT * FROM ${name} ORDER BY 1`).all();

describe('the seed’s email accounts', () => {
  it('keeps keys hashed only, and applying the seed again changes nothing', async () => {
    const accounts = table('email_relay_accounts');
    const keys = table('email_relay_keys');
    expect(accounts.map((row: any) => [row.id, row.sandbox])).toEqual([
      ['1001', 1],
      ['1002', 0],
    ]);
    const dump = JSON.stringify(keys);
    for (const key of [EMAIL_KEY, READ_ONLY_KEY]) expect(dump).not.toContain(key);
    expect(keys.map((row: any) => row.operations).sort()).toEqual(['read', 'send,read,cancel', 'send,read,cancel']);
    applySeed(server.core, emailSeed());
    expect(table('email_relay_accounts')).toEqual(accounts);
    expect(table('email_relay_keys')).toEqual(keys);
    expect((await call(messagesUrl(server), { body: sendBody(1) })).status).toBe(202);
  });

  it('updates an account’s sandbox flag and key operations when the seed changes', async () => {
    applySeed(server.core, {
      email_accounts: [
        { account_id: 1001, api_keys: [{ key: READ_ONLY_KEY, operations: ['read', 'send'] }], sandbox: false },
      ],
    });
    expect((await call(messagesUrl(server), { body: sendBody(1), key: READ_ONLY_KEY })).status).toBe(202);
    expect((table('email_relay_accounts')[0] as any).sandbox).toBe(0);
    applySeed(server.core, emailSeed());
    expect((await call(messagesUrl(server), { body: sendBody(1), key: READ_ONLY_KEY })).status).toBe(403);
  });

  it('refuses an unknown operation', () => {
    expect(() =>
      applySeed(server.core, {
        email_accounts: [{ account_id: 'x', api_keys: [{ key: 'ek-x-0001-secret', operations: ['delete'] }] }],
      }),
    ).toThrow();
  });
});

describe('the email paths in OpenAPI', () => {
  it('documents send, list, get and cancel with their codes and an example the provider accepts', async () => {
    const doc: any = await (await fetch(`${server.url}/openapi.json`)).json();
    const messages = doc.paths['/v2/accounts/{account_id}/messages'];
    for (const code of ['202', '400', '401', '403', '409', '412', '413', '500'])
      expect(messages.post.responses[code], code).toBeDefined();
    const example = messages.post.requestBody.content['application/json'].example;
    expect((await parseSendRequest(example, Date.now())).ok).toBe(true);
    expect(messages.post.description).toMatch(/Idempotent-Replayed/);
    expect(messages.get.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining([
        'status',
        'sender',
        'recipient',
        'subject',
        'tags',
        'from_time',
        'to_time',
        'limit',
        'after',
        'before',
      ]),
    );
    expect(doc.paths['/v2/accounts/{account_id}/messages/{message_id}'].get.responses['404']).toBeDefined();
    expect(doc.paths['/v2/accounts/{account_id}/messages/{message_id}/cancel'].post.responses['409']).toBeDefined();
    expect(doc.info.description).toMatch(/email relay of spec 4\.6 is embedded/);
  });
});
