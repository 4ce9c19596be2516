// POST /v2/sms/campaigns and the execution endpoints over real HTTP with the real core: every rule
// of spec 4.3 (each error code, both form encodings, repeated segment fields, 10 and 11 links, the
// optional file), the envelope of spec 2.1 / 7 on every answer, authentication (spec 5), the
// report and its recipients' pages, pause / resume / cancel as routes, the public short links, and
// the OpenAPI document. Execution behaviour itself is execution.test.ts's.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import type { CampaignRow } from '../../electron/service/campaigns/store';
import { INACTIVE_KEY, KEY, OTHER_KEY, startServer, testSeed, type TestServer } from '../helpers/server';
import { accountId, expectEnvelope, expectError, phones, request, type HttpResult } from '../api-v2/support';
import {
  campaignFields,
  createCampaign,
  createSegment,
  executionUrl,
  get,
  postEmpty,
  type CampaignFields,
  type Encoding,
} from './support';

let server: TestServer;
let url: string;
// Segments of acme: A (5 numbers), B (5, two shared with A), C (1 of A); and one of the other account.
let segA: number;
let segB: number;
let segC: number;
let otherSegment: number;

/** Now, on the scheduler's clock: before every send time of these tests but the ones due at once. */
const NOW = Date.UTC(2026, 10, 23, 8, 0);
const PAST = '2026-01-01T00:00:00Z';
/** The line of acme allowed to send API campaigns but not panel ones (spec 4.3 asks for the latter). */
const API_ONLY_LINE = '30003333';

beforeAll(async () => {
  const seed = testSeed();
  seed.accounts![0]!.lines!.push({ number: API_ONLY_LINE, provider: 'sms', permissions: ['can_send_api_campaign'] });
  server = await startServer({ clock: new ManualClock(NOW), seed });
  url = server.url;
  segA = await createSegment(url, phones(5, 100));
  segB = await createSegment(url, phones(5, 103));
  segC = await createSegment(url, phones(1, 100));
  otherSegment = await createSegment(url, phones(3, 100), {}, OTHER_KEY);
}, 60_000);
afterAll(() => server.close());

const ENCODINGS: Encoding[] = ['urlencoded', 'multipart'];
const CREATED_KEYS = ['campaign_id', 'execution_id', 'execution_status'];

function expectCreated(result: HttpResult): { campaign_id: number; execution_id: number } {
  expect(result.status, result.text).toBe(201);
  expect(Object.keys(result.body).sort()).toEqual(['entries', 'return']);
  expect(result.body.return).toEqual({ status: 200, message: 'تایید شد' });
  expect(Object.keys(result.body.entries).sort()).toEqual(CREATED_KEYS);
  expect(result.body.entries.execution_status).toBe('SCHEDULED');
  expect(Number.isSafeInteger(result.body.entries.campaign_id)).toBe(true);
  expect(Number.isSafeInteger(result.body.entries.execution_id)).toBe(true);
  return result.body.entries;
}

const stored = (campaignId: number) =>
  server.core.db.prepare('SELECT * FROM campaigns WHERE id = ?').get(campaignId) as CampaignRow;
const storedLinks = (campaignId: number) =>
  server.core.db
    .prepare('SELECT idx, actual_url, has_utm FROM campaign_links WHERE campaign_id = ? ORDER BY idx')
    .all(campaignId) as Array<{ idx: number; actual_url: string; has_utm: number }>;
const campaignCount = () => (server.core.db.prepare('SELECT count(*) AS n FROM campaigns').get() as { n: number }).n;

/** A refused request: the envelope with entries [] and no campaign written. */
async function expectRefused(make: () => Promise<HttpResult>, code: 400 | 401 | 403 | 412 | 417): Promise<void> {
  const before = campaignCount();
  expectError(await make(), code);
  expect(campaignCount()).toBe(before);
}

const links = (count: number, from = 0): CampaignFields =>
  Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`links[${from + i}]actual_url`, `https://shop.example/p${from + i}`]),
  );

