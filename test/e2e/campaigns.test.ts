// Campaigns in Chromium through web mode, as a marketer builds and follows one: two segments minus
// a third with a personalized template and a tracked link; the audience and the total cost the
// core computes, shown in the editor; scheduled a minute ahead and run by moving the service's
// clock (no waiting); a short link opened and the click counted in the report; pause and resume;
// the report exported and its rows checked; a segment of the clickers and its size. Then the same
// screens in Persian (Jalali picker, Persian digits, right to left), with screenshots of each.
import fs from 'node:fs';
import Papa from 'papaparse';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, testSeed } from '../helpers/server';
import { createSegment, get } from '../campaigns/support';
import { priceText } from '../../shared/pricing';
import { toAsciiDigits } from '../../shared/digits';
import { advanceClock, screenshot, startApp, type RunningApp } from './app';
import { bridge, poll, switchToPersian } from './scenarios';

const ZONE = 'Asia/Tehran';
const NAMES = ['Sara', 'Ali', 'Reza', 'Maryam', 'Neda', 'Omid'];
const A_PHONES = NAMES.map((_, i) => `0912000000${i + 1}`);
const B_PHONES = ['09120000005', '09120000006', '09120000007'];
const B_NAMES = ['Neda', 'Omid', 'Kaveh'];
// A ∪ B = 1..7 (5 and 6 in both); C takes 1 away; 2 is opted out → 3, 4, 5, 6, 7.
const RECIPIENTS: Array<[string, string]> = [
  ['09120000003', 'Reza'],
  ['09120000004', 'Maryam'],
  ['09120000005', 'Neda'],
  ['09120000006', 'Omid'],
  ['09120000007', 'Kaveh'],
];
const LINK = 'https://shop.example/friday';
const BODY = `Hi {{NAME}}, Friday sale: ${LINK}`;

/** The wall date and time of `ms` in the zone: ['YYYY-MM-DD', 'HH:MM']. */
function wallTime(ms: number, zone: string): [string, string] {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  return [`${parts.year}-${parts.month}-${parts.day}`, `${parts.hour}:${parts.minute}`];
}

async function pickSegment(page: Page, role: 'include' | 'exclude', segmentId: number): Promise<void> {
  await page.getByTestId(`editor-${role}`).click();
  await page.getByTestId(`editor-${role}-option-${segmentId}`).click();
  await page.keyboard.press('Escape');
}

/**
 * What went wrong in the page, less the editor's superseded quotes: typing while a quote runs makes
 * the service stop the older one (409), as designed.
 */
function problemsOf(app: RunningApp): string[] {
  return app.problems.filter(
    (problem) =>
      problem !== 'HTTP 409 /bridge/invoke/campaigns:quote' &&
      !/^console: Failed to load resource: .*status of 409/.test(problem),
  );
}

/** The report's figure as a number (its data-value). */
async function figure(page: Page, name: string): Promise<number> {
  return Number(await page.getByTestId(`report-${name}`).getAttribute('data-value'));
}

