// The series fields of POST /v2/sms/campaigns over real HTTP with the real core: a weekly, a
// monthly and a date-triggered campaign accepted (urlencoded, multipart and JSON), spec 4.3's rules
// unchanged around them (send_datetime required and 417 when malformed), every bad series field
// 400 in the spec's envelope, a campaign's executions listed, and the series paused, resumed and
// ended as routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/service/clock';
import { OTHER_KEY, startServer, testSeed, type TestServer } from '../helpers/server';
import { expectEnvelope, expectError, phones, request } from '../api-v2/support';
import { campaignFields, createCampaign, createSegment, get, postEmpty, type CampaignFields } from './support';

let server: TestServer;
let url: string;
let segment: number;

/** Monday 23 November 2026, 11:30 in Tehran. */
const NOW = Date.UTC(2026, 10, 23, 8, 0);

beforeAll(async () => {
  server = await startServer({ clock: new ManualClock(NOW), seed: testSeed() });
  url = server.url;
  segment = await createSegment(url, phones(4, 500), { BIRTHDAY: (i) => `1370/09/0${i + 1}` });
}, 60_000);
afterAll(() => server.close());

const series = (extra: CampaignFields): CampaignFields =>
  campaignFields({ inclusion_segments: String(segment), send_datetime: '2026-11-23T12:00:00+03:30', ...extra });

async function executionsOf(campaignId: number, key?: string) {
  return get(`${url}/v2/sms/campaigns/${campaignId}/executions`, key);
}

