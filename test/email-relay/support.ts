// The embedded email provider's acceptance tests (issue 15 part 1): a real server on a free
// loopback port with two seeded email accounts (one sandbox, one not), a manual clock, and small
// helpers to call the provider's API as its clients do.
import { ManualClock } from '../../electron/service/clock';
import { startServer, testSeed, type TestServer } from '../helpers/server';

export const ACCOUNT = '1001';
export const OTHER_ACCOUNT = '1002';
export const EMAIL_KEY = 'ek-acme-0001-secret';
export const READ_ONLY_KEY = 'ek-acme-0001-read-only';
export const OTHER_EMAIL_KEY = 'ek-other-0002-secret';
export const START = Date.UTC(2026, 0, 1, 9, 0, 0);

export function emailSeed() {
  return testSeed({
    email_accounts: [
      {
        account_id: 1001,
        api_keys: [EMAIL_KEY, { key: READ_ONLY_KEY, operations: ['read'] }],
        sandbox: true,
      },
      { account_id: '1002', api_keys: [OTHER_EMAIL_KEY], sandbox: false },
    ],
  });
}

export interface EmailServer extends TestServer {
  clock: ManualClock;
  /** Moves the clock and waits until the sandbox has nothing due. */
  advance(ms: number): Promise<void>;
}

export async function startEmailServer(dataDir?: string, clock = new ManualClock(START)): Promise<EmailServer> {
  // The scheduler runs only when a test moves the clock: every move is the test's to see.
  const server = await startServer({ seed: emailSeed(), clock, dataDir, startScheduler: false });
  return Object.assign(server, {
    clock,
    async advance(ms: number) {
      clock.advance(ms);
      await server.core.scheduler.drain();
    },
  });
}

export interface Answer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

export async function call(
  url: string,
  options: { method?: string; body?: unknown; key?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const key = options.key === undefined ? EMAIL_KEY : options.key;
  const response = await fetch(url, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...options.headers,
    },
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text, headers: response.headers };
}

export const messagesUrl = (server: { url: string }, account = ACCOUNT) =>
  `${server.url}/v2/accounts/${account}/messages`;

/** A valid body: `count` recipients r0@example.com… with their own `name` substitution. */
export function sendBody(count = 2, extra: Record<string, unknown> = {}) {
  return {
    from: { email: 'shop@acme.example', name: 'Acme Shop' },
    recipients: Array.from({ length: count }, (_, i) => ({
      email: `r${i}@example.com`,
      name: `Recipient ${i}`,
      substitutions: { name: `Name ${i}` },
    })),
    subject: 'Order for {{ name }}',
    text_content: 'Hello {{name}}, your code is {{ code }}.',
    html_content: '<p>Hello {{ name }}</p>',
    substitutions: { code: 'C-1', name: 'friend' },
    ...extra,
  };
}

/** The `{"message": "..."}` of the provider: that key alone, a non-empty text. */
export function expectMessage(answer: Answer, status: number, pattern?: RegExp): void {
  if (answer.status !== status || typeof answer.body?.message !== 'string' || Object.keys(answer.body).length !== 1)
    throw new Error(`expected ${status} {"message"}, got ${answer.status} ${answer.text.slice(0, 300)}`);
  if (pattern && !pattern.test(answer.body.message))
    throw new Error(`message ${JSON.stringify(answer.body.message)} does not match ${pattern}`);
}
