// Settings as a shop owner uses them, in both languages: a line number typed in Persian digits is
// stored in Latin ones, a number of the wrong form or a duplicate is refused with a message that
// says what to do, and a line that never sent can be removed; amounts and prices take Persian
// digits, and a negative price or an absurd top-up is refused with a message (never saved as
// something else); a restore says it succeeded and stays on its tab; the new API key's dialog asks
// before closing unseen; a send's refunds are one ledger row that opens; each tab has an address.
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { KEY, post } from '../helpers/server';
import { screenshot, startApp, type RunningApp } from './app';
import { bridgeCall, poll } from './scenarios';

let app: RunningApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Opens a Settings tab by its address, as a link from another screen would. */
async function openTab(page: Page, tab: string): Promise<void> {
  // (Strings: this file compiles without the DOM lib.)
  await page.evaluate(`window.location.hash = '#/settings/${tab}'`);
  await page.getByTestId('page-settings').waitFor();
  await poll(() => page.getByTestId(`settings-tab-${tab}`).getAttribute('aria-selected')).toBe('true');
}

/** Refusals the tests cause on purpose answer 400 over the bridge: anything else is a problem. */
function unexpectedProblems(running: RunningApp): string[] {
  return running.problems.filter((p) => !/^(HTTP 4\d\d \/bridge\/invoke\/|console: Failed to load resource)/.test(p));
}

const TEXTS = {
  en: {
    smsForm: '4 to 14 digits',
    exists: 'already exists',
    hasMessages: 'Deactivate it instead',
    atLeast: 'Must be at least 0',
    atMost: 'Must be at most 10,000,000,000,000',
    balanceTooLarge: 'the most an account can hold',
    restored: 'Restored from',
    notCopied: 'it will not be shown again',
    refundGroup: '3 messages',
    persianAmount: '50000',
  },
  fa: {
    smsForm: '۴ تا ۱۴ رقم',
    exists: 'از قبل در این حساب',
    hasMessages: 'غیرفعالش کنید',
    atLeast: 'باید دست‌کم',
    atMost: '۱۰٬۰۰۰٬۰۰۰٬۰۰۰٬۰۰۰',
    balanceTooLarge: 'بیشترین موجودی یک حساب',
    restored: 'بازگردانی شد',
    notCopied: 'دیگر نمایش داده نمی‌شود',
    refundGroup: '۳ پیام',
    persianAmount: '۵۰٬۰۰۰',
  },
} as const;

