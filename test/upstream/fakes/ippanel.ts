// A local IPPanel Edge, written only from the documented contract (reference/sms-upstreams.md
// "IPPanel Edge", and the Edge documentation it names), for the real-delivery tests. Every
// behaviour carries the tag of its source: [C] the provider's documentation, [3p] third-party code,
// [I] our inference (where the contract is silent the fake does the least surprising thing and
// says so), NOT FOUND: deliberately absent. It runs in the test's process on a free loopback port;
// the test moves its clock, so bulks end and recipients are delivered when the test says.
//
// The choices the contract leaves open, made here and in the client (ippanel-edge.ts) alike:
// - Paths: the documented base is `https://edge.ippanel.com/v1` and each endpoint `{base}/api/...`
//   [C], so every path here is `/v1/api/...`.
// - Envelope: `{data, meta: {status, message, message_parameters, message_code, errors?}}`, paged
//   answers with `current_page, last_page, per_page, total` in `meta` [C]. Numbers in report rows
//   are often strings ("messages_outbox_id": "12545856", "message_status": "1") [C: the examples].
// - Errors: a wrong key is HTTP 401 with message_code 400-1, an invalid request 422 with 400-2 [C].
//   Credit exhaustion at a send: HTTP 422 with words about credit (`اعتبار`), nothing sent [I: its
//   answer is NOT FOUND; a bulk can also end in state 8 "insufficient credit", which setBulkState
//   scripts]. More recipients than a call takes: 422 with words saying so [I: the cap is NOT FOUND].
//   Too many requests: 429 with Retry-After [I: no rate limit documented for Edge]; the provider's
//   own failures: a 5xx with a plain page when a test says (failNext) [I].
// - Paging: per_page / limit default 10 [C], at most 100 [I]. The outbox (new_list) and the inbox
//   list newest first [I: the inbox example lists 123 before 122]; dates are unix seconds [C: the
//   examples], ranges inclusive [I]; new_list's `message` filter matches a part of the text [I].
// - Progress: a bulk is in the monitoring queue, then sending, then finished (state 6) `bulkMs`
//   after it was made; its recipients' `message_status` is given only once it has finished [C], 1
//   (the operator took it) until `deliveryMs` later, then its final value [I].
// - Cost: each recipient costs its pages times the operator's price, rials [I: calculate-price
//   answers `mci_price` 2,370 and `other_price` 2,503 for one page; the unit is NOT FOUND], taken
//   from the credit for the whole call when it is accepted [I]; a bulk's `cost` is its recipients'.
//
// What it keeps: every message it accepted, one per recipient (the count a test checks: exactly one
// per local message), the bulks, the credit, replies waiting to be read. What it does not have, by
// the contract: an idempotency key or any deduplication (a repeated request is a second send)
// [NOT FOUND], and webhooks [NOT FOUND].
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A recipient's `message_status` [C]. */
export const IppanelStatus = {
  SentToOperator: 0,
  OperatorReceived: 1,
  Delivered: 2,
  NotDelivered: 3,
  Blacklisted: 4,
} as const;

/** A bulk's `state_id` [C: new_list's notes]. */
export const IppanelBulkState = {
  Creating: 0,
  Monitoring: 1,
  Sending: 2,
  Rejected: 3,
  InvalidRecipients: 4,
  SendQueue: 5,
  Sent: 6,
  Cancelled: 7,
  NoCredit: 8,
  SystemError: 9,
} as const;

export interface IppanelMessage {
  bulkId: number;
  /** Our line at IPPanel, E.164 (+98...). */
  fromNumber: string;
  /** E.164, as given [C]. */
  recipient: string;
  /** The same number as the app writes it (09...). */
  mobile: string;
  message: string;
  parts: number;
  /** Rials [I]. */
  cost: number;
  /** The status it ends in, and when (fake clock, ms). */
  finalStatus: number;
  finalAt: number;
}

export interface IppanelBulk {
  id: number;
  type: 'webservice' | 'peer_to_peer';
  fromNumber: string;
  message: string;
  recipients: IppanelMessage[];
  /** Unix seconds (the real clock, as the app reads times) [C: unix timestamps in the reports]. */
  time: number;
  cost: number;
  /** When it has finished (fake clock, ms). */
  finalAt: number;
  /** A state a test set (a bulk that ends without being sent). */
  forcedState: number | null;
}

export interface IppanelReply {
  messages_inbox_id: number;
  /** The customer, E.164. */
  from: string;
  /** Our line, E.164. */
  number: string;
  message: string;
  type: 'normal';
  time: number;
  seen: '0' | '1';
}

