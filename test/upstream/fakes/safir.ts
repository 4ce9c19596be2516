// A local Safir, Bale's business service that messages phone numbers, written only from the
// documented contract (reference/sms-upstreams.md "Bale"), each behaviour tagged: [C] Bale's docs,
// [3p] third-party code, [I] our inference, NOT FOUND deliberately absent. One request per
// receiver [3p]; `request_id` makes a repeated request send nothing again [C], and is the only
// deduplication here: the same receiver and text without it is a second message. No status
// endpoint exists [3p], so the fake offers none; it counts what it sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SafirMessage {
  messageId: string;
  requestId: string | null;
  botId: string;
  /** 98XXXXXXXXXX [C]. */
  phoneNumber: string;
  text: string;
  at: number;
}

export interface SafirFakeOptions {
  accessKey: string;
  /** The business's bots [C: `bot_id`]. */
  bots: readonly string[];
  /** Messages the account may still send [NOT FOUND: how Safir bills; the fake counts messages]. */
  credit?: number;
}

export interface SafirFake {
  url: string;
  readonly messages: readonly SafirMessage[];
  credit: number;
  /** Requests a second before 429 [I: Safir's limit is NOT FOUND]; Infinity: none. */
  limitPerSecond: number;
  /** Every send request seen, a repeated request_id included. */
  readonly requests: number;
  close(): Promise<void>;
}

export async function startSafirFake(options: SafirFakeOptions): Promise<SafirFake> {
  const messages: SafirMessage[] = [];
  const byRequest = new Map<string, SafirMessage>();
  let nextId = 1;
  let requests = 0;
  const window = { second: 0, count: 0 };
  const fake: SafirFake = {
    url: '',
    messages,
    credit: options.credit ?? 1_000_000,
    limitPerSecond: Infinity,
    get requests() {
      return requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  // The error body's shape is NOT FOUND: a JSON object with the words [I].
  const send = (
    response: http.ServerResponse,
    status: number,
    body: unknown,
    headers: http.OutgoingHttpHeaders = {},
  ) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(JSON.stringify(body));
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const second = Math.floor(Date.now() / 1000);
      if (second !== window.second) Object.assign(window, { second, count: 0 });
      if (++window.count > fake.limitPerSecond)
        return send(response, 429, { error: 'too many requests' }, { 'retry-after': '1' });
      if (request.method !== 'POST' || request.url !== '/api/v3/send_message')
        return send(response, 404, { error: 'not found' });
      // [C] the key in the `api-access-key` header; a wrong one is refused [status: I].
      if (request.headers['api-access-key'] !== options.accessKey)
        return send(response, 401, { error: 'unauthorized' });
      requests++;
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return send(response, 400, { error: 'invalid json' });
      }
      const requestId = typeof body.request_id === 'string' && body.request_id !== '' ? body.request_id : null;
      // [C] a repeated request_id sends nothing again; the earlier message's answer is returned [3p: its id].
      const earlier = requestId === null ? undefined : byRequest.get(requestId);
      if (earlier) return send(response, 200, { message_id: earlier.messageId });
      const botId = String(body.bot_id ?? '');
      if (!options.bots.includes(botId)) return send(response, 403, { error: 'bot not found' });
      const phone = String(body.phone_number ?? '');
      // [C] the number as 98XXXXXXXXXX.
      if (!/^989\d{9}$/.test(phone)) return send(response, 400, { error: 'invalid phone_number' });
      const text = (body.message_data as { message?: { text?: unknown } } | undefined)?.message?.text;
      if (typeof text !== 'string' || text === '') return send(response, 400, { error: 'empty message' });
      if (fake.credit < 1) return send(response, 402, { error: 'insufficient credit' });
      fake.credit -= 1;
      const message: SafirMessage = {
        messageId: `safir-${nextId++}`,
        requestId,
        botId,
        phoneNumber: phone,
        text,
        at: Date.now(),
      };
      messages.push(message);
      if (requestId !== null) byRequest.set(requestId, message);
      // [3p] the answer carries a message_id.
      send(response, 200, { message_id: message.messageId });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
