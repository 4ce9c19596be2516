// "Send a test to my number" from the campaign editor: the text the drafted campaign would send its
// first recipient, sent once to the person's own number.
import type { Db } from '../db/database';
import type { Segments } from '../contacts';
import { audienceChunks, audienceView } from '../contacts/audience';
import type { Accept } from '../messaging/accept';
import type { RangeMessages } from '../messaging/id-ranges';
import { ServiceError } from '../errors';
import { ApiCode } from '../../../shared/status';
import type { CampaignDraftFields } from '../../../shared/campaigns';
import { QUOTE_CHUNK } from './quote';
import { compileTemplate, TextBuilder } from './template';

export interface TestSendDeps {
  db: Db;
  segments: Segments;
  accept: Accept;
  messages: RangeMessages;
  linkBase: () => string;
}

export interface TestSent {
  send_id: number;
  message_id: number;
  receptor: string;
  text: string;
  cost_rials: number;
}

/**
 * The first recipient's text (the bare template when the audience is empty) as one panel message
 * to `receptor`, now, on the drafted line, charged like any message. Links stay the addresses
 * typed in the text: a test has no tracked recipient.
 */
export function sendTest(
  deps: TestSendDeps,
  accountId: number,
  fields: CampaignDraftFields,
  receptor: string,
): TestSent {
  const { db } = deps;
  const template = compileTemplate(fields.template_body, []);
  const readable = (ids: number[]) => ids.flatMap((id) => audienceView(db, deps.segments.get(accountId, id)) ?? []);
  const include = readable(fields.inclusion_segments);
  const exclude = readable(fields.exclusion_segments);
  let first: [string, number, string] | null = null;
  const audience = { include: include.map((s) => s.id), exclude: exclude.map((s) => s.id), accountId };
  for (const chunk of audienceChunks(db, audience, QUOTE_CHUNK)) {
    const row = chunk.find(([, , , , excluded, optedOut]) => !excluded && !optedOut);
    if (row) {
      first = [row[0], row[1], row[2]];
      break;
    }
  }
  const builder = new TextBuilder(
    template,
    Object.fromEntries(include.map((s) => [String(s.id), s.columns])),
    deps.linkBase(),
  );
  const text = first ? builder.text(...first) : builder.text(receptor, 0, '');
  if (text.trim() === '') throw new ServiceError(ApiCode.BadRequest, 'the text is empty', 'campaign_text_required');
  const recorded = deps.accept.accept({
    accountId,
    origin: 'panel',
    sender: fields.sender.trim(),
    text,
    receivers: [receptor],
    rule: 'lenient',
  });
  if (recorded.accepted === 0) throw new ServiceError(ApiCode.InvalidReceiver, receptor, 'test_receptor_invalid');
  const message = deps.messages.firstOfSend(recorded.sendId)!;
  return {
    send_id: recorded.sendId,
    message_id: message.id,
    receptor: message.receptor,
    text: message.text,
    cost_rials: message.cost_rials,
  };
}
