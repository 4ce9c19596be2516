// Version 2 SMS endpoints: shared-text send (spec 4.1), status lookup (4.2), the outbox that
// answers 501 (4.5), and our extension send-p2p, the v2 provider's personalized send
// (reference/sms-upstreams.md "Najva v2"). Thin: validation with the shared zod schemas, the rules
// live in the core.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../../core';
import { bearerAuth } from '../auth';
import { OUTBOX_PATH } from '../context';
import { sendError, sendOk } from '../envelope';
import { itemInfos, messageInfos, sendMessageEntries } from '../message-entries';
import { ApiCode } from '../../../../shared/status';
import {
  MAX_P2P_MESSAGES,
  MAX_RECEIVERS,
  MAX_STATUS_IDS,
  P2pSendRequestSchema,
  SendRequestSchema,
  StatusRequestSchema,
} from '../../../../shared/api';

/** Whether a JSON body's list is longer than its limit: checked before validation, so 100,000 members are not walked. */
export function listOver(body: unknown, field: string, limit: number): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const list = (body as Record<string, unknown>)[field];
  return Array.isArray(list) && list.length > limit;
}

/** Spec 4.2's lookup (versions 2 and 3): a message id names one message whatever its channel. */
export function statusLookup(core: Core) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (listOver(request.body, 'messageids', MAX_STATUS_IDS)) return sendError(reply, ApiCode.TooLarge);
    const parsed = StatusRequestSchema.safeParse(request.body);
    if (!parsed.success) return sendError(reply, ApiCode.BadRequest);
    return sendOk(reply, core.messaging.statusLookup.lookup(request.account.id, parsed.data.messageids));
  };
}

/** 10,000 receivers of 15 characters and a long text fit in a fifth of it. */
export const SEND_BODY_LIMIT_BYTES = 1024 * 1024;
/**
 * send-p2p carries a text per message: 10,000 texts of 300 Persian characters (five pages) are
 * 6 MB, and 16 MB written as \uXXXX escapes (what Python's json.dumps sends by default); JSON.parse
 * takes about 40 ms for either. The JSON shape stays the default one: 10,000 messages are 10,001
 * containers and 30,000 values.
 */
export const P2P_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

export async function v2SmsRoutes(app: FastifyInstance, { core }: { core: Core }) {
  // Outside the authenticated scope: the spec says it always answers 501 with its own body, so it
  // answers before the body is read (whatever its size or shape) and before any key is checked.
  await app.register(async (outbox) => {
    const notImplemented = { error: 'not implemented yet' };
    const answer = async (_request: unknown, reply: FastifyReply) => reply.code(501).send(notImplemented);
    outbox.setErrorHandler((_error, _request, reply) => reply.code(501).send(notImplemented));
    outbox.post(OUTBOX_PATH, { onRequest: answer }, answer);
  });

  await app.register(async (authed) => {
    authed.addHook('onRequest', bearerAuth(core));

    authed.post('/v2/sms/send', { bodyLimit: SEND_BODY_LIMIT_BYTES }, async (request, reply) => {
      // Spec 4.1 rule 4 (414) before validation.
      if (listOver(request.body, 'receivers', MAX_RECEIVERS)) return sendError(reply, ApiCode.TooLarge);
      const parsed = SendRequestSchema.safeParse(request.body);
      if (!parsed.success) return sendError(reply, ApiCode.BadRequest);
      const { message, sender, receivers, file_id } = parsed.data;
      const acceptance = await core.messaging.accept.acceptInGroup({
        accountId: request.account.id,
        origin: 'api-v2',
        sender,
        text: message,
        receivers,
        rule: 'strict',
        fileId: file_id ?? null,
      });
      return sendMessageEntries(reply, messageInfos(acceptance));
    });

    // An own text per receiver, in one all-or-nothing call with the rules and codes of /v2/sms/send;
    // a number named again is sent again with another text, and is a duplicate (15) with the same
    // one (messaging/item-groups.ts, 'new-text').
    authed.post('/v2/sms/send-p2p', { bodyLimit: P2P_BODY_LIMIT_BYTES }, async (request, reply) => {
      if (listOver(request.body, 'messages', MAX_P2P_MESSAGES)) return sendError(reply, ApiCode.TooLarge);
      const parsed = P2pSendRequestSchema.safeParse(request.body);
      if (!parsed.success) return sendError(reply, ApiCode.BadRequest);
      const { messages, sender, file_id } = parsed.data;
      const sent = await core.messaging.accept.acceptItemsInGroup({
        accountId: request.account.id,
        origin: 'api-v2',
        items: messages.map(({ message, receiver }) => ({ sender, receptor: receiver, text: message })),
        repeats: 'new-text',
        fileId: file_id ?? null,
      });
      return sendMessageEntries(reply, itemInfos(sent));
    });

    authed.post('/v2/sms/status', { bodyLimit: SEND_BODY_LIMIT_BYTES }, statusLookup(core));
  });
}