/** Lets every due job and lifecycle move run on the manual clock. */
async function settle(rounds = 8): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await server.core.jobs.waitForIdle();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('POST /v2/sms/campaigns: success (spec 4.3, 2.4)', () => {
  it.each<Encoding>(['urlencoded', 'multipart', 'json'])(
    '%s: 201, return.status 200, exactly {campaign_id, execution_id, execution_status: SCHEDULED}',
    async (encoding) => {
      const result = await createCampaign(url, campaignFields({ inclusion_segments: String(segA) }), { encoding });
      const { campaign_id, execution_id } = expectCreated(result);
      const row = stored(campaign_id);
      expect(row).toMatchObject({
        name: 'Friday sale',
        sender: '30001111',
        template_body: 'Hello {{NAME}}, 20% off this Friday',
        inclusion_segments: `[${segA}]`,
        exclusion_segments: '[]',
        file_name: null,
      });
      const report = await get(executionUrl(url, execution_id));
      expectEnvelope(report, 200);
      expect(report.body.entries).toMatchObject({
        execution_id,
        campaign_id,
        execution_status: 'SCHEDULED',
        send_datetime: '2026-11-27T10:00:00+03:30',
      });
    },
  );

  it('gives each campaign its own campaign_id and execution_id', async () => {
    const first = expectCreated(await createCampaign(url, campaignFields()));
    const second = expectCreated(await createCampaign(url, campaignFields(), { encoding: 'multipart' }));
    expect(second.campaign_id).not.toBe(first.campaign_id);
    expect(second.execution_id).not.toBe(first.execution_id);
  });

  it('multipart with a file part keeps the file exactly as given; without one there is no error and no file', async () => {
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7919) % 256);
    const withFile = expectCreated(
      await createCampaign(url, campaignFields(), {
        encoding: 'multipart',
        file: { name: 'contacts.xlsx', bytes, type: 'application/octet-stream' },
      }),
    );
    const row = stored(withFile.campaign_id);
    expect(row.file_name).toBe('contacts.xlsx');
    expect(row.file_size).toBe(bytes.length);
    expect(fs.readFileSync(path.join(server.dataDir, row.file_path!))).toEqual(Buffer.from(bytes));

    // Any content, even an empty file or one that is no spreadsheet at all: no check (spec 4.3).
    const empty = expectCreated(
      await createCampaign(url, campaignFields(), {
        encoding: 'multipart',
        file: { name: 'empty.csv', bytes: new Uint8Array(0) },
      }),
    );
    expect(stored(empty.campaign_id).file_size).toBe(0);

    const without = expectCreated(await createCampaign(url, campaignFields(), { encoding: 'multipart' }));
    expect(stored(without.campaign_id)).toMatchObject({ file_name: null, file_path: null, file_size: null });
  });

  it('multipart: a file part under another name is read through and ignored', async () => {
    const form = new FormData();
    for (const [key, value] of Object.entries(campaignFields())) form.append(key, value as string);
    form.append('attachment', new Blob([new Uint8Array([1, 2, 3])]), 'other.bin');
    form.append('inclusion_segments', String(segA));
    const result = await request(`${url}/v2/sms/campaigns`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: form,
    });
    const { campaign_id } = expectCreated(result);
    expect(stored(campaign_id)).toMatchObject({ file_name: null, inclusion_segments: `[${segA}]` });
  });

  it.each(ENCODINGS)(
    '%s: repeated inclusion_segments and exclusion_segments all count (A ∪ B − C)',
    async (encoding) => {
      const result = await createCampaign(
        url,
        campaignFields({ inclusion_segments: [String(segA), String(segB)], exclusion_segments: [String(segC)] }),
        { encoding },
      );
      const { campaign_id, execution_id } = expectCreated(result);
      expect(JSON.parse(stored(campaign_id).inclusion_segments)).toEqual([segA, segB]);
      expect(JSON.parse(stored(campaign_id).exclusion_segments)).toEqual([segC]);
      // A = 100..104, B = 103..107: 8 distinct numbers, minus C (100) = 7; before the start the
      // report's audience is the count now.
      expect((await get(executionUrl(url, execution_id))).body.entries.audience).toBe(7);
    },
  );

  it('takes the query string form of repeated fields as the spec writes it (inclusion_segments=1&inclusion_segments=2)', async () => {
    const body =
      new URLSearchParams(campaignFields() as Record<string, string>).toString() +
      `&inclusion_segments=${segA}&inclusion_segments=${segB}&exclusion_segments=${segC}`;
    const result = await request(`${url}/v2/sms/campaigns`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const { campaign_id } = expectCreated(result);
    expect(JSON.parse(stored(campaign_id).inclusion_segments)).toEqual([segA, segB]);
  });

  it('a field expected once but sent twice counts with its first value', async () => {
    const result = await createCampaign(
      url,
      campaignFields({ name: ['first name', 'second name'], sender: ['30001111', '30009999'] }),
    );
    const { campaign_id } = expectCreated(result);
    expect(stored(campaign_id)).toMatchObject({ name: 'first name', sender: '30001111' });
  });

  it('stores template_body unchanged: no check of length, characters or links', async () => {
    const body = `  سلام {{NAME}}\r\n${'x'.repeat(5000)} https://a.example/?q=1&r=2 😀 \u0000\t  `;
    for (const encoding of ENCODINGS) {
      const { campaign_id } = expectCreated(
        await createCampaign(url, campaignFields({ template_body: body }), { encoding }),
      );
      expect(stored(campaign_id).template_body).toBe(body);
    }
  });

  it.each(ENCODINGS)('%s: 10 links are fine, by their index, has_utm only when exactly "true"', async (encoding) => {
    const fields = campaignFields({
      ...links(10),
      'links[0]has_utm': 'true',
      'links[1]has_utm': 'TRUE',
      'links[2]has_utm': 'false',
      'links[3]has_utm': 'yes',
      'links[4]has_utm': ' true',
    });
    const { campaign_id } = expectCreated(await createCampaign(url, fields, { encoding }));
    const rows = storedLinks(campaign_id);
    expect(rows.map((l) => l.actual_url)).toEqual(Array.from({ length: 10 }, (_, i) => `https://shop.example/p${i}`));
    expect(rows.map((l) => l.has_utm)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('link indexes need not start at 0 or be contiguous; they are kept in index order', async () => {
    const fields = campaignFields({
      'links[7]actual_url': 'https://b.example/',
      'links[2]actual_url': 'https://a.example/',
      'links[7]has_utm': 'true',
    });
    const { campaign_id } = expectCreated(await createCampaign(url, fields));
    expect(storedLinks(campaign_id)).toEqual([
      { idx: 0, actual_url: 'https://a.example/', has_utm: 0 },
      { idx: 1, actual_url: 'https://b.example/', has_utm: 1 },
    ]);
  });

  it('utm.* fields are stored, with the defaults sms and {id} when left out', async () => {
    const given = expectCreated(
      await createCampaign(
        url,
        campaignFields({ 'utm.utm_source': 'news', 'utm.utm_medium': 'text', 'utm.utm_campaign': 'fri-{id}' }),
      ),
    );
    expect(stored(given.campaign_id)).toMatchObject({
      utm_source: 'news',
      utm_medium: 'text',
      utm_campaign: 'fri-{id}',
    });
    const defaults = expectCreated(await createCampaign(url, campaignFields(), { encoding: 'multipart' }));
    expect(stored(defaults.campaign_id)).toMatchObject({ utm_medium: 'sms', utm_campaign: '{id}' });
    expect(stored(defaults.campaign_id).utm_source).not.toBe('');
  });

  it.each(ENCODINGS)('%s: the extensions send_rate and quiet_hours are taken', async (encoding) => {
    const { campaign_id, execution_id } = expectCreated(
      await createCampaign(
        url,
        campaignFields({ inclusion_segments: String(segA), send_rate: '2', quiet_hours: '22:00-08:00' }),
        { encoding },
      ),
    );
    expect(stored(campaign_id)).toMatchObject({ send_rate: 2, quiet_start: 22 * 60, quiet_end: 8 * 60 });
    const report = (await get(executionUrl(url, execution_id))).body.entries;
    expect(typeof report.estimated_last_message_at).toBe('string');
  });

  it('a JSON object body with the same keys is accepted too (numbers for ids, arrays for repeats)', async () => {
    const result = await request(`${url}/v2/sms/campaigns`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        ...campaignFields(),
        inclusion_segments: [segA, String(segB)],
        exclusion_segments: segC,
        'links[0]actual_url': 'https://shop.example/',
        'links[0]has_utm': true,
        send_rate: 30,
      }),
    });
    const { campaign_id } = expectCreated(result);
    expect(stored(campaign_id)).toMatchObject({
      inclusion_segments: `[${segA},${segB}]`,
      exclusion_segments: `[${segC}]`,
      send_rate: 30,
    });
    expect(storedLinks(campaign_id)).toEqual([{ idx: 0, actual_url: 'https://shop.example/', has_utm: 1 }]);
  });

  it('the line with can_send_panel_campaign only is enough', async () => {
    expectCreated(await createCampaign(url, campaignFields({ sender: '30002222' })));
  });
});

