// The sender-line rule (spec 4.1 rule 6, 4.3): a message goes out only from a line the account
// owns, that is active and that holds the permission its origin needs. API sends (any version)
// need can_send_api_campaign; the app's own sends and campaigns are the panel's.
import type { LinePermission } from './status';

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
