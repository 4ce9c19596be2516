// Calls of version 1 as the previous provider's clients make them (GET query or POST form, repeated
// keys for lists), and the assertions of its envelope (reference/kavenegar-v1.md §0, §2).
import http from 'node:http';
import { expect } from 'vitest';
import { apiCodeMessage, type ApiCode } from '../../shared/status';

export interface V1Result {
  status: number;
  /** Parsed JSON, read field by field in the tests. */
  body: any;
  text: string;
  contentType: string | null;
}

export type V1Params = Record<string, string | number | readonly (string | number)[] | undefined>;

/** The form (or query) of the parameters: a list becomes repeated keys, as the Go and Node clients send it. */
export function form(params: V1Params): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) search.append(key, String(one));
  }
  return search;
}

/**
 * `scope/method` of version 1 with this key: POST form by default, or GET with a query. Over
 * node:http, not fetch: fetch (undici) turns any HTTP 407 answer into a network error without
 * reading its body, and 407 is one of the provider's codes.
 */
export function v1(
  base: string,
  key: string,
  method: string,
  params: V1Params = {},
  verb: 'GET' | 'POST' = 'POST',
): Promise<V1Result> {
  const url = `${base}/v1/${key}/${method}.json`;
  const payload = verb === 'POST' ? form(params).toString() : undefined;
  const headers: http.OutgoingHttpHeaders =
    payload === undefined
      ? {}
      : {
          'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
          'content-length': Buffer.byteLength(payload),
        };
  return new Promise((resolve, reject) => {
    const request = http.request(payload === undefined ? `${url}?${form(params)}` : url, { method: verb, headers });
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: response.statusCode!, body, text, contentType: response.headers['content-type'] ?? null });
      });
    });
    request.end(payload);
  });
}

const PERSIAN = /[\u0600-\u06ff]/;

/** Success: HTTP 200, `{return: {status: 200, message}, entries}`; returns the entries. */
export function expectV1Ok(result: V1Result): any {
  expect(result.status, result.text.slice(0, 500)).toBe(200);
  expect(Object.keys(result.body).sort()).toEqual(['entries', 'return']);
  expect(result.body.return).toEqual({ status: 200, message: apiCodeMessage[200] });
  return result.body.entries;
}

/** An error as the provider answers it: HTTP status = return.status, its Persian text, `entries: null`. */
export function expectV1Error(result: V1Result, code: ApiCode): void {
  expect(result.status, result.text.slice(0, 500)).toBe(code);
  expect(result.body, result.text.slice(0, 500)).toEqual({
    return: { status: code, message: apiCodeMessage[code] },
    entries: null,
  });
  expect(result.body.return.message).toMatch(PERSIAN);
}

/** The fields of a message entry (reference §1), sorted. */
export const MESSAGE_ENTRY_FIELDS = [
  'cost',
  'date',
  'message',
  'messageid',
  'receptor',
  'sender',
  'status',
  'statustext',
];

/** `count` distinct valid receptors, 0912 000 0000 + offset on. */
export function receptors(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, i) => '0912' + String(offset + i).padStart(7, '0'));
}
