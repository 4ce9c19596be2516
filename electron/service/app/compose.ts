// The composer: a preview of exactly what a send will cost (final text with the opt-out phrase,
// encoding, pages, the characters forcing UCS-2, receivers parsed from pasted text) and the panel
// send itself, which goes through the core's one send path in chunks (PANEL_CHUNK).
import type { Core } from '../core';
import { ServiceError } from '../errors';
import { normalizePhone, splitReceivers } from '../../../shared/phone';
import { finalText } from '../../../shared/optout';
import { segment, ucs2Characters, messageCostRials } from '../../../shared/pages';
import { ApiCode, isMessengerProvider } from '../../../shared/status';
import type { ComposePreview, ParsedReceivers } from '../../../shared/ipc/schemas';
import { MAX_RECEIVERS } from '../../../shared/api';
import { segmentMembers, segmentPhones } from './segments';

export interface ReceiversInput {
  receivers_text?: string | undefined;
  receivers?: string[] | undefined;
  segment_id?: number | undefined;
}

/** Pasted and listed receivers, normalized leniently, deduplicated in order. */
export function parseReceivers(input: ReceiversInput): Omit<ParsedReceivers, 'segment_members' | 'total'> {
  const raw = [...(input.receivers_text ? splitReceivers(input.receivers_text) : []), ...(input.receivers ?? [])];
  const valid: string[] = [];
  const invalid: string[] = [];
  const duplicates = new Set<string>();
  const seen = new Set<string>();
  for (const entry of raw) {
    const phone = normalizePhone(entry);
    if (phone === null) invalid.push(entry);
    else if (seen.has(phone)) duplicates.add(phone);
    else {
      seen.add(phone);
      valid.push(phone);
    }
  }
  return { valid, invalid, duplicates: [...duplicates] };
}

/** Positions (UTF-16 index) of the characters that force UCS-2 in the typed message. */
export function ucs2Positions(message: string): Array<{ char: string; index: number }> {
  const found: Array<{ char: string; index: number }> = [];
  let index = 0;
  for (const char of message) {
    if (ucs2Characters(char).length > 0) found.push({ char, index });
    index += char.length;
  }
  return found;
}

export function preview(
  core: Core,
  input: ReceiversInput & { account_id: number; sender: string; message: string },
): ComposePreview {
  const line = core.accounts.findLine(input.account_id, input.sender);
  if (!line || !line.active) throw new ServiceError(ApiCode.InvalidSender, input.sender);
  const messenger = isMessengerProvider(line.provider);
  const text = finalText(input.message, messenger);
  const segmentation = segment(text);
  const perMessage = messageCostRials(text, messenger, core.settings.pricing());
  const parsed = parseReceivers(input);
  // Segment members may repeat pasted numbers; the send deduplicates them, so count them apart
  // only as far as the segment's own count (exact overlap would need a scan of the segment).
  const members = input.segment_id !== undefined ? segmentMembers(core, input.account_id, input.segment_id) : 0;
  const total = parsed.valid.length + members;
  const credit = core.credit.balance(input.account_id);
  return {
    provider: line.provider,
    messenger,
    final_text: text,
    opt_out_added: !messenger,
    encoding: segmentation.encoding,
    characters: [...text].length,
    units: segmentation.units,
    pages: messenger ? 1 : segmentation.pages,
    per_page: segmentation.perPage,
    ucs2_characters: ucs2Positions(input.message),
    cost_per_message_rials: perMessage,
    total_cost_rials: perMessage * total,
    credit_rials: credit,
    enough_credit: credit >= perMessage * total,
    receivers: { ...parsed, segment_members: members, total },
  };
}

/**
 * Receivers per core send of a panel send: the API's own limit, so a panel send of up to 10,000
 * receivers is one send in one transaction, whole or absent after a crash. A core send of 10,000
 * is 30-40 ms of synchronous SQLite work; a larger panel send (a segment) goes in such sends with
 * a yield in between, so the window and the API keep answering (test/responsiveness.test.ts).
 */
export const PANEL_CHUNK = MAX_RECEIVERS;

export async function panelSend(
  core: Core,
  input: ReceiversInput & { account_id: number; sender: string; message: string; file_id?: string | null | undefined },
): Promise<{ send_ids: number[]; accepted: number; total_rials: number; invalid: string[]; duplicates: string[] }> {
  const parsed = parseReceivers(input);
  const receivers = [...parsed.valid];
  const duplicates = new Set(parsed.duplicates);
  if (input.segment_id !== undefined) {
    const seen = new Set(receivers);
    for (const phone of segmentPhones(core, input.account_id, input.segment_id)) {
      if (seen.has(phone)) duplicates.add(phone);
      else {
        seen.add(phone);
        receivers.push(phone);
      }
    }
  }
  if (receivers.length === 0) throw new ServiceError(ApiCode.InvalidReceiver, 'no valid receiver');

  // The whole send is checked against the credit before the first chunk, so a panel send is not
  // cut short for credit (short of credit moving in between, which the core re-checks per chunk).
  const line = core.accounts.findLine(input.account_id, input.sender);
  if (!line || !line.active) throw new ServiceError(ApiCode.InvalidSender, input.sender);
  const messenger = isMessengerProvider(line.provider);
  const total =
    messageCostRials(finalText(input.message, messenger), messenger, core.settings.pricing()) * receivers.length;
  if (core.credit.balance(input.account_id) < total) throw new ServiceError(ApiCode.NoCredit);

  const sendIds: number[] = [];
  let accepted = 0;
  let totalRials = 0;
  for (let start = 0; start < receivers.length; start += PANEL_CHUNK) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const result = core.sending.send(
      input.account_id,
      {
        message: input.message,
        sender: input.sender,
        receivers: receivers.slice(start, start + PANEL_CHUNK),
        file_id: input.file_id ?? null,
      },
      'panel',
    );
    sendIds.push(result.sendId);
    accepted += result.accepted;
    totalRials += result.totalRials;
  }
  return { send_ids: sendIds, accepted, total_rials: totalRials, invalid: parsed.invalid, duplicates: [...duplicates] };
}