for (const [locale, language] of [
  ['en-US', 'en'],
  ['fa-IR', 'fa'],
] as const) {
  const text = TEXTS[language];

  describe(`Settings for everyday use (${language})`, () => {
    it('checks lines: a wrong form and a duplicate say why, Persian digits are stored in Latin ones, an unused line goes', async () => {
      app = await startApp({ locale });
      const { page } = app;
      await openTab(page, 'lines');
      await page.getByTestId('lines-table').waitFor();
      const number = page.getByTestId('line-number');
      expect(await page.getByTestId('line-hint').innerText()).toContain(text.smsForm);

      await number.fill('abc');
      await page.getByTestId('line-add').click();
      await poll(() => page.getByTestId('line-refused').innerText()).toContain(text.smsForm);
      expect(await page.locator('[data-testid="line-row"][data-number="abc"]').count()).toBe(0);
      // What was typed stays, to be corrected.
      expect(await number.inputValue()).toBe('abc');
      await screenshot(page, `${language}-settings-line-refused`);

      await number.fill('۱۰۰۰۲۰۰۰');
      await page.getByTestId('line-add').click();
      await page.locator('[data-testid="line-row"][data-number="10002000"]').waitFor();
      expect(await number.inputValue()).toBe('');
      // The API now takes the line by its Latin number.
      const sent = await post(`${app.url}/v2/sms/send`, {
        message: 'x',
        sender: '10002000',
        receivers: ['09121234567'],
      });
      expect(sent.body.return.status).toBe(200);

      await number.fill('30001111');
      await page.getByTestId('line-add').click();
      await poll(() => page.getByTestId('line-refused').innerText()).toContain(text.exists);
      expect(await page.locator('[data-testid="line-row"][data-number="30001111"]').count()).toBe(1);

      // A line that never sent is removed; one that sent is kept, the dialog says to deactivate it.
      await number.fill('30007777');
      await page.getByTestId('line-add').click();
      const unused = page.locator('[data-testid="line-row"][data-number="30007777"]');
      await unused.waitFor();
      await unused.getByTestId('line-delete').click();
      await page.getByTestId('line-delete-confirm').click();
      await unused.waitFor({ state: 'detached' });
      await page.locator('[data-testid="line-row"][data-number="10002000"]').getByTestId('line-delete').click();
      await page.getByTestId('line-delete-confirm').click();
      await poll(() => page.getByTestId('line-delete-refused').innerText()).toContain(text.hasMessages);
      await screenshot(page, `${language}-settings-line-delete-refused`);
      await page.getByTestId('line-delete-deactivate').click();
      await poll(() =>
        page.locator('[data-testid="line-row"][data-number="10002000"]').getByTestId('line-activate').count(),
      ).toBe(1);
      expect(unexpectedProblems(app)).toEqual([]);
    });

    it('takes Persian digits in amounts and prices, and refuses a negative price and an absurd top-up with a message', async () => {
      app = await startApp({ locale });
      const { page } = app;
      await page.setViewportSize({ width: 1024, height: 768 });
      await openTab(page, 'credit');
      await page.getByTestId('ledger-row').first().waitFor();
      const amount = page.getByTestId('credit-amount');
      await amount.fill('۵۰۰۰۰');
      await page.getByTestId('credit-topup').click();
      await page.getByTestId('credit-topup-confirm').click();
      await poll(() => page.getByTestId('credit-balance').innerText()).toContain(
        language === 'fa' ? '۱۰٬۰۵۰٬۰۰۰' : '10,050,000',
      );

      await amount.fill('99,999,999,999,999,999,999');
      await poll(() => page.locator('body').innerText()).toContain(text.atMost);
      expect(await page.getByTestId('credit-topup').isDisabled()).toBe(true);
      await screenshot(page, `${language}-settings-topup-too-large`);
      // Near the most an account may hold, the service refuses what would pass it.
      for (let i = 0; i < 99; i++)
        expect((await bridgeCall(page, 'credit:topUp', { account_id: 1, amount_rials: 10 ** 13 })).ok).toBe(true);
      await amount.fill(language === 'fa' ? '۱۰۰۰۰۰۰۰۰۰۰۰۰۰' : '10000000000000');
      await page.getByTestId('credit-topup').click();
      await page.getByTestId('credit-topup-confirm').click();
      await poll(() => page.getByTestId('credit-refused').innerText()).toContain(text.balanceTooLarge);
      // The confirmation hands the focus back when it has gone: typing before then could lose keys.
      await page.getByTestId('credit-topup-confirm').waitFor({ state: 'detached' });
      // Typed digits show in the language's own.
      await amount.fill('');
      await poll(() => amount.inputValue()).toBe('');
      await amount.fill('۷۰');
      await amount.blur();
      expect(await amount.inputValue()).toBe(language === 'fa' ? '۷۰' : '70');
      // Coming back with the keyboard selects the whole amount: what is typed replaces it.
      await amount.press('Tab');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.type('8');
      expect(await amount.inputValue()).toBe(language === 'fa' ? '۸' : '8');

      await openTab(page, 'pricing');
      const sms = page.getByTestId('pricing-sms');
      await sms.fill('-5');
      await poll(() => page.locator('body').innerText()).toContain(text.atLeast);
      expect(await page.getByTestId('pricing-save').isDisabled()).toBe(true);
      await screenshot(page, `${language}-settings-price-negative`);
      expect((await bridgeCall(page, 'pricing:get', null)).value.sms_page_tomans).toBe(150);
      await sms.fill('۲۰۰');
      await page.getByTestId('pricing-save').click();
      await poll(async () => (await bridgeCall(page, 'pricing:get', null)).value.sms_page_tomans).toBe(200);
      await poll(() => sms.inputValue()).toBe(language === 'fa' ? '۲۰۰' : '200');
      expect(unexpectedProblems(app)).toEqual([]);
    });

    it('asks before the new API key closes uncopied; groups a send’s refunds; says a restore succeeded, on its tab', async () => {
      app = await startApp({
        locale,
        seed: { simulator: { seed: 1, handoff_ms: 20, delivery_ms: 40, outcomes: { '13': 1 } } },
      });
      const { page } = app;
      await app.context.grantPermissions(['clipboard-read', 'clipboard-write']);

      // The tabs have addresses: a click changes it.
      await openTab(page, 'apiKeys');
      await page.getByTestId('apikey-create').click();
      await page.getByTestId('apikey-value').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('apikey-not-copied').waitFor();
      expect(await page.getByTestId('apikey-not-copied').innerText()).toContain(text.notCopied);
      await screenshot(page, `${language}-settings-apikey-not-copied`);
      await page.getByTestId('apikey-back').click();
      await page.getByTestId('apikey-not-copied').waitFor({ state: 'detached' });
      await page
        .getByTestId('apikey-modal')
        .getByRole('button', { name: language === 'fa' ? 'بستن' : 'Close' })
        .first()
        .click();
      await page.getByTestId('apikey-not-copied').waitFor();
      await page.getByTestId('apikey-copy').click();
      await page.keyboard.press('Escape');
      await page.getByTestId('apikey-value').waitFor({ state: 'detached' });

      // Three messages, all cancelled and refunded: one row for the send, which opens to three refunds. The tab is
      // open before the send, so the rows arrive by push: the credit ends where it was, and the
      // ledger is read again all the same.
      await page.getByTestId('settings-tab-credit').click();
      expect(await page.evaluate('window.location.hash')).toBe('#/settings/credit');
      await page.getByTestId('ledger-row').first().waitFor();
      const sent = await post(
        `${app.url}/v2/sms/send`,
        { message: 'x', sender: '30001111', receivers: ['09121234567', '09121234568', '09121234569'] },
        KEY,
      );
      expect(sent.body.return.status).toBe(200);
      const group = page.locator('[data-testid="ledger-row"][data-refunds="3"]');
      await group.waitFor({ timeout: 20_000 });
      expect(await group.innerText()).toContain(text.refundGroup);
      await group.getByTestId('ledger-refunds-toggle').click();
      await poll(() => page.getByTestId('ledger-refund-row').count()).toBe(3);
      await screenshot(page, `${language}-settings-ledger-refunds`);
      // Another send's refunds re-read the ledger: the open group stays open, with its rows.
      const again = await post(
        `${app.url}/v2/sms/send`,
        { message: 'y', sender: '30001111', receivers: ['09121234570'] },
        KEY,
      );
      expect(again.body.return.status).toBe(200);
      await page.locator('[data-testid="ledger-row"][data-refunds="1"]').waitFor({ timeout: 20_000 });
      await poll(() => page.getByTestId('ledger-refund-row').count()).toBe(3);

      await page.getByTestId('settings-tab-backup').click();
      await page.getByTestId('backup-create').click();
      await page.getByTestId('backup-done').waitFor();
      expect(await page.getByTestId('backup-done').innerText()).not.toMatch(/KB KB|کیلوبایت کیلوبایت/);
      await page.getByTestId('restore-start').click();
      await page.getByTestId('restore-confirm').click();
      // The window reloads on the restored data, on the Backup tab, and says it went well.
      await page.getByTestId('restore-success').waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('restore-success').innerText()).toContain(text.restored);
      expect(await page.evaluate('window.location.hash')).toBe('#/settings/backup');
      expect(await page.getByTestId('settings-tab-backup').getAttribute('aria-selected')).toBe('true');
      await screenshot(page, `${language}-settings-restored`);
      // Said once: another visit of the tab is quiet.
      await page.reload();
      await page.getByTestId('backup-create').waitFor();
      expect(await page.getByTestId('restore-success').count()).toBe(0);
      expect(unexpectedProblems(app)).toEqual([]);
    });
  });
}
