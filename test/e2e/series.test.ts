// Campaigns that run by themselves, in Chromium, in English and in Persian. A birthday greeting:
// a customers' sheet with a BIRTHDAY column written every way Iranian sheets hold it (Jalali in
// Persian and in Latin digits, Gregorian, Excel serial numbers) imported through the wizard; "on
// the day" at 09:00 set in the editor, switched on through the confirmation that states the month's
// estimate; then the service's clock moved over three mornings, each occurrence sending to exactly
// the customers whose birthday it is, none twice. Pausing the series skips a morning, resuming it
// (through the confirmation, with the estimate) brings the next. Then a daily campaign killed with
// SIGKILL while an occurrence is half recorded: restarted, the occurrence completes with every
// recipient exactly once and the next occurrence is still due.
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, spawnServe, tempDir, testSeed } from '../helpers/server';
import { createSegment, get } from '../campaigns/support';
import { priceText } from '../../shared/pricing';
import { toAsciiDigits, toPersianDigits } from '../../shared/digits';
import { advanceClock, screenshot, startApp, type RunningApp } from './app';
import { bridge, importThroughWizard, newCampaignTo, poll, switchToPersian } from './scenarios';

const ZONE = 'Asia/Tehran';
/** Tehran keeps +03:30 all year. */
const TEHRAN_OFFSET_MS = 3.5 * 3_600_000;
const DAY_MS = 86_400_000;
const ENV: NodeJS.ProcessEnv = { CHAPAR_TEST_CLOCK: '1', CHAPAR_WEB_TOKEN: '' };
/** The daily campaign's audience: enough that recording it takes a while. */
const MEMBERS = 20_000;
const BODY = 'تولدت مبارک {{NAME}}! یک هدیه در فروشگاه منتظر توست.';

type Day = { y: number; m: number; d: number };
const pad = (n: number) => String(n).padStart(2, '0');
const iso = (day: Day) => `${day.y}-${pad(day.m)}-${pad(day.d)}`;

/** The Tehran day of `ms`. */
function tehranDay(ms: number): Day {
  const wall = new Date(ms + TEHRAN_OFFSET_MS);
  return { y: wall.getUTCFullYear(), m: wall.getUTCMonth() + 1, d: wall.getUTCDate() };
}
const plusDays = (day: Day, n: number): Day =>
  tehranDay(Date.UTC(day.y, day.m - 1, day.d, 12) - TEHRAN_OFFSET_MS + n * DAY_MS);
/** 09:00 in Tehran on `day`, as an instant. */
const nineOn = (day: Day) => Date.UTC(day.y, day.m - 1, day.d, 9) - TEHRAN_OFFSET_MS;

