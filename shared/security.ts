// The Content-Security-Policy of the app's pages, one string for both places that send it:
// Electron's session (a response header on every renderer load) and `serve` in web mode. Scripts
// only from the app itself (no inline script, no eval); Mantine needs inline styles.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The cookie the web UI keeps its language in (not a secret, readable by the page), so the pages
 * the server makes itself (the sign-in page, a dead short link) answer in the same language.
 */
export const LANGUAGE_COOKIE = 'chapar_lang';
