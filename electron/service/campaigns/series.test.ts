// Series in the real core and database with a moved clock: a daily campaign over three days (one
// execution per occurrence, each with the whole audience once), days the app was off (recorded
// missed, nothing sent late; the same day late still runs), an occurrence short of credit (FAILED,
// the series goes on), pause / resume / end of the whole series, and a birthday trigger's exact
// recipients on each of three days.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Core } from '../core';
import { ManualClock } from '../clock';
import { applySeed } from '../seed';
import { tempDir, testSeed } from '../../../test/helpers/server';
import { CampaignDraftFieldsSchema, type CampaignForm } from '../../../shared/campaigns';
import { MISSED_REASON, SERIES_JOB } from './series';

const HOUR = 3_600_000;

describe('a series of occurrences', () => {
  let core: Core;
  let clock: ManualClock;
  let account: number;

  beforeEach(() => {
    // 07:30 in Tehran, 1 June 2026.
    clock = new ManualClock(Date.parse('2026-06-01T04:00:00Z'));
    core = new Core({ dataDir: tempDir('chapar-series-'), clock });
    applySeed(core, testSeed());
    account = core.accounts.findByName('acme')!.id;
  });
  afterEach(async () => {
    await core.close();
  });

  /** Moves the clock to `iso` in steps, letting due jobs run after each. */
  async function until(iso: string, step = HOUR): Promise<void> {
    const target = Date.parse(iso);
    while (clock.now() < target) {
      clock.advance(Math.min(step, target - clock.now()));
      await settle();
    }
    await settle();
  }
  async function settle(): Promise<void> {
    for (let i = 0; i < 3; i++) {
      await core.jobs.waitForIdle();
      await core.scheduler.waitForIdle();
    }
  }

  async function segment(rows: Array<Record<string, string>>): Promise<number> {
    const { segment_id } = core.uploads.create(account, rows);
    await core.jobs.waitForIdle();
    return segment_id;
  }

  function form(segmentId: number, series: Partial<CampaignForm>): CampaignForm {
    return {
      sender: '30001111',
      name: 'Every morning',
      template_body: 'Good morning {{NAME}}',
      send_datetime: new Date(clock.now()).toISOString(),
      inclusion_segments: [String(segmentId)],
      exclusion_segments: [],
      links: [],
      utm: {},
      ...series,
    };
  }

  const phones = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => '0912' + String(from + i).padStart(7, '0'));

  /** The receptors of an execution's recorded messages, sorted. */
  function receptors(executionId: number): string[] {
    return core.campaigns
      .messages(account, executionId, { size: 1000 })
      .map((m) => m.receptor)
      .sort();
  }

  it('makes one execution per day at 09:00 Tehran, each to the whole audience once', async () => {
    const audience = phones(10);
    const id = await segment(audience.map((phone_number, i) => ({ phone_number, NAME: `n${i}` })));
    const created = core.campaigns.create(account, form(id, { repeat: 'daily', repeat_time: '09:00' }));
    let detail = core.campaigns.get(account, created.campaign_id);
    expect(detail.series).toMatchObject({ kind: 'repeat', paused: false, ended: false, next_occurrence: '2026-06-01' });
    expect(detail.series!.next_at).toBe(Date.parse('2026-06-01T05:30:00Z'));
    expect(detail.series!.occurrences).toEqual([
      {
        occurrence: '2026-06-01',
        execution_id: created.execution_id,
        at: Date.parse('2026-06-01T05:30:00Z'),
        status: 'SCHEDULED',
        missed: false,
      },
    ]);

    await until('2026-06-03T12:00:00Z');
    detail = core.campaigns.get(account, created.campaign_id);
    const made = [...detail.series!.occurrences].reverse();
    expect(made.map((o) => [o.occurrence, o.status])).toEqual([
      ['2026-06-01', 'COMPLETED'],
      ['2026-06-02', 'COMPLETED'],
      ['2026-06-03', 'COMPLETED'],
      ['2026-06-04', 'SCHEDULED'],
    ]);
    expect(detail.series!.next_at).toBe(Date.parse('2026-06-04T05:30:00Z'));
    for (const occurrence of made.slice(0, 3)) {
      const report = core.campaigns.report(account, occurrence.execution_id);
      expect(report.audience).toBe(10);
      expect(report.sent).toBe(10);
      // Started at its time, not before.
      expect(Date.parse(report.started_at!)).toBeGreaterThanOrEqual(occurrence.at);
      expect(receptors(occurrence.execution_id)).toEqual(audience);
    }
    // A tick run again (as after a crash between its commit and its job's end) makes nothing: it is
    // no longer the series' own; and the database itself refuses a second execution of a day.
    core.jobs.enqueue(SERIES_JOB, { campaignId: created.campaign_id });
    await settle();
    expect(core.campaigns.get(account, created.campaign_id).series!.occurrences).toHaveLength(4);
    expect(() =>
      core.db
        .prepare(
          `INSERT INTO campaign_executions (campaign_id, account_id, status, send_datetime, send_at, created_at, occurrence)
           VALUES (?, ?, 'SCHEDULED', '', 0, 0, '2026-06-04')`,
        )
        .run(created.campaign_id, account),
    ).toThrow(/UNIQUE/);
    // Each occurrence is an execution of the campaign, listed with the others.
    expect(detail.executions.map((e) => e.execution_id).sort()).toEqual(made.map((o) => o.execution_id).sort());
  });

  it('records the days the app was off as missed, runs today late, and an occurrence short of credit fails alone', async () => {
    const id = await segment(phones(10).map((phone_number) => ({ phone_number, NAME: 'x' })));
    const created = core.campaigns.create(account, form(id, { repeat: 'daily', repeat_time: '09:00' }));
    await until('2026-06-01T12:00:00Z');
    // Off from the 1st at 15:30 until the 4th at 14:30 Tehran: the clock jumps, nothing ran meanwhile.
    clock.advance(Date.parse('2026-06-04T11:00:00Z') - clock.now());
    await settle();
    await until('2026-06-04T11:05:00Z', 30_000);
    let occurrences = core.campaigns.get(account, created.campaign_id).series!.occurrences;
    expect(occurrences.map((o) => [o.occurrence, o.status, o.missed])).toEqual([
      ['2026-06-05', 'SCHEDULED', false],
      ['2026-06-04', 'COMPLETED', false],
      ['2026-06-03', 'FAILED', true],
      ['2026-06-02', 'FAILED', true],
      ['2026-06-01', 'COMPLETED', false],
    ]);
    for (const missed of occurrences.filter((o) => o.missed)) {
      const report = core.campaigns.report(account, missed.execution_id);
      expect(report).toMatchObject({ sent: 0, error: MISSED_REASON });
    }
    // The 4th ran late, the same day.
    expect(receptors(occurrences[1]!.execution_id)).toHaveLength(10);

    // Credit for less than one occurrence: the 5th fails with its reason, the 6th is still made.
    const available = core.credit.available(account);
    core.credit.adjust(account, -(available - 1_000), 'test', 'adjust');
    await until('2026-06-05T12:00:00Z');
    occurrences = core.campaigns.get(account, created.campaign_id).series!.occurrences;
    expect(occurrences[0]).toMatchObject({ occurrence: '2026-06-06', status: 'SCHEDULED' });
    expect(occurrences[1]).toMatchObject({ occurrence: '2026-06-05', status: 'FAILED', missed: false });
    expect(core.campaigns.report(account, occurrences[1]!.execution_id).error).toMatch(/^credit/);
  });

  it('pauses the whole series (no occurrence while paused), resumes from now on, and ends it', async () => {
    const id = await segment(phones(5).map((phone_number) => ({ phone_number, NAME: 'x' })));
    const created = core.campaigns.create(account, form(id, { repeat: 'daily', repeat_time: '09:00' }));
    await until('2026-06-01T12:00:00Z');
    const paused = core.campaigns.seriesPause(account, created.campaign_id);
    expect(paused.series).toMatchObject({ paused: true, next_occurrence: null, next_at: null });
    // The next one, not started, is withdrawn.
    expect(paused.series!.occurrences.map((o) => o.occurrence)).toEqual(['2026-06-01']);
    await until('2026-06-03T12:00:00Z');
    expect(core.campaigns.get(account, created.campaign_id).series!.occurrences).toHaveLength(1);

    // Resumed on the 3rd after 09:00: the next is the 4th (the 2nd and 3rd are not made up for).
    const resumed = core.campaigns.seriesResume(account, created.campaign_id);
    expect(resumed.series).toMatchObject({ paused: false, next_occurrence: '2026-06-04' });
    await until('2026-06-04T12:00:00Z');
    let series = core.campaigns.get(account, created.campaign_id).series!;
    expect(series.occurrences.map((o) => [o.occurrence, o.status])).toEqual([
      ['2026-06-05', 'SCHEDULED'],
      ['2026-06-04', 'COMPLETED'],
      ['2026-06-01', 'COMPLETED'],
    ]);

    const ended = core.campaigns.seriesEnd(account, created.campaign_id);
    expect(ended.series).toMatchObject({ ended: true, next_occurrence: null });
    expect(ended.series!.occurrences[0]).toMatchObject({ occurrence: '2026-06-05', status: 'CANCELLED' });
    await until('2026-06-07T12:00:00Z');
    series = core.campaigns.get(account, created.campaign_id).series!;
    expect(series.occurrences).toHaveLength(3);
    expect(() => core.campaigns.seriesResume(account, created.campaign_id)).toThrow(/ended/);
  });

  it('sends a birthday trigger to exactly the members whose date falls on each of three days', async () => {
    // 1 June 2026 is 11 Khordad 1405; 2 June the 12th; 3 June the 13th.
    const rows = [
      { phone_number: '09120000001', NAME: 'Sara', BIRTHDAY: '۱۳۷۰/۰۳/۱۱' }, // Jalali, Persian digits: 1 June
      { phone_number: '09120000002', NAME: 'Reza', BIRTHDAY: '1990-06-02' }, // Gregorian: 2 June
      { phone_number: '09120000003', NAME: 'Mina', BIRTHDAY: '31201' }, // Excel 1985-06-03: 3 June
      { phone_number: '09120000004', NAME: 'Ali', BIRTHDAY: '1365/3/12' }, // Jalali: 2 June
      { phone_number: '09120000005', NAME: 'Nima', BIRTHDAY: '1991-08-03' }, // another day
      { phone_number: '09120000006', NAME: 'Tara', BIRTHDAY: '' }, // none
      { phone_number: '09120000007', NAME: 'Omid', BIRTHDAY: '1370/03/13' }, // 3 June, but opted out
    ];
    const id = await segment(rows);
    core.optouts.add(account, ['09120000007']);
    const created = core.campaigns.create(account, {
      ...form(id, { trigger_column: 'birthday', trigger_time: '09:00' }),
      template_body: 'Happy birthday {{NAME}}',
    });
    // Before it starts, its report counts the day's own audience: Sara alone.
    expect(core.campaigns.report(account, created.execution_id).audience).toBe(1);
    await until('2026-06-03T12:00:00Z');
    const occurrences = [...core.campaigns.get(account, created.campaign_id).series!.occurrences].reverse();
    expect(occurrences.map((o) => [o.occurrence, o.status])).toEqual([
      ['2026-06-01', 'COMPLETED'],
      ['2026-06-02', 'COMPLETED'],
      ['2026-06-03', 'COMPLETED'],
      ['2026-06-04', 'SCHEDULED'],
    ]);
    expect(occurrences.slice(0, 3).map((o) => receptors(o.execution_id))).toEqual([
      ['09120000001'],
      ['09120000002', '09120000004'],
      ['09120000003'],
    ]);
    const texts = core.campaigns.messages(account, occurrences[1]!.execution_id).map((m) => m.message);
    expect(texts.sort()).toEqual([
      expect.stringContaining('Happy birthday Ali'),
      expect.stringContaining('Happy birthday Reza'),
    ]);

    // Three days before instead: on 1 June, those born on 4 June (14 Khordad).
    const early = await segment([
      { phone_number: '09120000011', BIRTHDAY: '1375/03/14' },
      { phone_number: '09120000012', BIRTHDAY: '1375/03/11' },
    ]);
    clock.advance(Date.parse('2026-06-03T20:00:00Z') - clock.now());
    const before = core.campaigns.create(
      account,
      form(early, { trigger_column: 'BIRTHDAY', trigger_time: '09:00', trigger_days_before: '3' }),
    );
    await until('2026-06-04T12:00:00Z');
    const first = core.campaigns.get(account, before.campaign_id).series!.occurrences.at(-1)!;
    // 4 June + 3 = 7 June = 17 Khordad: nobody; the quote's estimate counts the month ahead exactly.
    expect(first).toMatchObject({ occurrence: '2026-06-04', status: 'COMPLETED' });
    expect(core.campaigns.report(account, first.execution_id).audience).toBe(0);
  });

  it('estimates a series for the next 30 days before it is switched on', async () => {
    const id = await segment([
      { phone_number: '09120000001', BIRTHDAY: '1370/03/20' }, // 10 June: in the 30 days
      { phone_number: '09120000002', BIRTHDAY: '1360/04/05' }, // 26 June: in
      { phone_number: '09120000003', BIRTHDAY: '1360/05/05' }, // 27 July: out
      { phone_number: '09120000004', BIRTHDAY: '1360/03/10' }, // 31 May: passed this year
    ]);
    const fields = {
      ...CampaignDraftFieldsSchema.parse({}),
      name: 'Birthdays',
      sender: '30001111',
      template_body: 'Happy birthday',
      inclusion_segments: [id],
    };
    const trigger = await core.campaigns.quote(account, {
      ...fields,
      trigger: { column: 'BIRTHDAY', days_before: 0, time: '09:00' },
    });
    expect(trigger.problem).toBeNull();
    const perMessage = trigger.total_cost_rials / trigger.audience.recipients;
    expect(trigger.monthly).toEqual({
      occurrences: 30,
      recipients: 2,
      cost_rials: 2 * perMessage,
      first_at: Date.parse('2026-06-01T05:30:00Z'),
      next: ['2026-06-01', '2026-06-02', '2026-06-03'].map((day) => Date.parse(`${day}T05:30:00Z`)),
      time_zone: 'Asia/Tehran',
    });
    const weekly = await core.campaigns.quote(account, {
      ...fields,
      repeat: { every: 'weekly', time: '09:00', weekdays: ['sat'], day: null, calendar: 'jalali', until: null },
    });
    // Saturdays from 1 June 2026 on, within 30 days: 6, 13, 20, 27 June.
    expect(weekly.monthly).toMatchObject({ occurrences: 4, recipients: 16, cost_rials: 16 * perMessage });
    expect((await core.campaigns.quote(account, fields)).monthly).toBeNull();
    const unknownColumn = await core.campaigns.quote(account, {
      ...fields,
      trigger: { column: 'CITY', days_before: 0, time: '09:00' },
    });
    expect(unknownColumn.problem).toMatchObject({ code: 400, field: 'trigger', reason: 'series_trigger_column' });
    const noDays = await core.campaigns.quote(account, {
      ...fields,
      repeat: { every: 'weekly', time: '09:00', weekdays: [], day: null, calendar: 'jalali', until: null },
    });
    expect(noDays.problem).toMatchObject({ code: 400, field: 'repeat', reason: 'series_weekdays' });
    expect(noDays.monthly).toBeNull();
  });

  it('refuses bad series fields with the field named', () => {
    const bad = (fields: Partial<CampaignForm>) => () => core.campaigns.create(account, form(1, fields));
    expect(bad({ repeat: 'hourly', repeat_time: '09:00' })).toThrow(/repeat is daily, weekly or monthly/);
    expect(bad({ repeat: 'daily', repeat_time: '25:00' })).toThrow(/repeat_time is HH:MM/);
    expect(bad({ repeat: 'weekly', repeat_time: '09:00' })).toThrow(/repeat_weekdays/);
    expect(bad({ repeat: 'monthly', repeat_time: '09:00', repeat_day: '32' })).toThrow(/repeat_day/);
    expect(bad({ repeat: 'daily', repeat_time: '09:00', trigger_column: 'BIRTHDAY' })).toThrow(/exclude each other/);
    expect(bad({ trigger_column: 'BIRTHDAY', trigger_time: '09:00', trigger_days_before: '400' })).toThrow(
      /trigger_days_before/,
    );
  });
});
