// Issue 35, items 3 and 6 in the real UI, in English and Persian: a Persian text that starts with
// {{NAME}}, a number or a Latin word is laid out right to left in Compose's editor and preview,
// the campaign editor and its preview, and the campaign report's header (the computed `direction`);
// English counts say "1 message" and "2 messages"; lines and receivers show Persian digits in
// Persian; a campaign name typed with Arabic ك/ي is saved with Persian ک/ی; the time zone and the
// backups are named in the UI's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright';
import { openPage, screenshot, startApp, type RunningApp } from './app';
import { bridge, poll, switchToPersian } from './scenarios';
import { createSegment } from '../campaigns/support';
import { toPersianDigits } from '../../shared/digits';

const LINE = '30001111';
const PERSIAN_TEXTS = [
  '{{NAME}} عزیز، حراج پاییزه با ۲۰٪ تخفیف',
  '۲۰٪ تخفیف برای مشتریان ویژه تا جمعه',
  'Chapar: حراج پاییزه با تخفیف ویژه',
];

// (The window's getComputedStyle by name: this file compiles without the DOM lib.)
type Styled = { getComputedStyle(element: unknown): { direction: string; textAlign: string } };
const directionOf = (locator: Locator) =>
  locator.evaluate((element) => (globalThis as unknown as Styled).getComputedStyle(element).direction);
/** Where a text box starts its lines: a right-to-left text at the right in either UI. */
const alignOf = (locator: Locator) =>
  locator.evaluate((element) => (globalThis as unknown as Styled).getComputedStyle(element).textAlign);

/** Compose: a text and receivers, up to the confirmation's button (the dialog left open). */
async function draftSend(page: Page, text: string, receivers: string[]): Promise<Locator> {
  await page.getByTestId('compose-text').fill(text);
  await page.getByTestId('compose-receivers').fill(receivers.join('\n'));
  await poll(() => page.getByTestId('compose-valid-count').getAttribute('data-value')).toBe(String(receivers.length));
  await page.getByTestId('compose-send').click();
  const confirm = page.getByTestId('confirm-send');
  await poll(() => confirm.isEnabled()).toBe(true);
  return confirm;
}

