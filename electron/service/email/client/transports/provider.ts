// The `provider` transport: a provider's API of spec 4.6 over HTTP (`{url}/v2/accounts/{id}/…`),
// the key sent as a Bearer token. Every request has a timeout; a request without an answer (a
// reset, a refused connection, a timeout) is a NetworkError the send job retries.
import { NetworkError, type MessagesRequest, type RelayAnswer, type RelayConnection } from './relay-api';

export interface ProviderSettings {
  /** Scheme and host (and port), no trailing slash. */
  url: string;
  accountId: string;
  key: string | null;
}

/** A batch of 500 goes as one request: generous for a slow provider. */
const SEND_TIMEOUT_MS = 60_000;
const READ_TIMEOUT_MS = 20_000;

export function providerConnection(settings: ProviderSettings): RelayConnection {
  const base = `${settings.url.replace(/\/+$/, '')}/v2/accounts/${encodeURIComponent(settings.accountId)}/messages`;
  const request = async (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    signal: AbortSignal,
    timeoutMs: number,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<RelayAnswer> => {
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method,
        headers: {
          accept: 'application/json',
          ...(settings.key ? { authorization: `Bearer ${settings.key}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      });
      text = await response.text();
    } catch (error) {
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const what =
        error instanceof Error && error.name === 'TimeoutError'
          ? 'timed out'
          : (cause?.code ?? cause?.message ?? String(error));
      throw new NetworkError(`${method} ${new URL(url).host}: ${what}`);
    }
    let parsed: unknown = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      parsed = { message: text.slice(0, 500) };
    }
    const answerHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => (answerHeaders[name] = value));
    return { status: response.status, body: parsed, headers: answerHeaders };
  };
  return {
    send: (body: MessagesRequest, idempotencyKey, signal) =>
      request('POST', base, signal, SEND_TIMEOUT_MS, body, { 'idempotency-key': idempotencyKey }),
    list: (query, signal) =>
      request('GET', `${base}?${new URLSearchParams(query).toString()}`, signal, READ_TIMEOUT_MS),
    get: (messageId, signal) => request('GET', `${base}/${encodeURIComponent(messageId)}`, signal, READ_TIMEOUT_MS),
    // DELETE, as the provider's published contract and its SDK (it answers POST here with 405).
    cancel: (messageId, signal) =>
      request('DELETE', `${base}/${encodeURIComponent(messageId)}/cancel`, signal, READ_TIMEOUT_MS),
  };
}
