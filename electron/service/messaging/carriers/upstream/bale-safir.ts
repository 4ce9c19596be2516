// The Safir client: Bale's business service, which messages phone numbers (reference/sms-upstreams.md
// "Bale"). `POST {base}/api/v3/send_message` with the `api-access-key` header and `{request_id,
// bot_id, phone_number: "98…", message_data: {message: {text}}}` [C], one request per receiver
// [3p]. Its `request_id` is documented to make a repeated request send nothing again [C]: ours is
// the message's local id, unique for good (a message id can come back after a restore), so an
// answer lost on the way is simply asked again (`idempotent`). No status endpoint exists [3p]: a
// message Safir took stays "handed over" with its status unknown, never made up.
import { MessageStatus } from '../../../../../shared/lifecycle';
import { upstreamErrorClass } from '../../../../../shared/gateways';
import type { CallResult, Endpoint, OutgoingMessage, UpstreamClient, UpstreamRecord } from './client';
import { call, numberOf, type Answer } from './wire';

/** Requests of one call in flight at once [I: Safir's limits are NOT FOUND]. */
const PARALLEL = 4;

/** `request_id` of a message: our local id, the same for every try of it. */
export function safirRequestId(localId: number): string {
  return `chapar-${localId}`;
}

/** 09XXXXXXXXX → 98XXXXXXXXXX [C: the number's form]. */
function internationalNumber(receptor: string): string {
  return '98' + receptor.replace(/^(\+98|98|0)/, '');
}

/**
 * One answer: the message id on a 2xx [3p]; else the HTTP status, with the body's words. The error
 * body's shape is NOT FOUND, so any `error`, `message` or `description` text is taken. A 401 is
 * the key (the carrier's 403: the line pauses); 402 the credit (418) [I].
 */
function answerOf(answer: CallResult<Answer>): CallResult<string> {
  if (answer.kind !== 'ok') return answer;
  const { httpStatus, body } = answer.value;
  const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if (httpStatus < 300) {
    const id = fields.message_id ?? (fields.result as Record<string, unknown> | undefined)?.message_id;
    return typeof id === 'string' || numberOf(id) !== null
      ? { kind: 'ok', value: String(id) }
      : { kind: 'unknown', text: 'an answer without a message id' };
  }
  const words = [fields.error, fields.message, fields.description].find((w) => typeof w === 'string') as
    string | undefined;
  const text = words ?? (typeof body === 'string' ? body.slice(0, 200) : `HTTP ${httpStatus}`);
  const code = httpStatus === 401 ? 403 : httpStatus === 402 ? 418 : httpStatus;
  return { kind: 'error', code, text };
}

export function baleSafirClient(endpoint: Endpoint): UpstreamClient {
  const sendOne = async (message: OutgoingMessage): Promise<CallResult<string>> =>
    answerOf(
      await call(
        `${endpoint.baseUrl}/api/v3/send_message`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'api-access-key': endpoint.apiKey },
          body: JSON.stringify({
            request_id: safirRequestId(message.localId),
            bot_id: endpoint.sender,
            phone_number: internationalNumber(message.receptor),
            message_data: { message: { text: message.text } },
          }),
        },
        endpoint.timeoutMs,
      ),
    );

  return {
    idempotent: true,

    async send(messages: readonly OutgoingMessage[]): Promise<CallResult<UpstreamRecord[]>> {
      const results: CallResult<string>[] = new Array(messages.length);
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(PARALLEL, messages.length) }, async () => {
          while (next < messages.length) {
            const i = next++;
            results[i] = await sendOne(messages[i]!);
          }
        }),
      );
      // A receiver Safir refused fails alone; anything else (the key, credit, a limit, no answer)
      // is the whole call's answer: its messages go again with the same request ids, and those
      // Safir already took are not sent twice.
      const whole = results.find(
        (result) => result.kind !== 'ok' && !(result.kind === 'error' && upstreamErrorClass(result.code) === 'fail'),
      );
      if (whole && whole.kind !== 'ok') return whole;
      return {
        kind: 'ok',
        value: messages.map((m, i) => {
          const result = results[i]!;
          return result.kind === 'ok'
            ? { id: m.id, upstreamId: result.value, status: MessageStatus.HandedToCarrier, costRials: null }
            : { id: m.id, upstreamId: null, status: MessageStatus.Invalid, costRials: null };
        }),
      };
    },

    // No status endpoint [3p]: nothing to ask; the carrier leaves the status unknown.
    async status(): Promise<CallResult<never[]>> {
      return { kind: 'ok', value: [] };
    },

    async info(): Promise<CallResult<{ creditRials: number | null }>> {
      // No read of the account [NOT FOUND]: the key and the bot are checked by a request Safir
      // refuses for its empty receiver, which sends nothing [I].
      const answer = answerOf(
        await call(
          `${endpoint.baseUrl}/api/v3/send_message`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'api-access-key': endpoint.apiKey },
            body: JSON.stringify({
              bot_id: endpoint.sender,
              phone_number: '',
              message_data: { message: { text: '' } },
            }),
          },
          endpoint.timeoutMs,
        ),
      );
      // Only a refusal of the receiver says the key and the bot hold; the key, a wrong address, a
      // limit or Safir's own failure (429, 5xx) is its answer, never "connected".
      if (answer.kind === 'ok' || (answer.kind === 'error' && upstreamErrorClass(answer.code) === 'fail'))
        return { kind: 'ok', value: { creditRials: null } };
      return answer;
    },
  };
}
