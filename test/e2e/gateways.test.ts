// A line's gateway set and followed in the window, in Chromium through web mode, in English and in
// Persian. The provider is a second real Chapar (its HTTP server on a loopback port, its v1 and v2
// APIs, an account with the key, credit and the allow-list 127.0.0.1); a small proxy in front of it
// can drop the provider's answers to sends (the provider took them, the app never hears).
// Settings → Lines: a line set to Kavenegar at the provider's address, the connection tested (the
// provider's credit shown), the key never answered by any call of the bridge; a second line on
// Najva through the proxy. The confirmations say who delivers. Messages whose answers were lost
// wait for review: sending again is confirmed first (it may cost twice), marking them failed
// refunds them. The provider out of credit (418) pauses the line: the banner and the Dashboard's
// card say why, and Resume goes on once the provider has credit again.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright';
import { startServer, testSeed, type TestServer } from '../helpers/server';
import { en, type Translation } from '../../renderer/src/i18n/en';
import { fa } from '../../renderer/src/i18n/fa';
import { openPage, screenshot, startApp, type RunningApp } from './app';
import { bridge, poll } from './scenarios';
import { toPersianDigits } from '../../shared/digits';
import { createSegment } from '../campaigns/support';

/** The business's key at the provider: what the app's lines keep, never to be read back. */
const PROVIDER_KEY = 'k-provider-e2e-gateways-0123456789';
const PROVIDER_CREDIT = 5_000_000;
const KAVENEGAR_LINE = '30001111';
const NAJVA_LINE = '30002222';

/** The carrier's timings, short: the whole hand-over runs in seconds; a paused line waits for the user. */
const FAST = {
  timeout_ms: 3_000,
  retry_base_ms: 200,
  retry_max_ms: 600_000,
  poll_first_ms: 300,
  poll_max_ms: 1_000,
  inbox_ms: 60_000,
  reconcile_ms: 200,
};

interface Proxy {
  url: string;
  /** Sends reach the provider, but their answers never come back. */
  dropSends: boolean;
  /** Send calls the provider received through the proxy. */
  sends: number;
  close(): Promise<void>;
}

/** A pass-through proxy on a loopback port in front of the provider, able to lose send answers. */
async function startProxy(target: string): Promise<Proxy> {
  const proxy = { dropSends: false, sends: 0 } as Proxy;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const headers: Record<string, string> = {};
        for (const name of ['content-type', 'authorization']) {
          const value = request.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        const answer = await fetch(`${target}${request.url}`, {
          method: request.method,
          headers,
          ...(request.method === 'GET' ? {} : { body: Buffer.concat(chunks) }),
        });
        const text = await answer.text();
        const send = (request.url ?? '').startsWith('/v2/sms/send');
        if (send) proxy.sends++;
        if (send && proxy.dropSends) return request.socket.destroy();
        response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        response.end(text);
      })().catch(() => request.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return proxy;
}

/** What the page's bridge calls answered (their bodies), collected as they come. */
function bridgeAnswers(page: Page): () => Promise<string[]> {
  const bodies: Promise<string>[] = [];
  page.on('response', (response: Response) => {
    if (new URL(response.url()).pathname.startsWith('/bridge/invoke/')) bodies.push(response.text().catch(() => ''));
  });
  return () => Promise.all(bodies);
}

/**
 * What went wrong in the page, less the composer's superseded quotes (409 by design) and the one
 * refusal the test asks for (a gateway changed while messages are on their way: 400).
 */
function problemsOf(app: RunningApp): string[] {
  return app.problems.filter(
    (problem) =>
      !/^HTTP 409 /.test(problem) &&
      problem !== 'HTTP 400 /bridge/invoke/lines%3AsetGateway' &&
      !/^console: Failed to load resource: .*status of (409|400)/.test(problem),
  );
}

function money(rials: number, texts: Translation): string {
  const grouped = rials.toLocaleString('en-US');
  return texts === fa ? grouped.replace(/,/g, '\u066c').replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]!) : grouped;
}

function digitsOf(value: number, texts: Translation): string {
  return texts === fa ? String(value).replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]!) : String(value);
}

async function openLines(page: Page): Promise<void> {
  await openPage(page, 'settings');
  await page.getByTestId('settings-tab-lines').click();
  await page.getByTestId('lines-table').waitFor();
}

