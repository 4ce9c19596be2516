// Targeting by column over real HTTP with the real core: POST /v2/sms/campaigns takes the filter
// as `filters[i]…` fields (and a JSON body's "filters" list), refuses bad ones with 400 (the
// detail and reason on the core's error, in the spec's order of checks), and the execution's
// recipients are exactly the members meeting it, Persian and Arabic spellings alike; the
// campaign's details say which filter it had.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import { ServiceError } from '../../electron/service/errors';
import { KEY, startServer, testSeed, type TestServer } from '../helpers/server';
import { accountId, expectEnvelope, expectError, phones, request } from '../api-v2/support';
import { campaignFields, createCampaign, createSegment, executionUrl, get, type Encoding } from './support';
import { ApiCode } from '../../shared/status';
import type { CampaignForm } from '../../shared/campaigns';

let server: TestServer;
let url: string;
let customers: number;
let noCity: number;

const NOW = Date.UTC(2026, 10, 23, 8, 0);
const PAST = '2026-01-01T00:00:00Z';
/** CITY of customer i: Tehran in Persian, in Arabic presentation forms, with spaces; others not. */
const CITIES = ['تهران', 'ﺗﻬﺮﺍﻥ', ' تهران ', 'طهران', 'كرج', 'کرج', 'قم', 'تهران'];
const AGES = ['۲۵', '17', '٤٠', '30', '18', 'n/a', '99', '31'];
const TEHRAN = [0, 1, 2, 7];

beforeAll(async () => {
  server = await startServer({ clock: new ManualClock(NOW), seed: testSeed() });
  url = server.url;
  customers = await createSegment(url, phones(8, 500), { CITY: (i) => CITIES[i]!, AGE: (i) => AGES[i]! });
  noCity = await createSegment(url, phones(2, 600), { NAME: (i) => `n${i}` });
}, 60_000);
afterAll(() => server.close());