/** The Jalali month and day of a Gregorian day. */
function jalali(day: Day): { m: number; d: number } {
  const parts = new Intl.DateTimeFormat('en-US-u-ca-persian-nu-latn', {
    timeZone: 'UTC',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(Date.UTC(day.y, day.m - 1, day.d));
  return {
    m: Number(parts.find((p) => p.type === 'month')!.value),
    d: Number(parts.find((p) => p.type === 'day')!.value),
  };
}
/** Excel's serial number of a Gregorian day (1900 system). */
const excelSerial = (y: number, m: number, d: number) => (Date.UTC(y, m - 1, d) - Date.UTC(1899, 11, 30)) / DAY_MS;

interface Customer {
  name: string;
  phone: string;
  /** The cell as the sheet holds it (a number: an Excel date serial). */
  birthday: (days: Day[]) => string | number;
  /** The occurrence (index into the days) whose birthday it is, or null. */
  on: number | null;
}

/** days[0..4]: the first five mornings of the series. */
const CUSTOMERS: Customer[] = [
  {
    name: 'سارا',
    phone: '09121110001',
    on: 0,
    birthday: (days) => toPersianDigits(`1370/${pad(jalali(days[0]!).m)}/${pad(jalali(days[0]!).d)}`),
  },
  { name: 'علی', phone: '09121110002', on: 0, birthday: (days) => `1990-${pad(days[0]!.m)}-${pad(days[0]!.d)}` },
  {
    name: 'رضا',
    phone: '09121110003',
    on: 1,
    birthday: (days) => `1365/${jalali(days[1]!).m}/${jalali(days[1]!).d}`,
  },
  { name: 'مریم', phone: '09121110004', on: 1, birthday: (days) => excelSerial(1985, days[1]!.m, days[1]!.d) },
  { name: 'ندا', phone: '09121110005', on: 2, birthday: (days) => `1992/${pad(days[2]!.m)}/${pad(days[2]!.d)}` },
  {
    name: 'امید',
    phone: '09121110006',
    on: 2,
    birthday: (days) => toPersianDigits(`1368/${pad(jalali(days[2]!).m)}/${pad(jalali(days[2]!).d)}`),
  },
  { name: 'کاوه', phone: '09121110007', on: 3, birthday: (days) => `1988-${pad(days[3]!.m)}-${pad(days[3]!.d)}` },
  {
    name: 'نیما',
    phone: '09121110008',
    on: 4,
    birthday: (days) => `1372/${pad(jalali(days[4]!).m)}/${pad(jalali(days[4]!).d)}`,
  },
  { name: 'زهرا', phone: '09121110009', on: null, birthday: () => '' },
  // Forty days on: outside the month's estimate.
  {
    name: 'حسن',
    phone: '09121110010',
    on: null,
    birthday: (days) => {
      const later = plusDays(days[0]!, 40);
      return `1980-${pad(later.m)}-${pad(later.d)}`;
    },
  },
];

async function birthdaySheet(dir: string, days: Day[]): Promise<string> {
  const file = path.join(dir, 'birthdays.xlsx');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('customers');
  sheet.addRow(['NAME', 'MOBILE', 'BIRTHDAY']);
  for (const customer of CUSTOMERS) sheet.addRow([customer.name, customer.phone, customer.birthday(days)]);
  await book.xlsx.writeFile(file);
  return file;
}

/** Through the import wizard, as a shop owner does; the new segment's id. */
async function importSheet(page: Page, file: string, name: string): Promise<number> {
  await importThroughWizard(page, file, { 0: 'NAME', 2: 'BIRTHDAY' }, name);
  const segments = await bridge<Array<{ id: number; name: string; columns: string[] }>>(page, 'segments:list', {
    account_id: 1,
  });
  const segment = segments.find((one) => one.name === name)!;
  expect(segment.columns).toContain('BIRTHDAY');
  // The editor reads the segments when it opens: a reload shows the new one, as a user would see it.
  await page.reload();
  await page.getByTestId('app-title').waitFor();
  return segment.id;
}

/** The hash's last number (an execution's id on its report). */
async function executionOf(page: Page): Promise<number> {
  await poll(() => page.evaluate('location.hash')).toMatch(/^#\/campaigns\/execution\/\d+$/);
  return Number(
    String(await page.evaluate('location.hash'))
      .split('/')
      .pop(),
  );
}

/** Every recipient of an execution (its report's rows), in pages. */
async function receptorsOf(page: Page, executionId: number): Promise<string[]> {
  const all: string[] = [];
  for (let p = 1; ; p++) {
    const rows = await bridge<Array<{ receptor: string }>>(page, 'campaigns:messages', {
      account_id: 1,
      execution_id: executionId,
      page: p,
      size: 1000,
    });
    all.push(...rows.map((row) => row.receptor));
    if (rows.length < 1000) return all;
  }
}

/** The series' occurrences as the campaign's page lists them: day → [execution, status, sent]. */
async function occurrencesShown(
  page: Page,
): Promise<Record<string, { execution: number; status: string; sent: number }>> {
  const rows = await page.locator('[data-testid^="series-occurrence-"]').evaluateAll((elements) =>
    elements.map((e) => [
      e.getAttribute('data-testid')!.replace('series-occurrence-', ''),
      {
        execution: Number(e.getAttribute('data-execution')),
        status: e.getAttribute('data-status')!,
        sent: Number(e.getAttribute('data-sent')),
      },
    ]),
  );
  return Object.fromEntries(rows);
}

/**
 * Kills the server with SIGKILL (no goodbye: whatever it was writing stops there) and starts it
 * again on the same port and data; the test clock, in memory, is moved back to where it was.
 */
async function killAndRestart(app: RunningApp, advanced: number): Promise<void> {
  const port = Number(new URL(app.url).port);
  await app.serve.stop('SIGKILL');
  const serve = await spawnServe({ dataDir: app.dataDir, port, webUi: true, env: ENV });
  const close = app.close;
  app.serve = serve;
  app.close = async () => {
    await serve.stop();
    await close();
  };
  await advanceClock(app, advanced);
}

describe.each(['en', 'fa'] as const)('campaigns that run by themselves (%s)', (language) => {
  let app: RunningApp;
  let dir: string;
  /** How far the test clock was moved (restored after a restart). */
  let advanced = 0;
  const advance = async (ms: number) => {
    advanced += ms;
    return advanceClock(app, ms);
  };
  /** Moves the clock to `at` (never back). */
  const advanceTo = async (at: number) => {
    const now = await advanceClock(app, 0);
    if (at > now) await advance(at - now);
  };

  beforeAll(async () => {
    // Credit for a daily occurrence of the large audience.
    const [acme, ...others] = testSeed().accounts!;
    app = await startApp({
      timezoneId: ZONE,
      env: ENV,
      seed: { accounts: [{ ...acme!, credit_rials: 1_000_000_000 }, ...others] },
    });
    dir = tempDir('chapar-e2e-series-');
  }, 180_000);
  /** The language of the describe, switched to in the first test that runs (inside a test: it polls). */
  const inLanguage = async () => {
    if (language === 'fa' && (await app.page.locator('html').getAttribute('lang')) !== 'fa')
      await switchToPersian(app.page);
  };
  afterAll(async () => {
    await app?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('greets each customer on their birthday, three mornings running, and skips a paused one', async () => {
    const { page } = app;
    await inLanguage();
    const now = await advanceClock(app, 0);
    // The first 09:00 in Tehran still to come, and the four mornings after it.
    const today = tehranDay(now);
    const first = nineOn(today) > now ? today : plusDays(today, 1);
    const days = [0, 1, 2, 3, 4].map((n) => plusDays(first, n));
    const segmentId = await importSheet(page, await birthdaySheet(dir, days), `Birthdays ${language}`);

    await newCampaignTo(page, `Birthday ${language}`, segmentId);
    await page.getByTestId('editor-body').fill(BODY);
    await page.getByTestId('editor-mode-trigger').click();
    await page.getByTestId('editor-series').waitFor();
    // The sheet's date column is offered (and picked: it reads like a birthday).
    await poll(() => page.getByTestId('editor-trigger-column').inputValue()).toBe('BIRTHDAY');
    await page.getByTestId('editor-trigger-on-day').click();
    await page.getByTestId('editor-trigger-time').fill('09:00');
    await page.getByTestId('editor-trigger-time').press('Tab');
    const sentence = await page.getByTestId('editor-series-sentence').innerText();
    expect(sentence).toMatch(
      language === 'en'
        ? /^Every day at 09:00 Tehran time, to the people whose .?BIRTHDAY.? is today$/
        : /^هر روز ساعت ۰۹:۰۰ به وقت تهران، برای کسانی که .?BIRTHDAY.? آن‌ها امروز است$/,
    );
    // The next mornings, as the core computed them.
    await poll(() =>
      page.getByTestId('editor-series-next-item').evaluateAll((items) => items.map((i) => i.getAttribute('data-at'))),
    ).toEqual(days.slice(0, 3).map((day) => String(nineOn(day))));

    // The month's estimate: the eight customers whose birthday falls in the next 30 days, each
    // at their own text's price.
    const pricing = testSeed().pricing!;
    const inMonth = CUSTOMERS.filter((c) => c.on !== null);
    const expectedCost = inMonth.reduce(
      (sum, c) => sum + priceText(BODY.replace('{{NAME}}', c.name), 'sms', pricing).costRials,
      0,
    );
    await poll(() => page.getByTestId('editor-series-recipients').getAttribute('data-value')).toBe(
      String(inMonth.length),
    );
    expect(await page.getByTestId('editor-series-monthly').getAttribute('data-rials')).toBe(String(expectedCost));
    await page.getByTestId('editor-ready').waitFor();
    await screenshot(page, `series-editor-trigger-${language}`);

    // Nothing is switched on before the confirmation that states the estimate.
    await page.getByTestId('editor-schedule').click();
    await page.getByTestId('editor-confirm-summary').waitFor();
    expect(await page.getByTestId('editor-confirm-monthly').getAttribute('data-rials')).toBe(String(expectedCost));
    expect(toAsciiDigits(await page.getByTestId('editor-confirm-series-recipients').innerText())).toBe(
      String(inMonth.length),
    );
    expect(await page.getByTestId('editor-confirm-when').innerText()).toBe(sentence);
    await screenshot(page, `series-confirm-${language}`);
    await page.getByTestId('editor-confirm').click();
    await executionOf(page);
    await page.getByTestId('series-card').waitFor();

    // Three mornings: each occurrence sends to exactly that day's birthdays, none twice.
    for (const n of [0, 1, 2]) {
      await advanceTo(nineOn(days[n]!) + 60_000);
      const key = iso(days[n]!);
      const expected = CUSTOMERS.filter((c) => c.on === n)
        .map((c) => c.phone)
        .sort();
      await poll(async () => (await occurrencesShown(page))[key]?.status, { timeout: 20_000 }).toBe('COMPLETED');
      const occurrence = (await occurrencesShown(page))[key]!;
      const receptors = await receptorsOf(page, occurrence.execution);
      expect(receptors.sort()).toEqual(expected);
      expect(occurrence.sent).toBe(expected.length);
    }
    // Those three ran; the fourth is made already, waiting for its morning.
    const shown = await occurrencesShown(page);
    expect(Object.keys(shown).sort()).toEqual(days.slice(0, 4).map(iso));
    expect(shown[iso(days[3]!)]!.status).toBe('SCHEDULED');
    await screenshot(page, `series-occurrences-${language}`);

    // Its report, one of the occurrence's own.
    const third = (await occurrencesShown(page))[iso(days[2]!)]!;
    await page.getByTestId(`series-open-${third.execution}`).click();
    await poll(() => page.getByTestId('report-sent').getAttribute('data-value')).toBe('2');

    // Paused: the fourth morning passes without an occurrence.
    await page.getByTestId('series-pause').click();
    await poll(() => page.getByTestId('series-card').getAttribute('data-paused')).toBe('true');
    await advanceTo(nineOn(days[3]!) + 60_000);
    await page.reload();
    await page.getByTestId('series-card').waitFor();
    // The waiting fourth was withdrawn with the pause, and none was made on its morning.
    expect(Object.keys(await occurrencesShown(page))).not.toContain(iso(days[3]!));

    // Resumed through the confirmation, which states the month's estimate again: the fifth comes.
    await page.getByTestId('series-resume').click();
    await page.getByTestId('series-resume-confirm-summary').waitFor();
    expect(Number(await page.getByTestId('series-resume-confirm-monthly').getAttribute('data-rials'))).toBeGreaterThan(
      0,
    );
    await screenshot(page, `series-resume-confirm-${language}`);
    await page.getByTestId('series-resume-confirm').click();
    await poll(() => page.getByTestId('series-card').getAttribute('data-paused')).toBe('false');
    await poll(() => page.getByTestId('series-next').getAttribute('data-at')).toBe(String(nineOn(days[4]!)));
    await advanceTo(nineOn(days[4]!) + 60_000);
    await poll(async () => (await occurrencesShown(page))[iso(days[4]!)]?.status, { timeout: 20_000 }).toBe(
      'COMPLETED',
    );
    const fifth = (await occurrencesShown(page))[iso(days[4]!)]!;
    expect(await receptorsOf(page, fifth.execution)).toEqual(['09121110008']);
    expect(Object.keys(await occurrencesShown(page))).not.toContain(iso(days[3]!));

    // The list says what it is, and when it comes next.
    await page.getByTestId('nav-campaigns').click();
    const badge = page.locator('[data-testid^="campaign-series-"]').first();
    await poll(() => badge.getAttribute('data-kind')).toBe('trigger');
    await page.locator('[data-testid^="campaign-next-"]').first().waitFor();
    await screenshot(page, `series-list-${language}`);
    expect(app.problems.filter((p) => !/409/.test(p))).toEqual([]);
  }, 120_000);

  it('survives a SIGKILL in the middle of an occurrence: every recipient once, the next still due', async () => {
    const { page } = app;
    await inLanguage();
    const phones = Array.from({ length: MEMBERS }, (_, i) => `0913${String(1_000_000 + i).padStart(7, '0')}`);
    const segmentId = await createSegment(app.url, phones);
    await page.reload();
    await page.getByTestId('app-title').waitFor();
    await newCampaignTo(page, `Daily ${language}`, segmentId);
    await page.getByTestId('editor-body').fill('Good morning from the shop');
    await page.getByTestId('editor-mode-repeat').click();
    await page.getByTestId('editor-series').waitFor();
    const now = await advanceClock(app, 0);
    // A minute's wall time an hour from now, every day.
    const at = new Date(now + TEHRAN_OFFSET_MS + 3_600_000);
    const time = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}`;
    await page.getByTestId('editor-repeat-time').fill(time);
    await page.getByTestId('editor-repeat-time').press('Tab');
    // 1,000 a minute: the occurrence is recorded in batches of a minute's slot each.
    await page.getByTestId('editor-rate').fill('1000');
    await page.getByTestId('editor-rate').press('Tab');
    expect(toAsciiDigits(await page.getByTestId('editor-series-sentence').innerText())).toContain(time);
    await poll(() => page.getByTestId('editor-series-recipients').getAttribute('data-value')).toBe(String(MEMBERS));
    await page.getByTestId('editor-ready').waitFor();
    await screenshot(page, `series-editor-repeat-${language}`);
    await page.getByTestId('editor-schedule').click();
    await page.getByTestId('editor-confirm-monthly').waitFor();
    await page.getByTestId('editor-confirm').click();
    // The first occurrence's execution is made with the campaign, waiting for its time.
    const execution = await executionOf(page);
    await page.getByTestId('series-card').waitFor();
    const due = Number(await page.getByTestId('series-next').getAttribute('data-at'));
    const key = iso(tehranDay(due));
    const report = async () =>
      (await get(`${app.url}/v2/sms/campaigns/executions/${execution}`, KEY)).body.entries as {
        sent: number;
        audience: number;
      };

    // Its time comes: killed once part of the audience is recorded, before all of it is.
    await advanceTo(due + 1000);
    const deadline = Date.now() + 30_000;
    while ((await report()).sent === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const before = (await report()).sent;
    console.info(`series e2e: killed with ${before} of ${MEMBERS} recorded`);
    await killAndRestart(app, advanced);
    // Killed part way: some of the audience recorded, not all of it.
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(MEMBERS);
    // The window reconnects by itself; the clock moves on and the occurrence completes.
    for (let i = 0; i < 6; i++) await advance(10 * 60_000);
    await poll(async () => (await occurrencesShown(page))[key]?.status, { timeout: 60_000 }).toBe('COMPLETED');
    const done = await report();
    expect(done.audience).toBe(MEMBERS);
    expect(done.sent).toBe(MEMBERS);
    const receptors = await receptorsOf(page, execution);
    expect(receptors.length).toBe(MEMBERS);
    expect(new Set(receptors).size).toBe(MEMBERS);
    // The next occurrence, tomorrow at the same time, is still due.
    await poll(() => page.getByTestId('series-next').getAttribute('data-at')).toBe(String(due + DAY_MS));
    await screenshot(page, `series-after-kill-${language}`);
  }, 150_000);
});