describe('POST /v2/sms/campaigns: refusals, each in the envelope with entries []', () => {
  const REQUIRED = ['sender', 'name', 'template_body', 'send_datetime'] as const;

  for (const encoding of ENCODINGS)
    it.each(REQUIRED)(`${encoding}: 400 without %s`, async (field) => {
      const fields = campaignFields({ inclusion_segments: String(segA) });
      delete fields[field];
      await expectRefused(() => createCampaign(url, fields, { encoding }), 400);
    });

  it.each(['sender', 'name', 'send_datetime'] as const)('400 when %s is empty or blank', async (field) => {
    for (const value of ['', '   '])
      await expectRefused(() => createCampaign(url, campaignFields({ [field]: value })), 400);
  });

  it('400 with no body, an empty form, a JSON array or a JSON scalar', async () => {
    const send = (body: string | undefined, contentType?: string) => () =>
      request(`${url}/v2/sms/campaigns`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, ...(contentType ? { 'content-type': contentType } : {}) },
        ...(body === undefined ? {} : { body }),
      });
    await expectRefused(send(undefined), 400);
    await expectRefused(send('', 'application/x-www-form-urlencoded'), 400);
    await expectRefused(send('[]', 'application/json'), 400);
    await expectRefused(send('"sender"', 'application/json'), 400);
    await expectRefused(send('{"sender":', 'application/json'), 400);
    await expectRefused(() => createCampaign(url, {}, { encoding: 'multipart' }), 400);
  });

  it('400 for a malformed multipart body (cut off), never a 500', async () => {
    const body =
      '--b\r\nContent-Disposition: form-data; name="sender"\r\n\r\n30001111\r\n' +
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nabc';
    await expectRefused(
      () =>
        request(`${url}/v2/sms/campaigns`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'multipart/form-data; boundary=b' },
          body,
        }),
      400,
    );
  });

  for (const field of ['inclusion_segments', 'exclusion_segments'])
    for (const encoding of ENCODINGS)
      it(`${encoding}: 400 for a ${field} value that is not an integer`, async () => {
        for (const bad of ['abc', '1.5', '12abc', '0x10', '', '1,2'])
          await expectRefused(
            () =>
              createCampaign(url, campaignFields({ inclusion_segments: String(segA), [field]: [String(segB), bad] }), {
                encoding,
              }),
            400,
          );
      });

  it.each(['inclusion_segments', 'exclusion_segments'])(
    '400 for an unknown segment and for another account’s segment in %s',
    async (field) => {
      for (const id of ['999999', '0', '-1', String(otherSegment)])
        for (const encoding of ENCODINGS)
          await expectRefused(
            () =>
              createCampaign(url, campaignFields({ inclusion_segments: String(segA), [field]: [String(segB), id] }), {
                encoding,
              }),
            400,
          );
    },
  );

  it('the other account cannot use acme’s segment either (400)', async () => {
    const fields = campaignFields({ sender: '30009999', inclusion_segments: String(segA) });
    // Its line lacks can_send_panel_campaign, so give it the right line first via the seed's shape.
    const other = accountId(server.core, 'other');
    server.core.accounts.upsertLine(other, {
      number: '30008888',
      provider: 'sms',
      permissions: ['can_send_panel_campaign'],
    });
    await expectRefused(() => createCampaign(url, { ...fields, sender: '30008888' }, { key: OTHER_KEY }), 400);
    expectCreated(
      await createCampaign(
        url,
        { ...fields, sender: '30008888', inclusion_segments: String(otherSegment) },
        {
          key: OTHER_KEY,
        },
      ),
    );
  });

  it.each(ENCODINGS)('%s: 11 links are 400 (10 is the limit)', async (encoding) => {
    await expectRefused(() => createCampaign(url, campaignFields(links(11)), { encoding }), 400);
    // Also when the indexes are sparse: it is the number of links that counts.
    await expectRefused(
      () => createCampaign(url, campaignFields({ ...links(10), ...links(1, 40) }), { encoding }),
      400,
    );
  });

  it('400 for a has_utm without its actual_url, or an empty actual_url', async () => {
    await expectRefused(() => createCampaign(url, campaignFields({ 'links[0]has_utm': 'true' })), 400);
    await expectRefused(
      () => createCampaign(url, campaignFields({ ...links(1), 'links[1]has_utm': 'false' }), { encoding: 'multipart' }),
      400,
    );
    await expectRefused(() => createCampaign(url, campaignFields({ 'links[0]actual_url': '' })), 400);
  });

  it.each([
    ['30000000', 'not a line at all'],
    ['30009999', 'a line of another account'],
    [API_ONLY_LINE, 'a line of the account without can_send_panel_campaign'],
    ['bale_acme_bot', 'a messenger line of the account without can_send_panel_campaign'],
  ])('412 for sender %s (%s)', async (sender) => {
    for (const encoding of ENCODINGS)
      await expectRefused(() => createCampaign(url, campaignFields({ sender }), { encoding }), 412);
  });

  it.each([
    'tomorrow',
    '2026-13-01T10:00:00Z',
    '2026-02-30T10:00:00Z',
    '2026-11-27T24:00:00Z',
    '2026-11-27T10:00:00',
    '2026-11-27',
    '1764223200',
  ])('417 for send_datetime %s', async (send_datetime) => {
    for (const encoding of ENCODINGS)
      await expectRefused(() => createCampaign(url, campaignFields({ send_datetime }), { encoding }), 417);
  });

  it('accepts RFC 3339 with an offset, Z, lower-precision fractions and a leap day', async () => {
    for (const send_datetime of [
      '2026-11-27T10:00:00+03:30',
      '2026-11-27T06:30:00Z',
      '2026-11-27T06:30:00.123456Z',
      '2028-02-29T10:00:00-05:00',
    ])
      expectCreated(await createCampaign(url, campaignFields({ send_datetime })));
  });

  it('400 for a bad send_rate or quiet_hours (our extensions)', async () => {
    for (const send_rate of ['0', '-5', 'fast', '1.5'])
      await expectRefused(() => createCampaign(url, campaignFields({ send_rate })), 400);
    for (const quiet_hours of ['22:00', '25:00-08:00', '22:00-22:00', 'night'])
      await expectRefused(() => createCampaign(url, campaignFields({ quiet_hours })), 400);
  });
});

