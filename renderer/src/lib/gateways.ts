// The gateways as the window names them: the provider's name in the UI's language (from the one
// table in shared/gateways.ts), and which of the window's explanations fits a provider's code; and
// as Settings → Lines asks for them: each kind's fields (one table), the dialog's form and what
// saving it sends.
import {
  GATEWAYS,
  isUpstream,
  MAX_RATE_PER_SECOND,
  upstreamErrorClass,
  type GatewayKind,
} from '../../../shared/gateways';
import { HttpGatewayOptionsSchema, type HttpGatewayOptions, type Line } from '../../../shared/ipc/contracts/accounts';
import type { GatewayInput } from '../../../shared/ipc/contracts/gateways';
import type { Provider } from '../../../shared/status';
import type { Language } from './format';

/** The provider's name inside a sentence ("through Kavenegar", "on the simulator"). */
export function gatewayName(kind: GatewayKind, language: Language): string {
  return GATEWAYS[kind].label[language];
}

/** The name standing alone (a table cell, a select's option): English starts it with a capital. */
export function gatewayTitle(kind: GatewayKind, language: Language): string {
  const name = gatewayName(kind, language);
  return language === 'en' ? name.charAt(0).toUpperCase() + name.slice(1) : name;
}

/** The gateways that can carry a line of this kind (the core refuses the others). */
export function gatewaysFor(provider: Provider): GatewayKind[] {
  return (Object.keys(GATEWAYS) as GatewayKind[]).filter((kind) => GATEWAYS[kind].providers.includes(provider));
}

/**
 * The codes the window explains (what happened, what to do; `gateways.explain.*`): the "pause the
 * line" class one by one, the retryable ones (busy, 5xx) together, and any other (404 or 405 from
 * a wrong address) as a wrong address.
 */
const EXPLAINED = ['401', '403', '407', '416', '418', '501'] as const;
export type Explanation = (typeof EXPLAINED)[number] | 'retry' | 'other';

export function explanationOf(code: number): Explanation {
  const text = String(code);
  if ((EXPLAINED as readonly string[]).includes(text)) return text as Explanation;
  return upstreamErrorClass(code) === 'retry' ? 'retry' : 'other';
}

// ---- Settings → Lines: each gateway's fields

/**
 * What the gateway dialog asks of a kind (its texts: `gateways.fields.<kind>.*`, both languages).
 * The key, the line's name at the provider and the calls per second are asked of every kind.
 */
export interface GatewayFields {
  /**
   * `provider`: the provider's own address unless another is typed (its default as placeholder);
   * `template`: the URL of one message's request, with its placeholders (GATEWAY_TEMPLATE_FIELDS), required.
   */
  address: 'provider' | 'template';
  /** The request beyond its address: method, a POST's body and its type, the success pattern. */
  request: boolean;
}

const PROVIDER: GatewayFields = { address: 'provider', request: false };

/** The one table of the dialog's fields, by kind (null: the simulator asks nothing). */
export const GATEWAY_FIELDS: Readonly<Record<GatewayKind, GatewayFields | null>> = {
  simulator: null,
  'kavenegar-v1': PROVIDER,
  'najva-v2': PROVIDER,
  smsir: PROVIDER,
  'bale-safir': PROVIDER,
  'http-gateway': { address: 'template', request: true },
  'ippanel-edge': PROVIDER,
};

/** A kind's fields; null for the simulator. */
export function gatewayFields(kind: GatewayKind): GatewayFields | null {
  return GATEWAY_FIELDS[kind];
}

/** The body types offered by name; any other is typed as it is (`custom`). */
export const CONTENT_TYPES = {
  form: 'application/x-www-form-urlencoded',
  json: 'application/json',
  text: 'text/plain',
} as const;
export type ContentTypeChoice = keyof typeof CONTENT_TYPES | 'custom';

/** Which of the offered body types this one is, or `custom`. */
export function contentTypeChoice(contentType: string): ContentTypeChoice {
  const found = (Object.keys(CONTENT_TYPES) as (keyof typeof CONTENT_TYPES)[]).find(
    (choice) => CONTENT_TYPES[choice] === contentType.trim().toLowerCase(),
  );
  return found ?? 'custom';
}

