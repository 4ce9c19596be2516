// A local SMS.ir, written only from the documented contract (reference/sms-upstreams.md "SMS.ir"),
// for the real-delivery tests and for the official `sms-typescript` SDK. Every behaviour carries the
// tag of its source: [C] the provider's docs or official SDK, [3p] third-party code, [I] our
// inference (where the contract is silent the fake does the least surprising thing and says so),
// NOT FOUND: deliberately absent. It runs in the test's process on a free loopback port; the test
// moves its clock, so delivery progresses when the test says.
//
// What it keeps: every message it accepted (the count a test checks: exactly one per local message),
// the account's credit, replies waiting to be read. What it does not have, by the contract:
// an idempotency key (a repeated request is a second send) and a per-call cap [NOT FOUND].
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** SMS.ir's deliveryState values [3p]: 1 delivered, 2 not delivered to the phone, 3 at the telecom,
 * 4 not delivered to the telecom, 5 at the operator, 6 failed, 7 blacklisted, 8 unknown. */
export const SmsIrState = {
  Delivered: 1,
  NotDelivered: 2,
  AtTelecom: 3,
  NotDeliveredToTelecom: 4,
  AtOperator: 5,
  Failed: 6,
  Blacklisted: 7,
  Unknown: 8,
} as const;

export interface SmsIrMessage {
  messageId: number;
  packId: string;
  lineNumber: number;
  mobile: string;
  messageText: string;
  /** Unix seconds [I: the SDK says "Unix timestamp"]. */
  sendDateTime: number;
  cost: number;
  deliveryState: number;
  deliveryDateTime: number | null;
  /** The state it ends in, and when (fake clock, ms). */
  finalState: number;
  finalAt: number;
}

export interface SmsIrReply {
  receiveReturnId: number;
  messageText: string;
  /** Our line. */
  number: number;
  /** The customer. */
  mobile: number;
  receivedDateTime: number;
}

export interface SmsIrFakeOptions {
  apiKey: string;
  /** The account's line numbers [C: sends name one as `lineNumber`]. */
  lines: readonly string[];
  /** Credit, in the provider's unit per page [NOT FOUND: the unit; the fake counts one per page]. */
  credit?: number;
  /** How long a message stays at the operator before its final state (fake clock) [I]. */
  deliveryMs?: number;
  /** The final state of a message to `mobile` [I: a test scripts outcomes]; delivered unless said. */
  outcome?: (mobile: string) => number;
}

export interface SmsIrFake {
  url: string;
  /** Every message accepted, in order. */
  readonly messages: readonly SmsIrMessage[];
  credit: number;
  /**
   * Requests a second before 429 [C: 429 too many requests; the limit: NOT FOUND, so the test sets
   * it; the Retry-After header: I]. Infinity: no limit.
   */
  limitPerSecond: number;
  /**
   * The delivery clock (ms): the real time plus what advance() added. Messages progress by it;
   * their times (sendDateTime, receivedDateTime) are real, as the app's own clock reads them.
   */
  now(): number;
  advance(ms: number): void;
  /** A customer's reply to a line, waiting to be read. */
  receive(mobile: string, line: string, text: string): void;
  /** Requests seen, by path (the key never logged). */
  readonly requests: readonly { method: string; path: string }[];
  close(): Promise<void>;
}

const PAGE_SIZE_MAX = 100;

