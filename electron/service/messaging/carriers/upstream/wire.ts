// One HTTP call to a provider and what its ending means: an answer (parsed JSON, any status), an
// error before anything was written (nothing sent: ECONNREFUSED, no such host), or no answer
// after the request may have been read (a timeout, a dropped connection): unknown, which the
// carrier never treats as failure nor success. Calls go over Node's own HTTP client with
// connections kept alive: at 500 calls of 200 messages each, fetch's machinery (streams, Request
// and Response objects, the decoder) took a tenth of the app's main thread (bench handover100k).
// A multipart upload (a messenger file) still goes through fetch, which writes FormData.
import http from 'node:http';
import https from 'node:https';
import type { CallResult, UpstreamRecord } from './client';

// Idle connections are closed after a few seconds, before a provider's own keep-alive timeout
// (often 5 s) closes them under a request about to be written.
const IDLE_MS = 4_000;
const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_MS }),
};

/** Connection errors that happen before a request can reach the provider. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_INVALID_URL',
]);

export interface Answer {
  httpStatus: number;
  body: unknown;
}

export async function call(
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string | FormData },
  timeoutMs: number,
): Promise<CallResult<Answer>> {
  const body = init.body;
  if (body !== undefined && typeof body !== 'string') return fetchCall(url, { ...init, body }, timeoutMs);
  let target: URL;
  try {
    target = new URL(url);
  } catch (error) {
    return { kind: 'not-sent', text: describe(error) };
  }
  const agent = agents[target.protocol as keyof typeof agents];
  if (!agent) return { kind: 'not-sent', text: `not an HTTP address: ${url}` };
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: CallResult<Answer>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const headers: Record<string, string | number> = { ...init.headers };
    if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
    const request = (target.protocol === 'https:' ? https : http).request(
      target,
      { method: init.method, headers, agent },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          if (!response.complete) {
            settle({ kind: 'unknown', text: 'the answer was cut off' });
            return;
          }
          const text = Buffer.concat(chunks).toString('utf8');
          settle({ kind: 'ok', value: { httpStatus: response.statusCode ?? 0, body: parseBody(text) } });
        });
        response.on('error', (error) => settle({ kind: 'unknown', text: describe(error) }));
        // Closed before its end (a connection dropped mid-answer): unknown (after an end, settled already).
        response.on('close', () => settle({ kind: 'unknown', text: 'the answer was cut off' }));
      },
    );
    // No answer in time: the request may have been read, so unknown.
    const timer = setTimeout(() => {
      settle({ kind: 'unknown', text: 'no answer in time' });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error) => settle(failure(error)));
    request.end(body);
  });
}

/** A call with fetch (a multipart body). */
async function fetchCall(
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body: FormData },
  timeoutMs: number,
): Promise<CallResult<Answer>> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    return { kind: 'ok', value: { httpStatus: response.status, body: parseBody(await response.text()) } };
  } catch (error) {
    return failure(error);
  }
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A call that ended in an error: before anything could reach the provider, or maybe after. */
function failure(error: unknown): CallResult<Answer> {
  const code = errorCode(error);
  const text = describe(error);
  return code !== undefined && NOT_SENT_CODES.has(code) ? { kind: 'not-sent', text } : { kind: 'unknown', text };
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'no answer in time';
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}

/** The Kavenegar-style envelope's code and words, when the body has one. */
export function envelopeReturn(body: unknown): { code: number; message: string } | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const ret = (body as { return?: unknown }).return;
  if (!ret || typeof ret !== 'object') return undefined;
  const code = Number((ret as { status?: unknown }).status);
  const message = (ret as { message?: unknown }).message;
  return Number.isFinite(code) ? { code, message: typeof message === 'string' ? message : '' } : undefined;
}

/**
 * An answer in the Kavenegar envelope (v1 and v2 alike): its entries on return.status 200, else the
 * provider's code and words (HTTP status when the body has no envelope: a proxy's 502, a 500).
 */
export function entriesOf(answer: CallResult<Answer>): CallResult<unknown> {
  if (answer.kind !== 'ok') return answer;
  const { httpStatus, body } = answer.value;
  const ret = envelopeReturn(body);
  if (ret && ret.code === 200 && httpStatus < 300)
    return { kind: 'ok', value: (body as { entries?: unknown }).entries ?? null };
  if (ret) return { kind: 'error', code: ret.code === 200 ? httpStatus : ret.code, text: ret.message };
  const text =
    body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : typeof body === 'string'
        ? body.slice(0, 200)
        : '';
  return { kind: 'error', code: httpStatus >= 300 ? httpStatus : 502, text: text || `HTTP ${httpStatus}` };
}

/** A number the provider sent (a JSON number or digits in a string), else null. */
export function numberOf(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** One entry of a send's answer (Kavenegar's message entry, the spec's MessageInfo) as the record of our message `id`. */
export function recordOf(id: number, entry: Record<string, unknown>): UpstreamRecord {
  const upstream = numberOf(entry.messageid);
  return {
    id,
    upstreamId: upstream !== null && upstream > 0 ? String(upstream) : null,
    status: numberOf(entry.status) ?? 0,
    costRials: numberOf(entry.cost),
  };
}
