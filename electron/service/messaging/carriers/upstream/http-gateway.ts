// The generic HTTP gateway client: any gateway that takes one message per request at a URL made
// from a template, and reports deliveries by calling a URL back (Kannel's `sendsms` and `dlr-url`:
// reference/kannel/). The line's address is the template; in it `{to}`, `{from}`, `{text}`,
// `{key}` (the line's secret) and `{report}` (the callback's address) are replaced, each
// URL-encoded. A POST sends a body made the same way from the line's body template, its
// placeholders written as its type wants them (a form: URL-encoded; JSON: inside a JSON string).
// A 2xx answer is "accepted" (Kannel: `202 0: Accepted for delivery`), when its words match the
// line's success pattern if it has one; 403 the key (the line pauses), 503 a temporary failure
// (retried), other 4xx refuse the receiver. A 2xx answer whose words do not match says neither
// yes nor no: that message waits for the user's review, and the line pauses with the gateway's
// words, so a wrong pattern costs at most one call's worth of review, never a campaign.
//
// Kannel answers no message id: the callback's address names our message and local id, so a report
// needs no lookup table, and it carries the line's report token (upstream-carrier.ts reportToken),
// so nobody else can report for it. Statuses come only that way: nothing is polled. There is no
// idempotency key and no outbox to search: an answer lost on the way waits for the user's review.
import { MessageStatus } from '../../../../../shared/lifecycle';
import type { GATEWAY_TEMPLATE_FIELDS } from '../../../../../shared/gateways';
import type { HttpGatewayOptions } from '../../../../../shared/ipc/contracts/accounts';
import type { CallResult, Endpoint, OutgoingMessage, PushedReport, UpstreamClient, UpstreamRecord } from './client';
import { call, type Answer } from './wire';

/** Requests of one call in flight at once [I; Kannel took 12 concurrent clients well]. */
const PARALLEL = 8;

/** Kannel's report types (`%d`) [C: kannel/README.md] → our status; types on the way are not final. */
const REPORT_TYPES = new Map<number, number | null>([
  [1, MessageStatus.Delivered],
  [2, MessageStatus.Undelivered],
  [4, null],
  [8, null],
  [16, MessageStatus.SendError],
]);

/**
 * A message's report address: the line's, with our message id, our local id (a message id can come
 * back after a restore; both must match) and Kannel's `%d`, the report's type [C].
 */
function reportUrl(endpoint: Endpoint, message: OutgoingMessage): string {
  return endpoint.reportBase ? `${endpoint.reportBase}?m=${message.id}&l=${message.localId}&type=%d` : '';
}

/** A report called back to the address reportUrl made. */
function reportOf(query: Readonly<Record<string, string>>): PushedReport | null {
  const messageId = Number(query.m);
  const localId = Number(query.l);
  const status = REPORT_TYPES.get(Number(query.type));
  if (!Number.isSafeInteger(messageId) || !Number.isSafeInteger(localId) || status === undefined) return null;
  return { messageId, localId, status };
}

type TemplateValues = Record<(typeof GATEWAY_TEMPLATE_FIELDS)[number], string>;

/** The template with the message's values in place, each written by `encode` (URL-encoded unless told). */
export function fillTemplate(
  template: string,
  values: TemplateValues,
  encode: (value: string) => string = encodeURIComponent,
): string {
  return template.replace(/\{(to|from|text|key|report)\}/g, (_, field: keyof TemplateValues) => encode(values[field]));
}

/** How a body of this type holds a value: inside a JSON string, URL-encoded in a form, else as it is. */
function bodyEncoding(contentType: string): (value: string) => string {
  const type = contentType.toLowerCase();
  if (type.includes('json')) return (value) => JSON.stringify(value).slice(1, -1);
  if (type.includes('x-www-form-urlencoded')) return encodeURIComponent;
  return (value) => value;
}

const GET: HttpGatewayOptions = { method: 'GET', body: '', content_type: '', success: '' };

/** The request for these values: the address, and for a POST its body. */
function requestOf(endpoint: Endpoint, values: TemplateValues): { url: string; init: Parameters<typeof call>[1] } {
  const options = endpoint.http ?? GET;
  const url = fillTemplate(endpoint.baseUrl, values);
  if (options.method === 'GET') return { url, init: { method: 'GET' } };
  return {
    url,
    init: {
      method: 'POST',
      headers: { 'content-type': options.content_type },
      body: fillTemplate(options.body, values, bodyEncoding(options.content_type)),
    },
  };
}

/** The answer's words, as the success pattern reads them. */
function wordsOf(body: unknown): string {
  return typeof body === 'string' ? body : JSON.stringify(body ?? '');
}