describe('series fields of POST /v2/sms/campaigns', () => {
  it('accepts a weekly series: the first occurrence at or after send_datetime, listed with its series', async () => {
    const created = await createCampaign(
      url,
      series({ repeat: 'weekly', repeat_time: '۰۹:۰۰', repeat_weekdays: ['sat', 'mon'] }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.entries.execution_status).toBe('SCHEDULED');
    const listed = await executionsOf(created.body.entries.campaign_id);
    expectEnvelope(listed, 200);
    const { series: kept, executions } = listed.body.entries;
    // Monday's 09:00 had passed at 12:00: Saturday the 28th is first.
    expect(kept).toMatchObject({
      kind: 'repeat',
      repeat: { every: 'weekly', time: '09:00', weekdays: ['sat', 'mon'] },
      trigger: null,
      time_zone: 'Asia/Tehran',
      paused: false,
      ended: false,
      next_occurrence: '2026-11-28',
      next_at: Date.parse('2026-11-28T05:30:00Z'),
    });
    expect(kept.occurrences).toEqual([
      {
        occurrence: '2026-11-28',
        execution_id: created.body.entries.execution_id,
        at: Date.parse('2026-11-28T05:30:00Z'),
        status: 'SCHEDULED',
        missed: false,
      },
    ]);
    expect(executions.map((e: { execution_id: number }) => e.execution_id)).toEqual([
      created.body.entries.execution_id,
    ]);
    // The occurrence's own report is the execution report as ever.
    const report = await get(`${url}/v2/sms/campaigns/executions/${created.body.entries.execution_id}`);
    expect(report.body.entries).toMatchObject({
      execution_status: 'SCHEDULED',
      send_datetime: '2026-11-28T05:30:00.000Z',
    });
  });

  it('accepts a monthly Jalali series in JSON and a date trigger in multipart', async () => {
    const monthly = await createCampaign(
      url,
      series({ repeat: 'monthly', repeat_time: '10:00', repeat_day: '30', repeat_until: '2027-06-01' }),
      { encoding: 'json' },
    );
    expect(monthly.status, monthly.text).toBe(201);
    const kept = (await executionsOf(monthly.body.entries.campaign_id)).body.entries.series;
    // 30 Azar 1405 = 21 December 2026.
    expect(kept).toMatchObject({
      repeat: { every: 'monthly', day: 30, calendar: 'jalali', until: '2027-06-01' },
      next_occurrence: '2026-12-21',
    });

    const trigger = await createCampaign(
      url,
      series({ trigger_column: 'BIRTHDAY', trigger_days_before: '2', trigger_time: '09:00' }),
      { encoding: 'multipart' },
    );
    expect(trigger.status, trigger.text).toBe(201);
    const triggered = (await executionsOf(trigger.body.entries.campaign_id)).body.entries.series;
    expect(triggered).toMatchObject({
      kind: 'trigger',
      repeat: null,
      trigger: { column: 'BIRTHDAY', days_before: 2, time: '09:00' },
      next_occurrence: '2026-11-24',
    });
  });

  it('refuses each bad series field with 400, and keeps spec 4.3 rules around them', async () => {
    const cases: CampaignFields[] = [
      { repeat: 'hourly', repeat_time: '09:00' },
      { repeat: 'daily' },
      { repeat: 'daily', repeat_time: '24:00' },
      { repeat: 'weekly', repeat_time: '09:00' },
      { repeat: 'weekly', repeat_time: '09:00', repeat_weekdays: 'someday' },
      { repeat: 'monthly', repeat_time: '09:00' },
      { repeat: 'monthly', repeat_time: '09:00', repeat_day: '0' },
      { repeat: 'monthly', repeat_time: '09:00', repeat_day: '5', repeat_calendar: 'lunar' },
      { repeat: 'daily', repeat_time: '09:00', repeat_until: '2026-02-30' },
      { repeat: 'daily', repeat_time: '09:00', repeat_until: '2026-11-01' },
      { trigger_column: 'BIRTHDAY' },
      { trigger_time: '09:00' },
      { trigger_column: 'BIRTHDAY', trigger_time: '09:00', trigger_days_before: '366' },
      { trigger_column: 'BIRTHDAY', trigger_time: '09:00', repeat: 'daily', repeat_time: '09:00' },
    ];
    for (const extra of cases) {
      const result = await createCampaign(url, series(extra));
      expectError(result, 400);
    }
    // send_datetime is still required (400) and checked (417) with a series.
    const withoutTime = series({ repeat: 'daily', repeat_time: '09:00' });
    delete withoutTime.send_datetime;
    expectError(await createCampaign(url, withoutTime), 400);
    expectError(
      await createCampaign(url, series({ repeat: 'daily', repeat_time: '09:00', send_datetime: 'soon' })),
      417,
    );
  });

  it('pauses, resumes and ends a series by route; another account’s campaign is 400', async () => {
    const created = await createCampaign(url, series({ repeat: 'daily', repeat_time: '13:00' }));
    const id = created.body.entries.campaign_id as number;
    const paused = await postEmpty(`${url}/v2/sms/campaigns/${id}/series/pause`);
    expectEnvelope(paused, 200);
    expect(paused.body.entries.series).toMatchObject({ paused: true, next_occurrence: null, occurrences: [] });
    const resumed = await postEmpty(`${url}/v2/sms/campaigns/${id}/series/resume`);
    // Resumed at 11:30: today's 13:00 is still to come.
    expect(resumed.body.entries.series).toMatchObject({ paused: false, next_occurrence: '2026-11-23' });
    expectError(await postEmpty(`${url}/v2/sms/campaigns/${id}/series/end`, OTHER_KEY), 400);
    expectError(await executionsOf(id, OTHER_KEY), 400);
    const ended = await postEmpty(`${url}/v2/sms/campaigns/${id}/series/end`);
    expect(ended.body.entries.series).toMatchObject({ ended: true });
    expect(ended.body.entries.series.occurrences[0].status).toBe('CANCELLED');
    expectError(await postEmpty(`${url}/v2/sms/campaigns/${id}/series/resume`), 400);
    expectError(await postEmpty(`${url}/v2/sms/campaigns/x/series/pause`), 400);
    // A one-off campaign has no series to pause, but its executions are listed.
    const oneOff = await createCampaign(url, series({}));
    const oneOffId = oneOff.body.entries.campaign_id as number;
    expectError(await postEmpty(`${url}/v2/sms/campaigns/${oneOffId}/series/pause`), 400);
    expect((await executionsOf(oneOffId)).body.entries).toMatchObject({ campaign_id: oneOffId, series: null });
  });

  it('documents the series fields and routes in the OpenAPI document', async () => {
    const doc = await request(`${url}/openapi.json`);
    const form =
      doc.body.paths['/v2/sms/campaigns'].post.requestBody.content['application/x-www-form-urlencoded'].schema;
    for (const field of ['repeat', 'repeat_time', 'repeat_weekdays', 'repeat_day', 'repeat_calendar', 'repeat_until'])
      expect(form.properties[field]?.description, field).toMatch(/Extension/);
    for (const field of ['trigger_column', 'trigger_days_before', 'trigger_time'])
      expect(form.properties[field]?.example ?? form.properties[field]?.default, field).toBeDefined();
    expect(doc.body.paths['/v2/sms/campaigns/{campaign_id}/executions'].get).toBeDefined();
    expect(doc.body.paths['/v2/sms/campaigns/{campaign_id}/series/pause'].post).toBeDefined();
    expect(doc.body.components.schemas.CampaignSeries).toBeDefined();
  });
});
