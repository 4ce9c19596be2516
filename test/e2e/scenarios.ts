// Steps shared by the web and the Electron variants of the end-to-end suite: what a user does,
// in terms of the app's test ids, with waits on the app's own states (no sleeps).
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright';

export const FINAL_STATUSES = ['10', '11', '13', '14'];

/**
 * expect.poll with room for a loaded machine (its default gives up after one second). It waits
 * for the app's state and returns as soon as it holds; the timeout is only a ceiling.
 */
export function poll<T>(check: () => T | Promise<T>, options: { timeout?: number } = {}) {
  return expect.poll(check, { interval: 50, ...options, timeout: options.timeout ?? 15_000 });
}

export const MIXED_RECEIVERS = '09121111111\n+98 912 222 2222, 12345\n09121111111\nnot-a-number';

/** Statuses (data-status) of the rows a locator finds. */
export function statusesOf(rows: Locator): Promise<Array<string | null>> {
  return rows.evaluateAll((elements) => elements.map((e) => e.getAttribute('data-status')));
}

/** Waits until every row the locator finds (at least one) shows a final status. */
export async function waitAllFinal(rows: Locator, timeout = 20_000): Promise<void> {
  await poll(
    async () => {
      const statuses = await statusesOf(rows);
      return statuses.length > 0 && statuses.every((s) => s !== null && FINAL_STATUSES.includes(s));
    },
    { timeout },
  ).toBe(true);
}

/**
 * In Compose: sends the draft as a person does, through the confirmation (the button alone sends
 * nothing), and waits for the confirmation to close.
 */
export async function confirmSend(page: Page): Promise<void> {
  await page.getByTestId('compose-send').click();
  const confirm = page.getByTestId('confirm-send');
  await poll(() => confirm.isEnabled()).toBe(true);
  await confirm.click();
  await page.getByTestId('compose-confirm').waitFor({ state: 'detached' });
}

/**
 * In Compose: writes a text, pastes two valid numbers, one repeated and two invalid entries,
 * checks the preview, sends, and checks the result table's five rows.
 */
export async function composeMixedSend(page: Page): Promise<void> {
  await poll(() => page.getByTestId('compose-line').inputValue()).toContain('30001111');
  await page.getByTestId('compose-text').fill('Hello from Chapar {sale}');
  // The opt-out phrase joins the final text: a page holds 70 characters whatever was typed, so no
  // typed character is pointed out as raising the price.
  await poll(() => page.getByTestId('compose-final-text').innerText()).toContain('لغو۱۱');
  expect(await page.getByTestId('compose-per-page').innerText()).toBe('70');
  expect(await page.getByTestId('costly-char').count()).toBe(0);

  await page.getByTestId('compose-receivers').fill(MIXED_RECEIVERS);
  await page.getByTestId('compose-invalid-list').waitFor();
  expect(await page.getByTestId('compose-valid-count').getAttribute('data-value')).toBe('2');
  expect(await page.getByTestId('compose-invalid-count').getAttribute('data-value')).toBe('2');
  expect(await page.getByTestId('compose-duplicate-count').getAttribute('data-value')).toBe('1');

  await confirmSend(page);
  await page.getByTestId('compose-result').waitFor();
  expect(await page.getByTestId('result-accepted').getAttribute('data-value')).toBe('2');
  expect(await page.getByTestId('result-invalid').getAttribute('data-value')).toBe('2');
  expect(await page.getByTestId('result-duplicate').getAttribute('data-value')).toBe('1');
  await poll(() => page.getByTestId('result-row').count()).toBe(5);
  expect(await page.locator('[data-testid="result-row"][data-status="0"]').count()).toBe(2);
  expect(await page.locator('[data-testid="result-row"][data-status="15"]').count()).toBe(1);
}

/** Rows of the send result that were accepted (not rejected at send time). */
export function acceptedResultRows(page: Page): Locator {
  return page.locator('[data-testid="result-row"]:not([data-status="0"]):not([data-status="15"])');
}

/** Settings → General → Persian; waits for the layout to flip. */
export async function switchToPersian(page: Page): Promise<void> {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-language').getByText('فارسی').click();
  await poll(() => page.locator('html').getAttribute('dir')).toBe('rtl');
  expect(await page.locator('html').getAttribute('lang')).toBe('fa');
}

/** What the web bridge answers a call: the value, or the refusal. */
export interface BridgeAnswer<T> {
  ok: boolean;
  value?: T;
  error?: { code: number; message: string; reason?: string; detail?: string };
}

/** An IPC call over the web bridge from inside the page (its token cookie), as the UI makes it. */
export function bridgeCall<T = any>(page: Page, channel: string, input: unknown): Promise<BridgeAnswer<T>> {
  return page.evaluate(
    async ([name, body]) => {
      const response = await fetch(`/bridge/invoke/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await response.json()) as BridgeAnswer<T>;
    },
    [channel, input] as const,
  );
}

/** A bridge call that must succeed: its value (a refusal fails the test with what it said). */
export async function bridge<T>(page: Page, channel: string, input: unknown): Promise<T> {
  const result = await bridgeCall<T>(page, channel, input);
  if (!result.ok) throw new Error(`${channel}: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

/**
 * The import wizard from the Contacts page to its review, done, as a shop owner goes through it:
 * the file chosen, its phone found in column 1, the columns named by their index, the new segment
 * named when `segment` is given. A large sheet may give its review more time (`reviewTimeoutMs`).
 */
export async function importThroughWizard(
  page: Page,
  file: string,
  columns: Record<number, string>,
  segment?: string,
  { reviewTimeoutMs = 30_000 } = {},
): Promise<void> {
  await page.getByTestId('nav-contacts').click();
  await page.getByTestId('contacts-import').click();
  await page.getByTestId('import-file-input').setInputFiles(file);
  await page.getByTestId('import-layout').waitFor({ timeout: 30_000 });
  await page.getByTestId('import-next').click();
  await page.getByTestId('import-mapping').waitFor();
  expect(await page.getByTestId('import-column-1').getAttribute('data-role')).toBe('phone');
  for (const [index, name] of Object.entries(columns)) await page.getByTestId(`import-name-${index}`).fill(name);
  await page.getByTestId('import-next').click();
  if (segment !== undefined) await page.getByTestId('import-segment-name').fill(segment);
  await page.getByTestId('import-start').click();
  await page.getByTestId('import-review').waitFor({ timeout: reviewTimeoutMs });
  expect(await page.getByTestId('import-review').getAttribute('data-status')).toBe('done');
}

/** A new campaign in the editor, named, to one segment; the editor stays open on its draft. */
export async function newCampaignTo(page: Page, name: string, segmentId: number): Promise<void> {
  await page.getByTestId('nav-campaigns').click();
  await page.getByTestId('page-campaigns').waitFor();
  await page.getByTestId('campaigns-new').click();
  await page.getByTestId('editor-name').fill(name);
  await poll(() => page.evaluate('location.hash')).toMatch(/^#\/campaigns\/draft\/\d+$/);
  await page.getByTestId('editor-include').click();
  await page.getByTestId(`editor-include-option-${segmentId}`).click();
  await page.keyboard.press('Escape');
}
