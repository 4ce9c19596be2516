// Settings → Email end to end, in both languages: the built-in sandbox by default; SMTP chosen,
// faults said beside their fields in the page's language, filled and saved; after a reload the
// values are back and the password shows only as "saved" (it is nowhere in the page's HTML); the
// connection test against a local SMTP server (which takes only that password) says it works; back
// to the sandbox.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { openPage, screenshot, startApp, type RunningApp } from './app';
import { poll } from './scenarios';
import { en } from '../../renderer/src/i18n/en';
import { fa } from '../../renderer/src/i18n/fa';
import { toPersianDigits } from '../../shared/digits';

const PASSWORD = 'pw-e2e-secret-5b7c91';
const USER = 'shop-mailer';

let app: RunningApp | undefined;
let smtp: SMTPServer | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  smtp = undefined;
});

/** An SMTP server on a free loopback port that lets in USER with PASSWORD only. */
async function startSmtp(): Promise<number> {
  smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  const server = smtp;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.server.address() as AddressInfo).port;
}

const LANGUAGES = [
  ['en-US', 'en', en],
  ['fa-IR', 'fa', fa],
] as const;

async function openEmailSettings(page: Page): Promise<void> {
  await openPage(page, 'settings');
  await page.getByTestId('settings-tab-email').click();
  await page.getByTestId('email-transport-sandbox').waitFor();
}

/** A field's error message (Mantine ties it to its input with aria-describedby). */
async function fieldError(page: Page, testId: string): Promise<string | null> {
  const described = (await page.getByTestId(testId).getAttribute('aria-describedby')) ?? '';
  const id = described.split(' ').find((part) => part.endsWith('-error'));
  return id ? page.locator(`[id="${id}"]`).innerText() : null;
}

describe('Settings → Email (web UI)', () => {
  for (const [locale, language, texts] of LANGUAGES) {
    it(`saves SMTP settings, keeps the password to the server and tests the connection (${language})`, async () => {
      const port = await startSmtp();
      app = await startApp({ locale });
      const { page } = app;
      const t = texts.emailSettings;
      await openEmailSettings(page);
      // The sandbox by default: nothing leaves this computer.
      expect(await page.getByTestId('email-transport-sandbox').isChecked()).toBe(true);
      await expect(page.getByTestId('email-settings').innerText()).resolves.toContain(t.transports.sandboxHint);
      await screenshot(page, `${language}-settings-email-sandbox`);

      // A provider's API asks for its address, the account id and a key (a new one: none is saved).
      await page.getByTestId('email-transport-provider').click();
      await page.getByTestId('email-provider-url').fill('https://api.example.com/v2');
      await page.getByTestId('email-save').click();
      await poll(() => fieldError(page, 'email-provider-url')).toBe(t.faults.urlInvalid);
      expect(await fieldError(page, 'email-provider-key')).toBe(t.faults.keyMissing);
      await screenshot(page, `${language}-settings-email-provider`);

      // SMTP, saved empty: each fault beside its field, in the page's language.
      await page.getByTestId('email-transport-smtp').click();
      await page.getByTestId('email-smtp-host').waitFor();
      await page.getByTestId('email-smtp-port').fill('');
      await page.getByTestId('email-from-email').fill('shop');
      await page.getByTestId('email-save').click();
      await poll(() => fieldError(page, 'email-smtp-host')).toBe(t.faults.hostMissing);
      expect(await fieldError(page, 'email-smtp-port')).toBe(t.faults.portMissing);
      expect(await fieldError(page, 'email-from-email')).toBe(t.faults.fromInvalid);
      expect(await page.getByTestId('email-secret-storage').innerText()).toBe(t.storage.file);
      await screenshot(page, `${language}-settings-email-faults`);

      // Filled: the port typed in the page's digits.
      await page.getByTestId('email-smtp-host').fill('127.0.0.1');
      await page.getByTestId('email-smtp-port').fill(language === 'fa' ? toPersianDigits(port) : String(port));
      await page.getByTestId('email-smtp-user').fill(USER);
      await page.getByTestId('email-smtp-password').fill(PASSWORD);
      await page.getByTestId('email-from-email').fill('shop@example.com');
      await page.getByTestId('email-from-name').fill(language === 'fa' ? 'فروشگاه نمونه' : 'Sample shop');
      await page.getByTestId('email-save').click();
      await page.getByTestId('email-smtp-password-saved').waitFor();

      // Reloaded: the values are back, the password only as "saved", and nowhere in the page.
      await page.reload();
      await page.getByTestId('email-smtp-host').waitFor();
      expect(await page.getByTestId('email-transport-smtp').isChecked()).toBe(true);
      expect(await page.getByTestId('email-smtp-host').inputValue()).toBe('127.0.0.1');
      expect(await page.getByTestId('email-smtp-port').inputValue()).toBe(
        language === 'fa' ? toPersianDigits(port) : String(port),
      );
      expect(await page.getByTestId('email-smtp-user').inputValue()).toBe(USER);
      expect(await page.getByTestId('email-from-email').inputValue()).toBe('shop@example.com');
      expect(await page.getByTestId('email-smtp-password-saved').textContent()).toBe(t.secret.saved);
      expect(await page.getByTestId('email-smtp-password').count()).toBe(0);
      expect(await page.content()).not.toContain(PASSWORD);

      // The test connects with the saved password (the server lets in nobody else).
      await page.getByTestId('email-test').click();
      const result = page.getByTestId('email-test-result');
      await poll(() => result.getAttribute('data-ok'), { timeout: 30_000 }).toBe('true');
      expect(await result.innerText()).toContain(t.testOk);
      await result.scrollIntoViewIfNeeded();
      await screenshot(page, `${language}-settings-email-smtp`);

      // The server gone: the test says it could not connect, and why.
      const running = smtp!;
      smtp = undefined;
      await new Promise<void>((resolve) => running.close(() => resolve()));
      await page.getByTestId('email-test').click();
      await poll(() => result.getAttribute('data-ok'), { timeout: 30_000 }).toBe('false');
      expect(await result.innerText()).toContain(t.testFailed);
      await result.scrollIntoViewIfNeeded();
      await screenshot(page, `${language}-settings-email-smtp-failed`);

      // Replacing the password shows an empty field; keeping it goes back to "saved".
      await page.getByTestId('email-smtp-password-replace').click();
      expect(await page.getByTestId('email-smtp-password').inputValue()).toBe('');
      await page.getByTestId('email-smtp-password-keep').click();
      await page.getByTestId('email-smtp-password-saved').waitFor();

      // Back to the sandbox, kept over a reload; the SMTP password stays saved for later.
      await page.getByTestId('email-transport-sandbox').click();
      await page.getByTestId('email-save').click();
      await poll(() => page.getByTestId('email-save').isDisabled()).toBe(true);
      await page.reload();
      await page.getByTestId('email-transport-sandbox').waitFor();
      expect(await page.getByTestId('email-transport-sandbox').isChecked()).toBe(true);
      await page.getByTestId('email-test').click();
      await poll(() => page.getByTestId('email-test-result').getAttribute('data-ok')).toBe('true');
      expect(await page.getByTestId('email-test-result').innerText()).toContain(t.testOkSandbox);
      await page.getByTestId('email-transport-smtp').click();
      expect(await page.getByTestId('email-smtp-password-saved').textContent()).toBe(t.secret.saved);
      expect(await page.content()).not.toContain(PASSWORD);
      expect(app.problems.filter((p) => !/HTTP 400 \/bridge\/invoke\/email/.test(p))).toEqual([]);
    });
  }
});
