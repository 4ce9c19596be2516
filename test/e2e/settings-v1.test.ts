// What version 1 of the API needs a user to set up in the app, end to end in both languages: the
// account's IP allow-list in Settings → Accounts (an entry added is saved and kept in the core's
// spelling, "add this computer" adds the loopback addresses, an entry that is no address is
// refused, naming it) and the verify/lookup templates beside the API keys (created with a live
// preview and the call a program makes, edited, deactivated and deleted after a confirmation).
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { openPage, screenshot, startApp, type RunningApp } from './app';
import { poll } from './scenarios';
import { en } from '../../renderer/src/i18n/en';
import { fa } from '../../renderer/src/i18n/fa';

let app: RunningApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const LANGUAGES = [
  ['en-US', 'en', en],
  ['fa-IR', 'fa', fa],
] as const;

/** The entries the allow-list shows, in order. */
function entries(page: Page): Promise<Array<string | null>> {
  return page
    .getByTestId('allowlist-entry')
    .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-entry')));
}

/** The refusals the test provokes (the bridge answers a refused call with its code), and nothing else. */
function unexpectedProblems(problems: string[]): string[] {
  return problems.filter(
    (problem) => !/HTTP 400 \/bridge\/invoke\/(accounts|templates)(:|%3A)|status of 400/.test(problem),
  );
}

