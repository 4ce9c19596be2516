// What the core refuses, said in the user's language: the quote's `problem` (spec 4.3's checks,
// in their order) and the refusals of creation and of a test send. The service's details are
// English developer texts (`name is required`, `links[0]actual_url is required`); the common ones
// get a sentence of their own here (with the link's number), the others are said by their reason
// or code as everywhere in the app (stores/errors.ts), and only what has neither as the service
// gives it.
import { ApiCode } from '../../../../../shared/status';
import type { Language } from '../../../lib/format';
import { refusalText } from '../../../stores/errors';

/** An i18n key under campaignEditor.faults with its values; `other`: the service's own words in `text`. */
export interface FaultText {
  key: string;
  values?: Record<string, string | number>;
}

export interface Fault {
  code: number | null;
  detail: string | null;
  /** The core's reason (errors.reasons.<reason>), when it gave one. */
  reason?: string | null;
  /** The service's message (Persian for spec 7's codes). */
  message?: string;
}

const BY_DETAIL: Array<[RegExp, string, (match: RegExpExecArray) => Record<string, string | number>]> = [
  [/^name is required/, 'name', () => ({})],
  [/^sender is required/, 'sender', () => ({})],
  [/^send_datetime is required/, 'sendTime', () => ({})],
  [/^(template_body is required|the text is empty)/, 'text', () => ({})],
  [/^links\[(\d+)\]actual_url is required/, 'linkEmpty', (m) => ({ n: Number(m[1]) + 1 })],
  [/^links\[(\d+)\]actual_url is not a web address/, 'linkNotWeb', (m) => ({ n: Number(m[1]) + 1 })],
  [/^at most (\d+) links/, 'tooManyLinks', (m) => ({ n: Number(m[1]) })],
  [/^at most (\d+) recipients in a campaign with links/, 'tooManyForLinks', (m) => ({ n: Number(m[1]) })],
  [/^send_rate/, 'sendRate', () => ({})],
  [/^quiet_hours/, 'quietHours', () => ({})],
  [/^segment (\d+) unknown/, 'segmentUnknown', (m) => ({ id: Number(m[1]) })],
  [/^draft (\d+) unknown/, 'draftMissing', () => ({})],
  [/^at most (\d+) drafts/, 'tooManyDrafts', (m) => ({ n: Number(m[1]) })],
];

const BY_CODE: Partial<Record<number, string>> = {
  [ApiCode.InvalidSender]: 'lineNotAllowed',
  [ApiCode.BadDate]: 'badDate',
  [ApiCode.NoCredit]: 'noCredit',
  [ApiCode.InvalidReceiver]: 'badReceptor',
  [ApiCode.AccountInactive]: 'accountInactive',
};

/**
 * The sentence for a refusal. Numbers in the values are left to the caller to format. An unknown
 * refusal is said as the service says it: its Persian message in Persian (with the detail), the
 * detail in English.
 */
export function faultText(fault: Fault, language: Language): FaultText {
  const detail = fault.detail ?? '';
  for (const [pattern, key, values] of BY_DETAIL) {
    const match = pattern.exec(detail);
    if (match) return { key, values: values(match) };
  }
  const byReason = fault.reason ? refusalText({ code: null, reason: fault.reason }) : null;
  if (byReason !== null) return { key: 'other', values: { text: byReason } };
  const byCode = fault.code === null ? undefined : BY_CODE[fault.code];
  if (byCode) return { key: byCode };
  const said = refusalText(fault);
  if (said !== null) return { key: 'other', values: { text: said } };
  const message = fault.message ?? '';
  const text =
    language === 'fa'
      ? [message, detail && detail !== message ? `(${detail})` : ''].filter(Boolean).join(' ')
      : detail || message;
  return { key: 'other', values: { text: text || String(fault.code ?? '') } };
}
