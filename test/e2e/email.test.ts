// The Email page in Chromium, in both languages: a segment with PHONE_NUMBER, EMAIL and NAME
// columns (one row without an address, one with an address that is not one), an email written
// with `{{NAME}}` put in by its chip, each recipient's preview with their own name (the HTML shown
// sanitized: the pasted script gone, the remote image not loaded, said so), the skipped rows with
// their row numbers and phones, the count confirmed once (a double click sends once), and the
// results reaching "delivered" for every valid address through the embedded sandbox, live; then
// the filter, the search, the export and the list of sends.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createSegment } from '../campaigns/support';
import { toAsciiDigits } from '../../shared/digits';
import { screenshot, startApp, type RunningApp } from './app';
import { bridge, poll } from './scenarios';

let app: RunningApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const CONTACTS: Array<{ phone: string; email: string; name: string }> = [
  { phone: '09120000001', email: 'sara@example.com', name: 'Sara' },
  { phone: '09120000002', email: '', name: 'Ali' },
  { phone: '09120000003', email: 'reza@example.com', name: 'Reza' },
  { phone: '09120000004', email: 'neda@', name: 'Neda' },
  { phone: '09120000005', email: 'omid@example.com', name: 'Omid' },
  { phone: '09120000006', email: 'maryam@example.com', name: 'Maryam' },
];
const VALID = CONTACTS.filter((c) => c.email.includes('.'));

const HTML =
  '<p>Dear {{NAME}},</p><p>Our <b>spring sale</b> starts today.</p>' +
  '<img src="https://tracker.example/open.gif" alt="">' +
  '<script>parent.document.title = "pwned"</script>' +
  '<p><a href="https://shop.example/spring" onclick="alert(1)">See the sale</a></p>';

const TEXTS = {
  en: { confirm: '4 emails', delivered: 'Delivered' },
  fa: { confirm: '۴ ایمیل', delivered: 'تحویل‌شده' },
} as const;

/**
 * What went wrong in the page, less the preview's refusals of a draft still being written (a
 * sender not yet typed: the page says why instead of a preview, as designed).
 */
function problemsOf(running: RunningApp): string[] {
  return running.problems.filter(
    (problem) =>
      problem !== 'HTTP 400 /bridge/invoke/email:preview' &&
      !/^console: Failed to load resource: .*status of 400/.test(problem),
  );
}

