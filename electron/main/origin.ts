// The pure rules of window security, kept free of `electron` so tests check them directly: what
// counts as the app's own URL, which frames IPC answers, and which file an app:// URL may serve.
import path from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'chapar';

/**
 * scheme://host[:port] of a URL. Not URL.origin: Node's URL gives "null" as the origin of every
 * non-special scheme, app:// included (Chromium knows it as standard, Node does not).
 */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.host ? `${parsed.protocol}//${parsed.host}` : null;
  } catch {
    return null;
  }
}

/** The app's origin: the dev server's under `electron-vite dev`, else app://chapar. */
export function appOrigin(devUrl: string | undefined): string {
  return (devUrl && originOf(devUrl)) || `${APP_SCHEME}://${APP_HOST}`;
}

export function isSameOrigin(url: string, origin: string): boolean {
  return originOf(url) === origin;
}

/** IPC is answered only for the app's own top frame (no subframe, no foreign page). */
export function isTrustedFrame(frame: { parent: unknown; url: string } | null | undefined, origin: string): boolean {
  return !!frame && frame.parent === null && isSameOrigin(frame.url, origin);
}

/** The file an app:// request may read: inside the renderer folder, or null. */
export function rendererFile(root: string, requestUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let relative: string;
  try {
    relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
  } catch {
    return null;
  }
  if (relative.includes('\0')) return null;
  const base = path.resolve(root);
  const file = path.resolve(base, '.' + relative);
  return file.startsWith(base + path.sep) ? file : null;
}

/** Links the app lets the user's browser open. */
export function isExternalLink(url: string): boolean {
  try {
    return ['https:', 'http:', 'mailto:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}
