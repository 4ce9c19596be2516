// Conversations in the Inbox, in Chromium, in both languages: the simulator's replies come in (two
// lines, counted unread per line in the language's digits), a reply shows the customer's name from
// a segment; its conversation shows the card, the thread (our message and their reply); the answer
// from the reply box goes through a confirmation stating the line and the cost, and appears in the
// thread with its live status (delivered); the customer's next reply comes in; marking it done
// leaves the open view, the line's unread count drops, and the done view holds it.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KEY, post } from '../helpers/server';
import { createSegment } from '../campaigns/support';
import { ensureFreshRenderer, screenshot, startApp, type RunningApp } from './app';
import { bridge, poll } from './scenarios';
import { MessageStatus } from '../../shared/lifecycle';

let app: RunningApp | undefined;
// A renderer build (when its sources changed) is not the test's time.
beforeAll(() => ensureFreshRenderer(), 300_000);
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const CUSTOMER = '09123000001';
const OTHERS = ['09123000002', '09123000003'];
const ON_OTHER_LINE = '09123000004';
const SIMULATOR = {
  seed: 7,
  handoff_ms: 20,
  delivery_ms: 40,
  outcomes: { '10': 1 },
  reply_share: 1,
  optout_share: 0,
  reply_ms: 200,
};

const TEXTS = {
  en: { segments: 'In 1 segment: Customers', answer: 'Thanks Maryam, the sale ends Friday', segment: 'Customers' },
  fa: { segments: 'در ۱ بخش: مشتریان', answer: 'سلام مریم، حراج تا جمعه است', segment: 'مشتریان' },
} as const;

/** A text without its bidi isolates (the names inside a sentence are isolated). */
const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, '');