/** The dialog's form as typed (the key never comes from the line: it is written, never read). */
export interface GatewayForm {
  kind: GatewayKind;
  baseUrl: string;
  apiKey: string;
  removeKey: boolean;
  sender: string;
  rate: number | '';
  method: HttpGatewayOptions['method'];
  body: string;
  contentType: string;
  /** The body's type is typed as it is, not chosen from CONTENT_TYPES. */
  customType: boolean;
  success: string;
}

const HTTP_DEFAULTS = HttpGatewayOptionsSchema.parse({});

/** The form of a line's gateway as saved. */
export function formOf(gateway: Line['gateway']): GatewayForm {
  const http = gateway.http ?? HTTP_DEFAULTS;
  return {
    kind: gateway.kind,
    baseUrl: gateway.base_url ?? '',
    apiKey: '',
    removeKey: false,
    sender: gateway.sender ?? '',
    rate: gateway.rate_per_second,
    method: http.method,
    body: http.body,
    contentType: http.content_type,
    customType: contentTypeChoice(http.content_type) === 'custom',
    success: http.success,
  };
}

/** The request as the form says it (a GET keeps its body and type for a later POST: the core drops them). */
function requestOf(form: GatewayForm): HttpGatewayOptions {
  return { method: form.method, body: form.body, content_type: form.contentType.trim(), success: form.success };
}

/** What saving the form sends: the kind's own fields only, the key only when typed or removed. */
export function gatewayInputOf(number: string, form: GatewayForm): Omit<GatewayInput, 'account_id'> {
  const fields = gatewayFields(form.kind);
  if (!isUpstream(form.kind) || fields === null) return { number, kind: form.kind };
  return {
    number,
    kind: form.kind,
    base_url: form.baseUrl.trim(),
    sender: form.sender.trim(),
    ...(form.rate === '' ? {} : { rate_per_second: form.rate }),
    ...(form.removeKey ? { api_key: '' } : form.apiKey !== '' ? { api_key: form.apiKey } : {}),
    ...(fields.request ? { http: requestOf(form) } : {}),
  };
}

/** An address as the core keeps it, near enough to tell whether it changed (no trailing slash). */
function sameAddress(typed: string, saved: string | null): boolean {
  return typed.trim().replace(/\/+$/, '') === (saved ?? '');
}

/** Whether the form says anything the line's saved gateway does not. */
export function formChanged(form: GatewayForm, saved: Line['gateway']): boolean {
  if (form.kind !== saved.kind) return true;
  if (!isUpstream(form.kind)) return false;
  const was = saved.http ?? HTTP_DEFAULTS;
  const now = requestOf(form);
  return (
    !sameAddress(form.baseUrl, saved.base_url) ||
    form.sender.trim() !== (saved.sender ?? '') ||
    form.rate !== saved.rate_per_second ||
    form.apiKey !== '' ||
    form.removeKey ||
    (gatewayFields(form.kind)?.request === true &&
      (now.method !== was.method ||
        now.success !== was.success ||
        (now.method === 'POST' && (now.body !== was.body || now.content_type !== was.content_type))))
  );
}

/** Whether the kept key is forgotten on save: given for another provider or address. */
export function keyForgottenOnSave(form: GatewayForm, saved: Line['gateway']): boolean {
  const moved = form.kind !== saved.kind || (isUpstream(form.kind) && !sameAddress(form.baseUrl, saved.base_url));
  return saved.key_set && moved && form.apiKey === '' && !form.removeKey;
}

/** What keeps the form from being saved, as the dialog marks it (the core checks the rest and says why). */
export function formProblem(form: GatewayForm): 'rate' | 'contentType' | null {
  if (!isUpstream(form.kind)) return null;
  if (form.rate === '' || form.rate <= 0 || form.rate > MAX_RATE_PER_SECOND) return 'rate';
  if (gatewayFields(form.kind)?.request && form.method === 'POST' && form.contentType.trim() === '')
    return 'contentType';
  return null;
}

/** `text` put in place of a field's selection: the new value and where the caret goes. */
export function insertAt(value: string, start: number, end: number, text: string): { value: string; caret: number } {
  const from = Math.max(0, Math.min(start, value.length));
  const to = Math.max(from, Math.min(end, value.length));
  return { value: value.slice(0, from) + text + value.slice(to), caret: from + text.length };
}
