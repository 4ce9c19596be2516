// What a customer's phone shows for a short link that leads nowhere (an unknown code, or a
// recipient's link not sent yet): a small page in their language, Persian right to left when their
// browser asks for Persian before English (or the app's language cookie says Persian), English
// otherwise. A person opened it from a text message, so it says what happened and what to do, not
// the API's plain "404 page not found". Self-contained (no script, no file to fetch) under a policy
// that allows only its own style. The web UI's sign-in page is made by the same `visitorPage`.
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { LANGUAGE_COOKIE } from '../../../shared/security';

export type VisitorLanguage = 'fa' | 'en';

const TEXTS: Record<VisitorLanguage, { title: string; body: string; hint: string }> = {
  fa: {
    title: 'این پیوند کار نمی‌کند',
    body: 'پیوندی که باز کردید وجود ندارد یا دیگر کار نمی‌کند.',
    hint: 'نشانی را با پیامک مقایسه کنید؛ اگر درست است، با فرستنده پیامک تماس بگیرید.',
  },
  en: {
    title: 'This link does not work',
    body: 'The link you opened does not exist or no longer works.',
    hint: 'Compare the address with the one in the text message; if it is the same, contact the sender.',
  },
};

const STYLE =
  'body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;' +
  'font-family:Vazirmatn,Tahoma,system-ui,sans-serif;background:#f5f6f8;color:#1f2328}' +
  'main{max-width:26rem;margin:1.5rem;padding:1.5rem;background:#fff;border-radius:12px;' +
  'box-shadow:0 1px 3px rgba(0,0,0,.12);line-height:1.7}h1{font-size:1.25rem;margin:0 0 .5rem}p{margin:.25rem 0}' +
  '.hint{color:#57606a;font-size:.9rem}' +
  '.address{direction:ltr;text-align:left;unicode-bidi:isolate;font-family:ui-monospace,monospace;' +
  'word-break:break-all;background:#eef0f3;border-radius:6px;padding:.25rem .5rem;margin:.5rem 0}';
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');
const POLICY = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/**
 * The visitor's language from Accept-Language: Persian when it ranks Persian above English (by q,
 * then by order; a language it refuses with q=0 does not count), English otherwise.
 */
export function visitorLanguage(acceptLanguage: string | undefined): VisitorLanguage {
  let best: { language: VisitorLanguage; q: number } | null = null;
  for (const entry of (acceptLanguage ?? '').split(',')) {
    const [tag = '', ...params] = entry.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (primary !== 'fa' && primary !== 'en') continue;
    const qParam = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!(q > 0)) continue;
    if (best === null || q > best.q) best = { language: primary, q };
  }
  return best?.language ?? 'en';
}

/**
 * The language of a page for this request: the one the app's cookie names (the person chose it in
 * the web UI on this address), else the one the browser asks for.
 */
export function requestLanguage(headers: { cookie?: string; 'accept-language'?: string }): VisitorLanguage {
  const chosen = new RegExp(`(?:^|;)\\s*${LANGUAGE_COOKIE}=(fa|en)\\s*(?:;|$)`).exec(headers.cookie ?? '');
  return chosen ? (chosen[1] as VisitorLanguage) : visitorLanguage(headers['accept-language']);
}

/** Text made safe to put in a page. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A small page in one language and its direction: a title, paragraphs (HTML, already escaped),
 * then an address (shown left to right on a line of its own) and a hint, when given.
 */
export function visitorPage(
  language: VisitorLanguage,
  title: string,
  parts: { paragraphs: string[]; address?: string; hint?: string },
): string {
  const dir = language === 'fa' ? 'rtl' : 'ltr';
  const body =
    parts.paragraphs.map((p) => `<p>${p}</p>`).join('') +
    (parts.address === undefined ? '' : `<p class="address" dir="ltr">${parts.address}</p>`) +
    (parts.hint === undefined ? '' : `<p class="hint">${parts.hint}</p>`);
  return (
    `<!doctype html>\n<html lang="${language}" dir="${dir}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">' +
    `<title>${title}</title><style>${STYLE}</style></head>` +
    `<body><main><h1>${title}</h1>${body}</main></body></html>\n`
  );
}

export function deadLinkPage(language: VisitorLanguage): string {
  const text = TEXTS[language];
  return visitorPage(language, text.title, { paragraphs: [text.body], hint: text.hint });
}

/** Answers a short link that leads nowhere: 404 with the page in the visitor's language. */
export function sendDeadLink(
  reply: FastifyReply,
  headers: { cookie?: string; 'accept-language'?: string },
): FastifyReply {
  const language = requestLanguage(headers);
  return (
    reply
      .code(404)
      .type('text/html; charset=utf-8')
      .header('content-language', language)
      .header('vary', 'accept-language, cookie')
      // A code not recorded yet (a running campaign's later recipient) may lead somewhere soon.
      .header('cache-control', 'no-store')
      .header('content-security-policy', POLICY)
      .header('x-content-type-options', 'nosniff')
      .send(deadLinkPage(language))
  );
}
