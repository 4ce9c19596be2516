// Email (spec 2.6, 3.3, 4.6): the words both sides use. The embedded provider's message statuses
// (reference/email-relay-provider.md), the statuses a recipient of one of the app's email sends
// goes through, the transports the relay client can use, and the rule of an email address. Pure
// TypeScript: the core, the HTTP sandbox and the renderer share it.

/** A provider message's status, as its API writes it (lower case; filters may capitalize). */
export const RELAY_STATUSES = [
  'queued',
  'scheduled',
  'processed',
  'deferred',
  'delivered',
  'bounced',
  'failed',
  'suppressed',
  'cancelled',
] as const;
export type RelayStatus = (typeof RELAY_STATUSES)[number];

/** Statuses that never change again. */
export const RELAY_FINAL_STATUSES: readonly RelayStatus[] = [
  'delivered',
  'bounced',
  'failed',
  'suppressed',
  'cancelled',
];

/** The sandbox's outcomes (`sandbox_result`): what the embedded provider makes of a message. */
export const SANDBOX_RESULTS = ['deliver', 'bounce', 'defer', 'fail', 'suppress'] as const;
export type SandboxResult = (typeof SANDBOX_RESULTS)[number];

/**
 * A recipient of one of the app's email sends: `pending` until its batch is handed to the
 * transport, then the provider's status; `error` when the provider refused it (a bad address, a
 * refused request: never retried), `sent` when an SMTP server accepted it (SMTP tells no more).
 */
export const EMAIL_RECIPIENT_STATUSES = ['pending', ...RELAY_STATUSES, 'sent', 'error'] as const;
export type EmailRecipientStatus = (typeof EMAIL_RECIPIENT_STATUSES)[number];

export const EMAIL_RECIPIENT_FINAL: readonly EmailRecipientStatus[] = [...RELAY_FINAL_STATUSES, 'sent', 'error'];

/**
 * How the app's email goes out: `sandbox` the embedded provider (nothing leaves the machine, the
 * default), `provider` a real provider's API of spec 4.6 (address, account id, key), `smtp` any
 * SMTP server.
 */
export const EMAIL_TRANSPORTS = ['sandbox', 'provider', 'smtp'] as const;
export type EmailTransportKind = (typeof EMAIL_TRANSPORTS)[number];

/** Longest address accepted (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 254;

// The practical form every mail provider accepts: a local part of printable characters without
// spaces or `@`, a domain of dot-separated labels with a top-level label of letters (Unicode
// letters too: an internationalized domain), no leading, trailing or doubled dots.
const LOCAL = /^[^\s@"(),:;<>[\]\\]+$/u;
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;

/** The address as the provider would take it (trimmed), or null when it is not an address. */
export function normalizeEmail(input: string): string | null {
  const address = input.trim();
  if (address.length === 0 || address.length > MAX_EMAIL_LENGTH) return null;
  const at = address.lastIndexOf('@');
  if (at <= 0 || at !== address.indexOf('@')) return null;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > 64 || !LOCAL.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..'))
    return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  if (!/^\p{L}{2,}$/u.test(labels[labels.length - 1]!)) return null;
  return address;
}

export function isEmail(input: string): boolean {
  return normalizeEmail(input) !== null;
}

/** A provider's address: http(s) with a host (the core refuses another, 400 email_provider_url_invalid). */
export function isProviderUrl(url: string): boolean {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  return parsed !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
}

/**
 * A stored secret is only ever sent to the server it was given for. The provider's key stays when
 * the address names the same server (scheme, host and port: `https://API.example.com/` and
 * `https://api.example.com:443` do), or when no address was named before; otherwise a changed
 * address asks for the key again.
 */
export function providerKeyStays(before: string, after: string): boolean {
  const origin = (url: string) => {
    try {
      return new URL(url.trim()).origin;
    } catch {
      return url.trim();
    }
  };
  return before.trim() === '' || origin(before) === origin(after);
}

/** The same for an SMTP password: the same server (host, any case) and the same user name. */
export function smtpPasswordStays(
  before: { host: string; user: string },
  after: { host: string; user: string },
): boolean {
  return (
    before.host.trim() === '' ||
    (before.host.trim().toLowerCase() === after.host.trim().toLowerCase() && before.user.trim() === after.user.trim())
  );
}

/** A draft as its problems read it: the parties, the subject and the bodies, as typed. */
export interface EmailDraftParts {
  from: { email: string };
  reply_to?: { email: string } | null;
  subject: string;
  text?: string | null;
  html?: string | null;
}

/** A reason a send refuses a draft for (400), with the words that say it in the API. */
export interface EmailDraftProblem {
  reason: 'email_from_invalid' | 'email_reply_to_invalid' | 'email_subject_missing' | 'email_body_missing';
  detail: string;
}

/**
 * Every reason a send would refuse this draft's template for, in the order to fix them: the sender
 * an address, the reply-to too when given, a subject, a text or an HTML body (white space is none).
 * The core's preview lists them and its send refuses the first; the renderer's fake does the same.
 */
export function emailDraftProblems(draft: EmailDraftParts): EmailDraftProblem[] {
  const problems: EmailDraftProblem[] = [];
  if (!isEmail(draft.from.email))
    problems.push({
      reason: 'email_from_invalid',
      detail: `the sender ${JSON.stringify(draft.from.email)} is not an email address`,
    });
  if (draft.reply_to && !isEmail(draft.reply_to.email))
    problems.push({
      reason: 'email_reply_to_invalid',
      detail: `the reply-to ${JSON.stringify(draft.reply_to.email)} is not an email address`,
    });
  if (draft.subject.trim() === '')
    problems.push({ reason: 'email_subject_missing', detail: 'an email needs a subject' });
  if (!draft.text?.trim() && !draft.html?.trim())
    problems.push({ reason: 'email_body_missing', detail: 'an email needs a text or an HTML body' });
  return problems;
}