/** A 4xx that refuses the receiver, not the line: any but the key's 403 and a limit's 429. */
function refusesReceiver(code: number): boolean {
  return code >= 400 && code < 500 && code !== 403 && code !== 429;
}

/**
 * What an answer says: taken (2xx, matching the success pattern), refused (its status and words),
 * or `unmatched`: a 2xx whose words the pattern does not recognise (taken or not, nobody can say).
 */
function answerOf(
  answer: CallResult<Answer>,
  success: RegExp | null,
): CallResult<true> | { kind: 'unmatched'; text: string } {
  if (answer.kind !== 'ok') return answer;
  const { httpStatus, body } = answer.value;
  const words = wordsOf(body).slice(0, 200);
  if (httpStatus >= 200 && httpStatus < 300)
    return success === null || success.test(wordsOf(body))
      ? { kind: 'ok', value: true }
      : { kind: 'unmatched', text: words };
  return { kind: 'error', code: httpStatus, text: words || `HTTP ${httpStatus}` };
}

/** A 2xx answer the success pattern did not recognise, as the line's pause says it (a code no class names: a pause). */
const UNMATCHED_CODE = 299;

export function httpGatewayClient(endpoint: Endpoint): UpstreamClient {
  const pattern = endpoint.http?.success ? new RegExp(endpoint.http.success) : null;
  const sendOne = async (message: OutgoingMessage) => {
    const { url, init } = requestOf(endpoint, {
      to: message.receptor,
      from: endpoint.sender,
      text: message.text,
      key: endpoint.apiKey,
      report: reportUrl(endpoint, message),
    });
    return answerOf(await call(url, init, endpoint.timeoutMs), pattern);
  };

  return {
    reportOf,

    async send(messages: readonly OutgoingMessage[]): Promise<CallResult<UpstreamRecord[]>> {
      const results: (Awaited<ReturnType<typeof sendOne>> | undefined)[] = new Array(messages.length);
      // After an answer for the whole line (the key, a limit, a failure of the gateway, no
      // connection) no further request of the call is made: the rest go again later.
      let stopped: Exclude<CallResult<true>, { kind: 'ok' }> | null = null;
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(PARALLEL, messages.length) }, async () => {
          while (next < messages.length && stopped === null) {
            const i = next++;
            const result = await sendOne(messages[i]!);
            results[i] = result;
            if (result.kind === 'unmatched')
              stopped ??= {
                kind: 'error',
                code: UNMATCHED_CODE,
                text: `the gateway's answer does not match the line's success pattern: ${result.text}`,
              };
            else if (result.kind === 'not-sent' || (result.kind === 'error' && !refusesReceiver(result.code)))
              stopped ??= result;
          }
        }),
      );
      const records: UpstreamRecord[] = [];
      for (const [i, m] of messages.entries()) {
        const result = results[i] ?? stopped!;
        if (result.kind === 'ok')
          records.push({
            id: m.id,
            upstreamId: String(m.localId),
            status: MessageStatus.HandedToCarrier,
            costRials: null,
          });
        else if (result.kind === 'error' && refusesReceiver(result.code))
          records.push({ id: m.id, upstreamId: null, status: MessageStatus.Invalid, costRials: null });
        else if (result.kind === 'error' || result.kind === 'not-sent')
          // Not taken: sent again as the answer's class says (a pause, a retry later).
          records.push({ id: m.id, upstreamId: null, status: 0, costRials: null, notTaken: result });
        // No answer (unknown), or words nobody recognises (unmatched): left out, so the carrier
        // holds it as unknown; it may have been taken.
      }
      return { kind: 'ok', value: records };
    },

    // Statuses come by the report callback only.
    async status(): Promise<CallResult<never[]>> {
      return { kind: 'ok', value: [] };
    },

    async info(): Promise<CallResult<{ creditRials: number | null }>> {
      // A gateway has no account to read: the address is tried without a receiver, which a gateway
      // refuses for its fields (Kannel: 4xx) and answers at all only if it is there and the key holds.
      const { url, init } = requestOf(endpoint, {
        to: '',
        from: endpoint.sender,
        text: '',
        key: endpoint.apiKey,
        report: '',
      });
      // A 401 is the key as much as a 403 is (the line's pause for it); 404 and 405 say the address
      // is not the gateway's, 429 that it is busy: none of them says the gateway is there for us.
      const answer = answerOf(await call(url, init, endpoint.timeoutMs), null);
      if (answer.kind === 'ok' || answer.kind === 'unmatched') return { kind: 'ok', value: { creditRials: null } };
      if (answer.kind === 'error' && answer.code === 401) return { ...answer, code: 403 };
      if (answer.kind === 'error' && answer.code < 500 && ![403, 404, 405, 429].includes(answer.code))
        return { kind: 'ok', value: { creditRials: null } };
      return answer;
    },
  };
}
