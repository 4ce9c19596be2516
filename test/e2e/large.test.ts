// The messages table at volume: tens of thousands of rows are counted by the service and only
// the visible ones exist in the page; scrolling to the far end fetches just the pages shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, post, testSeed } from '../helpers/server';
import { poll } from './scenarios';
import { openPage, screenshot, startApp, type RunningApp } from './app';

const SENDS = 3;
const PER_SEND = 10_000; // the API's maximum per send

describe('messages table with many rows (web UI)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    const accounts = (testSeed().accounts ?? []).map((account) =>
      account.name === 'acme' ? { ...account, credit_rials: 1_000_000_000 } : account,
    );
    app = await startApp({ seed: { accounts } });
    for (let send = 0; send < SENDS; send++) {
      const receivers = Array.from(
        { length: PER_SEND },
        (_, i) => `091${String(send * PER_SEND + i).padStart(8, '0')}`,
      );
      const result = await post(
        `${app.url}/v2/sms/send`,
        { message: `bulk ${send}`, sender: '30001111', receivers },
        KEY,
      );
      expect(result.status).toBe(200);
    }
  }, 300_000);

  afterAll(async () => {
    await app?.close();
  });

  it('keeps the DOM small and reaches the last row by scrolling', async () => {
    const { page } = app;
    await openPage(page, 'messages');
    await poll(() => page.getByTestId('messages-count').getAttribute('data-value'), { timeout: 30_000 }).toBe(
      String(SENDS * PER_SEND),
    );
    await page.getByTestId('message-row').first().waitFor();
    expect(await page.getByTestId('message-row').count()).toBeLessThan(80);

    // The oldest message (id 1) is the last row: jump there.
    await page.getByTestId('messages-scroll').evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    await page.locator('[data-testid="message-row"][data-id="1"]').waitFor();
    expect(await page.getByTestId('message-row').count()).toBeLessThan(80);

    // And back to the middle: rows there load too.
    await page
      .getByTestId('messages-scroll')
      .evaluate((element) => element.scrollTo({ top: element.scrollHeight / 2 }));
    await page.locator(`[data-testid="message-row"][data-id="${(SENDS * PER_SEND) / 2}"]`).waitFor();
    await screenshot(page, 'en-messages-large');
    expect(app.problems).toEqual([]);
  });
});