describe('a campaign from the editor to its follow-ups (web UI)', () => {
  let app: RunningApp;
  let segments: { a: number; b: number; c: number };
  beforeAll(async () => {
    app = await startApp({ timezoneId: ZONE, env: { CHAPAR_TEST_CLOCK: '1' } });
    segments = {
      a: await createSegment(app.url, A_PHONES, { NAME: (i) => NAMES[i]! }),
      b: await createSegment(app.url, B_PHONES, { NAME: (i) => B_NAMES[i]! }),
      c: await createSegment(app.url, ['09120000001']),
    };
    const accountId = 1;
    for (const [id, name] of [
      [segments.a, 'Customers'],
      [segments.b, 'Newsletter'],
      [segments.c, 'Staff'],
    ] as const)
      await bridge(app.page, 'segments:rename', { account_id: accountId, segment_id: id, name });
    await bridge(app.page, 'optouts:add', { account_id: accountId, phones: ['09120000002'] });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  it('builds, schedules, runs and follows a campaign, and makes a segment of its clickers', async () => {
    const { page } = app;
    // The segments were made after the page loaded: a reload reads them, as a user would see them.
    await page.reload();
    await page.getByTestId('nav-campaigns').click();
    await page.getByTestId('page-campaigns').waitFor();
    await page.getByTestId('campaigns-new').click();
    await page.getByTestId('editor-name').fill('Friday sale');
    // The first keystroke made a draft; the address follows it, and typing went on in the same field.
    await poll(() => page.evaluate('location.hash')).toMatch(/^#\/campaigns\/draft\/\d+$/);
    expect(await page.getByTestId('editor-name').inputValue()).toBe('Friday sale');
    await pickSegment(page, 'include', segments.a);
    await pickSegment(page, 'include', segments.b);
    await pickSegment(page, 'exclude', segments.c);
    await page.getByTestId('editor-body').fill(BODY);
    await page.getByTestId('editor-add-link').click();
    await page.getByTestId('editor-link-url-0').fill(LINK);

    // The audience, explained and deduplicated, as the core counts it.
    await poll(() => page.getByTestId('editor-audience-count').getAttribute('data-count')).toBe('5');
    const sentence = await page.getByTestId('editor-audience-sentence').innerText();
    expect(sentence).toMatch(/opted out/);
    // The total is the sum of each recipient's own priced text (short links at their full length).
    const pricing = testSeed().pricing!;
    const expected = RECIPIENTS.reduce(
      (total, [, name]) =>
        total + priceText(`Hi ${name}, Friday sale: ${app.url}/l/12345678`, 'sms', pricing).costRials,
      0,
    );
    await poll(() => page.getByTestId('editor-total-cost').getAttribute('data-rials')).toBe(String(expected));
    await page.getByTestId('editor-sample-first').click();
    await expect
      .poll(() => page.getByTestId('editor-sample-text').innerText())
      .toMatch(/^Hi Reza, Friday sale: http:\/\/127\.0\.0\.1:\d+\/l\/\w{8}/);

    // A minute ahead (in the browser's zone, Tehran), at a rate of 2 a minute: it runs 3 minutes.
    const now = await advanceClock(app, 0);
    const [day, time] = wallTime(now + 120_000, ZONE);
    await page.getByTestId('editor-when-later').click();
    await page.getByTestId('editor-date').click();
    await page.getByTestId('editor-date-picker').waitFor();
    await screenshot(page, 'campaign-editor-picker-en');
    await page.locator(`[data-testid=editor-date-picker] button[data-date="${day}"]`).click();
    // Picking a day (even the one already chosen) closes the calendar.
    await page.getByTestId('editor-date-picker').waitFor({ state: 'hidden' });
    expect(await page.getByTestId('editor-date').getAttribute('data-value')).toBe(day);
    await page.getByTestId('editor-time').fill(time);
    await page.getByTestId('editor-time').press('Tab');
    await page.getByTestId('editor-rate').fill('2');
    await page.getByTestId('editor-rate').press('Tab');
    await page.getByTestId('editor-last-message').waitFor();
    await page.getByTestId('editor-ready').waitFor();
    await screenshot(page, 'campaign-editor-en');

    // Nothing is scheduled before the confirmation that states the audience, cost and time.
    await page.getByTestId('editor-schedule').click();
    const summary = page.getByTestId('editor-confirm-summary');
    await summary.waitFor();
    expect(toAsciiDigits(await page.getByTestId('editor-confirm-recipients').innerText())).toContain('5');
    expect(await page.getByTestId('editor-confirm-when').innerText()).toContain(time);
    await screenshot(page, 'campaign-confirm-en');
    await page.getByTestId('editor-confirm').click();
    await poll(() => page.evaluate('location.hash')).toMatch(/^#\/campaigns\/execution\/\d+$/);
    const executionId = Number(
      String(await page.evaluate('location.hash'))
        .split('/')
        .pop(),
    );
    await poll(() => page.getByTestId('report-status').getAttribute('data-status')).toBe('scheduled');
    // The draft became the campaign: the list has no draft left.
    const drafts = await bridge<unknown[]>(page, 'campaigns:drafts', { account_id: 1 });
    expect(drafts).toEqual([]);

    // Until then it is upcoming on the dashboard.
    await page.getByTestId('nav-dashboard').click();
    await poll(() => page.getByTestId('dashboard-campaign-1').getAttribute('data-status')).toBe('SCHEDULED');
    await screenshot(page, 'dashboard-campaigns-en');
    await page.getByTestId('dashboard-campaign-1').getByTestId('dashboard-campaign-report').click();
    await page.getByTestId('page-campaign-report').waitFor();

    // Its time comes: the service's clock moves, the page follows the execution live.
    await advanceClock(app, 150_000);
    await poll(() => page.getByTestId('report-status').getAttribute('data-status'), { timeout: 20_000 }).toBe(
      'running',
    );
    await poll(() => figure(page, 'sent'), { timeout: 20_000 }).toBe(5);
    expect(await figure(page, 'audience')).toBe(5);

    // Pause and resume while the rate holds the last messages back.
    await page.getByTestId('report-pause').click();
    await page.getByTestId('report-resume').waitFor();
    await page.getByTestId('report-resume').click();
    await page.getByTestId('report-pause').waitFor();

    // A recipient opens their short link: redirected with UTM tags, the click counted in the report.
    const messages = await get(`${app.url}/v2/sms/campaigns/executions/${executionId}/messages?page=1&size=10`, KEY);
    const first = (messages.body.entries as Array<{ receptor: string; message: string }>).find(
      (m) => m.receptor === '09120000003',
    )!;
    const short = /http:\/\/127\.0\.0\.1:\d+\/l\/\w{8}/.exec(first.message)![0];
    const visit = await fetch(short, { redirect: 'manual' });
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toBe(
      `${LINK}?utm_source=chapar&utm_medium=sms&utm_campaign=${(await bridge<{ campaign_id: number }>(page, 'campaigns:report', { account_id: 1, execution_id: executionId })).campaign_id}`,
    );
    await poll(() => figure(page, 'clicks')).toBe(1);
    await poll(() => page.getByTestId('report-link-clicks-0').getAttribute('data-clickers')).toBe('1');

    // The rest of the run: every message goes out and reaches a final status.
    await advanceClock(app, 5 * 60_000);
    await poll(() => page.getByTestId('report-status').getAttribute('data-status'), { timeout: 30_000 }).toBe(
      'completed',
    );
    await poll(async () => (await figure(page, 'delivered')) + (await figure(page, 'failed')), {
      timeout: 30_000,
    }).toBe(5);
    await poll(() => page.getByTestId('report-chart').getAttribute('data-points')).not.toBe('0');
    await screenshot(page, 'campaign-report-en');

    // The report exported: one row per recipient, the clicked one with its click.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('report-export-csv').click(),
    ]);
    const csv = fs.readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const rows = Papa.parse<string[]>(csv.trim(), { skipEmptyLines: true }).data;
    expect(rows).toHaveLength(1 + RECIPIENTS.length);
    const body = rows.slice(1);
    expect(body.map((row) => row.find((cell) => /^09\d{9}$/.test(cell))).sort()).toEqual(
      RECIPIENTS.map(([phone]) => phone),
    );

    // A segment of the clickers, and its size.
    await page.getByTestId('report-followup-clicked').click();
    await page.getByTestId('report-followup-name').fill('Friday clickers');
    await page.getByTestId('report-followup-create').click();
    const result = page.getByTestId('report-followup-result');
    await poll(() => result.getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
    // Its size is read once the import is done.
    await poll(() => result.getAttribute('data-members')).toBe('1');

    // The execution is a row of its own on the Messages page, opening its messages only.
    await page.getByTestId('report-open-messages').click();
    await page.getByTestId('send-header').waitFor();
    await poll(() => page.getByTestId('send-header-messages').getAttribute('data-value')).toBe('5');
    await screenshot(page, 'campaign-messages-en');
    await page.getByTestId('send-back').click();
    await page.getByTestId(`execution-row-${executionId}`).waitFor();
    await screenshot(page, 'messages-sends-en');
    await page.getByTestId('nav-campaigns').click();
    await poll(() => page.getByTestId(`campaign-status-1`).getAttribute('data-status')).toBe('completed');
    await screenshot(page, 'campaigns-en');
    expect(problemsOf(app)).toEqual([]);
  }, 240_000);

  it('in Persian: the Jalali picker, Persian digits and a right-to-left editor and report', async () => {
    const { page } = app;
    // Notices of the English part (the export) are closed first: they would sit on the screenshots.
    for (const close of await page.locator('.mantine-Notification-root button').all()) await close.click();
    await switchToPersian(page);
    await page.getByTestId('nav-campaigns').click();
    await page.getByTestId('campaigns-new').click();
    await page.getByTestId('editor-name').fill('حراج جمعه');
    await pickSegment(page, 'include', segments.a);
    await page.getByTestId('editor-body').fill('سلام {{NAME}}، حراج جمعه: https://shop.example/friday');
    await poll(() => page.getByTestId('editor-audience-count').getAttribute('data-count')).toBe('5');
    // Persian digits in what the editor says.
    expect(await page.getByTestId('editor-audience-count').innerText()).toMatch(/^[۰-۹٬,]+$/);
    await page.getByTestId('editor-when-later').click();
    await page.getByTestId('editor-date').click();
    const picker = page.getByTestId('editor-date-picker');
    await picker.waitFor();
    // The Jalali calendar: Persian month names, Persian digits on the days, right to left.
    const calendar = await picker.innerText();
    expect(calendar).toMatch(/فروردین|اردیبهشت|خرداد|تیر|مرداد|شهریور|مهر|آبان|آذر|دی|بهمن|اسفند/);
    expect(calendar).toMatch(/[۰-۹]/);
    expect(calendar).not.toMatch(/[0-9]/);
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    await screenshot(page, 'campaign-editor-picker-fa');
    await page.keyboard.press('Escape');
    await page.getByTestId('editor-ready').waitFor();
    await screenshot(page, 'campaign-editor-fa');
    // Scheduled for its default time (the next full hour): upcoming on the dashboard, in Persian.
    await page.getByTestId('editor-schedule').click();
    await page.getByTestId('editor-confirm-summary').waitFor();
    await screenshot(page, 'campaign-confirm-fa');
    await page.getByTestId('editor-confirm').click();
    await poll(() => page.getByTestId('report-status').getAttribute('data-status')).toBe('scheduled');
    await page.getByTestId('nav-dashboard').click();
    await poll(() => page.getByTestId('dashboard-campaign-2').getAttribute('data-status')).toBe('SCHEDULED');
    await screenshot(page, 'dashboard-campaigns-fa');
    await page.getByTestId('nav-messages').click();
    await page.getByTestId('messages-view-sends').click();
    await page.getByTestId('sends-table').waitFor();
    await screenshot(page, 'messages-sends-fa');
    await page.getByTestId('execution-row-1').click();
    await page.getByTestId('send-header').waitFor();
    await screenshot(page, 'campaign-messages-fa');

    await page.getByTestId('nav-campaigns').click();
    await page.getByTestId('campaigns-table').waitFor();
    await screenshot(page, 'campaigns-fa');
    await page.getByTestId('campaign-row-1').click();
    await page.getByTestId('page-campaign-report').waitFor();
    await poll(() => figure(page, 'sent')).toBe(5);
    expect(await page.getByTestId('report-sent').innerText()).toMatch(/۵/);
    await screenshot(page, 'campaign-report-fa');
    expect(problemsOf(app)).toEqual([]);
  }, 120_000);
});
