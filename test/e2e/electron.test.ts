// The Electron variant of the end-to-end suite: the desktop app itself through playwright's
// Electron launcher, with the same steps as the web variant. Where the Electron binary is not
// installed (a headless server, a CI image without it) this variant says so in one line and is
// skipped; the web variant covers the same screens against `serve`.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { _electron as electron, type ElectronApplication } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir, testSeed } from '../helpers/server';
import { Core } from '../../electron/service/core';
import { applySeed } from '../../electron/service/seed';
import { openPage } from './app';
import { acceptedResultRows, composeMixedSend, poll, switchToPersian, waitAllFinal } from './scenarios';

/**
 * The installed Electron binary, found without `require('electron')`: that would try to
 * download it when missing.
 */
function electronBinary(): string | null {
  const dir = path.join(ROOT, 'node_modules', 'electron');
  const pathFile = path.join(dir, 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const binary = path.join(dir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? binary : null;
}

const binary = electronBinary();
if (!binary)
  console.log(
    'e2e: no Electron binary in node_modules/electron (npx install-electron); the Electron variant is skipped',
  );

describe.skipIf(!binary)('desktop app (Electron)', () => {
  let app: ElectronApplication;
  let dataDir: string;

  beforeAll(async () => {
    // main, preload and renderer as the desktop app runs them.
    execFileSync(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
    // The desktop app opens the workspace named by CHAPAR_DATA; the seed goes in beforehand,
    // through the same core, so the app starts on the test's accounts instead of a demo one.
    dataDir = tempDir('chapar-e2e-electron-');
    const core = new Core({ dataDir, startScheduler: false });
    applySeed(core, testSeed());
    await core.close();
    app = await electron.launch({
      executablePath: binary!,
      args: [path.join(ROOT, 'out', 'main', 'index.js'), '--no-sandbox'],
      env: { ...process.env, CHAPAR_DATA: dataDir, LANG: 'en_US.UTF-8' },
    });
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('composes, sends to mixed receivers, follows statuses live and flips to Persian', async () => {
    const page = await app.firstWindow();
    await page.getByTestId('app-title').waitFor();
    // The preload bridge, not the web one: the renderer picked window.chapar.
    expect(await page.evaluate('typeof window.chapar')).toBe('object');

    await openPage(page, 'compose');
    await composeMixedSend(page);
    await waitAllFinal(acceptedResultRows(page));

    await openPage(page, 'messages');
    await poll(() => page.getByTestId('message-row').count()).toBe(2);
    await waitAllFinal(page.getByTestId('message-row'));

    await switchToPersian(page);
    await openPage(page, 'messages');
    expect(await page.getByTestId('message-date').first().innerText()).toMatch(/^۱۴[۰-۹]{2}\//);
  });
});