export async function startSmsIrFake(options: SmsIrFakeOptions): Promise<SmsIrFake> {
  const deliveryMs = options.deliveryMs ?? 2_000;
  const outcome = options.outcome ?? (() => SmsIrState.Delivered);
  let advanced = 0;
  const clockNow = () => Date.now() + advanced;
  const messages: SmsIrMessage[] = [];
  const byId = new Map<number, SmsIrMessage>();
  const packs = new Map<string, SmsIrMessage[]>();
  const replies: SmsIrReply[] = [];
  const requests: { method: string; path: string }[] = [];
  let nextMessageId = 5_000_000_001;
  let nextPack = 1;
  let nextReply = 1;
  const fake = {
    url: '',
    messages,
    credit: options.credit ?? 1_000_000,
    limitPerSecond: Infinity,
    requests,
    now: clockNow,
    advance(ms: number) {
      advanced += ms;
    },
    receive(mobile: string, line: string, text: string) {
      replies.push({
        receiveReturnId: nextReply++,
        messageText: text,
        number: Number(line),
        mobile: Number(mobile.replace(/^0/, '98')),
        receivedDateTime: Math.floor(Date.now() / 1000),
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  /** A message's state at the fake's now: at the operator until its final state is due [I]. */
  const view = (message: SmsIrMessage) => {
    if (clockNow() >= message.finalAt) {
      message.deliveryState = message.finalState;
      message.deliveryDateTime ??= Math.floor(message.finalAt / 1000);
    }
    return {
      messageId: message.messageId,
      mobile: Number(message.mobile.replace(/^0/, '98')),
      messageText: message.messageText,
      sendDateTime: message.sendDateTime,
      lineNumber: message.lineNumber,
      cost: message.cost,
      deliveryState: message.deliveryState,
      deliveryDateTime: message.deliveryDateTime,
    };
  };

  /** One page [C: pageNumber, pageSize]; pageSize capped [I]. */
  const page = <T>(items: readonly T[], query: URLSearchParams): T[] => {
    const number = Math.max(1, Number(query.get('pageNumber') ?? 1) || 1);
    const size = Math.min(PAGE_SIZE_MAX, Math.max(1, Number(query.get('pageSize') ?? 10) || 10));
    return items.slice((number - 1) * size, number * size);
  };

  /** Start of the fake's day in Tehran (+03:30) [I: "today" for /live]. */
  const startOfDay = () => {
    const offset = 3.5 * 3_600_000;
    return Math.floor((Date.now() + offset) / 86_400_000) * 86_400_000 - offset;
  };

  /** Pages of a Persian message (70 UCS-2 characters, 67 when split) [I: the usual SMS rule]. */
  const pages = (text: string) => (text.length <= 70 ? 1 : Math.ceil(text.length / 67));

  /** Accepts one message per mobile; the credit is checked for the whole call first [I]. */
  const accept = (line: number, pairs: readonly { mobile: string; text: string }[], answer: Answer) => {
    const cost = pairs.reduce((sum, pair) => sum + pages(pair.text), 0);
    // Credit exhaustion: a logical error, nothing sent [C: HTTP 400 logical error; the words: I].
    if (cost > fake.credit) return answer(400, { status: 0, message: 'اعتبار کافی نیست', data: null });
    fake.credit -= cost;
    const packId = `pack-${nextPack++}`;
    const pack: SmsIrMessage[] = [];
    for (const pair of pairs) {
      const message: SmsIrMessage = {
        messageId: nextMessageId++,
        packId,
        lineNumber: line,
        mobile: pair.mobile,
        messageText: pair.text,
        sendDateTime: Math.floor(Date.now() / 1000),
        cost: pages(pair.text),
        deliveryState: SmsIrState.AtOperator,
        deliveryDateTime: null,
        finalState: outcome(pair.mobile),
        finalAt: clockNow() + deliveryMs,
      };
      messages.push(message);
      byId.set(message.messageId, message);
      pack.push(message);
    }
    packs.set(packId, pack);
    // [C] data: {packId, messageIds[], cost}
    return answer(200, {
      status: 1,
      message: 'موفق',
      data: { packId, messageIds: pack.map((m) => m.messageId), cost },
    });
  };

  const MOBILE = /^(?:\+98|98|0)?9\d{9}$/;
  const normalizeMobile = (value: unknown): string | null => {
    const text = String(value ?? '').trim();
    return MOBILE.test(text) ? '0' + text.slice(-10) : null;
  };

  type Answer = (status: number, body: unknown) => void;

  const handle = (method: string, url: URL, body: unknown, answer: Answer): void => {
    const path = url.pathname.toLowerCase();
    if (method === 'POST' && (path === '/v1/send/bulk' || path === '/v1/send/liketolike')) {
      const input = (body ?? {}) as Record<string, unknown>;
      const line = Number(input.lineNumber);
      // A line not of this account [I: a logical error].
      if (!options.lines.includes(String(input.lineNumber)))
        return answer(400, { status: 0, message: 'شماره خط نامعتبر است', data: null });
      const mobiles = Array.isArray(input.mobiles) ? input.mobiles : [];
      const texts =
        path === '/v1/send/bulk'
          ? mobiles.map(() => input.messageText)
          : Array.isArray(input.messageTexts)
            ? input.messageTexts
            : [];
      // likeToLike pairs texts and mobiles one to one [C: "must match length"].
      if (
        mobiles.length === 0 ||
        texts.length !== mobiles.length ||
        texts.some((t) => typeof t !== 'string' || t === '')
      )
        return answer(400, { status: 0, message: 'پارامترهای ارسال نامعتبر است', data: null });
      const pairs: { mobile: string; text: string }[] = [];
      for (let i = 0; i < mobiles.length; i++) {
        const mobile = normalizeMobile(mobiles[i]);
        if (!mobile)
          return answer(400, { status: 0, message: `شماره موبایل نامعتبر: ${String(mobiles[i])}`, data: null });
        pairs.push({ mobile, text: texts[i] as string });
      }
      return accept(line, pairs, answer);
    }
    if (method === 'GET' && path.startsWith('/v1/send/pack/')) {
      const pack = packs.get(decodeURIComponent(url.pathname.slice('/v1/send/pack/'.length)));
      return answer(200, { status: 1, message: 'موفق', data: pack ? pack.map(view) : [] });
    }
    if (method === 'GET' && path === '/v1/send/live') {
      const today = messages.filter((m) => m.sendDateTime * 1000 >= startOfDay());
      return answer(200, { status: 1, message: 'موفق', data: page(today, url.searchParams).map(view) });
    }
    if (method === 'GET' && path === '/v1/send/archive') {
      // fromDate/toDate in unix seconds [I]; the archive holds days before today [I].
      const from = Number(url.searchParams.get('fromDate') ?? 0);
      const to = Number(url.searchParams.get('toDate') ?? Infinity);
      const old = messages.filter(
        (m) => m.sendDateTime * 1000 < startOfDay() && m.sendDateTime >= from && m.sendDateTime <= to,
      );
      return answer(200, { status: 1, message: 'موفق', data: page(old, url.searchParams).map(view) });
    }
    if (method === 'GET' && /^\/v1\/send\/\d+$/.test(path)) {
      const message = byId.get(Number(path.slice('/v1/send/'.length)));
      return answer(200, { status: 1, message: 'موفق', data: message ? view(message) : null });
    }
    if (method === 'GET' && path === '/v1/credit') {
      // [C] the SDK types data as a number.
      return answer(200, { status: 1, message: 'موفق', data: fake.credit });
    }
    if (method === 'GET' && path === '/v1/receive/latest') {
      const count = Math.min(PAGE_SIZE_MAX, Math.max(1, Number(url.searchParams.get('count') ?? 100) || 100));
      return answer(200, { status: 1, message: 'موفق', data: replies.slice(-count).reverse() });
    }
    if (method === 'GET' && path === '/v1/receive/live') {
      const today = replies.filter((r) => r.receivedDateTime * 1000 >= startOfDay());
      const newest = url.searchParams.get('sortByNewest') === 'true';
      const ordered = newest ? [...today].reverse() : today;
      // [C] live items have no receiveReturnId in the SDK's type; the fake leaves it out too.
      const items = page(ordered, url.searchParams).map(({ receiveReturnId: _id, ...rest }) => rest);
      return answer(200, { status: 1, message: 'موفق', data: items });
    }
    if (method === 'GET' && path === '/v1/receive/archive') {
      const from = Number(url.searchParams.get('fromDate') ?? 0);
      const to = Number(url.searchParams.get('toDate') ?? Infinity);
      const old = replies.filter((r) => r.receivedDateTime >= from && r.receivedDateTime <= to);
      return answer(200, { status: 1, message: 'موفق', data: page(old, url.searchParams) });
    }
    answer(404, { status: 0, message: 'not found', data: null });
  };

  const window = { second: 0, count: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      requests.push({ method: request.method ?? 'GET', path: url.pathname });
      const answer: Answer = (status, body) => {
        const text = JSON.stringify(body);
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        response.end(text);
      };
      const second = Math.floor(Date.now() / 1000);
      if (second !== window.second) Object.assign(window, { second, count: 0 });
      if (++window.count > fake.limitPerSecond) {
        response.writeHead(429, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' });
        response.end(JSON.stringify({ status: 0, message: 'تعداد درخواست‌ها بیش از حد مجاز است', data: null }));
        return;
      }
      // [C] header X-API-KEY; 401 for a wrong key.
      if (request.headers['x-api-key'] !== options.apiKey)
        return answer(401, { status: 0, message: 'کلید API نامعتبر است', data: null });
      let body: unknown = null;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          return answer(400, { status: 0, message: 'بدنه درخواست نامعتبر است', data: null });
        }
      }
      handle(request.method ?? 'GET', url, body, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