describe('settings for API version 1 (web UI)', () => {
  for (const [locale, language, texts] of LANGUAGES) {
    it(`edits the account's IP allow-list (${language})`, async () => {
      app = await startApp({ locale });
      const { page } = app;
      await openPage(page, 'settings');
      await page.getByTestId('settings-tab-accounts').click();
      const editor = page.getByTestId('allowlist');
      await editor.waitFor();
      // The hint names what a caller from elsewhere gets (416, in the language's digits).
      expect(await page.getByTestId('allowlist-hint').innerText()).toBe(texts.allowlist.hint);
      expect(texts.allowlist.hint).toContain(language === 'en' ? '416' : '۴۱۶');
      // The test seed lists 127.0.0.1 for acme, the account the app opens on.
      expect(await entries(page)).toEqual(['127.0.0.1']);

      // Saved in the core's spelling: blanks dropped, the prefix without its leading zero.
      await page.getByTestId('allowlist-input').fill(' 203.0.113.0/024 ');
      await page.getByTestId('allowlist-add').click();
      await poll(() => entries(page)).toEqual(['127.0.0.1', '203.0.113.0/24']);
      expect(await page.getByTestId('allowlist-input').inputValue()).toBe('');

      // "This computer": ::1 joins 127.0.0.1, and the button gives way to a note.
      await page.getByTestId('allowlist-this-computer').click();
      await poll(() => entries(page)).toEqual(['127.0.0.1', '203.0.113.0/24', '::1']);
      await page.getByTestId('allowlist-this-computer-done').waitFor();

      // An entry that is no address is refused, named, and nothing is saved.
      await page.getByTestId('allowlist-input').fill('my-server.local');
      await page.getByTestId('allowlist-add').click();
      const error = page.getByTestId('allowlist-error');
      await error.waitFor();
      expect(await error.innerText()).toBe(texts.allowlist.invalid.replace('{{entry}}', 'my-server.local'));
      expect(await entries(page)).toEqual(['127.0.0.1', '203.0.113.0/24', '::1']);
      await screenshot(page, `${language}-settings-allowlist-refused`);
      // Typing again clears the refusal.
      await page.getByTestId('allowlist-input').fill('2001:DB8::7');
      expect(await error.count()).toBe(0);
      await page.getByTestId('allowlist-add').click();
      await poll(() => entries(page)).toEqual(['127.0.0.1', '203.0.113.0/24', '::1', '2001:db8::7']);

      // Removed, and still so after a reload: it was saved, not only shown.
      await page
        .locator('[data-testid="allowlist-entry"][data-entry="203.0.113.0/24"]')
        .getByTestId('allowlist-remove')
        .click();
      await poll(() => entries(page)).toEqual(['127.0.0.1', '::1', '2001:db8::7']);
      await page.reload();
      await page.getByTestId('allowlist').waitFor();
      await poll(() => entries(page)).toEqual(['127.0.0.1', '::1', '2001:db8::7']);
      await screenshot(page, `${language}-settings-allowlist`);
      expect(unexpectedProblems(app.problems)).toEqual([]);
    });

    it(`creates, previews, edits, deactivates and deletes a verify template (${language})`, async () => {
      app = await startApp({ locale });
      const { page } = app;
      await openPage(page, 'settings');
      await page.getByTestId('settings-tab-apiKeys').click();
      await page.getByTestId('templates-empty').waitFor();

      await page.getByTestId('template-new').click();
      const save = page.getByTestId('template-save');
      await page.getByTestId('template-name').fill('login code');
      expect(await page.getByText(texts.templates.nameInvalid).count()).toBe(1);
      await page.getByTestId('template-name').fill('login-code');
      expect(await page.getByText(texts.templates.nameInvalid).count()).toBe(0);
      // A placeholder verify/lookup does not fill is named at once; the form cannot be sent.
      await page.getByTestId('template-body-input').fill('Code %token5');
      await page.getByText(texts.templates.placeholderUnknown.replace('{{name}}', 'token5')).waitFor();
      expect(await save.isEnabled()).toBe(false);
      await page.getByTestId('template-body-input').fill('کد ورود شما: %token');
      await poll(() => page.getByTestId('template-preview').innerText()).toBe('کد ورود شما: 12345');
      await poll(() => save.isEnabled()).toBe(true);
      // The line: the default, or one of the account's SMS lines.
      await page.getByTestId('template-sender').click();
      await page.getByRole('option', { name: language === 'fa' ? '۳۰۰۰۱۱۱۱' : '30001111' }).click();
      const example = await page.getByTestId('template-example').innerText();
      expect(example).toMatch(
        /^curl "http:\/\/127\.0\.0\.1:\d+\/v1\/API-KEY\/verify\/lookup\.json\?receptor=09120000000&template=login-code&token=12345"$/,
      );
      await screenshot(page, `${language}-settings-template-editor`);
      await save.click();
      const row = page.locator('[data-testid="template-row"][data-name="login-code"]');
      await row.waitFor();
      expect(await row.getByTestId('template-body').innerText()).toBe('کد ورود شما: %token');
      expect(await row.innerText()).toContain(language === 'fa' ? '۳۰۰۰۱۱۱۱' : '30001111');

      // The same name again is the core's refusal, said in the form.
      await page.getByTestId('template-new').click();
      await page.getByTestId('template-name').fill('login-code');
      await page.getByTestId('template-body-input').fill('Another %token');
      await page.getByTestId('template-save').click();
      await page.getByTestId('template-refused').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('template-form').waitFor({ state: 'detached' });
      expect(await page.getByTestId('template-row').count()).toBe(1);

      // Edited: a second placeholder, filled in the preview and asked for in the example.
      await row.getByTestId('template-edit').click();
      await page.getByTestId('template-body-input').fill('Code %token for %token10');
      await poll(() => page.getByTestId('template-preview').innerText()).toBe(
        `Code 12345 for ${texts.templates.sample.token10}`,
      );
      expect(await page.getByTestId('template-example').innerText()).toContain(
        `&token=12345&token10=${new URLSearchParams({ x: texts.templates.sample.token10 }).toString().slice(2)}"`,
      );
      await page.getByTestId('template-sender').click();
      await page.getByRole('option', { name: texts.templates.defaultSender }).click();
      await page.getByTestId('template-save').click();
      await page.getByTestId('template-form').waitFor({ state: 'detached' });
      await poll(() => row.getByTestId('template-body').innerText()).toBe('Code %token for %token10');
      expect(await row.innerText()).toContain(texts.templates.defaultSender);

      // Deactivated, and still so after a reload.
      await row.getByTestId('template-active').click();
      await poll(() => row.getByTestId('template-active').isChecked()).toBe(false);
      await page.reload();
      await page.getByTestId('templates-table').waitFor();
      await poll(() => row.getByTestId('template-active').isChecked()).toBe(false);
      await screenshot(page, `${language}-settings-templates`);

      // Deleted after a confirmation; cancelling keeps it.
      await row.getByTestId('template-delete').click();
      await page.getByText(texts.templates.deleteTitle.replace('{{name}}', 'login-code')).waitFor();
      await page.getByRole('button', { name: texts.common.cancel }).click();
      expect(await page.getByTestId('template-row').count()).toBe(1);
      await row.getByTestId('template-delete').click();
      await page.getByTestId('template-delete-confirm').click();
      await page.getByTestId('templates-empty').waitFor();
      await page.reload();
      await page.getByTestId('templates-empty').waitFor();
      expect(unexpectedProblems(app.problems)).toEqual([]);
    });
  }
});
