// A provider of spec 4.6 that fails on purpose, on 127.0.0.1 (node:http): each POST …/messages
// does what the test's `behave` says (accept, answer a status, accept then reset the connection,
// hold until released). It keeps Idempotency-Key answers as the provider does (the same key and
// body is replayed with Idempotent-Replayed: true; with `failedKeys412`, a key whose first request
// failed answers 412), lists messages by tag (listing delivers queued ones), and cancels.
import http from 'node:http';
import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export const FAKE_KEY = 'fk-secret-0001';
export const FAKE_ACCOUNT = 'acct-1';

export type Behaviour =
  | 'accept'
  | 'reset-after-accept'
  | { hold: Promise<void> }
  | { status: number; body?: unknown; headers?: Record<string, string> };

export interface FakeMessage {
  id: string;
  email: string;
  subject: string;
  substitutions: Record<string, string>;
  status: string;
  tags: string[];
}

export interface FakeProvider {
  url: string;
  /** Every POST …/messages as it arrived: its key, recipient count, the answer's status, when. */
  posts: Array<{ key: string; count: number; status: number | 'reset'; at: number }>;
  messages: FakeMessage[];
  cancels: string[];
  /** Requests refused for their key (401). */
  unauthorized(): number;
  close(): Promise<void>;
}

export async function startFakeProvider(
  behave: (n: number, key: string) => Behaviour,
  options: { failedKeys412?: boolean } = {},
): Promise<FakeProvider> {
  const posts: FakeProvider['posts'] = [];
  const messages: FakeMessage[] = [];
  const cancels: string[] = [];
  const answers = new Map<string, { hash: string; body: string }>();
  const failed = new Set<string>();
  let n = 0;
  let refusedKeys = 0;
  const base = `/v2/accounts/${FAKE_ACCOUNT}/messages`;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      void (async () => {
        const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(body));
        };
        if (req.headers.authorization !== `Bearer ${FAKE_KEY}`) {
          refusedKeys++;
          return reply(401, { message: 'invalid key' });
        }
        const url = new URL(req.url!, 'http://x');
        if (req.method === 'POST' && url.pathname === base) {
          const key = String(req.headers['idempotency-key'] ?? '');
          const hash = createHash('sha256').update(raw).digest('hex');
          const body = JSON.parse(raw) as {
            subject: string;
            tags: string[];
            recipients: Array<{ email: string; substitutions: Record<string, string> }>;
          };
          const earlier = answers.get(key);
          if (earlier) {
            posts.push({ key, count: body.recipients.length, status: 202, at: Date.now() });
            if (earlier.hash !== hash) return reply(409, { message: 'key reused with another body' });
            res.writeHead(202, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
            return res.end(earlier.body);
          }
          if (options.failedKeys412 && failed.has(key)) {
            posts.push({ key, count: body.recipients.length, status: 412, at: Date.now() });
            return reply(412, { message: 'the first request with this key failed' });
          }
          const behaviour = behave(++n, key);
          if (typeof behaviour === 'object' && 'status' in behaviour) {
            posts.push({ key, count: body.recipients.length, status: behaviour.status, at: Date.now() });
            if (behaviour.status >= 500) failed.add(key);
            return reply(
              behaviour.status,
              behaviour.body ?? { message: `status ${behaviour.status}` },
              behaviour.headers,
            );
          }
          if (typeof behaviour === 'object' && 'hold' in behaviour) await behaviour.hold;
          const data = body.recipients.map((recipient) => {
            const message: FakeMessage = {
              id: randomUUID(),
              email: recipient.email,
              subject: body.subject,
              substitutions: recipient.substitutions,
              status: 'queued',
              tags: body.tags,
            };
            messages.push(message);
            return { object: 'message', id: message.id, recipient, status: 'queued', error: null };
          });
          const answer = JSON.stringify({ object: 'list', data });
          answers.set(key, { hash, body: answer });
          if (behaviour === 'reset-after-accept') {
            posts.push({ key, count: body.recipients.length, status: 'reset', at: Date.now() });
            req.socket.destroy();
            return;
          }
          posts.push({ key, count: body.recipients.length, status: 202, at: Date.now() });
          res.writeHead(202, { 'content-type': 'application/json' });
          return res.end(answer);
        }
        if (req.method === 'GET' && url.pathname === base) {
          const tag = url.searchParams.get('tags');
          const limit = Number(url.searchParams.get('limit') ?? 100);
          const after = Number(url.searchParams.get('after') ?? 0);
          const mine = messages.filter((message) => tag === null || message.tags.includes(tag));
          const page = mine.slice(after, after + limit);
          for (const message of page) if (message.status === 'queued') message.status = 'delivered';
          const more = after + limit < mine.length;
          return reply(200, {
            object: 'list',
            data: page.map((message) => ({ object: 'message', id: message.id, status: message.status })),
            pagination: { has_more: more, next_cursor: more ? String(after + limit) : null, previous_cursor: null },
          });
        }
        const cancel = /\/messages\/([^/]+)\/cancel$/.exec(url.pathname);
        // The provider's contract cancels by DELETE only: any other method is its 405.
        if (cancel && req.method !== 'DELETE')
          return reply(405, { message: `method ${req.method} is not allowed here; allowed: DELETE` });
        if (cancel) {
          const message = messages.find((m) => m.id === cancel[1]);
          if (!message) return reply(404, { message: 'not found' });
          if (message.status !== 'queued') return reply(409, { message: 'too late' });
          message.status = 'cancelled';
          cancels.push(message.id);
          return reply(200, { object: 'message', id: message.id, status: 'cancelled' });
        }
        const one = /\/messages\/([^/]+)$/.exec(url.pathname);
        if (req.method === 'GET' && one) {
          const message = messages.find((m) => m.id === one[1]);
          if (!message) return reply(404, { message: 'not found' });
          if (message.status === 'queued') message.status = 'delivered';
          return reply(200, { object: 'message', id: message.id, status: message.status });
        }
        reply(404, { message: 'no route' });
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    posts,
    messages,
    cancels,
    unauthorized: () => refusedKeys,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