describe('authentication (spec 5): 403 for no or an unknown key, 401 for an inactive account', () => {
  const cases: Array<[string | null, 401 | 403]> = [
    [null, 403],
    ['k-nobody', 403],
    [INACTIVE_KEY, 401],
  ];
  it.each(cases)('key %s → %i on every campaign route', async (key, code) => {
    const executionId = expectCreated(await createCampaign(url, campaignFields())).execution_id;
    for (const encoding of ENCODINGS)
      await expectRefused(() => createCampaign(url, campaignFields(), { encoding, key }), code);
    expectError(await get(executionUrl(url, executionId), key), code);
    expectError(await get(executionUrl(url, executionId, '/messages'), key), code);
    for (const action of ['cancel', 'pause', 'resume'])
      expectError(await postEmpty(executionUrl(url, executionId, `/${action}`), key), code);
    expect((await get(executionUrl(url, executionId))).body.entries).toMatchObject({
      execution_status: 'SCHEDULED',
      paused: false,
    });
  });
});

describe('GET /v2/sms/campaigns/executions/{execution_id}', () => {
  it('answers PRODUCT.md’s record (and our extensions) in the envelope', async () => {
    const { campaign_id, execution_id } = expectCreated(
      await createCampaign(url, campaignFields({ inclusion_segments: [String(segA), String(segB)] })),
    );
    const result = await get(executionUrl(url, execution_id));
    expectEnvelope(result, 200);
    expect(Object.keys(result.body.entries).sort()).toEqual(
      [
        'execution_id',
        'campaign_id',
        'execution_status',
        'send_datetime',
        'started_at',
        'finished_at',
        'audience',
        'sent',
        'delivered',
        'failed',
        'pending',
        'cost',
        'skipped',
        'refunded',
        'clicks',
        'track_links',
        'paused',
        'reserved',
        'estimated_last_message_at',
        'error',
      ].sort(),
    );
    expect(result.body.entries).toMatchObject({
      execution_id,
      campaign_id,
      execution_status: 'SCHEDULED',
      send_datetime: '2026-11-27T10:00:00+03:30',
      started_at: null,
      finished_at: null,
      audience: 8,
      sent: 0,
      delivered: 0,
      failed: 0,
      pending: 0,
      cost: 0,
    });
  });

  it('400 for an id that is not a positive integer, unknown, or of another account', async () => {
    const { execution_id } = expectCreated(await createCampaign(url, campaignFields()));
    for (const id of ['abc', '0', '-1', '1.5', '1e3', '99999999', '9999999999999999999'])
      for (const tail of ['', '/messages']) expectError(await get(executionUrl(url, id, tail)), 400);
    expectError(await get(executionUrl(url, execution_id), OTHER_KEY), 400);
    expectError(await get(executionUrl(url, execution_id, '/messages'), OTHER_KEY), 400);
  });
});

