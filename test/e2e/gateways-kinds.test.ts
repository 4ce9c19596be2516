// Each gateway kind's own fields in Settings → Lines, in Chromium through web mode, in English and
// in Persian: the labels and hints in the provider's words, the technical fields left to right in
// both languages, and "test connection" against a local provider for each. A line set to SMS.ir
// against the local SMS.ir (a wrong key answered in SMS.ir's words, then its credit as SMS.ir says
// it); a line set to the HTTP gateway against a small gateway started here (a template without
// {to} refused in the UI's language, then POST with a JSON body and a success pattern, tested,
// saved and shown again as kept); the Bale line set to Safir against the local Safir (a bot Safir
// does not know refused, then connected).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { en } from '../../renderer/src/i18n/en';
import { fa } from '../../renderer/src/i18n/fa';
import { gatewayName, gatewayTitle } from '../../renderer/src/lib/gateways';
import { openPage, screenshot, startApp, type RunningApp } from './app';
import { poll } from './scenarios';
import { startSmsIrFake, type SmsIrFake } from '../upstream/fakes/smsir';
import { startSafirFake, type SafirFake } from '../upstream/fakes/safir';

const SMS_LINE = '30001111';
const HTTP_LINE = '30002222';
const BALE_LINE = 'bale_acme_bot';
const SMSIR_KEY = 'smsir-e2e-key-0123456789';
const SMSIR_LINE = '30004505';
const SMSIR_CREDIT = 12_345.5;
const SAFIR_KEY = 'safir-e2e-access-key-0123456789';
const SAFIR_BOT = '1234567890';
const GATEWAY_PASSWORD = 'gw-pass "quoted" & more';
const JSON_BODY = '{"to": "{to}", "from": "{from}", "text": "{text}", "password": "{key}", "dlr": "{report}"}';
const SUCCESS = '"status":\\s*"queued"';

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  body: string;
}

