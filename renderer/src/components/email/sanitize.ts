// An email's HTML made safe to show inside the app: a pasted template is someone else's code. It is
// sanitized (no scripts, event handlers, forms, frames or embedded objects), nothing in it is loaded
// from the internet (remote images are taken out and counted, so the preview can say so; a policy
// in the document forbids any other fetch), and links lead nowhere (the address stays as their
// title). The result goes into a sandboxed frame (SafeHtmlFrame), which alone would stop scripts:
// the two together keep a template from running code or telling a server the preview was opened.
import DOMPurify from 'dompurify';

const REMOTE = /^\s*(?:[a-z][a-z0-9+.-]*:)?\/\//i;
const URL_ATTRIBUTES = ['src', 'srcset', 'background', 'poster', 'lowsrc', 'dynsrc'];

/** Only inline styles and images written into the email itself (data:). */
const POLICY =
  "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:; form-action 'none'; base-uri 'none'";

const FRAME_STYLE =
  'body{margin:12px;font-family:system-ui,sans-serif;overflow-wrap:anywhere}' +
  'a[data-link]{color:#1971c2;text-decoration:underline;cursor:default}' +
  'img[data-blocked]{outline:1px dashed #adb5bd;min-width:24px;min-height:24px}';

export interface SafeEmailHtml {
  /** A whole document for an iframe's srcdoc. */
  document: string;
  /** Images the email loads from the internet, not shown here. */
  blockedImages: number;
  /** Links made inert. */
  links: number;
}

// Parsing markup sets its attributes, and the window's policy reports each inline event handler
// set (nothing runs: the parsed document is inert, and the handlers are then removed). They are
// renamed before parsing so a template full of them does not fill the console with reports; the
// safety does not rest on this (a form the pattern misses is still removed by the sanitizer).
const HANDLER = /([\s/"'])on([a-z]+\s*=)/gi;

export function sanitizeEmailHtml(html: string): SafeEmailHtml {
  // An instance of its own: its hooks count this document only.
  const purifier = DOMPurify(window);
  let blockedImages = 0;
  let links = 0;
  purifier.addHook('afterSanitizeAttributes', (node) => {
    for (const name of URL_ATTRIBUTES) {
      const value = node.getAttribute(name);
      if (value === null) continue;
      const remote = name === 'srcset' ? value.split(',').some((part) => REMOTE.test(part)) : REMOTE.test(value);
      if (!remote) continue;
      node.removeAttribute(name);
      if (node.tagName === 'IMG' && name === 'src') {
        blockedImages++;
        node.setAttribute('data-blocked', '');
      }
    }
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      const href = node.getAttribute('href') ?? '';
      node.removeAttribute('href');
      node.setAttribute('data-link', '');
      node.setAttribute('title', href);
      links++;
    }
  });
  const clean = purifier.sanitize(html.replace(HANDLER, '$1data-handler-on$2'), {
    WHOLE_DOCUMENT: true,
    FORBID_TAGS: [
      'form',
      'input',
      'button',
      'select',
      'textarea',
      'iframe',
      'frame',
      'object',
      'embed',
      'base',
      'link',
      'meta',
    ],
    FORBID_ATTR: ['action', 'formaction', 'target', 'ping'],
    // The email's own data attributes (and the renamed handlers) mean nothing to a preview.
    ALLOW_DATA_ATTR: false,
  });
  // Before the document's own <html>: the parser puts both in its head.
  const head = `<meta http-equiv="Content-Security-Policy" content="${POLICY}"><style>${FRAME_STYLE}</style>`;
  return { document: `<!doctype html>${head}${clean}`, blockedImages, links };
}
