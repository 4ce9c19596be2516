// Settings end to end. API keys: create one, read it from the show-once modal, use it over the HTTP API,
// revoke it and see the API refuse it (403). Credit top-up and a backup.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { post } from '../helpers/server';
import { poll } from './scenarios';
import { openPage, screenshot, appForSuite } from './app';

describe('API keys (web UI)', () => {
  const app = appForSuite();

  it('creates a key shown once, which works over the HTTP API until revoked', async () => {
    const { page, url } = app();
    await openPage(page, 'settings');
    await page.getByTestId('settings-tab-apiKeys').click();
    await page.getByTestId('apikeys-table').waitFor();
    const before = await page.getByTestId('apikey-row').count();

    await page.getByTestId('apikey-label').fill('website');
    await page.getByTestId('apikey-create').click();
    const value = page.getByTestId('apikey-value');
    await value.waitFor();
    const key = (await value.innerText()).trim();
    expect(key.length).toBeGreaterThan(20);
    await screenshot(page, 'en-settings-apikey-created');
    await page.getByTestId('apikey-done').click();
    await value.waitFor({ state: 'detached' });
    // The list shows only the key's last characters, never the key.
    await poll(() => page.getByTestId('apikey-row').count()).toBe(before + 1);
    const row = page.locator(`[data-testid="apikey-row"][data-hint="${key.slice(-4)}"]`);
    expect(await row.innerText()).not.toContain(key);
    expect(await page.locator('body').innerText()).not.toContain(key);

    const send = () =>
      post(`${url}/v2/sms/send`, { message: 'from the website', sender: '30001111', receivers: ['09121234567'] }, key);
    const ok = await send();
    expect(ok.status).toBe(200);
    expect(ok.body.return.status).toBe(200);
    expect(ok.body.entries[0].status).toBe(1);

    await row.getByTestId('apikey-revoke').click();
    await page.getByTestId('apikey-revoke-confirm').click();
    await row.getByTestId('apikey-revoked').waitFor();
    const refused = await send();
    expect(refused.status).toBe(403);
    expect(refused.body.return.status).toBe(403);
    expect(refused.body.entries).toEqual([]);
    expect(app().problems).toEqual([]);
  });
});

describe('credit and backup (web UI)', () => {
  const app = appForSuite();

  it('tops up the credit (balance, header and ledger follow) and makes a backup', async () => {
    const { page } = app();
    await openPage(page, 'settings');
    await page.getByTestId('settings-tab-credit').click();
    await page.getByTestId('ledger-row').first().waitFor();
    const rows = await page.getByTestId('ledger-row').count();
    await page.getByTestId('credit-amount').fill('50000');
    await page.getByTestId('credit-topup').click();
    await page.getByTestId('credit-topup-confirm').click();
    await poll(() => page.getByTestId('credit-balance').innerText()).toContain('10,050,000');
    await poll(() => page.getByTestId('header-credit').innerText()).toContain('10,050,000');
    await poll(() => page.getByTestId('ledger-row').count()).toBe(rows + 1);

    await page.getByTestId('settings-tab-backup').click();
    await page.getByTestId('backup-create').click();
    await page.getByTestId('backup-done').waitFor();
    expect(await page.getByTestId('backup-done').innerText()).toContain(app().dataDir);
    // The restore field is filled with the backup just made; the list offers it for download
    // to this computer (web mode): an SQLite file.
    await poll(() => page.getByTestId('restore-path').inputValue()).toContain(app().dataDir);
    await page.getByTestId('backup-row').first().waitFor();
    const download = page.waitForEvent('download');
    await page.getByTestId('backup-download').first().click();
    const file = await (await download).path();
    expect(fs.readFileSync(file).subarray(0, 15).toString('latin1')).toBe('SQLite format 3');

    // Credit moves on after the backup...
    await page.getByTestId('settings-tab-credit').click();
    await page.getByTestId('credit-amount').fill('1000');
    await page.getByTestId('credit-topup').click();
    await page.getByTestId('credit-topup-confirm').click();
    await poll(() => page.getByTestId('header-credit').innerText()).toContain('10,051,000');

    // ...and the downloaded backup, uploaded from "this computer" and restored, brings it back.
    await page.getByTestId('settings-tab-backup').click();
    await page.getByTestId('restore-path').fill('');
    await page.locator('input[type="file"]').setInputFiles(file);
    await poll(() => page.getByTestId('restore-path').inputValue()).not.toBe('');
    await page.getByTestId('restore-start').click();
    await page.getByTestId('restore-confirm').click();
    // The page reloads itself on the restored data.
    await poll(() => page.getByTestId('header-credit').innerText()).toContain('10,050,000');
    expect(app().problems).toEqual([]);
  });
});