function row(page: Page, number: string) {
  return page.locator(`[data-testid="line-row"][data-number="${number}"]`);
}

function queueOf(page: Page, number: string) {
  return page.locator(`[data-testid="gateway-queue"][data-number="${number}"]`);
}

async function chooseKind(page: Page, label: string): Promise<void> {
  await page.getByTestId('gateway-kind').click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

/** In Compose: a text to a few receivers from a line, up to its confirmation (left open). */
async function draft(page: Page, line: string, text: string, receivers: string[]): Promise<void> {
  await openPage(page, 'compose');
  await page.getByTestId('compose-line').click();
  // The picker says the line's number in the language's digits.
  const shown = new RegExp(`^(${line}|${toPersianDigits(line)})`);
  await page.getByRole('option', { name: shown }).click();
  await poll(() => page.getByTestId('compose-line').inputValue()).toMatch(shown);
  await page.getByTestId('compose-text').fill(text);
  await page.getByTestId('compose-receivers').fill(receivers.join('\n'));
  await poll(() => page.getByTestId('compose-valid-count').getAttribute('data-value')).toBe(String(receivers.length));
  await page.getByTestId('compose-send').click();
  await page.getByTestId('compose-confirm').waitFor();
  await poll(() => page.getByTestId('confirm-send').isEnabled()).toBe(true);
}

for (const [locale, language, texts] of [
  ['en-US', 'en', en],
  ['fa-IR', 'fa', fa],
] as const) {
  describe(`a line's gateway in the window (${language})`, () => {
    let provider: TestServer;
    let proxy: Proxy;
    let app: RunningApp;
    let answers: () => Promise<string[]>;
    let segment: number;
    const names = {
      kavenegar: language === 'fa' ? 'کاوه‌نگار' : 'Kavenegar',
      najva: language === 'fa' ? 'نجوا' : 'Najva',
    };

    beforeAll(async () => {
      const seed = testSeed();
      seed.accounts![0]!.api_keys = [PROVIDER_KEY];
      seed.accounts![0]!.credit_rials = PROVIDER_CREDIT;
      provider = await startServer({ seed });
      proxy = await startProxy(provider.url);
      app = await startApp({ locale, seed: { upstream_timing: FAST } });
      answers = bridgeAnswers(app.page);
      segment = await createSegment(app.url, ['09121230031', '09121230032', '09121230033']);
      // The answers from the first page load on too (and the segment made after it).
      await app.page.reload();
      await app.page.getByTestId('app-title').waitFor();
    }, 180_000);
    afterAll(async () => {
      await app?.close();
      await proxy?.close();
      await provider?.close();
    });

    it('says "on the simulator" in the confirmation of a line on the simulator', async () => {
      const { page } = app;
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      await draft(page, KAVENEGAR_LINE, 'rehearsal', ['09121230001']);
      const gateway = page.getByTestId('confirm-gateway');
      expect(await gateway.getAttribute('data-value')).toBe('simulator');
      expect(await gateway.innerText()).toBe(texts.gateways.confirm.simulator);
      await page.getByTestId('confirm-cancel').click();
      await page.getByTestId('compose-confirm').waitFor({ state: 'detached' });
    }, 60_000);

    it('sets a line to Kavenegar at the provider, tests it (its credit), and never shows the key again', async () => {
      const { page } = app;
      await openLines(page);
      const line = row(page, KAVENEGAR_LINE);
      expect(await line.getByTestId('line-gateway').getAttribute('data-kind')).toBe('simulator');
      await line.getByTestId('line-gateway-edit').click();
      const dialog = page.getByTestId('gateway-dialog');
      await dialog.waitFor();
      await chooseKind(page, names.kavenegar);
      // The placeholders say what an empty field means: the provider's address, the line's own number.
      expect(await page.getByTestId('gateway-base-url').getAttribute('placeholder')).toBe('https://api.kavenegar.com');
      expect(await page.getByTestId('gateway-sender').getAttribute('placeholder')).toBe(KAVENEGAR_LINE);
      expect(await page.getByTestId('gateway-key').getAttribute('type')).toBe('password');
      expect(await page.getByTestId('gateway-key-state').getAttribute('data-state')).toBe('missing');
      await page.getByTestId('gateway-base-url').fill(provider.url);
      await page.getByTestId('gateway-key').fill(PROVIDER_KEY);
      // A changed form is saved before the test: the test asks with the saved settings.
      expect(await page.getByTestId('gateway-test').innerText()).toBe(texts.gateways.dialog.saveAndTest);
      await page.getByTestId('gateway-test').click();
      const result = page.getByTestId('gateway-test-result');
      await result.waitFor();
      expect(await result.getAttribute('data-ok')).toBe('true');
      expect(await result.getAttribute('data-credit')).toBe(String(PROVIDER_CREDIT));
      expect(await page.getByTestId('gateway-test-credit').innerText()).toContain(money(PROVIDER_CREDIT, texts));
      // Saved: the key field is empty again and says a key is kept.
      expect(await page.getByTestId('gateway-key').inputValue()).toBe('');
      expect(await page.getByTestId('gateway-key-state').getAttribute('data-state')).toBe('kept');
      expect(await page.getByTestId('gateway-test').innerText()).toBe(texts.gateways.dialog.test);
      await screenshot(page, `gateways-dialog-${language}`);
      await page.getByTestId('gateway-cancel').click();
      await dialog.waitFor({ state: 'detached' });
      await poll(() => line.getByTestId('line-gateway').getAttribute('data-kind')).toBe('kavenegar-v1');
      expect(await line.getByTestId('line-gateway').innerText()).toBe(names.kavenegar);

      // Opened again: the key is not there, only that one is kept.
      await line.getByTestId('line-gateway-edit').click();
      await dialog.waitFor();
      expect(await page.getByTestId('gateway-key').inputValue()).toBe('');
      expect(await page.getByTestId('gateway-key-state').innerText()).toContain(texts.gateways.dialog.keyKept);
      expect(await page.getByTestId('gateway-base-url').inputValue()).toBe(provider.url);
      expect(await dialog.innerText()).not.toContain(PROVIDER_KEY);
      // "Remove key" only marks it: said, undone, nothing saved.
      await page.getByTestId('gateway-remove-key').click();
      expect(await page.getByTestId('gateway-key-state').getAttribute('data-state')).toBe('removing');
      expect(await page.getByTestId('gateway-key').isDisabled()).toBe(true);
      expect(await page.getByTestId('gateway-save').isEnabled()).toBe(true);
      await page.getByTestId('gateway-keep-key').click();
      expect(await page.getByTestId('gateway-key-state').getAttribute('data-state')).toBe('kept');
      expect(await page.getByTestId('gateway-save').isEnabled()).toBe(false);
      await page.getByTestId('gateway-cancel').click();
      await dialog.waitFor({ state: 'detached' });

      // The second line delivers through Najva, by the proxy, as the provider's line 30001111.
      await row(page, NAJVA_LINE).getByTestId('line-gateway-edit').click();
      await dialog.waitFor();
      await chooseKind(page, names.najva);
      await page.getByTestId('gateway-base-url').fill(proxy.url);
      await page.getByTestId('gateway-key').fill(PROVIDER_KEY);
      await page.getByTestId('gateway-sender').fill(KAVENEGAR_LINE);
      await page.getByTestId('gateway-save').click();
      await dialog.waitFor({ state: 'detached' });
      await poll(() => row(page, NAJVA_LINE).getByTestId('line-gateway').getAttribute('data-kind')).toBe('najva-v2');

      // Each line on a provider has its queue, empty for now.
      await queueOf(page, KAVENEGAR_LINE).waitFor();
      await queueOf(page, NAJVA_LINE).waitFor();
      expect(await queueOf(page, KAVENEGAR_LINE).getByTestId('gateway-count-waiting').getAttribute('data-value')).toBe(
        '0',
      );

      // No answer of the bridge ever carried the key: not the lines, the queues, the test or the save.
      const lines = await bridge<unknown[]>(page, 'lines:list', { account_id: 1 });
      expect(JSON.stringify(lines)).not.toContain(PROVIDER_KEY);
      const bodies = await answers();
      expect(bodies.some((body) => body.includes('"key_set":true'))).toBe(true);
      expect(bodies.filter((body) => body.includes(PROVIDER_KEY))).toEqual([]);
      expect(problemsOf(app)).toEqual([]);
    }, 120_000);

    it('says "through Kavenegar" in the campaign’s confirmations (scheduling, and the test message)', async () => {
      const { page } = app;
      await openPage(page, 'campaigns');
      await page.getByTestId('campaigns-new').click();
      await page.getByTestId('editor-name').fill(`Friday ${language}`);
      await poll(() => page.evaluate('location.hash')).toMatch(/^#\/campaigns\/draft\/\d+$/);
      await page.getByTestId('editor-include').click();
      await page.getByTestId(`editor-include-option-${segment}`).click();
      await page.keyboard.press('Escape');
      await page.getByTestId('editor-body').fill('Friday sale');
      await page.getByTestId('editor-ready').waitFor();
      const through = texts.gateways.confirm.through.replace('{{provider}}', names.kavenegar);

      await page.getByTestId('editor-test-phone').fill('09121230039');
      await page.getByTestId('editor-test-send').click();
      const testGateway = page.getByTestId('editor-test-gateway');
      await testGateway.waitFor();
      expect(await testGateway.innerText()).toBe(through);
      await page.getByRole('button', { name: texts.common.cancel, exact: true }).click();
      await testGateway.waitFor({ state: 'detached' });

      await page.getByTestId('editor-schedule').click();
      const gateway = page.getByTestId('editor-confirm-gateway');
      await gateway.waitFor();
      expect(await gateway.innerText()).toBe(through);
      await screenshot(page, `gateways-campaign-confirm-${language}`);
      await page.getByRole('button', { name: texts.campaignEditor.schedule.cancel, exact: true }).click();
      await gateway.waitFor({ state: 'detached' });
      expect(problemsOf(app)).toEqual([]);
    }, 60_000);

    it('sends through Najva; answers lost: the messages wait for review, sending again is confirmed first, marking failed refunds', async () => {
      const { page } = app;
      proxy.dropSends = true;
      await draft(page, NAJVA_LINE, `lost answers ${language}`, ['09121230011', '09121230012']);
      const gateway = page.getByTestId('confirm-gateway');
      expect(await gateway.getAttribute('data-value')).toBe('najva-v2');
      expect(await gateway.innerText()).toBe(texts.gateways.confirm.through.replace('{{provider}}', names.najva));
      await screenshot(page, `gateways-confirm-${language}`);
      await page.getByTestId('confirm-send').click();
      await page.getByTestId('compose-confirm').waitFor({ state: 'detached' });
      await poll(() => proxy.sends).toBe(1);

      await openLines(page);
      const queue = queueOf(page, NAJVA_LINE);
      await poll(() => queue.getByTestId('gateway-count-review').getAttribute('data-value'), { timeout: 30_000 }).toBe(
        '2',
      );
      await poll(() => queue.getByTestId('gateway-review-row').count()).toBe(2);
      await queue.scrollIntoViewIfNeeded();
      await screenshot(page, `gateways-queue-${language}`);

      // Messages on their way: the line keeps its gateway, and the dialog says what to do.
      await row(page, NAJVA_LINE).getByTestId('line-gateway-edit').click();
      await chooseKind(page, language === 'fa' ? 'شبیه‌ساز' : 'The simulator');
      await page.getByTestId('gateway-save').click();
      await poll(() => page.getByTestId('gateway-refused').innerText()).toBe(texts.errors.reasons.gateway_in_flight);
      await page.getByTestId('gateway-cancel').click();
      await page.getByTestId('gateway-dialog').waitFor({ state: 'detached' });
      expect(await row(page, NAJVA_LINE).getByTestId('line-gateway').getAttribute('data-kind')).toBe('najva-v2');

      // Send again: the confirmation says how many and that it may cost twice; cancelled, nothing goes.
      proxy.dropSends = false;
      await queue.getByTestId('gateway-retry').click();
      const confirm = page.getByTestId('gateway-confirm');
      await confirm.waitFor();
      expect(await confirm.getAttribute('data-action')).toBe('retry');
      const said = await confirm.innerText();
      expect(said).toContain(
        texts.gateways.queue.retryBody_other
          .replaceAll('{{n}}', digitsOf(2, texts))
          .replaceAll('{{provider}}', names.najva),
      );
      await screenshot(page, `gateways-retry-${language}`);
      await page.getByTestId('gateway-confirm-cancel').click();
      await confirm.waitFor({ state: 'detached' });
      expect(proxy.sends).toBe(1);
      expect(await queue.getByTestId('gateway-count-review').getAttribute('data-value')).toBe('2');

      // Marked as failed: cancelled and refunded, nothing sent.
      const creditBefore = await bridge<{ credit_rials: number }>(page, 'credit:balance', { account_id: 1 });
      await queue.getByTestId('gateway-mark-failed').click();
      await confirm.waitFor();
      expect(await confirm.getAttribute('data-action')).toBe('markFailed');
      await page.getByTestId('gateway-confirm-ok').click();
      await poll(() => queue.getByTestId('gateway-count-rejected').getAttribute('data-value')).toBe('2');
      expect(await queue.getByTestId('gateway-count-review').getAttribute('data-value')).toBe('0');
      await queue.getByTestId('gateway-review').waitFor({ state: 'detached' });
      await poll(
        async () => (await bridge<{ credit_rials: number }>(page, 'credit:balance', { account_id: 1 })).credit_rials,
      ).toBeGreaterThan(creditBefore.credit_rials);
      expect(proxy.sends).toBe(1);
      expect(problemsOf(app)).toEqual([]);
    }, 120_000);

    it('the provider out of credit pauses the line: the banner and the Dashboard say why, Resume goes on', async () => {
      const { page } = app;
      const accountId = provider.core.db
        .prepare<[], number>("SELECT id FROM accounts WHERE name = 'acme'")
        .pluck()
        .get()!;
      const credit = provider.core.credit.balance(accountId);
      provider.core.credit.adjust(accountId, -credit, 'e2e: out of credit', 'adjust');

      await draft(page, KAVENEGAR_LINE, `out of credit ${language}`, ['09121230021']);
      expect(await page.getByTestId('confirm-gateway').getAttribute('data-value')).toBe('kavenegar-v1');
      expect(await page.getByTestId('confirm-gateway').innerText()).toBe(
        texts.gateways.confirm.through.replace('{{provider}}', names.kavenegar),
      );
      await page.getByTestId('confirm-send').click();
      await page.getByTestId('compose-confirm').waitFor({ state: 'detached' });

      // The banner, above the page the user is on.
      const banner = page.getByTestId('paused-banner-line');
      await banner.waitFor({ timeout: 30_000 });
      expect(await banner.getAttribute('data-number')).toBe(KAVENEGAR_LINE);
      expect(await banner.getAttribute('data-code')).toBe('418');
      const bannerText = await banner.innerText();
      expect(bannerText).toContain(digitsOf(Number(KAVENEGAR_LINE), texts));
      expect(bannerText).toContain(digitsOf(418, texts));
      expect(bannerText).toContain(texts.gateways.explain['418']);
      await screenshot(page, `gateways-banner-${language}`);

      // Settings → Lines: the row's badge, the queue's pause (the banner leaves it to them).
      await openLines(page);
      const line = row(page, KAVENEGAR_LINE);
      await poll(() => line.getByTestId('line-gateway').getAttribute('data-paused')).toBe('418');
      expect(await line.getByTestId('line-gateway-paused').innerText()).toContain(digitsOf(418, texts));
      expect(await page.getByTestId('paused-banner').count()).toBe(0);
      await queueOf(page, KAVENEGAR_LINE).getByTestId('gateway-queue-paused').waitFor();
      await page.getByTestId('lines-table').scrollIntoViewIfNeeded();
      await screenshot(page, `gateways-lines-${language}`);

      // The Dashboard's card instead of the banner.
      await openPage(page, 'dashboard');
      const card = page.getByTestId('dashboard-paused');
      await card.waitFor();
      expect(await page.getByTestId('paused-banner').count()).toBe(0);
      expect(await card.innerText()).toContain(texts.gateways.explain['418']);
      await screenshot(page, `gateways-dashboard-${language}`);

      // Credit again at the provider; Resume: the line goes on and hands the message over.
      provider.core.credit.adjust(accountId, PROVIDER_CREDIT, 'e2e: topped up', 'topup');
      await page.getByTestId('dashboard-paused-line-resume').click();
      await card.waitFor({ state: 'detached' });
      await openLines(page);
      const queue = queueOf(page, KAVENEGAR_LINE);
      await poll(
        async () =>
          Number(await queue.getByTestId('gateway-count-accepted').getAttribute('data-value')) +
          Number(await queue.getByTestId('gateway-count-final').getAttribute('data-value')),
        { timeout: 30_000 },
      ).toBeGreaterThanOrEqual(1);
      expect(await line.getByTestId('line-gateway').getAttribute('data-paused')).toBe('');
      expect(problemsOf(app)).toEqual([]);
    }, 120_000);
  });
}
