// The app under test: the real `serve` command on a free port with a temp data folder and the
// test seed, its web UI opened in a real Chromium. Also keeps out/renderer in step with the
// sources (serve only builds it when missing), and saves screenshots to test/screenshots/.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll } from 'vitest';
import { ROOT, spawnServe, tempDir, testSeed, type ServeProcess } from '../helpers/server';
import type { Seed } from '../../electron/service/seed';
import { launchChromium } from './browser';

export const SCREENSHOTS = path.join(ROOT, 'test', 'screenshots');
const RENDERER_OUT = path.join(ROOT, 'out', 'renderer', 'index.html');

/** Newest modification time under the folders the renderer is built from. */
function newestSource(dirs: string[]): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  for (const dir of dirs) walk(dir);
  return newest;
}

/**
 * Rebuilds out/renderer when a source is newer than it. Test files run in parallel processes:
 * a lock folder makes one build and the others wait for it.
 */
export async function ensureFreshRenderer(): Promise<void> {
  const sources = newestSource([path.join(ROOT, 'renderer'), path.join(ROOT, 'shared')]);
  const fresh = () => fs.existsSync(RENDERER_OUT) && fs.statSync(RENDERER_OUT).mtimeMs >= sources;
  if (fresh()) return;
  const lock = path.join(ROOT, 'out', '.e2e-build.lock');
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // Another test process is building; wait for its lock to go (a stale lock older than
      // five minutes is from a crashed run).
      const held = fs.statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 300_000) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (fresh()) return;
    }
  }
  try {
    if (!fresh())
      execFileSync(process.execPath, [path.join(ROOT, 'electron', 'cli', 'build-renderer.mjs'), '--quiet'], {
        cwd: ROOT,
        stdio: 'inherit',
      });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export interface RunningApp {
  serve: ServeProcess;
  /** Base URL of the HTTP API (and the web UI). */
  url: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  dataDir: string;
  /** Console errors and failed requests seen in the page, for assertions and debugging. */
  problems: string[];
  close(): Promise<void>;
}

/**
 * The app for the tests of one describe block: started before them, closed after them. The getter
 * is read inside the tests, once the app is up.
 */
export function appForSuite(): () => RunningApp {
  let app: RunningApp | undefined;
  beforeAll(async () => {
    app = await startApp();
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });
  return () => {
    if (!app) throw new Error('the app did not start');
    return app;
  };
}

export async function startApp(
  options: { seed?: Partial<Seed>; locale?: string; timezoneId?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunningApp> {
  await ensureFreshRenderer();
  const dataDir = tempDir('chapar-e2e-');
  const seedFile = path.join(dataDir, 'seed.json');
  fs.writeFileSync(seedFile, JSON.stringify(testSeed(options.seed)));
  const serve = await spawnServe({ dataDir, seedFile, webUi: true, env: options.env });
  if (!serve.webUrl) throw new Error(`serve printed no web UI address:\n${serve.output()}`);
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const context = await browser.newContext({
      locale: options.locale ?? 'en-US',
      ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
      viewport: { width: 1366, height: 860 },
      acceptDownloads: true,
      // The app honours it (no chart animation), so screenshots show finished drawings.
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()} ${new URL(response.url()).pathname}`);
    });
    await page.goto(serve.webUrl);
    await page.getByTestId('app-title').waitFor();
    const opened = browser;
    return {
      serve,
      url: serve.url,
      browser: opened,
      context,
      page,
      dataDir,
      problems,
      async close() {
        // The server is stopped and its folder removed even when the browser fails to close.
        try {
          await opened.close();
        } finally {
          await serve.stop();
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await serve.stop();
    throw error;
  }
}

/**
 * Moves the service's clock forward (an app started with `env: { CHAPAR_TEST_CLOCK: '1' }`): what
 * was scheduled for then becomes due now, without waiting.
 */
export async function advanceClock(app: RunningApp, ms: number): Promise<number> {
  const response = await fetch(`${app.url}/test/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance_ms: ms }),
  });
  if (!response.ok) throw new Error(`the test clock answered ${response.status}`);
  return ((await response.json()) as { now: number }).now;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // Let web fonts finish so the Persian text is drawn in Vazirmatn, not a fallback.
  // (A string: this file compiles without the DOM lib.)
  await page.evaluate('document.fonts.ready.then(() => true)');
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

/** Goes to one of the four pages through the navigation, as a user does. */
export async function openPage(
  page: Page,
  name: 'dashboard' | 'compose' | 'campaigns' | 'messages' | 'settings',
): Promise<void> {
  await page.getByTestId(`nav-${name}`).click();
  await page.getByTestId(`page-${name}`).waitFor();
}

/**
 * Stops the app's server as if it went away (the page stays open on its last screen) and answers
 * the function that starts it again on the same port with the same data folder. Start the app
 * with a fixed CHAPAR_WEB_TOKEN in `env` and pass the same `env` here, so the browser's cookie
 * still opens the bridge after the restart. Restarted, `app.serve` is the new process and
 * `app.close()` stops it too.
 */
export async function stopServer(app: RunningApp, env?: NodeJS.ProcessEnv): Promise<() => Promise<void>> {
  const port = Number(new URL(app.url).port);
  await app.serve.stop();
  return async () => {
    const serve = await spawnServe({ dataDir: app.dataDir, port, webUi: true, env });
    const close = app.close;
    app.serve = serve;
    app.close = async () => {
      await serve.stop();
      await close();
    };
  };
}
