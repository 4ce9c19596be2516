// A 1,000,000-row CSV through the import wizard in Chromium (web mode: the file is streamed to the
// server): while it runs, the page's own round trips to the bridge keep being answered, the
// progress moves to the end and the review counts every row; the same file cancelled in the
// middle leaves no segment. The round trips' budget (p99 under 100 ms) is measured by
// `npm run bench -- responsive` (its wizard scenario: the same bridge calls during the same
// import); here the bound is generous, as a tight wall-clock bound fails on a busy machine.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/server';
import { screenshot, startApp, type RunningApp } from './app';
import { poll, switchToPersian } from './scenarios';
import { largeCsv } from './spreadsheets';

const ROWS = 1_000_000;

/** In the page: credit:balance over the bridge every 5 ms until stopped; the round trips in ms. */
const START_PINGS = `(() => {
  window.__pings = [];
  window.__pinging = true;
  (async () => {
    while (window.__pinging) {
      const started = performance.now();
      await fetch('/bridge/invoke/credit:balance', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account_id: window.__account }) });
      window.__pings.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
})()`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

describe('a million-row import through the wizard (web UI)', () => {
  let app: RunningApp;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    app = await startApp();
    dir = tempDir('chapar-e2e-million-');
    file = largeCsv(dir, ROWS);
    await app.page.evaluate(
      "fetch('/bridge/invoke/accounts:list', {method: 'POST', headers: {'content-type': 'application/json'}, body: 'null'}).then(r => r.json()).then(r => { window.__account = r.value[0].id; })",
    );
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function toTarget(name: string) {
    const { page } = app;
    await page.getByTestId('nav-contacts').click();
    await page.getByTestId('contacts-import').click();
    await page.getByTestId('import-file-input').setInputFiles(file);
    await page.getByTestId('import-layout').waitFor({ timeout: 60_000 });
    await page.getByTestId('import-next').click();
    await page.getByTestId('import-next').click();
    await page.getByTestId('import-segment-name').fill(name);
  }

  it('keeps the window answering and shows progress to the end', async () => {
    const { page } = app;
    await toTarget('million');
    await page.evaluate(START_PINGS);
    await page.getByTestId('import-start').click();
    await page.getByTestId('import-running').waitFor();
    const fractions: number[] = [];
    // Progress as the page shows it, sampled until the review replaces it.
    while ((await page.getByTestId('import-review').count()) === 0) {
      const value = await page
        .getByTestId('import-progress')
        .getAttribute('data-value', { timeout: 1_000 })
        .catch(() => null);
      if (value !== null) fractions.push(Number(value));
      if (fractions.length === 3) await screenshot(page, 'en-import-running');
      await page.waitForTimeout(50);
    }
    const pings = (await page.evaluate('window.__pinging = false, window.__pings')) as number[];
    await page.getByTestId('import-review').waitFor();
    expect(await page.getByTestId('import-count-valid').getAttribute('data-value')).toBe(String(ROWS));
    expect(fractions.length).toBeGreaterThan(3);
    expect(fractions.every((f, i) => i === 0 || f >= fractions[i - 1]!)).toBe(true);
    const p99 = percentile(pings, 99);
    console.log(
      `wizard import of ${ROWS} rows in Chromium: ${pings.length} round trips, p50 ${percentile(pings, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...pings).toFixed(1)} ms; ${fractions.length} progress samples`,
    );
    expect(pings.length).toBeGreaterThan(50);
    // Generous: far above the bench's 100 ms budget, far below a call that waits for the import.
    expect(p99).toBeLessThan(2_000);
  }, 240_000);

  it('scrolls the million members of the segment to any place', async () => {
    const { page } = app;
    await page.getByTestId('import-open-segment').click();
    await poll(() => page.getByTestId('segment-members').getAttribute('data-value')).toBe(String(ROWS));
    await page.getByTestId('member-phone').first().waitFor();
    const scroller = page.getByTestId('members-table-scroll');
    for (const at of [0.5, 1, 0.25]) {
      const started = Date.now();
      await scroller.evaluate((element, fraction) => {
        element.scrollTop = (element.scrollHeight - element.clientHeight) * fraction;
      }, at);
      // The rows at that place are drawn with their numbers (the row index is their position).
      await poll(async () => {
        const rows = await page
          .locator('[data-testid="members-table"] [role="row"][data-index]')
          .evaluateAll((elements) =>
            elements.map(
              (e) => [Number(e.getAttribute('data-index')), e.querySelector('[data-phone]') !== null] as const,
            ),
          );
        const shown = rows.filter(([, loaded]) => loaded).map(([index]) => index);
        return shown.length > 5 && Math.abs(shown[Math.floor(shown.length / 2)]! / ROWS - at) < 0.01;
      }).toBe(true);
      // Generous: a page at any place is one indexed read (the bound only catches a full scan per page).
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    // The very last member is reachable (a browser's height limit would cut a plain list at row 838,860).
    await scroller.evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await page.locator(`[data-testid="members-table"] [data-index="${ROWS - 1}"] [data-phone]`).waitFor();
    await screenshot(page, 'en-segment-million');
  }, 120_000);

  it('cancelled in the middle, leaves no segment (in Persian)', async () => {
    const { page } = app;
    await switchToPersian(page);
    await toTarget('cancelled million');
    await page.getByTestId('import-start').click();
    await poll(async () => Number(await page.getByTestId('import-progress').getAttribute('data-value')), {
      timeout: 60_000,
    }).toBeGreaterThan(0.2);
    await screenshot(page, 'fa-import-running');
    await page.getByTestId('import-cancel').click();
    await poll(() => page.getByTestId('import-review').getAttribute('data-status'), { timeout: 30_000 }).toBe(
      'cancelled',
    );
    expect(await page.getByTestId('import-ended').innerText()).toContain('چیزی ساخته نشد');
    await page.getByTestId('nav-contacts').click();
    await poll(() =>
      page.getByTestId('segment-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name'))),
    ).toEqual(['million']);
  }, 240_000);
});
