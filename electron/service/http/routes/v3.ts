// Version 3 (spec 1 and 9): one call sends the same text over SMS and the messenger channels.
// Thin like version 2: validation with the shared zod schemas, the sends made by the core's
// multichannel acceptance (messaging/multichannel.ts, all or nothing), the answer mapped back.
// No rule lives here: each channel's final text and price come from the one acceptance path.
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core';
import { bearerAuth } from '../auth';
import { sendError, sendOk } from '../envelope';
import { ApiCode } from '../../../../shared/status';
import { MAX_RECEIVERS } from '../../../../shared/api';
import { V3SendRequestSchema, type V3MessageInfo } from '../../../../shared/api-v3';
import type { ChannelAcceptance } from '../../messaging/multichannel';
import { messageInfos } from '../message-entries';
import { SEND_BODY_LIMIT_BYTES, listOver, statusLookup } from './v2-sms';

/**
 * The answer's entries: channel by channel (sms, bale, rubika, those sent on), and within a channel
 * one entry per submitted receiver, in order, as version 2 answers (spec 2.2) plus `channel`. So
 * the entries of one channel are what version 2 would answer for that channel's send.
 */
export function channelEntries(accepted: readonly ChannelAcceptance[]): V3MessageInfo[] {
  return accepted.flatMap(({ channel, recorded }) => messageInfos(recorded).map((entry) => ({ ...entry, channel })));
}

export async function v3Routes(app: FastifyInstance, { core }: { core: Core }) {
  const { multichannel } = core.messaging;

  await app.register(async (authed) => {
    authed.addHook('onRequest', bearerAuth(core));

    authed.post('/v3/sms/send', { bodyLimit: SEND_BODY_LIMIT_BYTES }, async (request, reply) => {
      // Spec 4.1 rule 4 (414) before validation, as version 2.
      if (listOver(request.body, 'receivers', MAX_RECEIVERS)) return sendError(reply, ApiCode.TooLarge);
      const parsed = V3SendRequestSchema.safeParse(request.body);
      if (!parsed.success) return sendError(reply, ApiCode.BadRequest);
      const { message, receivers, senders, files } = parsed.data;
      const accepted = await multichannel.sendInGroup({
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

    authed.post('/v3/sms/status', { bodyLimit: SEND_BODY_LIMIT_BYTES }, statusLookup(core));
  });
}
