// Answering a customer from the Inbox: a panel send of one message to the number, from the line
// the customer wrote to, through the composer (messaging/compose.ts) and so through the one
// acceptance path: the preview is its quote (pages, cost, credit), the send its acceptance,
// charged once like any panel send. Only a line the number wrote to answers it: a reply is a
// conversation's, not a new send to anyone from anywhere.
import type { Core } from '../core';
import { normalizePhone } from '../../../shared/phone';
import { normalizeLineNumber } from '../../../shared/lines';
import { ApiCode } from '../../../shared/status';
import { ServiceError } from '../errors';
import { panelSend, preview, type ComposeInput } from './compose';

export interface ReplyInput {
  account_id: number;
  /** The customer's number. */
  phone: string;
  /** Our line the customer wrote to. */
  line_number: string;
  message: string;
}

/** The composer's draft of a reply; 404 when the number never wrote to that line. */
function replyDraft(core: Core, input: ReplyInput): ComposeInput {
  const phone = normalizePhone(input.phone) ?? input.phone.trim();
  const line = normalizeLineNumber(input.line_number);
  const wrote = core.inbox.conversation(input.account_id, phone).lines.some((l) => l.line_number === line);
  if (!wrote) throw new ServiceError(ApiCode.NotFound, `no reply from ${phone} to line ${line}`);
  return { account_id: input.account_id, sender: line, message: input.message, receivers: [phone] };
}

export function replyPreview(core: Core, input: ReplyInput) {
  return preview(core, replyDraft(core, input));
}

export function reply(core: Core, input: ReplyInput) {
  return panelSend(core, replyDraft(core, input));
}