for (const [locale, language] of [
  ['en-US', 'en'],
  ['fa-IR', 'fa'],
] as const) {
  const text = TEXTS[language];
  const shown = (n: number) => (language === 'fa' ? String(n).replace(/[0-9]/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[+d]!) : String(n));

  describe(`Conversations (${language})`, () => {
    it('answers a reply from the Inbox, with its cost confirmed, then marks it done', async () => {
      app = await startApp({ locale, seed: { simulator: SIMULATOR } });
      const { page } = app;
      const segment = await createSegment(app.url, [CUSTOMER, OTHERS[0]!], {
        NAME: (i) => ['مریم رضایی', 'Ali Karimi'][i]!,
        CITY: (i) => ['تهران', 'قم'][i]!,
      });
      await bridge(page, 'segments:rename', { account_id: 1, segment_id: segment, name: text.segment });
      const sent = await post(
        `${app.url}/v2/sms/send`,
        { message: 'Spring sale', sender: '30001111', receivers: [CUSTOMER, ...OTHERS] },
        KEY,
      );
      expect(sent.status).toBe(200);
      // A panel send from the second line: its reply comes to that line.
      await bridge(page, 'messages:send', {
        account_id: 1,
        sender: '30002222',
        message: 'Your order is ready',
        receivers: [ON_OTHER_LINE],
      });

      const badge = page.getByTestId('nav-inbox-unread');
      await poll(() => badge.getAttribute('data-value')).toBe('4');
      await page.getByTestId('nav-inbox').click();
      await page.getByTestId('page-inbox').waitFor();
      const chip = (line: string) => page.locator(`[data-testid="inbox-line-chip"][data-line="${line}"]`);
      await poll(() => chip('30001111').getAttribute('data-unread')).toBe('3');
      expect(await chip('30002222').getAttribute('data-unread')).toBe('1');
      expect((await chip('30001111').getByTestId('inbox-line-unread').innerText()).trim()).toBe(shown(3));

      // The customer's reply names them from the segment, with its columns.
      const items = page.getByTestId('inbox-item');
      await poll(() => items.count()).toBe(4);
      const reply = items.filter({ has: page.getByText('مریم رضایی') });
      expect(await reply.count()).toBe(1);
      expect(await reply.getByTestId('inbox-contact-name').innerText()).toBe('مریم رضایی');
      const segments = plain(await reply.getByTestId('inbox-contact-segments').innerText());
      expect(segments).toContain(text.segments);
      expect(segments).toContain('تهران');
      // One line's replies alone.
      await chip('30002222').click();
      await poll(() => items.count()).toBe(1);
      await page.getByTestId('inbox-all-lines').click();
      await poll(() => items.count()).toBe(4);
      await screenshot(page, `${language}-conversations-inbox`);

      // Its conversation: the card and the thread, our message below their reply.
      await reply.getByTestId('inbox-open-thread').click();
      const view = page.getByTestId('inbox-conversation');
      await view.waitFor();
      expect(await view.getByTestId('conversation-name').innerText()).toBe('مریم رضایی');
      expect(plain(await view.getByTestId('conversation-segments').innerText())).toContain(text.segments);
      const entries = view.getByTestId('conversation-entry');
      await poll(() => entries.count()).toBe(2);
      expect(await entries.nth(0).getAttribute('data-kind')).toBe('received');
      expect(await entries.nth(1).getAttribute('data-kind')).toBe('sent');
      expect(await entries.nth(1).getAttribute('data-status')).toBe(String(MessageStatus.Delivered));
      // Opening it read the reply: the badge counts the other three.
      await poll(() => badge.getAttribute('data-value')).toBe('3');

      // The answer: from the line the customer wrote to, confirmed with its cost before it goes.
      expect(await view.getByTestId('conversation-reply').getAttribute('data-line')).toBe('30001111');
      await view.getByTestId('conversation-reply-text').fill(text.answer);
      expect(await view.getByTestId('conversation-reply-text').getAttribute('dir')).toBe(
        language === 'fa' ? 'rtl' : 'ltr',
      );
      await view.getByTestId('conversation-reply-send').click();
      const confirm = page.getByTestId('reply-confirm');
      await poll(() => confirm.getByTestId('reply-confirm-total').count()).toBe(1);
      // One UCS-2 page with the opt-out phrase: 150 tomans, 1,500 rials.
      expect(await confirm.getByTestId('reply-confirm-total').getAttribute('data-value')).toBe('1500');
      expect(await confirm.getByTestId('reply-confirm-line').getAttribute('data-value')).toBe('30001111');
      expect(await confirm.getByTestId('reply-confirm-messages').getAttribute('data-value')).toBe('1');
      expect(await confirm.getByTestId('reply-confirm-line').innerText()).toBe(
        language === 'fa' ? '۳۰۰۰۱۱۱۱' : '30001111',
      );
      await screenshot(page, `${language}-conversations-confirm`);
      await confirm.getByTestId('reply-confirm-send').click();
      await poll(() => confirm.count()).toBe(0);

      // In the thread with its status, delivered live; then the customer's next reply.
      await poll(() => entries.count(), { timeout: 15_000 }).toBe(4);
      const answer = view.locator('[data-testid="conversation-entry"][data-kind="sent"]').first();
      expect(await answer.getByTestId('conversation-entry-text').innerText()).toContain(text.answer);
      await poll(() => answer.getAttribute('data-status')).toBe(String(MessageStatus.Delivered));
      expect(await entries.nth(0).getAttribute('data-kind')).toBe('received');
      expect(await view.getByTestId('conversation-reply-text').inputValue()).toBe('');
      await screenshot(page, `${language}-conversations-thread`);

      // Done: the line is marked, the replies read.
      const line = view.locator('[data-testid="conversation-line"][data-line="30001111"]');
      await line.getByTestId('conversation-done').click();
      await poll(() => line.getAttribute('data-done')).toBe('true');
      await poll(() => badge.getAttribute('data-value')).toBe('3');

      // Back in the Inbox: the open view no longer holds it; the line counts the other two.
      await view.getByTestId('conversation-back').click();
      await page.getByTestId('inbox-list').waitFor();
      await poll(() => items.count()).toBe(3);
      expect(await page.getByText('مریم رضایی').count()).toBe(0);
      await poll(() => chip('30001111').getAttribute('data-unread')).toBe('2');
      await page
        .getByTestId('inbox-view')
        .getByText(language === 'fa' ? 'انجام‌شده' : 'Done', { exact: true })
        .click();
      await poll(() => items.count()).toBe(2);
      expect(await page.locator('[data-testid="inbox-item"][data-done="true"]').count()).toBe(2);
      await screenshot(page, `${language}-conversations-done`);

      // Undo: open again, back in the open view.
      await items.first().getByTestId('inbox-done').click();
      await poll(() => items.count()).toBe(0);
      await page
        .getByTestId('inbox-view')
        .getByText(language === 'fa' ? 'باز' : 'Open', { exact: true })
        .click();
      await poll(() => items.count()).toBe(5);
      expect(app.problems).toEqual([]);
    }, 90_000);
  });
}