async function settle(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await server.core.jobs.waitForIdle();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The receptors of an execution's messages, once it has recorded them all. */
async function recipients(executionId: number): Promise<string[]> {
  await settle();
  const report = await get(executionUrl(url, executionId));
  expectEnvelope(report, 200);
  expect(report.body.entries.execution_status).not.toBe('SCHEDULED');
  const page = await get(executionUrl(url, executionId, '/messages?size=1000'));
  expectEnvelope(page, 200);
  return (page.body.entries as Array<{ receptor: string }>).map((m) => m.receptor).sort();
}

const tehranFields = {
  'filters[0]column': 'city',
  'filters[0]op': 'equals',
  'filters[0]value': 'تهران',
};

describe('POST /v2/sms/campaigns with a column filter', () => {
  it.each<Encoding>(['urlencoded', 'multipart'])(
    '%s: CITY = تهران reaches exactly the Tehran customers, however the sheet spelled it',
    async (encoding) => {
      const result = await createCampaign(
        url,
        campaignFields({ inclusion_segments: String(customers), send_datetime: PAST, ...tehranFields }),
        { encoding },
      );
      expect(result.status, result.text).toBe(201);
      const { campaign_id, execution_id } = result.body.entries as { campaign_id: number; execution_id: number };
      expect(await recipients(execution_id)).toEqual(TEHRAN.map((i) => phones(8, 500)[i]).sort());
      const summary = server.core.campaigns.get(accountId(server.core, 'acme'), campaign_id);
      expect(summary.filter).toEqual({ all: [{ column: 'city', op: 'equals', value: 'تهران' }] });
      const report = await get(executionUrl(url, execution_id));
      expect(report.body.entries.audience).toBe(TEHRAN.length);
    },
  );

  it('takes a JSON body’s filters list, and several conditions all met (in, between)', async () => {
    const json = await request(`${url}/v2/sms/campaigns`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        ...campaignFields({ send_datetime: PAST }),
        inclusion_segments: [String(customers), String(noCity)],
        filters: [
          { column: 'CITY', op: 'in', values: ['کرج', 'تهران'] },
          { column: 'AGE', op: 'between', kind: 'number', from: '18', to: '۳۰' },
        ],
      }),
    });
    expect(json.status, json.text).toBe(201);
    // Ages ۲۵ (Tehran), 30 (طهران: not Tehran), 18 (كرج), 17 (ﺗﻬﺮﺍﻥ: too young); the segment without CITY: none.
    expect(await recipients(json.body.entries.execution_id)).toEqual([0, 4].map((i) => phones(8, 500)[i]).sort());
  });

  it('in with its values one per line', async () => {
    const result = await createCampaign(
      url,
      campaignFields({
        inclusion_segments: String(customers),
        send_datetime: PAST,
        'filters[3]column': 'CITY',
        'filters[3]op': 'in',
        'filters[3]values': 'قم\nطهران',
      }),
    );
    expect(result.status, result.text).toBe(201);
    expect(await recipients(result.body.entries.execution_id)).toEqual([3, 6].map((i) => phones(8, 500)[i]).sort());
  });

  const refusals: Array<[string, Record<string, string>, string, string]> = [
    ['no op', { 'filters[0]column': 'CITY', 'filters[0]value': 'x' }, 'filter.op_invalid', 'filters[0]op is one of'],
    [
      'an unknown op',
      { 'filters[0]column': 'CITY', 'filters[0]op': 'like', 'filters[0]value': 'x' },
      'filter.op_invalid',
      'filters[0]op',
    ],
    [
      'no column',
      { 'filters[2]op': 'equals', 'filters[2]value': 'x' },
      'filter.column_required',
      'filters[2]column is required',
    ],
    [
      'contains nothing',
      { 'filters[0]column': 'CITY', 'filters[0]op': 'contains', 'filters[0]value': ' ' },
      'filter.value_required',
      'filters[0]value',
    ],
    [
      'in without values',
      { 'filters[0]column': 'CITY', 'filters[0]op': 'in' },
      'filter.values_required',
      'filters[0]values',
    ],
    [
      'between without kind',
      { 'filters[0]column': 'AGE', 'filters[0]op': 'between', 'filters[0]from': '1' },
      'filter.kind_invalid',
      'filters[0]kind',
    ],
    [
      'between without bounds',
      { 'filters[0]column': 'AGE', 'filters[0]op': 'between', 'filters[0]kind': 'number' },
      'filter.bound_required',
      'filters[0]from or',
    ],
    [
      'a bound that is no number',
      { 'filters[0]column': 'AGE', 'filters[0]op': 'between', 'filters[0]kind': 'number', 'filters[0]from': 'ten' },
      'filter.bound_invalid',
      'not a number',
    ],
    [
      'a day that does not exist',
      { 'filters[0]column': 'AGE', 'filters[0]op': 'between', 'filters[0]kind': 'date', 'filters[0]to': '1402/12/30' },
      'filter.bound_invalid',
      'not a date',
    ],
    [
      'reversed bounds',
      {
        'filters[0]column': 'AGE',
        'filters[0]op': 'between',
        'filters[0]kind': 'date',
        'filters[0]from': '1403/01/01',
        'filters[0]to': '2020-01-01',
      },
      'filter.bounds_reversed',
      'after',
    ],
    [
      'a column no inclusion segment has',
      { 'filters[0]column': 'BIRTHDAY', 'filters[0]op': 'equals', 'filters[0]value': 'x' },
      'filter.column_unknown',
      'BIRTHDAY',
    ],
    [
      'eleven conditions',
      Object.fromEntries(
        Array.from({ length: 11 }, (_, i) => [
          [`filters[${i}]column`, 'CITY'],
          [`filters[${i}]op`, 'equals'],
          [`filters[${i}]value`, 'x'],
        ]).flat(),
      ),
      'filter.too_many',
      'at most 10',
    ],
  ];

  it.each(refusals)(
    'refuses %s: 400, nothing created, the detail names the field',
    async (_name, fields, reason, detail) => {
      const before = server.core.db.prepare('SELECT count(*) AS n FROM campaigns').get() as { n: number };
      const all = campaignFields({ inclusion_segments: String(customers), ...fields });
      expectError(await createCampaign(url, all), ApiCode.BadRequest);
      expect((server.core.db.prepare('SELECT count(*) AS n FROM campaigns').get() as { n: number }).n).toBe(before.n);
      // The same form through the core: the reason the app translates, the detail for logs.
      const form: CampaignForm = {
        ...(all as Record<string, string>),
        inclusion_segments: [String(customers)],
        exclusion_segments: [],
        links: [],
        utm: {},
        filters: Object.entries(fields).map(([key, value]) => {
          const match = /^filters\[(\d+)\](\w+)$/.exec(key)!;
          return { index: Number(match[1]), part: match[2] as never, values: [value] };
        }),
      };
      let error: unknown;
      try {
        server.core.campaigns.create(accountId(server.core, 'acme'), form);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).reason).toBe(reason);
      expect((error as ServiceError).detail).toContain(detail);
    },
  );

  it('keeps spec 4.3’s order: a bad send time (417) and an unknown sender (412) before a bad filter column', async () => {
    const bad = {
      inclusion_segments: String(customers),
      'filters[0]column': 'NOPE',
      'filters[0]op': 'equals',
      'filters[0]value': 'x',
    };
    expectError(await createCampaign(url, campaignFields({ ...bad, send_datetime: 'tomorrow' })), ApiCode.BadDate);
    expectError(await createCampaign(url, campaignFields({ ...bad, sender: '39999999' })), ApiCode.InvalidSender);
    // A filter whose shape is wrong is part of the form's shape: 400 before the send time's 417.
    expectError(
      await createCampaign(
        url,
        campaignFields({
          inclusion_segments: String(customers),
          'filters[0]column': 'CITY',
          send_datetime: 'tomorrow',
        }),
      ),
      ApiCode.BadRequest,
    );
  });

  it('documents the filter fields in the OpenAPI document', async () => {
    const doc = await request(`${url}/openapi.json`);
    const text = JSON.stringify(doc.body);
    for (const part of ['column', 'op', 'value', 'values', 'kind', 'from', 'to'])
      expect(text).toContain(`filters[i]${part}`);
  });
});
