// Targeting by column in Chromium through web mode: a customers' sheet whose CITY column holds
// Tehran the ways real sheets do (plain, with spaces around, with a kashida, with a ZWNJ, in the
// Arabic presentation forms of old exports), Karaj and Yazd with Arabic and Persian letters, and
// «طهران» (the Arabic name: another letter, which folding must not take for تهران). In English: a
// campaign to CITY = تهران, its exact audience and what the conditions left out, "is one of" catching
// both spellings of کرج and reaching «طهران» when asked for by name, the audience saved as a
// segment, and the campaign scheduled through the confirmation with exactly its recipients sent.
// In Persian: CITY one of [کرج, یزد] and AGE between ۲۰ and ۳۰ (ages in Persian, Arabic and Latin
// digits), scheduled, its recipients exact. Screenshots of the builder, the explanation and the
// confirmation in both languages.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, tempDir } from '../helpers/server';
import { get } from '../campaigns/support';
import { toAsciiDigits } from '../../shared/digits';
import { en } from '../../renderer/src/i18n/en';
import { fa } from '../../renderer/src/i18n/fa';
import { screenshot, startApp, type RunningApp } from './app';
import { bridge, importThroughWizard, newCampaignTo, poll, switchToPersian } from './scenarios';

const ZWNJ = '\u200c';
const KASHIDA = '\u0640';
/** [name, phone, CITY as written, AGE as written, JOINED as written (Jalali or Gregorian)]. */
const PEOPLE: Array<[string, string, string, string, string]> = [
  ['Sara', '09131000001', 'تهران', '۲۵', ''],
  ['Ali', '09131000002', '  تهران  ', '31', ''],
  ['Reza', '09131000003', `ته${KASHIDA}ران`, '٢٢', ''],
  ['Maryam', '09131000004', `ته${ZWNJ}ران`, '40', ''],
  // What an old Arabic-encoded export gives: the letters' presentation forms.
  ['Neda', '09131000005', '\ufe97\ufeec\ufeae\ufe8d\ufee5', '20', ''],
  ['Omid', '09131000006', 'طهران', '27', ''],
  ['Kaveh', '09131000007', 'كرج', '۲۸', '1399/05/12'],
  ['Leila', '09131000008', 'کرج', '19', '2031-02-03'],
  ['Hamid', '09131000009', 'يزد', '30', '۱۴۰۹/۰۱/۱۵'],
  ['Zahra', '09131000010', 'یزد', '50', ''],
  ['Nima', '09131000011', 'شیراز', '24', ''],
  ['Sima', '09131000012', 'تهران', '26', ''],
];
/** Sima is on the opt-out list: left out of the audience before any condition. */
const OPTED_OUT = '09131000012';
const phoneOf = (n: number) => PEOPLE[n - 1]![1];
const TEHRAN = [1, 2, 3, 4, 5].map(phoneOf);
const KARAJ = [7, 8].map(phoneOf);
/** CITY one of کرج, یزد and AGE between 20 and 30: Kaveh (۲۸) and Hamid (30, the end included). */
const KARAJ_YAZD_20S = [7, 9].map(phoneOf);

const ZONE = 'Asia/Tehran';

/** Today in the zone, YYYY-MM-DD (what the calendar's days carry as data-date). */
function today(zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    Date.now(),
  );
}

function customersCsv(dir: string): string {
  const file = path.join(dir, 'مشتریان-شهر.csv');
  const quote = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
  const lines = [['نام', 'موبایل', 'شهر', 'سن', 'عضویت'], ...PEOPLE];
  fs.writeFileSync(file, '\ufeff' + lines.map((cells) => cells.map(quote).join(',')).join('\r\n') + '\r\n');
  return file;
}

/** The import wizard from the Contacts page; answers the new segment's id. */
async function importSheet(page: Page, file: string, name: string): Promise<number> {
  await importThroughWizard(page, file, { 0: 'NAME', 2: 'CITY', 3: 'AGE', 4: 'JOINED' }, name);
  await page.getByTestId('import-open-segment').click();
  await page.getByTestId('page-segment').waitFor();
  return Number(await page.getByTestId('page-segment').getAttribute('data-id'));
}

