// The app's composer over the one acceptance path: the preview is accept's dry run (quote) of the
// very command the panel send records, so the two cannot disagree on the sender line, the final
// text, pages, cost or the credit; it adds only what a person reads (characters forcing UCS-2,
// the receiver lists). A panel send of any size is one acceptance: recorded whole or not at all.
import type { Core } from '../core';
import { splitReceivers } from '../../../shared/phone';
import { ucs2Characters } from '../../../shared/pages';
import { summarizeReceivers } from '../../../shared/receivers';
import type { ComposePreview } from '../../../shared/ipc/schemas';
import type { ParsedInputOf } from '../../../shared/ipc/contracts';
import type { AcceptCommand } from './accept';
import { ServiceError } from '../errors';

/** What the composer sends (`messages:send`); its preview takes the same without the file. */
export type ComposeInput = ParsedInputOf<'compose:preview'> & Pick<ParsedInputOf<'messages:send'>, 'file_id'>;

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

/** Pasted, listed, then the segment's members: one list, classified once by the acceptance path. */
function command(core: Core, input: ComposeInput): AcceptCommand & { pasted: number } {
  const pasted = [...(input.receivers_text ? splitReceivers(input.receivers_text) : []), ...(input.receivers ?? [])];
  const receivers =
    input.segment_id === undefined ? pasted : [...pasted, ...core.segments.phones(input.account_id, input.segment_id)];
  return {
    accountId: input.account_id,
    origin: 'panel',
    sender: input.sender,
    text: input.message,
    receivers,
    rule: 'lenient',
    fileId: input.file_id ?? null,
    pasted: pasted.length,
  };
}

export function preview(core: Core, input: ComposeInput): ComposePreview {
  const cmd = command(core, input);
  const quote = core.messaging.accept.quote(cmd);
  const { price } = quote;
  // The lists people read are the pasted part; a segment's members are counted, not listed.
  const pastedOnly = { ...quote.classified, kinds: quote.classified.kinds.slice(0, cmd.pasted) };
  const lists = summarizeReceivers({
    ...pastedOnly,
    receptors: quote.classified.receptors.slice(0, cmd.pasted),
    valid: quote.classified.valid.filter((i) => i < cmd.pasted),
  });
  return {
    provider: quote.line.provider,
    messenger: price.messenger,
    final_text: price.text,
    opt_out_added: price.optOutAdded,
    encoding: price.encoding,
    characters: [...price.text].length,
    units: price.units,
    pages: price.pages,
    per_page: price.perPage,
    ucs2_characters: ucs2Positions(input.message),
    cost_per_message_rials: price.costRials,
    total_cost_rials: quote.totalRials,
    credit_rials: quote.creditRials,
    enough_credit: quote.refusal !== 418,
    receivers: { ...lists, segment_members: quote.accepted - lists.valid.length, total: quote.accepted },
  };
}

export function panelSend(
  core: Core,
  input: ComposeInput,
): { send_id: number; accepted: number; total_rials: number; invalid: string[]; duplicates: string[] } {
  const cmd = command(core, input);
  const acceptance = core.messaging.accept.accept(cmd);
  if (acceptance.sendId === null) throw new ServiceError(500, 'not recorded');
  const { invalid, duplicates } = summarizeReceivers(acceptance.classified);
  return {
    send_id: acceptance.sendId,
    accepted: acceptance.accepted,
    total_rials: acceptance.totalRials,
    invalid,
    duplicates,
  };
}
