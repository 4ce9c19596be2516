// Version 3 (spec 1 and 9): one call sends the same text over SMS and the messenger channels.
// Thin like version 2: validation with the shared zod schemas, the sends made by the core's
// multichannel acceptance (messaging/multichannel.ts, all or nothing), the answer mapped back.
// No rule lives here: each channel's final text and price come from the one acceptance path.
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core';
import { bearerAuth } from '../auth';
import { sendError, sendOk } from '../envelope';
import { ApiCode } from '../../../../shared/status';
import { MessageStatus, messageStatusText } from '../../../../shared/lifecycle';
import { ReceiverKind } from '../../../../shared/receivers';
import { MAX_RECEIVERS, MAX_STATUS_IDS, StatusRequestSchema } from '../../../../shared/api';
import { V3SendRequestSchema, type V3MessageInfo } from '../../../../shared/api-v3';
import { Multichannel, type ChannelAcceptance } from '../../messaging/multichannel';
import { unixSeconds } from '../../clock';
import { SEND_BODY_LIMIT_BYTES } from './v2-sms';

/**
 * The answer's entries: channel by channel (sms, bale, rubika, those sent on), and within a channel
 * one entry per submitted receiver, in order, as version 2 answers (spec 2.2) plus `channel`. So
 * the entries of one channel are what version 2 would answer for that channel's send.
 */
export function channelEntries(accepted: readonly ChannelAcceptance[]): V3MessageInfo[] {
  const entries: V3MessageInfo[] = [];
  for (const { channel, recorded } of accepted) {
    const { classified, price, texts, costs, firstMessageId, status, line } = recorded;
    const date = unixSeconds(recorded.createdAt);
    const statustext = messageStatusText[status];
    let n = 0;
    for (let i = 0; i < classified.kinds.length; i++) {
      const kind = classified.kinds[i]!;
      const receptor = classified.receptors[i]!;
      if (kind === ReceiverKind.Valid) {
        entries.push({
          messageid: firstMessageId + n,
          message: texts?.[n] ?? price.text,
          status,
          statustext,
          sender: line.number,
          receptor,
          date,
          cost: costs?.[n] ?? price.costRials,
          channel,
        });
        n++;
      } else {
        const rejected = kind === ReceiverKind.Invalid ? MessageStatus.Invalid : MessageStatus.Duplicate;
        entries.push({
          messageid: 0,
          message: '',
          status: rejected,
          statustext: messageStatusText[rejected],
          sender: '',
          receptor,
          date: 0,
          cost: 0,
          channel,
        });
      }
    }
  }
  return entries;
}

function isObject(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

export async function v3Routes(app: FastifyInstance, { core }: { core: Core }) {
  const multichannel = new Multichannel(core.db, core.accounts, core.messaging.accept);

  await app.register(async (authed) => {
    authed.addHook('onRequest', bearerAuth(core));

    authed.post('/v3/sms/send', { bodyLimit: SEND_BODY_LIMIT_BYTES }, async (request, reply) => {
      const body = request.body;
      // Spec 4.1 rule 4 (414) before validation, as version 2: 100,000 receivers are not walked.
      if (isObject(body) && Array.isArray(body['receivers']) && body['receivers'].length > MAX_RECEIVERS)
        return sendError(reply, ApiCode.TooLarge);
      const parsed = V3SendRequestSchema.safeParse(body);
      if (!parsed.success) return sendError(reply, ApiCode.BadRequest);
      const { message, receivers, senders, files } = parsed.data;
      const accepted = multichannel.send({
        accountId: request.account.id,
        origin: 'api-v3',
        text: message,
        receivers,
        rule: 'strict',
        senders,
        files: files ?? undefined,
      });
      return sendOk(reply, channelEntries(accepted));
    });

    // The same lookup as version 2's: a message id names one message whatever its channel.
    authed.post('/v3/sms/status', { bodyLimit: SEND_BODY_LIMIT_BYTES }, async (request, reply) => {
      const body = request.body;
      if (isObject(body) && Array.isArray(body['messageids']) && body['messageids'].length > MAX_STATUS_IDS)
        return sendError(reply, ApiCode.TooLarge);
      const parsed = StatusRequestSchema.safeParse(body);
      if (!parsed.success) return sendError(reply, ApiCode.BadRequest);
      return sendOk(reply, core.messaging.statusLookup.lookup(request.account.id, parsed.data.messageids));
    });
  });
}
