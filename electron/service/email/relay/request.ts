// The body of POST /v2/accounts/{account_id}/messages (spec 4.6 and the provider's contract) and
// its refusals: one 400 message naming the field that is wrong (`recipients[2].email is not an
// email address`). Addresses follow shared/email.ts's rule, times RFC 3339. Fields the provider
// knows that we have no use for are accepted; unknown fields are ignored, as the provider does.
import { z } from 'zod';
import { normalizeEmail, SANDBOX_RESULTS } from '../../../../shared/email';
import { parseRfc3339 } from '../../campaigns/form';
import { pace, type Pace } from './pace';

export const MAX_SUBJECT_LENGTH = 998;
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 100;
export const MAX_HEADERS = 50;
export const MAX_ATTACHMENTS = 50;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * Headers a request may not set: they are the message's envelope and structure, which the provider
 * writes from the body's fields (each recipient alone in To), so a header could only forge them.
 */
export const RESERVED_HEADERS = [
  'from',
  'sender',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'return-path',
  'received',
] as const;

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,100}$/;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

const address = z.string().transform((value, ctx) => {
  const email = normalizeEmail(value);
  if (email === null) {
    ctx.addIssue({ code: 'custom', message: `is not an email address: ${JSON.stringify(value.slice(0, 300))}` });
    return z.NEVER;
  }
  return email;
});
const optionalText = z.string().nullish();
const substitutions = z.record(z.string(), z.unknown()).nullish();
export const MAX_NAME_LENGTH = 300;

const Party = z.object({ email: address, name: z.string().max(MAX_NAME_LENGTH).nullish() });

export interface Recipient {
  email: string;
  name?: string | null;
  substitutions?: Record<string, unknown> | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One recipient checked (a send may hold hundreds of thousands, so by hand rather than through a
 * schema object each): the recipient with its address normalized, or what is wrong with it, said
 * after its `recipients[i]` as for every other field.
 */
export function checkRecipient(value: unknown): Recipient | string {
  if (!isObject(value)) return ' must be an object';
  const { email, name, substitutions } = value;
  if (email === undefined) return '.email is required';
  if (typeof email !== 'string') return '.email must be a string';
  const normalized = normalizeEmail(email);
  if (normalized === null) return `.email is not an email address: ${JSON.stringify(email.slice(0, 300))}`;
  if (name !== undefined && name !== null) {
    if (typeof name !== 'string') return '.name must be a string';
    if (name.length > MAX_NAME_LENGTH) return `.name must be at most ${MAX_NAME_LENGTH} characters long`;
  }
  if (substitutions !== undefined && substitutions !== null && !isObject(substitutions))
    return '.substitutions must be an object';
  return { email: normalized, name: name as string | null | undefined, substitutions };
}

const Attachment = z
  .object({
    data: z.string(),
    base64: z.boolean().nullish(),
    content_type: z.string().max(200).nullish(),
    file_name: z.string().max(255).nullish(),
    content_disposition: z.enum(['attachment', 'inline']).nullish(),
    content_id: z.string().max(255).nullish(),
  })
  .superRefine((attachment, ctx) => {
    if (attachment.base64 && !BASE64.test(attachment.data))
      ctx.addIssue({ code: 'custom', path: ['data'], message: 'is not base64 (base64 is true)' });
  });

const time = z.string().refine((value) => parseRfc3339(value.trim()) !== null, {
  message: 'is not an RFC 3339 time (for example 2026-01-01T10:00:00Z)',
});

export const SendRequestSchema = z
  .object({
    from: Party,
    reply_to: Party.nullish(),
    // No maximum, as in the provider's contract: as many as the body's size limit lets in. Each
    // is checked by checkRecipient, a slice at a time.
    recipients: z.array(z.unknown()).min(1, { message: 'needs at least one recipient' }),
    subject: z
      .string()
      .max(MAX_SUBJECT_LENGTH)
      .refine((value) => value.trim().length > 0, { message: 'is empty' })
      .refine((value) => !/[\r\n]/.test(value), { message: 'must be one line' }),
    text_content: optionalText,
    html_content: optionalText,
    amp_content: optionalText,
    substitutions,
    headers: z
      .record(z.string(), z.string().max(998))
      .nullish()
      .superRefine((headers, ctx) => {
        if (!headers) return;
        const names = Object.keys(headers);
        if (names.length > MAX_HEADERS)
          ctx.addIssue({ code: 'custom', message: `holds more than ${MAX_HEADERS} headers` });
        for (const name of names) {
          if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'is not a header name' });
          else if ((RESERVED_HEADERS as readonly string[]).includes(name.toLowerCase()))
            ctx.addIssue({
              code: 'custom',
              path: [name],
              message: 'may not be set: the provider writes it from the body’s fields',
            });
          else if (/[\r\n]/.test(headers[name]!))
            ctx.addIssue({ code: 'custom', path: [name], message: 'must be one line' });
        }
      }),
    tags: z
      .array(
        z
          .string()
          .min(1)
          .max(MAX_TAG_LENGTH)
          .refine((tag) => !tag.includes(','), {
            message: 'may not hold a comma (the list filter separates tags by commas)',
          }),
      )
      .max(MAX_TAGS)
      .nullish(),
    attachments: z.array(Attachment).max(MAX_ATTACHMENTS).nullish(),
    tracking: z.object({ open: z.boolean().nullish(), click: z.boolean().nullish() }).nullish(),
    retention: z
      .object({ metadata: z.number().int().min(1).max(30).nullish(), data: z.number().int().min(0).max(30).nullish() })
      .nullish(),
    sandbox: z.boolean().nullish(),
    sandbox_result: z.enum(SANDBOX_RESULTS).nullish(),
    schedule: z.object({ first_attempt: time.nullish(), expires: time.nullish() }).nullish(),
  })
  .superRefine((body, ctx) => {
    if (!body.text_content && !body.html_content)
      ctx.addIssue({
        code: 'custom',
        path: ['text_content'],
        message: 'or html_content is required (at least one of the two, not empty)',
      });
  });

