// The generic HTTP gateway client: any gateway that takes one message per request at a URL made
// from a template, and reports deliveries by calling a URL back (Kannel's `sendsms` and `dlr-url`:
// reference/kannel/). The line's address is the template; in it `{to}`, `{from}`, `{text}`,
// `{key}` (the line's secret) and `{report}` (the callback's address) are replaced, each
// URL-encoded. A 2xx answer is "accepted" (Kannel: `202 0: Accepted for delivery`); 403 the key
// (the line pauses), 503 a temporary failure (retried), other 4xx refuse the receiver.
//
// Kannel answers no message id: the callback's address names our message and local id, so a report
// needs no lookup table, and it carries the line's report token (upstream-carrier.ts reportToken),
// so nobody else can report for it. Statuses come only that way: nothing is polled. There is no
// idempotency key and no outbox to search: an answer lost on the way waits for the user's review.
import { MessageStatus } from '../../../../../shared/lifecycle';
import type { GATEWAY_TEMPLATE_FIELDS } from '../../../../../shared/gateways';
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

/** The template with the message's values in place. */
export function fillTemplate(
  template: string,
  values: Record<(typeof GATEWAY_TEMPLATE_FIELDS)[number], string>,
): string {
  return template.replace(/\{(to|from|text|key|report)\}/g, (_, field: keyof typeof values) =>
    encodeURIComponent(values[field]),
  );
}

/** A 4xx that refuses the receiver, not the line: any but the key's 403 and a limit's 429. */
function refusesReceiver(code: number): boolean {
  return code >= 400 && code < 500 && code !== 403 && code !== 429;
}

function answerOf(answer: CallResult<Answer>): CallResult<true> {
  if (answer.kind !== 'ok') return answer;
  const { httpStatus, body } = answer.value;
  if (httpStatus >= 200 && httpStatus < 300) return { kind: 'ok', value: true };
  const text = (typeof body === 'string' ? body : JSON.stringify(body ?? '')).slice(0, 200) || `HTTP ${httpStatus}`;
  return { kind: 'error', code: httpStatus, text };
}

export function httpGatewayClient(endpoint: Endpoint): UpstreamClient {
  const sendOne = async (message: OutgoingMessage): Promise<CallResult<true>> =>
    answerOf(
      await call(
        fillTemplate(endpoint.baseUrl, {
          to: message.receptor,
          from: endpoint.sender,
          text: message.text,
          key: endpoint.apiKey,
          report: reportUrl(endpoint, message),
        }),
        { method: 'GET' },
        endpoint.timeoutMs,
      ),
    );

  return {
    reportOf,

    async send(messages: readonly OutgoingMessage[]): Promise<CallResult<UpstreamRecord[]>> {
      const results: (CallResult<true> | undefined)[] = new Array(messages.length);
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
            if (result.kind === 'not-sent' || (result.kind === 'error' && !refusesReceiver(result.code)))
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
        // No answer (unknown): left out, so the carrier holds it as unknown; it may have been taken.
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
      const answer = answerOf(
        await call(
          fillTemplate(endpoint.baseUrl, { to: '', from: endpoint.sender, text: '', key: endpoint.apiKey, report: '' }),
          { method: 'GET' },
          endpoint.timeoutMs,
        ),
      );
      if (answer.kind === 'ok') return { kind: 'ok', value: { creditRials: null } };
      if (answer.kind === 'error' && answer.code !== 403 && answer.code < 500)
        return { kind: 'ok', value: { creditRials: null } };
      return answer;
    },
  };
}
