// Window security: the app's own origin (app://chapar, a privileged scheme serving out/renderer,
// or, in development builds only, the dev server's origin under `electron-vite dev`), the CSP
// header on everything the renderer loads, no navigation away from the app, no new windows, no
// webviews, no permissions, and in production no DevTools and no reload. Links to the web open in
// the user's browser.
import path from 'node:path';
import fs from 'node:fs';
import { app, Menu, protocol, session, shell, type WebContents, type WebFrameMain } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../../shared/security';
import {
  APP_SCHEME,
  appOrigin,
  isExternalLink,
  isSameOrigin,
  isTrustedFrame as trustedFrame,
  rendererFile,
} from './origin';
import { isDeveloperShortcut, productionMenu, windowPolicy } from './window-policy';

/** Development or production rules (window-policy.ts): a packaged app has no dev server, no DevTools. */
export const WINDOW_POLICY = windowPolicy({ isPackaged: app.isPackaged, env: process.env });
const DEV_URL = WINDOW_POLICY.devUrl;

/** Where the renderer is loaded from: the dev server, or the app's own scheme. */
export const APP_ORIGIN = appOrigin(DEV_URL);
export const APP_ENTRY = DEV_URL ?? `${APP_ORIGIN}/index.html`;

// Vite's dev server needs its inline preamble and its HMR socket; the built app needs neither.
const CSP = DEV_URL
  ? CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
      "connect-src 'self'",
      `connect-src 'self' ws://${new URL(DEV_URL).host}`,
    )
  : CONTENT_SECURITY_POLICY;

/** Must run before `app` is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

/** Serves out/renderer at app://chapar/, with the CSP header; nothing outside that folder. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = rendererFile(rendererDir, request.url);
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile())
      return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    return new Response(await fs.promises.readFile(file), {
      headers: {
        'content-type': MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        'content-security-policy': CSP,
        'x-content-type-options': 'nosniff',
      },
    });
  });
}

/** The CSP on every response the default session receives (the dev server's pages included). */
export function enforceSessionPolicy(): void {
  const ses = session.defaultSession;
  ses.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders };
    for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-security-policy') delete headers[name];
    headers['Content-Security-Policy'] = [CSP];
    callback({ responseHeaders: headers });
  });
  // The app asks for no permission (camera, notifications, geolocation, ...): refuse them all.
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
}

export function isAppUrl(url: string): boolean {
  return isSameOrigin(url, APP_ORIGIN);
}

/** IPC is answered only for the app's own top frame. */
export function isTrustedFrame(frame: WebFrameMain | null | undefined): boolean {
  return trustedFrame(frame, APP_ORIGIN);
}

function openOutside(url: string): void {
  if (isExternalLink(url)) void shell.openExternal(url);
}

/** No navigation away from the app, no new windows, no webviews, for every web contents. */
export function lockDownContents(): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (isAppUrl(url)) return;
      event.preventDefault();
      openOutside(url);
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      openOutside(url);
      return { action: 'deny' };
    });
    if (!WINDOW_POLICY.devTools) {
      // webPreferences.devTools is false in production; these close any other way in.
      contents.on('before-input-event', (event, input) => {
        if (isDeveloperShortcut(input)) event.preventDefault();
      });
      contents.on('devtools-opened', () => contents.closeDevTools());
    }
  });
}

/** Production builds: the menu without reload and DevTools (window-policy.ts). Call once ready. */
export function applyMenuPolicy(): void {
  if (WINDOW_POLICY.devTools) return;
  const template = productionMenu(process.platform);
  Menu.setApplicationMenu(template ? Menu.buildFromTemplate(template) : null);
}