export interface IppanelFakeOptions {
  apiKey: string;
  /** The account's numbers, E.164 [C: `from_number` "must be a valid sender number assigned to your account"]. */
  lines: readonly string[];
  /** Credit, rials [I]. */
  credit?: number;
  /** Recipients a send call takes at most [NOT FOUND: 100 unless a test says]. */
  maxPerCall?: number;
  /** How long a bulk takes to finish (fake clock) [I]. */
  bulkMs?: number;
  /** How long a recipient stays with the operator after its bulk finished (fake clock) [I]. */
  deliveryMs?: number;
  /** The final status of a message to `mobile` (09...) [I: a test scripts outcomes]; delivered unless said. */
  outcome?: (mobile: string) => number;
}

export interface IppanelFake {
  url: string;
  /** Every message accepted (one per recipient), in order. */
  readonly messages: readonly IppanelMessage[];
  readonly bulks: ReadonlyMap<number, IppanelBulk>;
  /** Rials [I]. */
  credit: number;
  /** Requests a second before 429 [I: no limit documented; the test sets it]. Infinity: no limit. */
  limitPerSecond: number;
  /** The delivery clock (ms): the real time plus what advance() added. */
  now(): number;
  advance(ms: number): void;
  /** A customer's reply to a line (both as the app writes them: 09..., the line's digits), waiting to be read. */
  receive(mobile: string, line: string, text: string): void;
  /** Ends a bulk in a state of its own (3, 4, 7, 8, 9: nothing sent) [C: the states; when: I]. */
  setBulkState(bulkId: number, state: number): void;
  /**
   * The next `count` requests (whose path starts with `path`, when given) are answered with `status`
   * (a 5xx) without being done [I: IPPanel's own failures are not documented; a plain body].
   */
  failNext(count: number, status?: number, path?: string): void;
  /** Requests seen, by method and path (the key never logged). */
  readonly requests: readonly { method: string; path: string }[];
  close(): Promise<void>;
}

const PAGE_MAX = 100;
/** The price of a page, rials [I: calculate-price's example answer]. */
export const IPPANEL_PRICES = { mci: 2_370, other: 2_503 } as const;
const OK_META = { status: true, message: 'انجام شد', message_parameters: [], message_code: '200-1' };
/** The words of a wrong key [C]. */
const WRONG_KEY = 'اطلاعات وارد شده صحیح نمی باشد';
const STATE_NAMES: Record<number, { state: string; status: string }> = {
  0: { state: 'creating', status: 'در حال ایجاد' },
  1: { state: 'monitoring', status: 'در صف بررسی' },
  2: { state: 'sending', status: 'در حال ارسال' },
  3: { state: 'rejected', status: 'رد شده' },
  4: { state: 'invalid', status: 'گیرندگان نامعتبر' },
  5: { state: 'queue', status: 'در صف ارسال' },
  // [C] the examples' finished bulk.
  6: { state: 'finish', status: 'پایان یافته' },
  7: { state: 'canceled', status: 'لغو شده' },
  8: { state: 'no_credit', status: 'اعتبار ناکافی' },
  9: { state: 'failed', status: 'خطای سیستمی' },
};

/** An MCI number (0910-0919, 0990-0994) [I: the operator's prefixes]. */
function isMci(mobile: string): boolean {
  return /^09(1\d|9[0-4])/.test(mobile);
}

/** Pages of a text: 70 UCS-2 characters, 67 when split; 160 / 153 for plain ASCII [I: the usual SMS rule]. */
export function ippanelParts(text: string): number {
  // eslint-disable-next-line no-control-regex
  const ascii = /^[\x00-\x7f]*$/.test(text);
  const [one, many] = ascii ? [160, 153] : [70, 67];
  return text.length <= one ? 1 : Math.ceil(text.length / many);
}

export function ippanelCost(mobile: string, text: string): number {
  return ippanelParts(text) * (isMci(mobile) ? IPPANEL_PRICES.mci : IPPANEL_PRICES.other);
}

/** 09XXXXXXXXX or the line's digits → E.164, as the tests write numbers. */
export function e164(number: string): string {
  if (number.startsWith('+')) return number;
  if (number.startsWith('0')) return '+98' + number.slice(1);
  return number.startsWith('98') ? '+' + number : '+98' + number;
}