describe('pause, resume and cancel routes', () => {
  it('answer the report after the change; another account’s or an ended execution is 400', async () => {
    const { execution_id } = expectCreated(
      await createCampaign(url, campaignFields({ inclusion_segments: String(segA) })),
    );
    for (const action of ['pause', 'resume', 'cancel'])
      expectError(await postEmpty(executionUrl(url, execution_id, `/${action}`), OTHER_KEY), 400);

    const paused = await postEmpty(executionUrl(url, execution_id, '/pause'));
    expectEnvelope(paused, 200);
    expect(paused.body.entries).toMatchObject({ execution_id, execution_status: 'SCHEDULED', paused: true });
    const resumed = await postEmpty(executionUrl(url, execution_id, '/resume'));
    expectEnvelope(resumed, 200);
    expect(resumed.body.entries).toMatchObject({ execution_id, paused: false });
    const cancelled = await postEmpty(executionUrl(url, execution_id, '/cancel'));
    expectEnvelope(cancelled, 200);
    expect(cancelled.body.entries).toMatchObject({ execution_id, execution_status: 'CANCELLED' });
    for (const action of ['pause', 'resume', 'cancel'])
      expectError(await postEmpty(executionUrl(url, execution_id, `/${action}`)), 400);
    for (const id of ['abc', '0', '99999999']) expectError(await postEmpty(executionUrl(url, id, '/cancel')), 400);
  });

  it('only POST: GET of an action is 405 (plain text, spec 7)', async () => {
    const result = await get(executionUrl(url, 1, '/cancel'));
    expect(result.status).toBe(405);
    expect(result.text).toBe('405 method not allowed');
  });
});

