// The composer asks the service for its quote of the very send (the acceptance path's dry run):
// a line that loses its panel permission while the page is open is refused in the preview, in the
// user's language, before anything is sent, exactly as the send would refuse it (412).
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { openPage, screenshot, startApp, type RunningApp } from './app';
import { poll } from './scenarios';

let app: RunningApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Takes the panel permission from a line through the web bridge, as Settings → Lines would. */
async function apiOnly(page: Page, number: string): Promise<void> {
  const result = await page.evaluate(
    async ([line]) => {
      const response = await fetch('/bridge/invoke/lines:upsert', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account_id: 1, number: line, provider: 'sms', permissions: ['can_send_api_campaign'] }),
      });
      return (await response.json()) as { ok: boolean };
    },
    [number] as const,
  );
  expect(result.ok).toBe(true);
}

describe("the composer's quote (web UI)", () => {
  for (const [locale, language, refusal] of [
    ['en-US', 'en', 'may not send from the panel'],
    ['fa-IR', 'fa', 'اجازهٔ ارسال از پنل را ندارد'],
  ] as const)
    it(`refuses a line the panel may not use before sending (${language})`, async () => {
      app = await startApp({ locale });
      const { page } = app;
      await openPage(page, 'compose');
      await page.getByTestId('compose-text').fill('Hi');
      await page.getByTestId('compose-receivers').fill('09121234567');
      await poll(() => page.getByTestId('compose-send').isEnabled()).toBe(true);

      await apiOnly(page, '30001111');
      // The next keystroke asks for a new quote: the service refuses the line now.
      await page.getByTestId('compose-text').fill('Hi!');
      const alert = page.getByTestId('compose-line-refused');
      await alert.waitFor();
      expect(await alert.innerText()).toContain(refusal);
      expect(await page.getByTestId('compose-send').isEnabled()).toBe(false);
      await screenshot(page, `${language}-compose-line-refused`);
      // The refusals themselves (the bridge answers a refused call with its code), and nothing else.
      const unexpected = app.problems.filter(
        (problem) => !problem.includes('412') || !/compose(:|%3A)preview|status of 412/.test(problem),
      );
      expect(unexpected).toEqual([]);
    });
});
