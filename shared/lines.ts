// The sender-line rule (spec 4.1 rule 6, 4.3): a message goes out only from a line the account
// owns, that is active and that holds the permission its origin needs. API sends (any version)
// need can_send_api_campaign; the app's own sends and campaigns are the panel's.
// And the form of a line's number: stored with ASCII digits (typed or pasted in Persian or Arabic
// ones), so the API's `sender` and the stored line compare as the same text whatever the digits.
import { toAsciiDigits } from './digits';
import type { LinePermission, Provider } from './status';

export const ORIGINS = ['api-v1', 'api-v2', 'api-v3', 'panel', 'campaign'] as const;
export type Origin = (typeof ORIGINS)[number];

export function permissionFor(origin: Origin): LinePermission {
  return origin === 'panel' || origin === 'campaign' ? 'can_send_panel_campaign' : 'can_send_api_campaign';
}

export interface LineState {
  active: boolean;
  can_send_api_campaign: boolean;
  can_send_panel_campaign: boolean;
}

export type SenderLineFault = 'not_owned' | 'inactive' | 'not_permitted';

/** Why the line cannot send for this origin, or null when it can. `line` is undefined when the account has none by that number. */
export function senderLineFault(line: LineState | undefined, origin: Origin): SenderLineFault | null {
  if (!line) return 'not_owned';
  if (!line.active) return 'inactive';
  if (!line[permissionFor(origin)]) return 'not_permitted';
  return null;
}

/** Direction marks and zero-width characters that ride along when a number is copied from RTL text. */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * A line number as it is stored and compared: ASCII digits, without the marks copying adds. A
 * number written in groups ("3000 1234", "+98-21-1234") loses its spaces, dashes and leading '+';
 * a messenger username its leading '@'. Anything else is kept as typed, for the form check to judge.
 */
export function normalizeLineNumber(typed: string): string {
  const text = toAsciiDigits(typed).replace(INVISIBLE, '').trim();
  if (/^\+?[0-9][0-9\s-]*$/.test(text)) return text.replace(/[^0-9]/g, '');
  return text.replace(/^@/, '');
}

/** An SMS line: the operator's sender number, 4 to 14 digits (10002000, 3000123456, 9830001234). */
export const SMS_LINE_NUMBER = /^[0-9]{4,14}$/;
/** A Bale or Rubika line: the bot's username, 3 to 64 Latin letters, digits or '_' (acme_bot). */
export const MESSENGER_LINE_NAME = /^[A-Za-z0-9_]{3,64}$/;

export type LineNumberFault = 'sms_line_number_invalid' | 'messenger_line_name_invalid';

/** Why a (normalized) number cannot be a new line of this provider, or null when it can. */
export function lineNumberFault(number: string, provider: Provider): LineNumberFault | null {
  if (provider === 'sms') return SMS_LINE_NUMBER.test(number) ? null : 'sms_line_number_invalid';
  return MESSENGER_LINE_NAME.test(number) ? null : 'messenger_line_name_invalid';
}