export type SendRequest = Omit<z.infer<typeof SendRequestSchema>, 'recipients'> & { recipients: Recipient[] };

/** The request as the messages are made from it: times in ms, defaults filled. */
export interface AcceptedRequest extends SendRequest {
  firstAttempt: number;
  expires: number;
  scheduled: boolean;
}

/** Messages expire this long after their first attempt unless the request says otherwise. */
export const DEFAULT_EXPIRY_MS = 24 * 60 * 60 * 1000;

function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

const ARTICLE: Record<string, string> = { object: 'an object', record: 'an object', array: 'a list' };

function issueText(issue: z.core.$ZodIssue): string {
  const field = fieldPath(issue.path);
  const name = field === '' ? 'body' : field;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${name} is required`;
      if (field === '' && Array.isArray(issue.input)) return 'body must be a JSON object, not an array';
      return `${name} must be ${ARTICLE[issue.expected] ?? `a ${issue.expected}`}`;
    case 'invalid_value':
      return `${name} must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'too_big':
    case 'too_small':
      if (issue.origin === 'string' && issue.code === 'too_small') return `${name} is empty`;
      if (issue.message && !issue.message.startsWith('Too')) return `${name} ${issue.message}`;
      return `${name} must be ${issue.code === 'too_big' ? 'at most' : 'at least'} ${String(
        issue.code === 'too_big' ? issue.maximum : issue.minimum,
      )}${issue.origin === 'string' ? ' characters long' : issue.origin === 'array' ? ' items long' : ''}`;
    default:
      return `${name} ${issue.message}`;
  }
}

/** Fields before `recipients` in the body's order: their problems are named first. */
const BEFORE_RECIPIENTS = new Set<PropertyKey>(['from', 'reply_to', 'recipients']);

/**
 * The body checked: the accepted request, or the 400's message naming the first field wrong in
 * the body's order. `now` places the schedule: no first_attempt (or one in the past) means now;
 * expires must come after it and after now. The recipients are checked a slice at a time (pace.ts).
 */
export async function parseSendRequest(
  body: unknown,
  now: number,
  slices: Pace = pace(),
): Promise<{ ok: true; request: AcceptedRequest } | { ok: false; message: string }> {
  if (body === undefined || body === null) return { ok: false, message: 'body is required: a JSON object' };
  if (Array.isArray(body)) return { ok: false, message: 'body must be a JSON object, not an array' };
  if (typeof body !== 'object') return { ok: false, message: 'body must be a JSON object' };
  const parsed = SendRequestSchema.safeParse(body, { reportInput: true });
  const first = parsed.success ? null : parsed.error.issues[0]!;
  if (first && BEFORE_RECIPIENTS.has(first.path[0]!)) return { ok: false, message: issueText(first) };
  const given = (body as { recipients: unknown[] }).recipients;
  const recipients: Recipient[] = new Array(given.length);
  for (let i = 0; i < given.length; i++) {
    const checked = checkRecipient(given[i]);
    if (typeof checked === 'string') return { ok: false, message: `recipients[${i}]${checked}` };
    recipients[i] = checked;
    const paused = slices.step();
    if (paused) await paused;
  }
  if (!parsed.success) return { ok: false, message: issueText(first!) };
  const request = parsed.data;
  const asked = request.schedule?.first_attempt ? parseRfc3339(request.schedule.first_attempt.trim())! : null;
  const firstAttempt = asked !== null && asked > now ? asked : now;
  const expiresAsked = request.schedule?.expires ? parseRfc3339(request.schedule.expires.trim())! : null;
  if (expiresAsked !== null && expiresAsked <= firstAttempt)
    return { ok: false, message: 'schedule.expires must come after schedule.first_attempt (and after now)' };
  return {
    ok: true,
    request: {
      ...request,
      recipients,
      firstAttempt,
      expires: expiresAsked ?? firstAttempt + DEFAULT_EXPIRY_MS,
      scheduled: firstAttempt > now,
    },
  };
}

/** The Idempotency-Key header checked: null when fine, else the 400's message. */
export function idempotencyKeyProblem(key: string): string | null {
  if (key.length === 0) return 'Idempotency-Key is empty';
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH)
    return `Idempotency-Key is longer than ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`;
  return null;
}
