// The provider's API of spec 4.6 as the relay client sees it, whoever answers: the embedded
// sandbox in process (sandbox.ts) or a provider over HTTP (provider.ts). Both hand back the answer
// as the HTTP API gives it ({status, body, headers}); what an answer means for a send (accepted,
// refused, retry later) is read here once.
import { RELAY_STATUSES, type RelayStatus } from '../../../../../shared/email';
import { HttpStatus, isKeyRefused } from '../../http-status';
import type { RelayAnswer } from '../../relay/answers';

// One shape for an answer, whoever gives it: the embedded provider's (relay/answers.ts).
export type { RelayAnswer };

export interface RelayConnection {
  /** `POST …/messages` with an Idempotency-Key. */
  send(body: MessagesRequest, idempotencyKey: string, signal: AbortSignal): Promise<RelayAnswer>;
  /** `GET …/messages?…` */
  list(query: Record<string, string>, signal: AbortSignal): Promise<RelayAnswer>;
  /** `GET …/messages/{id}` */
  get(messageId: string, signal: AbortSignal): Promise<RelayAnswer>;
  /** `POST …/messages/{id}/cancel` */
  cancel(messageId: string, signal: AbortSignal): Promise<RelayAnswer>;
}

/** The body of `POST …/messages` (reference/email-relay-provider.md). */
export interface MessagesRequest {
  from: { email: string; name?: string };
  reply_to?: { email: string; name?: string };
  recipients: Array<{ email: string; name?: string; substitutions: Record<string, string> }>;
  subject: string;
  text_content?: string;
  html_content?: string;
  tags: string[];
}

/** A request that did not get an answer (a reset connection, a timeout, a refused connection). */
export class NetworkError extends Error {}

export type SendOutcome =
  | { kind: 'accepted'; items: AcceptedItem[] }
  /** 400 and other 4xx: this batch is refused as it is; it would be refused again. */
  | { kind: 'refused'; message: string }
  /** 401 / 403: the key is wrong or lacks access; nothing more will be accepted. */
  | { kind: 'unauthorized'; message: string }
  /** 412: the first request with this key failed; the same batch goes again under a new key. */
  | { kind: 'key-failed'; message: string }
  /** 5xx, 429, 408, 409 (the same key still in progress): later. */
  | { kind: 'retry'; message: string; retryAfterMs: number | null };

export interface AcceptedItem {
  id: string | null;
  status: RelayStatus | 'error';
  error: string | null;
}

export function answerMessage(answer: RelayAnswer): string {
  const body = answer.body as { message?: unknown } | null;
  const message = body && typeof body === 'object' && typeof body.message === 'string' ? body.message : null;
  return message ? `${answer.status}: ${message}` : `HTTP ${answer.status}`;
}

/** Retry-After in seconds or as an HTTP date, as ms from `now`; null when absent or unreadable. */
export function retryAfterMs(headers: Record<string, string> | undefined, now: number): number | null {
  const value = headers?.['retry-after'] ?? headers?.['Retry-After'];
  if (value === undefined || value.trim() === '') return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function readStatus(value: unknown): RelayStatus | null {
  const status = typeof value === 'string' ? value.toLowerCase() : '';
  return (RELAY_STATUSES as readonly string[]).includes(status) ? (status as RelayStatus) : null;
}

/** What a `POST …/messages` answer means for the batch of `count` recipients. */
export function readSendAnswer(answer: RelayAnswer, count: number, now: number): SendOutcome {
  const { status } = answer;
  if (status === HttpStatus.Ok || status === HttpStatus.Created || status === HttpStatus.Accepted) {
    const data = (answer.body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data) || data.length !== count)
      return { kind: 'retry', message: `the provider's answer has no result per recipient`, retryAfterMs: null };
    return {
      kind: 'accepted',
      items: data.map((item: unknown): AcceptedItem => {
        const entry = (item ?? {}) as { id?: unknown; status?: unknown; error?: unknown };
        const id = typeof entry.id === 'string' && entry.id !== '' ? entry.id : null;
        const relayStatus = readStatus(entry.status);
        const error = typeof entry.error === 'string' ? entry.error : null;
        if (id === null || relayStatus === null) return { id, status: 'error', error: error ?? 'not accepted' };
        return { id, status: relayStatus, error };
      }),
    };
  }
  const message = answerMessage(answer);
  if (isKeyRefused(status)) return { kind: 'unauthorized', message };
  if (status === HttpStatus.PreconditionFailed) return { kind: 'key-failed', message };
  if (
    status === HttpStatus.RequestTimeout ||
    status === HttpStatus.Conflict ||
    status === HttpStatus.TooManyRequests ||
    status >= HttpStatus.InternalServerError
  )
    return { kind: 'retry', message, retryAfterMs: retryAfterMs(answer.headers, now) };
  return { kind: 'refused', message };
}