async function pickOption(page: Page, testId: string, label: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

async function newCampaign(page: Page, name: string, segmentId: number, body: string): Promise<void> {
  await newCampaignTo(page, name, segmentId);
  await page.getByTestId('editor-body').fill(body);
}

/** Text as read, without the marks that isolate names and values from the sentence around them. */
const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, '');
const textOf = async (page: Page, testId: string) => plain(await page.getByTestId(testId).innerText());
const audienceCount = (page: Page) => page.getByTestId('editor-audience-count').getAttribute('data-count');
const sentence = async (page: Page) => toAsciiDigits(await textOf(page, 'editor-audience-sentence'));

/**
 * Schedules the campaign through the confirmation, which states the recipients and the conditions;
 * answers the execution's id.
 */
async function schedule(page: Page, shot: string, recipients: number, conditions: string): Promise<number> {
  await page.getByTestId('editor-ready').waitFor();
  await page.getByTestId('editor-schedule').click();
  await page.getByTestId('editor-confirm-summary').waitFor();
  expect(toAsciiDigits(await page.getByTestId('editor-confirm-recipients').innerText())).toBe(String(recipients));
  expect(await textOf(page, 'editor-confirm-filter')).toContain(conditions);
  await screenshot(page, shot);
  await page.getByTestId('editor-confirm').click();
  await poll(() => page.evaluate('location.hash')).toMatch(/^#\/campaigns\/execution\/\d+$/);
  return Number(
    String(await page.evaluate('location.hash'))
      .split('/')
      .pop(),
  );
}

/** The numbers the execution's messages went to, over the HTTP API (all pages). */
async function receptorsOf(app: RunningApp, executionId: number): Promise<string[]> {
  const result = await get(`${app.url}/v2/sms/campaigns/executions/${executionId}/messages?page=1&size=100`, KEY);
  return (result.body.entries as Array<{ receptor: string }>).map((m) => m.receptor).sort();
}

/** What went wrong in the page, less the editor's superseded quotes (409 by design). */
function problemsOf(app: RunningApp): string[] {
  return app.problems.filter(
    (problem) =>
      problem !== 'HTTP 409 /bridge/invoke/campaigns:quote' &&
      !/^console: Failed to load resource: .*status of 409/.test(problem),
  );
}

describe('a campaign to one city, however the sheet spells it (web UI)', () => {
  let app: RunningApp;
  let dir: string;
  let segmentId: number;
  beforeAll(async () => {
    app = await startApp({ timezoneId: ZONE });
    dir = tempDir('chapar-targeting-');
    segmentId = await importSheet(app.page, customersCsv(dir), 'Customers by city');
    await app.page.locator(`[data-testid=segment-members][data-value="${PEOPLE.length}"]`).waitFor();
    // Sima opts out after the import (an import leaves out who already had): a member left out of sends.
    await bridge(app.page, 'optouts:add', { account_id: 1, phones: [OPTED_OUT] });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('in English: CITY is تهران, the exact audience explained, saved as a segment, scheduled and sent', async () => {
    const { page } = app;
    await newCampaign(page, 'Tehran opening', segmentId, 'Hi {{NAME}}, our Tehran shop opens Friday');
    await poll(() => audienceCount(page)).toBe(String(PEOPLE.length - 1));

    // CITY is تهران: the five ways of writing it, not «طهران», not the opted-out Sima.
    await page.getByTestId('filter-add').click();
    await pickOption(page, 'filter-column-0', 'CITY');
    // The column's frequent values are offered, the five Tehrans counted as one.
    await page.getByTestId('filter-value-0').click();
    await poll(() => page.getByRole('option').count()).toBeGreaterThan(0);
    // Folded, the five spellings of Tehran and Sima's are one value of six.
    expect(toAsciiDigits(plain(await page.getByRole('option').first().innerText()))).toMatch(/^تهران\s*6$/);
    await screenshot(page, 'targeting-values-en');
    await page.getByTestId('filter-value-0').fill('تهران');
    await page.keyboard.press('Escape');
    await poll(() => page.getByTestId('filter-row-0').getAttribute('data-complete')).toBe('true');
    await poll(() => audienceCount(page)).toBe(String(TEHRAN.length));
    // 12 in the segment, Sima opted out, the six other cities left out by the condition.
    await poll(() => sentence(page)).toMatch(
      /12 in .*Customers by city.*1 opted out.*6 left out by the conditions.*5 will receive it/,
    );
    expect(await textOf(page, 'filter-words')).toBe('Only people whose CITY is تهران');
    await screenshot(page, 'targeting-builder-en');
    await page.getByTestId('editor-audience').scrollIntoViewIfNeeded();
    await screenshot(page, 'targeting-explained-en');

    // "is one of": both spellings of Karaj; and «طهران» only when it is asked for by name.
    await pickOption(page, 'filter-op-0', en.campaignEditor.filter.ops.in);
    await page.getByTestId('filter-values-0').fill('کرج');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await poll(() => audienceCount(page)).toBe(String(KARAJ.length));
    await page.getByTestId('filter-values-0').fill('طهران');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await poll(() => audienceCount(page)).toBe(String(KARAJ.length + 1));
    // Back to "is": the value typed for it is still there.
    await pickOption(page, 'filter-op-0', en.campaignEditor.filter.ops.equals);
    await poll(() => audienceCount(page)).toBe(String(TEHRAN.length));

    // The audience as a segment of its own, with its size, found in Contacts.
    await page.getByTestId('editor-save-segment').click();
    await page.getByTestId('save-segment-name').fill('Tehran customers');
    await page.getByTestId('save-segment-start').click();
    const saving = page.getByTestId('save-segment-progress');
    await poll(() => saving.getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
    await poll(() => saving.getAttribute('data-members')).toBe(String(TEHRAN.length));
    await screenshot(page, 'targeting-save-segment-en');
    const saved = Number(await saving.getAttribute('data-segment'));
    await page.getByTestId('save-segment-close').click();
    const members = await bridge<{ members: Array<{ phone: string; fields: Record<string, string> }> }>(
      page,
      'segments:members',
      {
        account_id: 1,
        segment_id: saved,
        offset: 0,
        limit: 100,
      },
    );
    expect(members.members.map((m) => m.phone).sort()).toEqual(TEHRAN);
    // Their columns kept as written.
    expect(members.members.find((m) => m.phone === phoneOf(3))?.fields.CITY).toBe(PEOPLE[2]![2]);

    // Scheduled through the confirmation, which says the condition; sent to exactly the five.
    const executionId = await schedule(page, 'targeting-confirm-en', TEHRAN.length, 'CITY is تهران');
    await poll(() => textOf(page, 'report-filter')).toBe('Only people whose CITY is تهران');
    await poll(() => page.getByTestId('report-audience').getAttribute('data-value'), { timeout: 30_000 }).toBe(
      String(TEHRAN.length),
    );
    await poll(() => receptorsOf(app, executionId), { timeout: 30_000 }).toEqual(TEHRAN);
    await screenshot(page, 'targeting-report-en');

    // The saved segment is in Contacts with its members.
    await page.getByTestId('nav-contacts').click();
    await page.goto(`${new URL(page.url()).origin}/#/contacts/segment/${saved}`);
    await poll(() => page.getByTestId('segment-members').getAttribute('data-value')).toBe(String(TEHRAN.length));
    expect(problemsOf(app)).toEqual([]);
  }, 90_000);

  it('in Persian: CITY one of کرج and یزد, AGE between ۲۰ and ۳۰, in words and digits of Persian', async () => {
    const { page } = app;
    for (const close of await page.locator('.mantine-Notification-root button').all())
      await close.click({ timeout: 2_000 }).catch(() => undefined);
    await switchToPersian(page);
    await newCampaign(page, 'جشنواره کرج و یزد', segmentId, 'سلام {{NAME}}، جشنواره از جمعه');
    await poll(() => audienceCount(page)).toBe(String(PEOPLE.length - 1));

    await page.getByTestId('filter-add').click();
    await pickOption(page, 'filter-column-0', 'CITY');
    await pickOption(page, 'filter-op-0', fa.campaignEditor.filter.ops.in);
    await page.getByTestId('filter-values-0').fill('كرج');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    // Typed with an Arabic kaf, both spellings caught.
    await poll(() => audienceCount(page)).toBe(String(KARAJ.length));
    await page.getByTestId('filter-values-0').fill('یزد');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await poll(() => audienceCount(page)).toBe('4');

    // All conditions hold: AGE between 20 and 30, typed in Persian digits.
    await page.getByTestId('filter-add').click();
    await pickOption(page, 'filter-column-1', 'AGE');
    await pickOption(page, 'filter-op-1', fa.campaignEditor.filter.ops.between);
    await page.getByTestId('filter-from-1').fill('۲۰');
    await page.getByTestId('filter-to-1').fill('۳۰');
    await poll(() => audienceCount(page)).toBe(String(KARAJ_YAZD_20S.length));
    await poll(() => sentence(page)).toContain('9 نفر با شرط‌ها کنار گذاشته شدند');
    expect(await page.getByTestId('editor-audience-count').innerText()).toBe('۲');
    const words = await textOf(page, 'filter-words');
    // The values as typed (the Arabic kaf), compared folded.
    expect(words).toContain('كرج یا یزد');
    expect(words).toContain('بین ۲۰ و ۳۰');
    expect(words).not.toMatch(/[0-9]/);
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    await screenshot(page, 'targeting-builder-fa');
    await page.getByTestId('editor-audience').scrollIntoViewIfNeeded();
    await screenshot(page, 'targeting-explained-fa');

    // JOINED from today on, picked in the Jalali calendar: of the two, only Hamid joins in ۱۴۰۹.
    await page.getByTestId('filter-add').click();
    await pickOption(page, 'filter-column-2', 'JOINED');
    await pickOption(page, 'filter-op-2', fa.campaignEditor.filter.ops.between);
    await page.getByTestId('filter-kind-2').getByText(fa.campaignEditor.filter.kind.date).click();
    await page.getByTestId('filter-from-2').click();
    const picker = page.getByTestId('filter-from-2-picker');
    await picker.waitFor();
    expect(await picker.innerText()).toMatch(/فروردین|اردیبهشت|خرداد|تیر|مرداد|شهریور|مهر|آبان|آذر|دی|بهمن|اسفند/);
    await screenshot(page, 'targeting-date-picker-fa');
    await picker.locator(`button[data-date="${today(ZONE)}"]`).click();
    await poll(() => audienceCount(page)).toBe('1');
    expect(await textOf(page, 'filter-words')).toMatch(/JOINED از .*۱۴۰۵ به بعد است/);
    // Taken away, the two are back.
    await page.getByTestId('filter-remove-2').click();
    await poll(() => audienceCount(page)).toBe(String(KARAJ_YAZD_20S.length));

    const executionId = await schedule(page, 'targeting-confirm-fa', KARAJ_YAZD_20S.length, 'بین ۲۰ و ۳۰');
    await poll(() => page.getByTestId('report-audience').getAttribute('data-value'), { timeout: 30_000 }).toBe(
      String(KARAJ_YAZD_20S.length),
    );
    await poll(() => receptorsOf(app, executionId), { timeout: 30_000 }).toEqual(KARAJ_YAZD_20S);
    expect(await textOf(page, 'report-filter')).toContain('بین ۲۰ و ۳۰');
    await screenshot(page, 'targeting-report-fa');
    expect(problemsOf(app)).toEqual([]);
  }, 90_000);
});
