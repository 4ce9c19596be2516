// Shared assertions and small helpers of the v2 API acceptance tests (issue #2): the envelope of
// spec 2.1 / 7, multipart uploads, distinct valid receivers, and direct reads of the store.
import { expect } from 'vitest';
import { apiCodeMessage, type ApiCode } from '../../shared/status';
import type { Core } from '../../electron/service/core';
import { KEY } from '../helpers/server';

export interface HttpResult {
  status: number;
  /** Parsed JSON, read field by field in the tests. */
  body: any;
  text: string;
}

const PERSIAN = /[\u0600-\u06ff]/;

/** The envelope of spec 7: HTTP status == return.status, Persian message, entries [] on errors. */
export function expectEnvelope(result: HttpResult, code: ApiCode): void {
  expect(result.status, result.text.slice(0, 500)).toBe(code);
  expect(result.body, result.text.slice(0, 500)).toBeTypeOf('object');
  expect(Object.keys(result.body).sort()).toEqual(['entries', 'return']);
  expect(result.body.return.status).toBe(code);
  expect(result.body.return.message).toBe(apiCodeMessage[code]);
  expect(result.body.return.message).toMatch(PERSIAN);
  if (code !== 200) expect(result.body.entries).toEqual([]);
}

export function expectError(result: HttpResult, code: ApiCode): void {
  expectEnvelope(result, code);
}

/** `count` distinct valid receivers in canonical form, starting at 0912 000 0000 + offset. */
export function phones(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, i) => '0912' + String(offset + i).padStart(7, '0'));
}

/** The fields of a MessageInfo entry (spec 2.2), sorted. */
export const MESSAGE_INFO_FIELDS = [
  'cost',
  'date',
  'message',
  'messageid',
  'receptor',
  'sender',
  'status',
  'statustext',
];

export async function request(
  url: string,
  init: RequestInit = {},
): Promise<HttpResult & { contentType: string | null }> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text, contentType: response.headers.get('content-type') };
}

/** POST /upload-file/{provider} as multipart with fetch + FormData. */
export async function uploadFile(
  url: string,
  provider: string,
  options: { key?: string | null; name?: string; bytes?: Uint8Array; type?: string } = {},
): Promise<HttpResult> {
  const form = new FormData();
  const bytes = options.bytes ?? new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  form.append('file', new Blob([bytes], { type: options.type ?? 'image/png' }), options.name ?? 'picture.png');
  const key = options.key === undefined ? KEY : options.key;
  return request(`${url}/upload-file/${provider}`, {
    method: 'POST',
    headers: key === null ? {} : { authorization: `Bearer ${key}` },
    body: form,
  });
}

export function accountId(core: Core, name: string): number {
  const account = core.accounts.findByName(name);
  if (!account) throw new Error(`no account ${name}`);
  return account.id;
}

export interface Counts {
  sends: number;
  messages: number;
  ledgerRows: number;
  balance: number;
  ledgerSum: number;
}

/** What a refused request must leave untouched. */
export function counts(core: Core, account: number): Counts {
  const one = (sql: string) => (core.db.prepare(sql).get(account) as { n: number }).n;
  return {
    sends: one('SELECT COUNT(*) AS n FROM sends WHERE account_id = ?'),
    messages: one('SELECT COUNT(*) AS n FROM messages WHERE account_id = ?'),
    ledgerRows: one('SELECT COUNT(*) AS n FROM credit_ledger WHERE account_id = ?'),
    balance: core.credit.balance(account),
    ledgerSum: core.credit.ledgerSum(account),
  };
}

export function refundRows(core: Core, account: number): Array<{ message_id: number; amount_rials: number }> {
  return core.db
    .prepare<[number], { message_id: number; amount_rials: number }>(
      "SELECT message_id, amount_rials FROM credit_ledger WHERE account_id = ? AND kind = 'refund' ORDER BY message_id",
    )
    .all(account);
}
