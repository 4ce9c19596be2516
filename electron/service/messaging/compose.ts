// The app's composer over the one acceptance path: the preview is accept's dry run (quote) of the
// very command the panel send records, so the two cannot disagree on the sender line, the final
// text, pages, cost or the credit; it adds only what a person reads (characters forcing UCS-2,
// the receiver lists). A panel send of any size is one acceptance: recorded whole or not at all.
import type { Core } from '../core';
import { splitReceivers } from '../../../shared/phone';
import { composePreviewOf } from '../../../shared/compose';
import { summarizeReceivers } from '../../../shared/receivers';
import type { ComposePreview } from '../../../shared/ipc/schemas';
import type { ParsedInputOf } from '../../../shared/ipc/contracts';
import type { AcceptCommand } from './accept';
import { ApiCode } from '../../../shared/status';

/** What the composer sends (`messages:send`); its preview takes the same without the file. */
export type ComposeInput = ParsedInputOf<'compose:preview'> & Pick<ParsedInputOf<'messages:send'>, 'file_id'>;

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
  // The lists people read are the pasted part; a segment's members are counted, not listed.
  const { classified } = quote;
  const lists = summarizeReceivers({
    ...classified,
    kinds: classified.kinds.slice(0, cmd.pasted),
    receptors: classified.receptors.slice(0, cmd.pasted),
    valid: classified.valid.filter((i) => i < cmd.pasted),
  });
  return composePreviewOf({
    provider: quote.line.provider,
    message: input.message,
    price: quote.price,
    lists,
    accepted: quote.accepted,
    totalRials: quote.totalRials,
    creditRials: quote.creditRials,
    enoughCredit: quote.refusal !== ApiCode.NoCredit,
  });
}

export function panelSend(
  core: Core,
  input: ComposeInput,
): { send_id: number; accepted: number; total_rials: number; invalid: string[]; duplicates: string[] } {
  const cmd = command(core, input);
  const acceptance = core.messaging.accept.accept(cmd);
  const { invalid, duplicates } = summarizeReceivers(acceptance.classified);
  return {
    send_id: acceptance.sendId,
    accepted: acceptance.accepted,
    total_rials: acceptance.totalRials,
    invalid,
    duplicates,
  };
}
