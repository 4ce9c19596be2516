// Links on a real line, in Chromium through web mode, in English and in Persian: a campaign on a line
// that delivers through a real provider (Kavenegar, at an address that answers nothing) while short
// links would point to this computer's own address. The editor says customers could not open them
// and offers the two ways out as actions; choosing untracked links lets the campaign be created,
// and its report says clicks are not tracked. The other way (a public address for links) is taken
// last, and a dead short link is opened in Chromium in both languages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { testSeed } from '../helpers/server';
import { createSegment } from '../campaigns/support';
import { en, type Translation } from '../../renderer/src/i18n/en';
import { fa } from '../../renderer/src/i18n/fa';
import { screenshot, startApp, type RunningApp } from './app';
import { bridge, newCampaignTo, poll, switchToPersian } from './scenarios';

const LINK = 'https://shop.example/friday';
const REAL_LINE = '30001111';

function seed() {
  const base = testSeed();
  const acme = base.accounts![0]!;
  acme.lines = acme.lines!.map((line) =>
    line.number === REAL_LINE
      ? {
          ...line,
          upstream: { kind: 'kavenegar-v1' as const, base_url: 'http://127.0.0.1:9', api_key: 'e2e-test-key' },
        }
      : line,
  );
  return base;
}

/** What went wrong in the page, less the editor's superseded quotes (409 by design). */
function problemsOf(app: RunningApp): string[] {
  return app.problems.filter(
    (problem) =>
      problem !== 'HTTP 409 /bridge/invoke/campaigns:quote' &&
      !/^console: Failed to load resource: .*status of 409/.test(problem),
  );
}

async function newCampaign(page: Page, name: string, segmentId: number): Promise<void> {
  await newCampaignTo(page, name, segmentId);
  await page.getByTestId('editor-body').fill(`Friday sale: ${LINK}`);
  await page.getByTestId('editor-add-link').click();
  await page.getByTestId('editor-link-url-0').fill(LINK);
}

/** The refusal with its two choices, as the editor shows it; nothing can be scheduled meanwhile. */
async function expectRefusal(page: Page, texts: Translation, baseAddress: string): Promise<void> {
  const refusal = page.getByTestId('editor-link-reach');
  await refusal.waitFor();
  await poll(() => refusal.innerText()).toContain(baseAddress);
  const said = await refusal.innerText();
  expect(said).toContain(texts.campaignEditor.linkReach.title);
  expect(said).toContain(texts.campaignEditor.linkReach.baseTitle);
  expect(said).toContain(texts.campaignEditor.linkReach.untrackedTitle);
  expect(said).toContain(texts === fa ? 'کاوه‌نگار' : 'Kavenegar');
  expect(await page.getByTestId('editor-link-base-save').isVisible()).toBe(true);
  expect(await page.getByTestId('editor-link-untracked').isVisible()).toBe(true);
  // The schedule card names the same refusal, in the same language, and holds the button back.
  await poll(() => page.getByTestId('editor-block-links').innerText()).toBe(
    texts.errors.reasons.short_link_base_unreachable,
  );
  expect(await page.getByTestId('editor-schedule').isDisabled()).toBe(true);
}

