// The embedded email provider as the provider's published contract and its SDK use it (issue 30):
// cancel is DELETE (POST kept as an alias), a method a path does not take is 405 with the
// provider's {"message"} and an Allow header (the SMS API keeps its plain text), and recipients
// have no maximum: 10,000 in one request each get their own message, and a body of exactly the
// size limit is taken while one byte more is the provider's 413. The 10,000-recipient request logs
// its time to the 202, the server's memory growth and the longest block of the event loop.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_BODY_LIMIT_BYTES } from '../../electron/service/http/email/routes';
import {
  EMAIL_KEY,
  READ_ONLY_KEY,
  call,
  expectMessage,
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

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

async function sendOne(): Promise<string> {
  const sent = await call(messagesUrl(server), { body: sendBody(1) });
  expect(sent.status).toBe(202);
  return sent.body.data[0].id;
}

describe('cancel: DELETE as the provider’s contract, POST kept', () => {
  it('cancels a queued message by DELETE (200, the message) and by POST alike', async () => {
    const byDelete = await sendOne();
    const deleted = await call(`${messagesUrl(server)}/${byDelete}/cancel`, { method: 'DELETE' });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toMatchObject({ object: 'message', id: byDelete, status: 'cancelled' });
    const byPost = await sendOne();
    const posted = await call(`${messagesUrl(server)}/${byPost}/cancel`, { method: 'POST' });
    expect(posted.body).toMatchObject({ id: byPost, status: 'cancelled' });
    expectMessage(await call(`${messagesUrl(server)}/${byDelete}/cancel`, { method: 'DELETE' }), 409, /is cancelled/);
  });

  it('checks the key and the operation for DELETE as for POST (401, 403, 404)', async () => {
    const id = await sendOne();
    const url = `${messagesUrl(server)}/${id}/cancel`;
    expectMessage(await call(url, { method: 'DELETE', key: null }), 401);
    expectMessage(await call(url, { method: 'DELETE', key: READ_ONLY_KEY }), 403, /may not cancel/);
    expectMessage(await call(`${messagesUrl(server)}/${MISSING_ID}/cancel`, { method: 'DELETE' }), 404);
  });
});

describe('a method a provider’s path does not take', () => {
  const allow = (answer: { headers: Headers }) =>
    (answer.headers.get('allow') ?? '')
      .split(',')
      .map((method) => method.trim())
      .sort();
  const cases: Array<[string, string, string[]]> = [
    ['PUT', '', ['GET', 'HEAD', 'POST']],
    ['PATCH', '', ['GET', 'HEAD', 'POST']],
    ['DELETE', '', ['GET', 'HEAD', 'POST']],
    ['POST', `/${MISSING_ID}`, ['GET', 'HEAD']],
    ['PUT', `/${MISSING_ID}`, ['GET', 'HEAD']],
    ['DELETE', `/${MISSING_ID}`, ['GET', 'HEAD']],
    ['GET', `/${MISSING_ID}/cancel`, ['DELETE', 'POST']],
    ['PATCH', `/${MISSING_ID}/cancel`, ['DELETE', 'POST']],
  ];
  it.each(cases)(
    '%s …/messages%s: 405 {"message"} with Allow, before the key or the body',
    async (method, tail, methods) => {
      const url = `${messagesUrl(server)}${tail}`;
      for (const key of [EMAIL_KEY, null]) {
        const answer = await call(url, { method, key, ...(method === 'GET' ? {} : { body: '{not json' }) });
        expectMessage(answer, 405, new RegExp(method));
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
        expect(allow(answer)).toEqual(methods);
      }
    },
  );

  it('leaves the SMS API its own plain-text 405', async () => {
    const answer = await call(`${server.url}/v2/sms/send`, { method: 'PUT', key: null });
    expect(answer.status).toBe(405);
    expect(answer.text).toBe('405 method not allowed');
    expect(answer.headers.get('allow')).toBe('POST');
  });
});

describe('recipients: no maximum, as the provider’s contract', () => {
  it('takes 10,000 recipients in one request, each with its own message', async () => {
    const count = 10_000;
    const body = JSON.stringify(sendBody(count));
    const before = process.memoryUsage();
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const started = performance.now();
    const answer = await call(messagesUrl(server), { body });
    const elapsed = performance.now() - started;
    loop.disable();
    const after = process.memoryUsage();
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    console.log(
      `10,000 recipients (${mb(body.length)} body): 202 after ${Math.round(elapsed)} ms; longest event-loop ` +
        `block ${Math.round(loop.max / 1e6)} ms; rss ${mb(after.rss - before.rss)}, heapUsed ` +
        `${mb(after.heapUsed - before.heapUsed)} more (server and client share this process)`,
    );

    expect(answer.status, answer.text.slice(0, 300)).toBe(202);
    const data = answer.body.data as Array<{ id: string; recipient: { email: string }; status: string }>;
    expect(data).toHaveLength(count);
    data.forEach((item, i) => {
      expect(item.recipient.email).toBe(`r${i}@example.com`);
      expect(item.status).toBe('queued');
    });
    expect(new Set(data.map((item) => item.id)).size).toBe(count);
    const rows = server.core.db
      .prepare(
        `SELECT count(*) AS n, count(DISTINCT recipient) AS recipients FROM email_relay_messages
         WHERE request_id = (SELECT request_id FROM email_relay_messages WHERE id = ?)`,
      )
      .get(data[0]!.id) as { n: number; recipients: number };
    expect(rows).toEqual({ n: count, recipients: count });
    // Each message is its recipient's own, rendered with its own substitutions.
    const last = await call(`${messagesUrl(server)}/${data[count - 1]!.id}`);
    expect(last.body.subject).toBe(`Order for Name ${count - 1}`);
    expect(last.body.content).toMatch(new RegExp(`^To: .*r${count - 1}@example\\.com`, 'm'));
    // One transaction: a generous bound, the machine may be busy.
    expect(loop.max / 1e6).toBeLessThan(10_000);
  }, 60_000);

  /** 10,000 recipients and an attachment that brings the body to exactly `bytes`. */
  function bodyOfSize(bytes: number): string {
    const shell = sendBody(10_000, { attachments: [{ data: '', file_name: 'pad.txt' }] });
    const padding = bytes - Buffer.byteLength(JSON.stringify(shell));
    const text = JSON.stringify({ ...shell, attachments: [{ data: 'x'.repeat(padding), file_name: 'pad.txt' }] });
    expect(Buffer.byteLength(text)).toBe(bytes);
    return text;
  }

  it('takes a body of exactly the size limit, and answers one byte more with the provider’s 413', async () => {
    const atLimit = await call(messagesUrl(server), { body: bodyOfSize(EMAIL_BODY_LIMIT_BYTES) });
    expect(atLimit.status, atLimit.text.slice(0, 300)).toBe(202);
    expect(atLimit.body.data).toHaveLength(10_000);
    expectMessage(
      await call(messagesUrl(server), { body: bodyOfSize(EMAIL_BODY_LIMIT_BYTES + 1) }),
      413,
      /larger than 10 MB/,
    );
  }, 60_000);
});

describe('the OpenAPI document', () => {
  it('documents cancel as DELETE with POST as its alias, and recipients without a maximum', async () => {
    const doc = (await call(`${server.url}/openapi.json`, { key: null })).body;
    const cancel = doc.paths['/v2/accounts/{account_id}/messages/{message_id}/cancel'];
    expect(Object.keys(cancel).sort()).toEqual(['delete', 'post']);
    expect(cancel.delete.responses['200']).toBeDefined();
    expect(cancel.post.summary).toMatch(/alias/);
    const send = doc.paths['/v2/accounts/{account_id}/messages'].post;
    const recipients = send.requestBody.content['application/json'].schema.properties.recipients;
    expect(recipients.maxItems).toBeUndefined();
    expect(recipients.minItems).toBe(1);
  });
});