for (const [locale, language] of [
  ['en-US', 'en'],
  ['fa-IR', 'fa'],
] as const) {
  const text = TEXTS[language];

  describe(`Email (${language})`, () => {
    it('composes for a segment, previews each recipient, confirms the count once, sends and follows the results', async () => {
      app = await startApp({ locale });
      const { page } = app;
      const segmentId = await createSegment(
        app.url,
        CONTACTS.map((c) => c.phone),
        { EMAIL: (i) => CONTACTS[i]!.email, NAME: (i) => CONTACTS[i]!.name },
      );
      await bridge(page, 'segments:rename', { account_id: 1, segment_id: segmentId, name: 'Customers' });

      await page.getByTestId('nav-email').click();
      await page.getByTestId('page-email').waitFor();
      await page.getByTestId('email-segment').click();
      await page.getByTestId(`email-segment-option-${segmentId}`).click();
      await page.getByTestId('email-from-email').fill('shop@example.com');
      await page.getByTestId('email-from-name').fill('Shop');
      // The chip puts the column where the cursor is, in the field last written in.
      await page.getByTestId('email-subject').fill('Hello ');
      await page.getByTestId('email-column-NAME').click();
      await poll(() => page.getByTestId('email-subject').inputValue()).toBe('Hello {{NAME}}');
      await page.getByTestId('email-html').fill(HTML);

      // The core's figures: four addresses, two rows skipped.
      await poll(() => page.getByTestId('email-valid').getAttribute('data-value')).toBe('4');
      expect(await page.getByTestId('email-total').getAttribute('data-value')).toBe('6');
      expect(await page.getByTestId('email-skipped-count').getAttribute('data-value')).toBe('2');
      if (language === 'fa') expect(await page.getByTestId('email-valid').innerText()).toBe('۴');

      // Each recipient's own email; the HTML sanitized in a sandboxed frame.
      const subject = page.getByTestId('email-preview-subject');
      const frame = page.frameLocator('[data-testid="email-preview-frame"]');
      await poll(() => subject.innerText()).toBe('Hello Sara');
      await poll(() => frame.locator('body').innerText()).toContain('Dear Sara,');
      const iframe = page.getByTestId('email-preview-frame');
      expect(await iframe.getAttribute('sandbox')).toBe('');
      const srcdoc = (await iframe.getAttribute('srcdoc')) ?? '';
      expect(srcdoc).not.toContain('<script');
      expect(srcdoc).not.toContain('onclick');
      expect(srcdoc).not.toContain('tracker.example');
      expect(srcdoc).not.toContain(' href=');
      expect(await iframe.getAttribute('data-blocked-images')).toBe('1');
      await page.getByTestId('email-preview-blocked').waitFor();
      expect(await frame.locator('a').getAttribute('title')).toBe('https://shop.example/spring');
      expect(await page.title()).not.toBe('pwned');
      await page.getByTestId('email-preview-next').click();
      await poll(() => subject.innerText()).toBe('Hello Reza');
      await poll(() => frame.locator('body').innerText()).toContain('Dear Reza,');
      const position = await page.getByTestId('email-preview-position').innerText();
      expect(position).toContain(language === 'fa' ? '۲' : '2');

      // The skipped rows: which, the phone and why.
      await page.getByTestId('email-skipped-toggle').click();
      const skipped = page.getByTestId('email-skipped-row');
      await poll(() => skipped.count()).toBe(2);
      expect(
        await skipped.evaluateAll((rows) =>
          rows.map((r) => [r.getAttribute('data-row'), r.getAttribute('data-reason'), r.getAttribute('data-phone')]),
        ),
      ).toEqual([
        ['2', 'missing', '09120000002'],
        ['4', 'invalid', '09120000004'],
      ]);
      if (language === 'fa') expect(await skipped.first().innerText()).toContain('۰۹۱۲۰۰۰۰۰۰۲');
      await screenshot(page, `${language}-email-compose`);

      // The confirmation states the count, the segment, the sender and that nothing leaves the machine.
      await page.getByTestId('email-send').click();
      const count = page.getByTestId('email-confirm-count');
      await count.waitFor();
      expect(await count.getAttribute('data-value')).toBe('4');
      expect(await count.innerText()).toContain(text.confirm);
      expect(await page.getByTestId('email-confirm-segment').innerText()).toBe('Customers');
      expect(await page.getByTestId('email-confirm-from').innerText()).toContain('shop@example.com');
      expect(await page.getByTestId('email-confirm-transport').innerText()).toMatch(
        language === 'fa' ? /هیچ‌چیز از این رایانه بیرون نمی‌رود/ : /nothing leaves this computer/,
      );
      await screenshot(page, `${language}-email-confirm`);
      await page.getByTestId('email-confirm-send').dblclick();

      // The results, live: every valid address delivered through the sandbox.
      const results = page.getByTestId('email-results');
      await results.waitFor();
      await poll(() => results.getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
      await poll(() => page.getByTestId('email-count-delivered').getAttribute('data-value')).toBe(String(VALID.length));
      expect(await page.getByTestId('email-count-delivered').innerText()).toContain(text.delivered);
      const rows = page.getByTestId('email-row');
      await poll(() => rows.evaluateAll((r) => r.map((e) => e.getAttribute('data-status')))).toEqual(
        VALID.map(() => 'delivered'),
      );
      expect((await rows.evaluateAll((r) => r.map((e) => e.getAttribute('data-email')))).sort()).toEqual(
        VALID.map((c) => c.email).sort(),
      );
      if (language === 'fa')
        expect(await page.getByTestId('email-results-created').innerText()).toMatch(/^۱۴[۰-۹]{2}\//);
      await screenshot(page, `${language}-email-results`);
      // One send for the double click.
      const sends = await bridge<Array<{ id: number; total: number }>>(page, 'email:sends', { account_id: 1 });
      expect(sends.map((s) => s.total)).toEqual([VALID.length]);

      // Filters: nothing failed; one address by a part of it.
      await page
        .getByTestId('email-filter')
        .getByText(language === 'fa' ? 'تحویل‌نشده' : 'Not delivered')
        .click();
      await page.getByTestId('email-rows-empty').waitFor();
      await page
        .getByTestId('email-filter')
        .getByText(language === 'fa' ? 'همه' : 'All')
        .click();
      await page.getByTestId('email-search').fill('reza');
      await poll(() => page.getByTestId('email-rows-count').getAttribute('data-value')).toBe('1');
      await poll(() => rows.evaluateAll((r) => r.map((e) => e.getAttribute('data-email')))).toEqual([
        'reza@example.com',
      ]);
      await page.getByTestId('email-search').fill('');
      await poll(() => page.getByTestId('email-rows-count').getAttribute('data-value')).toBe(String(VALID.length));

      // The export: a file with every recipient.
      const download = page.waitForEvent('download');
      await page.getByTestId('email-export-csv').click();
      const file = await (await download).path();
      const csv = fs.readFileSync(file, 'utf8');
      for (const contact of VALID) expect(csv).toContain(contact.email);

      // The list of sends, newest first; the composer left empty so the same email is not sent again by accident.
      await page.getByTestId('email-results-back').click();
      const listed = page.getByTestId('email-send-row');
      await poll(() => listed.count()).toBe(1);
      expect(await listed.first().getAttribute('data-state')).toBe('done');
      expect(await listed.first().getByTestId('email-send-subject').innerText()).toBe('Hello {{NAME}}');
      const time = await listed.first().getByTestId('email-send-time').innerText();
      if (language === 'fa') expect(time).toMatch(/^۱۴[۰-۹]{2}\//);
      else expect(toAsciiDigits(time)).toMatch(/^20\d\d-/);
      await screenshot(page, `${language}-email-sends`);
      await page.getByTestId('email-tab-compose').click();
      await poll(() => page.getByTestId('email-subject').inputValue()).toBe('');
      expect(await page.getByTestId('email-send').isDisabled()).toBe(true);
      expect(problemsOf(app)).toEqual([]);
    });
  });
}