/** Chooses untracked links, schedules, and checks the report; the execution's id. */
async function chooseUntrackedAndCreate(page: Page, texts: Translation): Promise<number> {
  await page.getByTestId('editor-link-untracked').click();
  await page.getByTestId('editor-link-reach').waitFor({ state: 'detached' });
  expect(await page.getByTestId('editor-track-links').isChecked()).toBe(false);
  await page.getByTestId('editor-sample-first').click();
  // The sample is the text as it will go out: the address itself with its UTM tags, no short link.
  await poll(() => page.getByTestId('editor-sample-text').innerText()).toMatch(
    /^Friday sale: https:\/\/shop\.example\/friday\?utm_source=chapar&utm_medium=sms&utm_campaign=\d+/,
  );
  await page.getByTestId('editor-ready').waitFor();
  await page.getByTestId('editor-schedule').click();
  await page.getByTestId('editor-confirm-summary').waitFor();
  await page.getByTestId('editor-confirm').click();
  await poll(() => page.evaluate('location.hash')).toMatch(/^#\/campaigns\/execution\/\d+$/);
  const executionId = Number(
    String(await page.evaluate('location.hash'))
      .split('/')
      .pop(),
  );
  await page.getByTestId('report-clicks-untracked').waitFor();
  expect(await page.getByTestId('report-clicks-untracked').innerText()).toBe(texts.report.counts.clicksNotTracked);
  expect(await page.getByTestId('report-links-untracked').innerText()).toBe(texts.report.links.notTracked);
  return executionId;
}

describe('links on a line with a real provider (web UI)', () => {
  let app: RunningApp;
  let segment: number;
  beforeAll(async () => {
    app = await startApp({ seed: seed() });
    segment = await createSegment(app.url, ['09120000001', '09120000002', '09120000003']);
    // The segment was made after the page loaded: a reload reads it, as a user would see it.
    await app.page.reload();
    await app.page.getByTestId('app-title').waitFor();
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  it('in English: refuses short links to this computer, offers both ways, and creates the untracked campaign', async () => {
    const { page } = app;
    await newCampaign(page, 'Friday on Kavenegar', segment);
    await expectRefusal(page, en, app.url);
    await screenshot(page, 'campaign-link-reach-en');
    const executionId = await chooseUntrackedAndCreate(page, en);
    await screenshot(page, 'campaign-untracked-report-en');
    const report = await bridge<{ track_links: boolean }>(page, 'campaigns:report', {
      account_id: 1,
      execution_id: executionId,
    });
    expect(report.track_links).toBe(false);
    expect(problemsOf(app)).toEqual([]);
  }, 120_000);

  it('in Persian: the same refusal and choices, right to left, and the untracked campaign created', async () => {
    const { page } = app;
    await switchToPersian(page);
    await newCampaign(page, 'حراج جمعه', segment);
    await expectRefusal(page, fa, app.url);
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    await page.getByTestId('editor-link-reach').scrollIntoViewIfNeeded();
    await screenshot(page, 'campaign-link-reach-fa');
    await chooseUntrackedAndCreate(page, fa);
    await screenshot(page, 'campaign-untracked-report-fa');
    expect(problemsOf(app)).toEqual([]);
  }, 120_000);

  it('the other way: a public address for links, set from the refusal, lifts it', async () => {
    const { page } = app;
    await newCampaign(page, 'حراج با نشانی عمومی', segment);
    await expectRefusal(page, fa, app.url);
    // A local address is no way out: the refusal stays.
    await page.getByTestId('editor-link-base').fill('http://192.168.1.10:8080');
    await page.getByTestId('editor-link-base-save').click();
    await poll(() => page.getByTestId('editor-link-reach').innerText()).toContain('192.168.1.10');
    await page.getByTestId('editor-link-base').fill('https://links.example.com');
    await page.getByTestId('editor-link-base-save').click();
    await page.getByTestId('editor-link-reach').waitFor({ state: 'detached' });
    expect(await page.getByTestId('editor-track-links').isChecked()).toBe(true);
    await page.getByTestId('editor-sample-first').click();
    await poll(() => page.getByTestId('editor-sample-text').innerText()).toMatch(
      /^Friday sale: https:\/\/links\.example\.com\/l\/\w{8}/,
    );
    await page.getByTestId('editor-ready').waitFor();
    expect(problemsOf(app)).toEqual([]);
  }, 120_000);

  it('a dead short link opens a page in the visitor’s language', async () => {
    for (const [locale, lang, dir, title] of [
      ['fa-IR', 'fa', 'rtl', 'این پیوند کار نمی‌کند'],
      ['en-US', 'en', 'ltr', 'This link does not work'],
    ] as const) {
      const context = await app.browser.newContext({ locale, viewport: { width: 412, height: 700 } });
      try {
        const page = await context.newPage();
        const response = await page.goto(`${app.url}/l/zzzzzzzz`);
        expect(response?.status()).toBe(404);
        expect(await page.locator('html').getAttribute('lang')).toBe(lang);
        expect(await page.locator('html').getAttribute('dir')).toBe(dir);
        expect(await page.locator('h1').innerText()).toBe(title);
        // Its own style applies under its policy (the page's background is not the browser's white).
        expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(245, 246, 248)');
        await screenshot(page, `dead-link-${lang}`);
      } finally {
        await context.close();
      }
    }
  }, 60_000);
});