describe('a run: the recipients’ pages and the short links', () => {
  let executionId: number;
  let rows: any[];
  const RECIPIENTS = 7;

  beforeAll(async () => {
    const segment = await createSegment(url, phones(RECIPIENTS, 500), { NAME: (i) => `N${i}` });
    const created = expectCreated(
      await createCampaign(
        url,
        campaignFields({
          send_datetime: PAST,
          inclusion_segments: String(segment),
          template_body:
            'Hi {{NAME}} https://shop.example/sale?x=1&utm_source=old#top and https://shop.example/فروش?a=ب and https://plain.example/',
          'links[0]actual_url': 'https://shop.example/sale?x=1&utm_source=old#top',
          'links[0]has_utm': 'true',
          'links[1]actual_url': 'https://shop.example/فروش?a=ب',
          'links[1]has_utm': 'true',
          'links[2]actual_url': 'https://plain.example/',
          'links[2]has_utm': 'TRUE',
          'utm.utm_source': 'news letter',
        }),
      ),
    );
    executionId = created.execution_id;
    await settle();
    const report = (await get(executionUrl(url, executionId))).body.entries;
    expect(report.sent).toBe(RECIPIENTS);
    const all = await get(executionUrl(url, executionId, '/messages'));
    expectEnvelope(all, 200);
    rows = all.body.entries;
  });

  it('messages: PRODUCT.md’s rows, page from 1, default size 500, pages that tile the rows in order', async () => {
    expect(rows).toHaveLength(RECIPIENTS);
    for (const row of rows)
      expect(Object.keys(row).sort()).toEqual(
        ['messageid', 'receptor', 'message', 'status', 'statustext', 'cost', 'date', 'clicks'].sort(),
      );
    const ids = rows.map((r) => r.messageid);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(rows.map((r) => r.receptor))).toEqual(new Set(phones(RECIPIENTS, 500)));

    const paged: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const result = await get(executionUrl(url, executionId, `/messages?page=${page}&size=3`));
      expectEnvelope(result, 200);
      expect(result.body.entries).toHaveLength(page < 3 ? 3 : 1);
      paged.push(...result.body.entries.map((r: any) => r.messageid));
    }
    expect(paged).toEqual(ids);
    const past = await get(executionUrl(url, executionId, '/messages?page=4&size=3'));
    expectEnvelope(past, 200);
    expect(past.body.entries).toEqual([]);
    expect((await get(executionUrl(url, executionId, '/messages?page=1&size=1000'))).body.entries).toHaveLength(
      RECIPIENTS,
    );
    expect((await get(executionUrl(url, executionId, '/messages?page=&size='))).body.entries).toHaveLength(RECIPIENTS);
  });

  it('messages: 400 for a bad page, size, status or clicked', async () => {
    for (const query of [
      'page=0',
      'page=-1',
      'page=abc',
      'page=1.5',
      'size=0',
      'size=1001',
      'size=x',
      'status=ten',
      'clicked=yes',
    ])
      expectError(await get(executionUrl(url, executionId, `/messages?${query}`)), 400);
  });

  it('messages: filters by status (repeated or comma separated) and clicked', async () => {
    const statuses = [...new Set(rows.map((r) => r.status as number))];
    const first = statuses[0]!;
    const byOne = (await get(executionUrl(url, executionId, `/messages?status=${first}`))).body.entries;
    expect(byOne.map((r: any) => r.messageid)).toEqual(rows.filter((r) => r.status === first).map((r) => r.messageid));
    const all = statuses.join(',');
    expect((await get(executionUrl(url, executionId, `/messages?status=${all}`))).body.entries).toHaveLength(
      RECIPIENTS,
    );
    const repeated = statuses.map((s) => `status=${s}`).join('&');
    expect((await get(executionUrl(url, executionId, `/messages?${repeated}`))).body.entries).toHaveLength(RECIPIENTS);
    expect((await get(executionUrl(url, executionId, '/messages?status=999'))).body.entries).toEqual([]);
    // Nobody has visited a link yet.
    expect((await get(executionUrl(url, executionId, '/messages?clicked=false'))).body.entries).toHaveLength(
      RECIPIENTS,
    );
    expect((await get(executionUrl(url, executionId, '/messages?clicked=true'))).body.entries).toEqual([]);
  });

  const shortLinks = (message: string) => message.match(/http:\/\/127\.0\.0\.1:\d+\/l\/[2-9A-HJ-NP-Za-km-z]{8}/g) ?? [];

  it('GET /l/{code}: no key needed, 302 to the address with its query and fragment, utm added only for "true"', async () => {
    const row = rows.find((r) => r.receptor === phones(1, 503)[0])!;
    const [first, second, third] = shortLinks(row.message);
    expect([first, second, third].every(Boolean)).toBe(true);
    // Each link adds (base + 11) characters: the base, `/l/` and the 8-character code.
    expect(first!.length).toBe(url.length + 11);

    const visit = async (link: string) => {
      const response = await fetch(link, { redirect: 'manual', headers: { 'user-agent': 'test-phone/1.0' } });
      await response.arrayBuffer();
      return response;
    };
    const one = await visit(first!);
    expect(one.status).toBe(302);
    expect(one.headers.get('cache-control')).toBe('no-store');
    const campaignId = (await get(executionUrl(url, executionId))).body.entries.campaign_id;
    // The address's own utm_source gives way to the campaign's; its other pairs and fragment stay.
    expect(one.headers.get('location')).toBe(
      `https://shop.example/sale?x=1&utm_source=news%20letter&utm_medium=sms&utm_campaign=${campaignId}#top`,
    );
    const two = await visit(second!);
    expect(two.status).toBe(302);
    // Non-ASCII in the address reaches the header percent-encoded (UTF-8), as a browser would send it.
    expect(two.headers.get('location')).toBe(
      `https://shop.example/${encodeURIComponent('فروش')}?a=${encodeURIComponent('ب')}` +
        `&utm_source=news%20letter&utm_medium=sms&utm_campaign=${campaignId}`,
    );
    const three = await visit(third!);
    expect(three.status).toBe(302);
    expect(three.headers.get('location')).toBe('https://plain.example/');

    const clicked = (await get(executionUrl(url, executionId, '/messages?clicked=true'))).body.entries;
    expect(clicked.map((r: any) => r.receptor)).toEqual([row.receptor]);
    expect(clicked[0].clicks).toBe(3);
    expect((await get(executionUrl(url, executionId))).body.entries.clicks).toBe(3);
    const ua = server.core.db
      .prepare('SELECT DISTINCT user_agent FROM campaign_clicks WHERE message_id = ?')
      .all(row.messageid);
    expect(ua).toEqual([{ user_agent: 'test-phone/1.0' }]);
  });

  it('GET /l/{code}: an unknown code is a 404 page for the visitor (link-reach.test.ts); HEAD counts no visit', async () => {
    const row = rows[0]!;
    const link = shortLinks(row.message)[0]!;
    const code = link.slice(-8);
    const flipped = link.slice(0, -1) + (code.endsWith('x') ? 'y' : 'x');
    for (const address of [flipped, `${url}/l/short`, `${url}/l/${code}${code}`]) {
      const response = await fetch(address, { redirect: 'manual' });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain('<html lang="en" dir="ltr">');
    }
    // No code at all is no short link: the plain 404 of any unknown path.
    const bare = await fetch(`${url}/l/`, { redirect: 'manual' });
    expect(bare.status).toBe(404);
    expect(await bare.text()).toBe('404 page not found');
    const head = await fetch(link, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(405);
    const clicks = (await get(executionUrl(url, executionId))).body.entries.clicks;
    expect(clicks).toBe(3);
  });
});