describe('words and direction in both languages (web UI)', () => {
  let app: RunningApp;
  let segment: number;
  beforeAll(async () => {
    app = await startApp({ timezoneId: 'Asia/Tehran' });
    segment = await createSegment(app.url, ['09121000001', '09121000002'], { NAME: (i) => ['سارا', 'علی'][i]! });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  for (const language of ['en', 'fa'] as const) {
    it(`lays out Persian right to left and says counts, numbers and names in ${language}`, async () => {
      const { page } = app;
      if (language === 'fa') await switchToPersian(page);
      const number = (ascii: string) => (language === 'fa' ? toPersianDigits(ascii) : ascii);

      // ---- Compose: the editor and the preview take the text's direction, not its first letter's.
      await openPage(page, 'compose');
      await poll(() => page.getByTestId('compose-line').inputValue()).toContain(number(LINE));
      for (const text of PERSIAN_TEXTS) {
        await page.getByTestId('compose-text').fill(text);
        expect(await directionOf(page.getByTestId('compose-text')), text).toBe('rtl');
        expect(await alignOf(page.getByTestId('compose-text')), text).toBe('right');
        await poll(() => page.getByTestId('compose-final-text').innerText()).toContain(text.slice(-6));
        expect(await directionOf(page.getByTestId('compose-final-text')), text).toBe('rtl');
      }
      await screenshot(page, `words-compose-rtl-${language}`);
      await page.getByTestId('compose-text').fill('Hello {{NAME}}, 20% off this Friday');
      expect(await directionOf(page.getByTestId('compose-text'))).toBe('ltr');
      await poll(() => directionOf(page.getByTestId('compose-final-text'))).toBe('ltr');

      // ---- Plurals on the confirmation: one message, then two.
      const one = await draftSend(page, `${PERSIAN_TEXTS[1]} ${language}`, ['09121110001']);
      expect(await one.innerText()).toBe(language === 'en' ? 'Send 1 message' : `ارسال ${number('1')} پیام`);
      await page.getByTestId('confirm-cancel').click();
      await page.getByTestId('compose-confirm').waitFor({ state: 'detached' });
      const two = await draftSend(page, `${PERSIAN_TEXTS[1]} ${language}`, ['09121110001', '09121110002']);
      expect(await two.innerText()).toBe(language === 'en' ? 'Send 2 messages' : `ارسال ${number('2')} پیام`);
      await screenshot(page, `words-compose-confirm-${language}`);
      await two.click();
      await page.getByTestId('compose-confirm').waitFor({ state: 'detached' });
      await page.getByTestId('compose-result').waitFor();

      // ---- Messages: lines and receivers in the language's digits, read left to right.
      await openPage(page, 'messages');
      const row = page.locator('[data-testid="message-row"]').first();
      await row.waitFor();
      expect(await row.getByTestId('message-sender').innerText()).toBe(number(LINE));
      expect(await row.getByTestId('message-receptor').innerText()).toMatch(
        language === 'fa' ? /^۰۹۱۲۱۱۱۰۰۰[۱۲]$/ : /^0912111000[12]$/,
      );
      expect(await directionOf(row.getByTestId('message-text'))).toBe('rtl');
      const count = page.getByTestId('messages-count');
      await poll(() => count.getAttribute('data-value')).not.toBe('');
      const total = Number(await count.getAttribute('data-value'));
      expect(await count.innerText()).toBe(
        language === 'en' ? `${total} message${total === 1 ? '' : 's'}` : `${number(String(total))} پیام`,
      );
      await screenshot(page, `words-messages-${language}`);

      // ---- The campaign editor and its preview, and the time zone by its city.
      const draft = await bridge<{ draft_id: number }>(page, 'campaigns:draftSave', {
        account_id: 1,
        fields: {
          name: `حراج ${language}`,
          sender: LINE,
          template_body: PERSIAN_TEXTS[0],
          inclusion_segments: [segment],
        },
      });
      await page.evaluate(`location.hash = '#/campaigns/draft/${draft.draft_id}'`);
      await poll(() => page.getByTestId('editor-body').inputValue()).toBe(PERSIAN_TEXTS[0]);
      expect(await directionOf(page.getByTestId('editor-body'))).toBe('rtl');
      expect(await alignOf(page.getByTestId('editor-body'))).toBe('right');
      await poll(() => page.getByTestId('editor-sample-text').innerText()).toMatch(/^(سارا|علی) عزیز/);
      expect(await directionOf(page.getByTestId('editor-sample-text'))).toBe('rtl');
      expect(await page.getByTestId('editor-sample-receptor').innerText()).toMatch(
        language === 'fa' ? /^۰۹۱۲۱۰۰۰۰۰[۱۲]$/ : /^0912100000[12]$/,
      );
      await page.getByTestId('editor-when-later').click();
      await poll(() => page.getByTestId('editor-zone').inputValue()).toMatch(
        language === 'fa' ? /^تهران \(/ : /^Tehran \(/,
      );
      await screenshot(page, `words-campaign-editor-${language}`);

      // ---- A campaign named with Arabic ك/ي: saved with Persian letters; its report's header.
      const created = await bridge<{ campaign_id: number; execution_id: number }>(page, 'campaigns:create', {
        account_id: 1,
        sender: LINE,
        name: `كمپين پاييزي ${language}`,
        template_body: PERSIAN_TEXTS[2],
        send_datetime: new Date(Date.now() + 86_400_000).toISOString(),
        inclusion_segments: [segment],
      });
      await page.evaluate(`location.hash = '#/campaigns/execution/${created.execution_id}'`);
      const name = page.getByTestId('report-name');
      await poll(() => name.innerText()).toBe(`کمپین پاییزی ${language}`);
      expect(await directionOf(name.locator('bdi'))).toBe('rtl');
      expect(await page.getByTestId('report-text').innerText()).toBe(PERSIAN_TEXTS[2]);
      expect(await directionOf(page.getByTestId('report-text'))).toBe('rtl');
      await screenshot(page, `words-report-${language}`);

      // ---- A backup named in the language.
      await openPage(page, 'settings');
      await page.getByTestId('settings-tab-backup').click();
      await page.getByTestId('backup-create').click();
      await page.getByTestId('backup-done').waitFor();
      await poll(() => page.getByTestId('backup-name').first().innerText()).toMatch(
        language === 'fa'
          ? /^نسخهٔ پشتیبان ۱۴[۰-۹]{2}\/[۰-۹]{2}\/[۰-۹]{2} [۰-۹:]+$/
          : /^Backup of 20\d\d-\d\d-\d\d [\d:]+$/,
      );
      await screenshot(page, `words-backup-${language}`);
      expect(app.problems.filter((p) => !p.includes('quote'))).toEqual([]);
    }, 90_000);
  }
});
