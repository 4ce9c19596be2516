// Helpers of the campaign tests over HTTP: segments made by the contacts upload (spec 4.4) and
// waited on until processed, campaign requests in each encoding the endpoint takes, and GET/POST
// calls of the execution endpoints with a Bearer key.
import { expect } from 'vitest';
import { eventually, KEY } from '../helpers/server';
import { request, type HttpResult } from '../api-v2/support';

/** A form as tests write it: a repeated field is an array. */
export type CampaignFields = Record<string, string | string[]>;

export type Encoding = 'urlencoded' | 'multipart' | 'json';

const auth = (key: string | null): Record<string, string> => (key === null ? {} : { authorization: `Bearer ${key}` });

/**
 * A ready segment of `phones` through POST /v2/sms/campaigns/contacts, waited on until COMPLETED;
 * `columns` gives each extra column's value for the i-th contact. Returns its segment_id.
 */
export async function createSegment(
  url: string,
  phones: string[],
  columns: Record<string, (i: number) => string> = {},
  key: string = KEY,
): Promise<number> {
  const contacts = phones.map((phone_number, i) => ({
    phone_number,
    ...Object.fromEntries(Object.entries(columns).map(([name, value]) => [name, value(i)])),
  }));
  const created = await request(`${url}/v2/sms/campaigns/contacts`, {
    method: 'POST',
    headers: { ...auth(key), 'content-type': 'application/json' },
    body: JSON.stringify(contacts),
  });
  expect(created.status, created.text).toBe(201);
  const { segment_id, upload_data_id } = created.body.entries as { segment_id: number; upload_data_id: number };
  const status = await eventually(async () => {
    const result = await get(`${url}/v2/sms/campaigns/contacts/${upload_data_id}`, key);
    const value = result.body?.entries?.status as string | undefined;
    return value === 'COMPLETED' || value === 'FAILED' ? value : undefined;
  }, 30_000);
  expect(status).toBe('COMPLETED');
  return segment_id;
}

/** POST /v2/sms/campaigns with `fields` in the given encoding (multipart may carry a `file` part). */
export async function createCampaign(
  url: string,
  fields: CampaignFields,
  options: {
    encoding?: Encoding;
    key?: string | null;
    file?: { name: string; bytes: Uint8Array; type?: string };
  } = {},
): Promise<HttpResult> {
  const { encoding = 'urlencoded', key = KEY, file } = options;
  const headers = auth(key);
  let body: string | FormData;
  if (encoding === 'urlencoded') {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(fields))
      for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = form.toString();
  } else if (encoding === 'multipart') {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields))
      for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
    if (file)
      form.append(
        'file',
        new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? 'text/csv' }),
        file.name,
      );
    // fetch writes the multipart content type with its boundary.
    body = form;
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(fields);
  }
  if (file && encoding !== 'multipart') throw new Error('a file part needs the multipart encoding');
  return request(`${url}/v2/sms/campaigns`, { method: 'POST', headers, body });
}

/** The four required fields of a valid campaign (acme's line with both permissions), then `extra`. */
export function campaignFields(extra: CampaignFields = {}): CampaignFields {
  return {
    sender: '30001111',
    name: 'Friday sale',
    template_body: 'Hello {{NAME}}, 20% off this Friday',
    send_datetime: '2026-11-27T10:00:00+03:30',
    ...extra,
  };
}

export function get(url: string, key: string | null = KEY): Promise<HttpResult> {
  return request(url, { headers: auth(key) });
}

export function postEmpty(url: string, key: string | null = KEY): Promise<HttpResult> {
  return request(url, { method: 'POST', headers: auth(key) });
}

/** The execution endpoints of an id (a number, or any text for malformed ids). */
export function executionUrl(url: string, executionId: number | string, tail = ''): string {
  return `${url}/v2/sms/campaigns/executions/${executionId}${tail}`;
}