export async function startIppanelFake(options: IppanelFakeOptions): Promise<IppanelFake> {
  const bulkMs = options.bulkMs ?? 1_000;
  const deliveryMs = options.deliveryMs ?? 2_000;
  const maxPerCall = options.maxPerCall ?? 100;
  const outcome = options.outcome ?? (() => IppanelStatus.Delivered);
  let advanced = 0;
  const clockNow = () => Date.now() + advanced;
  const messages: IppanelMessage[] = [];
  const bulks = new Map<number, IppanelBulk>();
  const bulkOrder: IppanelBulk[] = [];
  const replies: IppanelReply[] = [];
  const requests: { method: string; path: string }[] = [];
  let nextBulk = 1_123_544_244;
  let nextReply = 1;
  const failures: { left: number; status: number; path: string }[] = [];
  const fake = {
    url: '',
    messages,
    bulks,
    credit: options.credit ?? 1_000_000_000,
    limitPerSecond: Infinity,
    requests,
    now: clockNow,
    advance(ms: number) {
      advanced += ms;
    },
    receive(mobile: string, line: string, text: string) {
      replies.push({
        messages_inbox_id: nextReply++,
        from: e164(mobile),
        number: e164(line),
        message: text,
        type: 'normal',
        time: Math.floor(Date.now() / 1000),
        seen: '0',
      });
    },
    setBulkState(bulkId: number, state: number) {
      const bulk = bulks.get(bulkId);
      if (!bulk) throw new Error(`no bulk ${bulkId}`);
      bulk.forcedState = state;
    },
    failNext(count: number, status = 500, path = '') {
      failures.push({ left: count, status, path });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  type Answer = (status: number, body: unknown, headers?: Record<string, string>) => void;
  const fail = (answer: Answer, status: number, message: string, code: string, errors: unknown = {}) =>
    answer(status, {
      data: null,
      meta: { status: false, message, message_parameters: [], message_code: code, errors },
    });

  /** A bulk's state at the fake's now [I: monitoring, sending, finished by the clock]. */
  const stateOf = (bulk: IppanelBulk): number => {
    if (bulk.forcedState !== null) return bulk.forcedState;
    const now = clockNow();
    if (now >= bulk.finalAt) return IppanelBulkState.Sent;
    return now >= bulk.finalAt - bulkMs / 2 ? IppanelBulkState.Sending : IppanelBulkState.Monitoring;
  };

  /** A bulk as the outbox reports list it [C: new_list's and by_bulk's fields]. */
  const bulkRow = (bulk: IppanelBulk) => {
    const state = stateOf(bulk);
    return {
      username: '*****',
      number_color: null,
      number: bulk.fromNumber,
      number_id: '123654',
      messages_outbox_id: String(bulk.id),
      state: STATE_NAMES[state]!.state,
      type: bulk.type,
      time_send: String(bulk.time),
      time: String(bulk.time),
      rcpts_count: String(bulk.recipients.length),
      exit_count: String(state === IppanelBulkState.Sent ? bulk.recipients.length : 0),
      status: STATE_NAMES[state]!.status,
      partner_id: null,
      in_delivery_line: 0,
      valid: 'approve',
      message: bulk.message,
      part: String(Math.max(...bulk.recipients.map((r) => r.parts))),
      cost: bulk.cost,
      summary: null,
      user_ip: null,
      user_id: null,
      files_path: null,
      parent_id: null,
      state_id: state,
    };
  };

  /** A recipient as the recipients' report lists it; its status only once the bulk has finished [C]. */
  const recipientRow = (bulk: IppanelBulk, message: IppanelMessage) => {
    const row: Record<string, unknown> = {
      recipient: message.recipient,
      message: message.message,
      is_readable: true,
      msg_parts: String(message.parts),
    };
    if (stateOf(bulk) === IppanelBulkState.Sent)
      row.message_status = String(clockNow() >= message.finalAt ? message.finalStatus : IppanelStatus.OperatorReceived);
    return row;
  };

  /** One page of a list and its meta [C: current_page, from, last_page, per_page, to, total]. */
  const paged = <T>(items: readonly T[], page: unknown, perPage: unknown, path: string) => {
    const size = Math.min(PAGE_MAX, Math.max(1, Math.floor(Number(perPage ?? 10)) || 10));
    const number = Math.max(1, Math.floor(Number(page ?? 1)) || 1);
    const slice = items.slice((number - 1) * size, number * size);
    return {
      data: slice,
      meta: {
        current_page: number,
        from: slice.length > 0 ? (number - 1) * size + 1 : null,
        last_page: Math.max(1, Math.ceil(items.length / size)),
        path,
        per_page: size,
        to: slice.length > 0 ? (number - 1) * size + slice.length : null,
        total: items.length,
        ...OK_META,
      },
    };
  };

  const E164_MOBILE = /^\+989\d{9}$/;

  const send = (body: Record<string, unknown>, answer: Answer): void => {
    const fromNumber = body.from_number;
    if (typeof fromNumber !== 'string' || !options.lines.includes(fromNumber))
      return fail(answer, 422, 'شماره فرستنده نامعتبر است', '400-2', { from_number: ['شماره فرستنده نامعتبر است'] });
    // Scheduling is documented [C]; this fake sends at once only, and says so rather than pretend.
    if (body.send_time !== undefined && body.send_time !== null && body.send_time !== '')
      return fail(answer, 422, 'this fake does not schedule', '400-2');
    let groups: { recipients: unknown[]; message: unknown }[];
    if (body.sending_type === 'webservice') {
      const params = (body.params ?? {}) as { recipients?: unknown };
      groups = [{ recipients: Array.isArray(params.recipients) ? params.recipients : [], message: body.message }];
    } else if (body.sending_type === 'peer_to_peer') {
      if (!Array.isArray(body.params) || body.params.length === 0)
        return fail(answer, 422, 'تکمیل گزینه params الزامی است', '400-2');
      groups = (body.params as Record<string, unknown>[]).map((p) => ({
        recipients: Array.isArray(p?.recipients) ? p.recipients : [],
        message: p?.message,
      }));
    } else {
      return fail(answer, 422, 'نوع ارسال نامعتبر است', '400-2');
    }
    // [C] the words of a missing message.
    if (groups.some((g) => typeof g.message !== 'string' || g.message === ''))
      return fail(answer, 422, 'تکمیل گزینه پیام الزامی است', '400-2', { message: ['تکمیل گزینه پیام الزامی است'] });
    if (groups.some((g) => g.recipients.length === 0))
      return fail(answer, 422, 'تکمیل گزینه گیرندگان الزامی است', '400-2');
    const bad = groups.flatMap((g) => g.recipients).find((r) => typeof r !== 'string' || !E164_MOBILE.test(r));
    if (bad !== undefined) return fail(answer, 422, `شماره گیرنده نامعتبر است: ${String(bad)}`, '400-2');
    const count = groups.reduce((sum, g) => sum + g.recipients.length, 0);
    // [I] the cap and its words.
    if (count > maxPerCall)
      return fail(answer, 422, `تعداد گیرندگان بیش از حد مجاز است (حداکثر ${maxPerCall})`, '400-2');
    const cost = groups.reduce(
      (sum, g) =>
        sum + g.recipients.reduce<number>((s, r) => s + ippanelCost('0' + String(r).slice(3), g.message as string), 0),
      0,
    );
    // [I] the whole call's cost is checked first; nothing is sent without it.
    if (cost > fake.credit) return fail(answer, 422, 'اعتبار کافی نمی باشد', '400-3');
    fake.credit -= cost;
    const now = clockNow();
    const ids: number[] = [];
    for (const group of groups) {
      const bulk: IppanelBulk = {
        id: nextBulk++,
        type: body.sending_type as IppanelBulk['type'],
        fromNumber,
        message: group.message as string,
        recipients: [],
        time: Math.floor(Date.now() / 1000),
        cost: 0,
        finalAt: now + bulkMs,
        forcedState: null,
      };
      for (const recipient of group.recipients as string[]) {
        const mobile = '0' + recipient.slice(3);
        const message: IppanelMessage = {
          bulkId: bulk.id,
          fromNumber,
          recipient,
          mobile,
          message: bulk.message,
          parts: ippanelParts(bulk.message),
          cost: ippanelCost(mobile, bulk.message),
          finalStatus: outcome(mobile),
          finalAt: bulk.finalAt + deliveryMs,
        };
        bulk.recipients.push(message);
        bulk.cost += message.cost;
        messages.push(message);
      }
      bulks.set(bulk.id, bulk);
      bulkOrder.push(bulk);
      ids.push(bulk.id);
    }
    // [C] one id per bulk: one for webservice, one per params entry for peer_to_peer.
    answer(200, { data: { message_outbox_ids: ids }, meta: OK_META });
  };

  const newList = (body: Record<string, unknown>, answer: Answer): void => {
    const filters = (body.filters ?? {}) as Record<string, unknown>;
    const seconds = (value: unknown, otherwise: number) =>
      value === undefined || value === null || value === '' ? otherwise : Number(value);
    const createFrom = seconds(filters.create_from_date, -Infinity);
    const createTo = seconds(filters.create_to_date, Infinity);
    const sendFrom = seconds(filters.send_from_date, -Infinity);
    const sendTo = seconds(filters.send_to_date, Infinity);
    const rows = [];
    for (let i = bulkOrder.length - 1; i >= 0; i--) {
      const bulk = bulkOrder[i]!;
      if (filters.number !== undefined && filters.number !== bulk.fromNumber) continue;
      if (filters.messages_outbox_id !== undefined && String(filters.messages_outbox_id) !== String(bulk.id)) continue;
      if (bulk.time < createFrom || bulk.time > createTo || bulk.time < sendFrom || bulk.time > sendTo) continue;
      if (typeof filters.message === 'string' && filters.message !== '' && !bulk.message.includes(filters.message))
        continue;
      if (filters.state_id !== undefined && Number(filters.state_id) !== stateOf(bulk)) continue;
      rows.push(bulk);
    }
    const page = paged(rows, body.page, body.limit, '/api/report/new_list');
    answer(200, { ...page, data: page.data.map(bulkRow) });
  };

  const handle = (method: string, url: URL, body: unknown, answer: Answer): void => {
    const path = url.pathname.toLowerCase();
    const input = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    if (method === 'POST' && path === '/v1/api/send') return send(input, answer);
    if (method === 'GET' && path === '/v1/api/report/recipients') {
      const id = url.searchParams.get('bulk_id');
      if (!id)
        return fail(answer, 422, 'تکمیل گزینه bulk_id الزامی است', '400-2', {
          bulk_id: ['تکمیل گزینه bulk_id الزامی است'],
        });
      // An unknown bulk: an empty list [I].
      const bulk = bulks.get(Number(id));
      const page = paged(
        bulk?.recipients ?? [],
        url.searchParams.get('page'),
        url.searchParams.get('per_page'),
        '/api/report/recipients',
      );
      return answer(200, { ...page, data: page.data.map((m) => recipientRow(bulk!, m)) });
    }
    if (method === 'GET' && path === '/v1/api/report/by_bulk') {
      const bulk = bulks.get(Number(url.searchParams.get('messages_outbox_id')));
      // An unknown bulk: data null [I].
      return answer(200, { data: bulk ? bulkRow(bulk) : null, meta: OK_META });
    }
    if (method === 'POST' && path === '/v1/api/report/new_list') return newList(input, answer);
    if (method === 'POST' && path === '/v1/api/report/messages-inbox') {
      const filters = (input.filters ?? {}) as Record<string, unknown>;
      const fromId = Number(filters.from_id ?? 0) || 0;
      // [C] from_id: the messages received after that id; newest first [I].
      const list = replies.filter((r) => r.messages_inbox_id > fromId).reverse();
      return answer(200, paged(list, input.page, input.per_page, '/api/report/messages-inbox'));
    }
    if (method === 'GET' && path === '/v1/api/payment/credit/mine')
      return answer(200, {
        data: {
          credit: fake.credit,
          yesterday_credit: fake.credit,
          gift: 0,
          gift_expires_at: null,
          updated_at: new Date().toISOString().slice(0, 19).replace('T', ' '),
        },
        meta: OK_META,
      });
    fail(answer, 404, 'not found', '404-1');
  };

  const window = { second: 0, count: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      requests.push({ method: request.method ?? 'GET', path: url.pathname });
      const answer: Answer = (status, body, headers = {}) => {
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        response.end(JSON.stringify(body));
      };
      const second = Math.floor(Date.now() / 1000);
      if (second !== window.second) Object.assign(window, { second, count: 0 });
      if (++window.count > fake.limitPerSecond)
        return answer(
          429,
          {
            data: null,
            meta: { status: false, message: 'تعداد درخواست‌ها بیش از حد مجاز است', message_code: '429-1' },
          },
          { 'retry-after': '1' },
        );
      const failure = failures.find((f) => f.left > 0 && url.pathname.startsWith(f.path));
      if (failure) {
        failure.left -= 1;
        response.writeHead(failure.status, { 'content-type': 'text/html' });
        response.end(`<html><body>${failure.status}</body></html>`);
        return;
      }
      // [C] `Authorization: <api key>`, no scheme; 401 otherwise.
      if (request.headers.authorization !== options.apiKey) return fail(answer, 401, WRONG_KEY, '400-1');
      let body: unknown = null;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          return fail(answer, 422, 'بدنه درخواست نامعتبر است', '400-2');
        }
      }
      handle(request.method ?? 'GET', url, body, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