describe('OpenAPI', () => {
  it('documents every campaign route, their fields and our extensions', async () => {
    const doc = (await request(`${url}/openapi.json`)).body;
    const paths = doc.paths;
    for (const route of [
      '/v2/sms/campaigns',
      '/v2/sms/campaigns/executions/{execution_id}',
      '/v2/sms/campaigns/executions/{execution_id}/messages',
      '/v2/sms/campaigns/executions/{execution_id}/cancel',
      '/v2/sms/campaigns/executions/{execution_id}/pause',
      '/v2/sms/campaigns/executions/{execution_id}/resume',
      '/l/{code}',
    ])
      expect(paths[route], route).toBeDefined();
    const create = paths['/v2/sms/campaigns'].post;
    expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '401', '403', '412', '414', '417']);
    const multipart = create.requestBody.content['multipart/form-data'].schema;
    const urlencoded = create.requestBody.content['application/x-www-form-urlencoded'].schema;
    for (const field of [
      'sender',
      'name',
      'template_body',
      'send_datetime',
      'inclusion_segments',
      'exclusion_segments',
      'links[i]actual_url',
      'links[i]has_utm',
      'utm.utm_source',
      'utm.utm_medium',
      'utm.utm_campaign',
      'send_rate',
      'quiet_hours',
    ]) {
      expect(multipart.properties[field], field).toBeDefined();
      expect(urlencoded.properties[field], field).toBeDefined();
    }
    expect(multipart.properties.file.format).toBe('binary');
    expect(JSON.stringify(create)).toContain('length of the base address + 11');
    expect(paths['/l/{code}'].get.security).toEqual([]);
    const report = doc.components.schemas.ExecutionReport;
    for (const field of ['audience', 'sent', 'skipped', 'refunded', 'clicks', 'paused', 'estimated_last_message_at'])
      expect(report.properties[field], field).toBeDefined();
    // Every $ref names a component that exists.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    for (const ref of new Set(refs)) expect(doc.components.schemas[ref], ref).toBeDefined();
    for (const id of ['CreateCampaignResponse', 'ExecutionReportResponse', 'ExecutionMessagesResponse'])
      expect(doc.components.schemas[id], id).toBeDefined();
  });
});