interface Gateway {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/**
 * A small HTTP gateway: POST /api/send with a JSON body; the password in it, else 403; a receiver,
 * else 400 (what the connection test's empty receiver gets); then `{"status": "queued"}`.
 */
async function startGateway(): Promise<Gateway> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method!, url: request.url!, contentType: request.headers['content-type'], body });
      const answer = (status: number, value: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (request.method !== 'POST' || !request.url!.startsWith('/api/send')) return answer(404, { error: 'no' });
      let fields: Record<string, unknown>;
      try {
        fields = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return answer(400, { error: 'not JSON' });
      }
      if (fields.password !== GATEWAY_PASSWORD) return answer(403, { error: 'wrong password' });
      if (!fields.to) return answer(400, { error: 'missing receiver' });
      answer(200, { status: 'queued' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function openLines(page: Page): Promise<void> {
  await openPage(page, 'settings');
  await page.getByTestId('settings-tab-lines').click();
  await page.getByTestId('lines-table').waitFor();
}

async function openGateway(page: Page, number: string): Promise<void> {
  await page.locator(`[data-testid="line-row"][data-number="${number}"]`).getByTestId('line-gateway-edit').click();
  await page.getByTestId('gateway-dialog').waitFor();
}

async function closeGateway(page: Page): Promise<void> {
  await page.getByTestId('gateway-cancel').click();
  await page.getByTestId('gateway-dialog').waitFor({ state: 'detached' });
}

async function choose(page: Page, testId: string, label: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

/** The test's answer, once it came (the button is enabled again). */
async function testConnection(page: Page) {
  await page.getByTestId('gateway-test').click();
  const result = page.getByTestId('gateway-test-result');
  await result.waitFor();
  await poll(() => page.getByTestId('gateway-test').isEnabled()).toBe(true);
  return result;
}

/** The technical fields are written left to right, in either language. */
async function expectLtr(page: Page, testIds: string[]): Promise<void> {
  for (const testId of testIds) expect(await page.getByTestId(testId).getAttribute('dir'), testId).toBe('ltr');
}

for (const [locale, language, texts] of [
  ['en-US', 'en', en],
  ['fa-IR', 'fa', fa],
] as const) {
  describe(`each gateway kind's fields in Settings → Lines (${language})`, () => {
    let app: RunningApp;
    let smsir: SmsIrFake;
    let safir: SafirFake;
    let gateway: Gateway;
    const fields = texts.gateways.fields;

    beforeAll(async () => {
      smsir = await startSmsIrFake({ apiKey: SMSIR_KEY, lines: [SMSIR_LINE], credit: SMSIR_CREDIT });
      safir = await startSafirFake({ accessKey: SAFIR_KEY, bots: [SAFIR_BOT] });
      gateway = await startGateway();
      app = await startApp({ locale });
    }, 180_000);
    afterAll(async () => {
      await app?.close();
      await gateway?.close();
      await safir?.close();
      await smsir?.close();
    });

    it('sets a line to SMS.ir: its own words, a wrong key in SMS.ir’s words, then its credit', async () => {
      const { page } = app;
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      await openLines(page);
      await openGateway(page, SMS_LINE);
      await choose(page, 'gateway-kind', gatewayTitle('smsir', language));
      const dialog = page.getByTestId('gateway-dialog');
      expect(await dialog.getAttribute('data-kind')).toBe('smsir');
      const shown = await dialog.innerText();
      for (const words of [fields.smsir.key, fields.smsir.sender, texts.gateways.dialog.rate])
        expect(shown).toContain(words);
      expect(shown).toContain(fields.smsir.keyHint);
      // Only SMS.ir's fields: no request, no placeholders.
      expect(await page.getByTestId('gateway-request').count()).toBe(0);
      expect(await page.getByTestId('gateway-url-insert').count()).toBe(0);
      expect(await page.getByTestId('gateway-base-url').getAttribute('placeholder')).toBe('https://api.sms.ir');
      expect(await page.getByTestId('gateway-sender').getAttribute('placeholder')).toBe(SMS_LINE);
      await expectLtr(page, ['gateway-base-url', 'gateway-key', 'gateway-sender']);

      await page.getByTestId('gateway-base-url').fill(smsir.url);
      await page.getByTestId('gateway-key').fill('not-the-key');
      await page.getByTestId('gateway-sender').fill(SMSIR_LINE);
      const refused = await testConnection(page);
      expect(await refused.getAttribute('data-ok')).toBe('false');
      // SMS.ir's 401 is the key (403 here), said in SMS.ir's own words.
      expect(await refused.getAttribute('data-code')).toBe('403');
      const refusal = await refused.innerText();
      expect(refusal).toContain(texts.gateways.explain['403']);
      expect(refusal).toContain('کلید API نامعتبر است');

      await page.getByTestId('gateway-key').fill(SMSIR_KEY);
      const result = await testConnection(page);
      expect(await result.getAttribute('data-ok')).toBe('true');
      expect(await result.getAttribute('data-provider-credit')).toBe(String(SMSIR_CREDIT));
      expect(await page.getByTestId('gateway-test-credit').innerText()).toBe(
        language === 'fa' ? '۱۲٬۳۴۵٫۵' : '12,345.5',
      );
      expect(await result.innerText()).toContain(texts.gateways.dialog.ownUnit.replace('{{provider}}', 'SMS.ir'));
      expect(await page.getByTestId('gateway-key-state').getAttribute('data-state')).toBe('kept');
      expect(await page.getByTestId('gateway-sender').inputValue()).toBe(SMSIR_LINE);
      await screenshot(page, `gateway-kinds-smsir-${language}`);
      await closeGateway(page);
      expect(smsir.requests.filter((r) => r.path === '/v1/credit')).toHaveLength(2);
    }, 90_000);

    it('sets a line to the HTTP gateway: a template without {to} refused, then POST with JSON, tested, kept', async () => {
      const { page } = app;
      await page.setViewportSize({ width: 1366, height: 1500 });
      await openGateway(page, HTTP_LINE);
      await choose(page, 'gateway-kind', gatewayTitle('http-gateway', language));
      const dialog = page.getByTestId('gateway-dialog');
      const shown = await dialog.innerText();
      for (const words of [
        fields['http-gateway'].baseUrl,
        fields['http-gateway'].key,
        fields['http-gateway'].sender,
        texts.gateways.request.method,
        texts.gateways.request.success,
        texts.gateways.request.reportNote,
      ])
        expect(shown).toContain(words);
      // Kannel's sendsms as the example, written left to right.
      const example = page.getByTestId('gateway-template-example');
      expect(await example.innerText()).toContain('/cgi-bin/sendsms?username=');
      expect(await example.innerText()).toContain('&dlr-url={report}');
      expect(await example.getAttribute('dir')).toBe('ltr');
      // A GET has no body.
      expect(await page.getByTestId('gateway-body').count()).toBe(0);
      await expectLtr(page, ['gateway-base-url', 'gateway-key', 'gateway-sender', 'gateway-success']);

      // Without {to}: refused, in the UI's language.
      await page.getByTestId('gateway-base-url').fill(`${gateway.url}/api/send?text={text}`);
      await page.getByTestId('gateway-key').fill(GATEWAY_PASSWORD);
      await page.getByTestId('gateway-save').click();
      await poll(() => page.getByTestId('gateway-refused').innerText()).toBe(
        texts.errors.reasons.gateway_template_invalid,
      );
      await screenshot(page, `gateway-kinds-http-refused-${language}`);

      // The address for the gateway's endpoint; the chips put the placeholders in.
      await page.getByTestId('gateway-base-url').fill(`${gateway.url}/api/send?line=`);
      await page.getByTestId('gateway-url-insert-from').click();
      expect(await page.getByTestId('gateway-base-url').inputValue()).toBe(`${gateway.url}/api/send?line={from}`);
      // The refusal went with the change that answers it.
      expect(await page.getByTestId('gateway-refused').count()).toBe(0);
      await page.getByTestId('gateway-method').getByText('POST', { exact: true }).click();
      await page.getByTestId('gateway-body').fill(JSON_BODY.replace('"{report}"', '""'));
      // A placeholder goes where the caret is: into the empty quotes of "dlr".
      const body = page.getByTestId('gateway-body');
      await body.focus();
      await body.press('End');
      // Back over `}` and one quote: between the quotes of "dlr".
      for (let i = 0; i < 2; i++) await body.press('ArrowLeft');
      await page.getByTestId('gateway-body-insert-report').click();
      expect(await page.getByTestId('gateway-body').inputValue()).toBe(JSON_BODY);
      await choose(page, 'gateway-content-type', texts.gateways.request.contentTypes.json);
      await page.getByTestId('gateway-success').fill(SUCCESS);
      await page.getByTestId('gateway-sender').fill('3000123');
      await expectLtr(page, ['gateway-body', 'gateway-success']);

      const result = await testConnection(page);
      expect(await result.getAttribute('data-ok')).toBe('true');
      expect(await result.getAttribute('data-credit')).toBe('');
      expect(await result.innerText()).toBe(
        texts.gateways.dialog.testOkNoCredit.replace('{{provider}}', gatewayName('http-gateway', language)),
      );
      // The test's request: a POST of the JSON body, the password in it, no receiver.
      const asked = gateway.seen.at(-1)!;
      expect(asked.method).toBe('POST');
      expect(asked.url).toBe('/api/send?line=3000123');
      expect(asked.contentType).toBe('application/json');
      expect(JSON.parse(asked.body)).toMatchObject({ to: '', from: '3000123', password: GATEWAY_PASSWORD });
      await screenshot(page, `gateway-kinds-http-${language}`);
      await closeGateway(page);

      // Opened again: everything as saved, the key only said to be kept.
      await openGateway(page, HTTP_LINE);
      expect(await page.getByTestId('gateway-dialog').getAttribute('data-kind')).toBe('http-gateway');
      expect(await page.getByTestId('gateway-base-url').inputValue()).toBe(`${gateway.url}/api/send?line={from}`);
      expect(await page.getByTestId('gateway-method').locator('input:checked').getAttribute('value')).toBe('POST');
      expect(await page.getByTestId('gateway-body').inputValue()).toBe(JSON_BODY);
      expect(await page.getByTestId('gateway-content-type').inputValue()).toBe(
        texts.gateways.request.contentTypes.json,
      );
      expect(await page.getByTestId('gateway-success').inputValue()).toBe(SUCCESS);
      expect(await page.getByTestId('gateway-sender').inputValue()).toBe('3000123');
      expect(await page.getByTestId('gateway-key').inputValue()).toBe('');
      expect(await page.getByTestId('gateway-key-state').getAttribute('data-state')).toBe('kept');
      expect(await page.getByTestId('gateway-save').isEnabled()).toBe(false);
      await screenshot(page, `gateway-kinds-http-reopened-${language}`);
      // In the usual window the dialog is taller than the screen: it scrolls, its top and its
      // buttons both within reach.
      await page.setViewportSize({ width: 1366, height: 860 });
      const title = page.locator('.mantine-Modal-title');
      await title.scrollIntoViewIfNeeded();
      expect((await title.boundingBox())!.y).toBeGreaterThanOrEqual(0);
      await page.getByTestId('gateway-save').scrollIntoViewIfNeeded();
      const save = (await page.getByTestId('gateway-save').boundingBox())!;
      expect(save.y + save.height).toBeLessThanOrEqual(860);
      await screenshot(page, `gateway-kinds-http-scrolled-${language}`);
      await closeGateway(page);
    }, 90_000);

    it('sets the Bale line to Safir: its access key and bot id, a bot it does not know refused, then connected', async () => {
      const { page } = app;
      await openGateway(page, BALE_LINE);
      await choose(page, 'gateway-kind', gatewayTitle('bale-safir', language));
      const shown = await page.getByTestId('gateway-dialog').innerText();
      for (const words of [fields['bale-safir'].key, fields['bale-safir'].sender, fields['bale-safir'].senderHint])
        expect(shown).toContain(words);
      expect(await page.getByTestId('gateway-base-url').getAttribute('placeholder')).toBe('https://safir.bale.ai');
      expect(await page.getByTestId('gateway-request').count()).toBe(0);
      await expectLtr(page, ['gateway-base-url', 'gateway-key', 'gateway-sender']);

      await page.getByTestId('gateway-base-url').fill(safir.url);
      await page.getByTestId('gateway-key').fill(SAFIR_KEY);
      await page.getByTestId('gateway-sender').fill('999');
      const refused = await testConnection(page);
      expect(await refused.getAttribute('data-ok')).toBe('false');
      expect(await refused.getAttribute('data-code')).toBe('403');
      expect(await refused.innerText()).toContain('bot not found');
      await screenshot(page, `gateway-kinds-safir-refused-${language}`);

      await page.getByTestId('gateway-sender').fill(SAFIR_BOT);
      const result = await testConnection(page);
      expect(await result.getAttribute('data-ok')).toBe('true');
      expect(await result.innerText()).toBe(
        texts.gateways.dialog.testOkNoCredit.replace('{{provider}}', gatewayName('bale-safir', language)),
      );
      await screenshot(page, `gateway-kinds-safir-${language}`);
      await closeGateway(page);
      // Nothing was sent: Safir refused the test's empty receiver.
      expect(safir.messages).toHaveLength(0);
      await poll(() =>
        page
          .locator(`[data-testid="line-row"][data-number="${BALE_LINE}"]`)
          .getByTestId('line-gateway')
          .getAttribute('data-kind'),
      ).toBe('bale-safir');
    }, 90_000);

    it('went through without a problem in the page but the one refusal asked for', () => {
      expect(
        app.problems.filter(
          (problem) =>
            problem !== 'HTTP 400 /bridge/invoke/lines%3AsetGateway' &&
            !/^console: Failed to load resource: .*status of 400/.test(problem),
        ),
      ).toEqual([]);
    });
  });
}
