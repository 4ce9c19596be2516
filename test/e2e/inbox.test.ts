// The Inbox in both languages: the simulator's replies to delivered messages arrive (pushed: the
// nav's badge counts them unread, in the language's digits), each shows the message it answers;
// opening one marks it read; opt-out replies carry a badge, lead to the opt-out list that now
// holds their numbers, and can be listed alone; a search that matches nothing says so; and the
// simulator's reply settings take Persian digits.
import { afterEach, describe, expect, it } from 'vitest';
import { KEY, post } from '../helpers/server';
import { screenshot, startApp, type RunningApp } from './app';
import { bridge, poll } from './scenarios';
import { toAsciiDigits } from '../../shared/digits';

let app: RunningApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const RECEIVERS = Array.from({ length: 8 }, (_, i) => `0912300000${i}`);
const SIMULATOR = {
  seed: 7,
  handoff_ms: 20,
  delivery_ms: 40,
  outcomes: { '10': 1 },
  reply_share: 1,
  optout_share: 0.4,
  reply_ms: 200,
};

const TEXTS = {
  en: { inReplyTo: 'In reply to your message of', optOut: 'Opted out', empty: 'No reply matches' },
  fa: { inReplyTo: 'در پاسخ به پیام شما در', optOut: 'لغو عضویت', empty: 'هیچ پاسخی با این فیلترها نیست' },
} as const;

for (const [locale, language] of [
  ['en-US', 'en'],
  ['fa-IR', 'fa'],
] as const) {
  const text = TEXTS[language];

  describe(`Inbox (${language})`, () => {
    it('shows the replies as they come, each with the message it answers; opt-outs marked and on the list', async () => {
      app = await startApp({ locale, seed: { simulator: SIMULATOR } });
      const { page } = app;
      const sent = await post(
        `${app.url}/v2/sms/send`,
        { message: 'Spring sale', sender: '30001111', receivers: RECEIVERS },
        KEY,
      );
      expect(sent.status).toBe(200);

      // Pushed: the badge counts the replies without a page being opened.
      const badge = page.getByTestId('nav-inbox-unread');
      await poll(() => badge.getAttribute('data-value')).toBe(String(RECEIVERS.length));
      const badgeText = (await badge.textContent())?.trim();
      expect(badgeText).toBe(language === 'fa' ? '۸' : '8');

      await page.getByTestId('nav-inbox').click();
      await page.getByTestId('page-inbox').waitFor();
      const items = page.getByTestId('inbox-item');
      await poll(() => items.count()).toBe(RECEIVERS.length);
      expect(await page.locator('[data-testid="inbox-item"][data-unread="true"]').count()).toBe(RECEIVERS.length);
      const first = items.first();
      expect(await first.getByTestId('inbox-replied-text').innerText()).toContain('Spring sale');
      expect(await first.getByTestId('inbox-replied-meta').innerText()).toContain(text.inReplyTo);
      const sender = await first.getByTestId('inbox-sender').innerText();
      expect(RECEIVERS).toContain(toAsciiDigits(sender));
      if (language === 'fa') {
        expect(sender).toMatch(/^[۰-۹]+$/);
        // Jalali dates: the year 14xx, in Persian digits.
        expect(await first.getByTestId('inbox-time').innerText()).toMatch(/^۱۴[۰-۹]{2}\//);
      }
      const optOuts = page.locator('[data-testid="inbox-item"][data-optout="true"]');
      const optOutCount = await optOuts.count();
      expect(optOutCount).toBeGreaterThan(0);
      expect(optOutCount).toBeLessThan(RECEIVERS.length);
      expect((await optOuts.first().getByTestId('inbox-optout-badge').textContent())?.trim()).toBe(text.optOut);
      await screenshot(page, `${language}-inbox`);

      // Opening one marks it read; the badge follows.
      await first.click();
      await poll(() => first.getAttribute('data-unread')).toBe('false');
      await poll(() => badge.getAttribute('data-value')).toBe(String(RECEIVERS.length - 1));

      // Opt-outs alone, then their list.
      await page.getByTestId('inbox-optouts-only').click();
      await poll(() => items.count()).toBe(optOutCount);
      const optedOut = toAsciiDigits(await items.first().getByTestId('inbox-sender').innerText());
      await screenshot(page, `${language}-inbox-optouts`);
      await items.first().getByTestId('inbox-optout-link').click();
      await page.getByTestId('page-optouts').waitFor();
      await poll(() => page.getByTestId('optouts-count').getAttribute('data-value')).toBe(String(optOutCount));
      expect(await page.locator(`[data-testid="optout-phone"][data-phone="${optedOut}"]`).count()).toBe(1);

      // Back: a search that matches nothing says so; then all read at once.
      await page.getByTestId('nav-inbox').click();
      await page.getByTestId('inbox-search').fill(language === 'fa' ? '۰۹۱۹۹' : '09199');
      await poll(() => page.getByTestId('inbox-empty').isVisible()).toBe(true);
      expect(await page.getByTestId('inbox-empty').innerText()).toContain(text.empty);
      await screenshot(page, `${language}-inbox-empty-search`);
      await page.getByTestId('inbox-search').fill('');
      await page.getByTestId('inbox-optouts-only').click();
      await page.getByTestId('inbox-mark-all').click();
      await poll(() => page.locator('[data-testid="inbox-item"][data-unread="true"]').count()).toBe(0);
      await poll(() => badge.count()).toBe(0);
      expect(app.problems).toEqual([]);
    });

    it('says so when no reply came yet, and takes the reply settings in Persian digits', async () => {
      app = await startApp({ locale });
      const { page } = app;
      await page.getByTestId('nav-inbox').click();
      await page.getByTestId('inbox-empty').waitFor();
      await screenshot(page, `${language}-inbox-empty`);

      await page.evaluate(`window.location.hash = '#/settings/simulator'`);
      await page.getByTestId('simulator-reply-share').waitFor();
      await page.getByTestId('simulator-reply-share').fill('');
      await page.getByTestId('simulator-reply-share').fill(language === 'fa' ? '۰٫۵' : '0.5');
      await page.getByTestId('simulator-optout-share').fill('');
      await page.getByTestId('simulator-optout-share').fill(language === 'fa' ? '۰٫۲۵' : '0.25');
      await page.getByTestId('simulator-reply-delay').fill('');
      await page.getByTestId('simulator-reply-delay').fill(language === 'fa' ? '۱۲۰۰' : '1200');
      await screenshot(page, `${language}-settings-simulator-replies`);
      await page.getByTestId('simulator-save').click();
      await poll(async () => {
        const simulator = await bridge<typeof SIMULATOR>(page, 'simulator:get', undefined);
        return [simulator.reply_share, simulator.optout_share, simulator.reply_ms];
      }).toEqual([0.5, 0.25, 1200]);
      // A share above 1 is refused next to its field, not saved.
      await page.getByTestId('simulator-reply-share').fill('2');
      expect(await page.getByTestId('simulator-save').isDisabled()).toBe(true);
      expect(app.problems).toEqual([]);
    });
  });
}
