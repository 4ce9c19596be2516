// Version 2 SMS endpoints: shared-text send (spec 4.1), status lookup (4.2), and the outbox that
// answers 501 (4.5). Thin: validation with the shared zod schemas, the rules live in the core.
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core';
import { bearerAuth } from '../auth';
import { sendError, sendOk } from '../envelope';
import { sendMessageEntries } from '../message-entries';
import { ApiCode } from '../../../../shared/status';
import { MAX_RECEIVERS, MAX_STATUS_IDS, SendRequestSchema, StatusRequestSchema } from '../../../../shared/api';

function isObject(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

export async function v2SmsRoutes(app: FastifyInstance, { core }: { core: Core }) {
  // Outside the authenticated scope: the spec says it always answers 501 with its own body, so a
  // body that fails to parse (or is too large) gets the same answer, not the envelope's 400.
  await app.register(async (outbox) => {
    const notImplemented = { error: 'not implemented yet' };
    outbox.setErrorHandler((_error, _request, reply) => reply.code(501).send(notImplemented));
    outbox.post('/v2/sms/outbox', async (_request, reply) => reply.code(501).send(notImplemented));
  });

  await app.register(async (authed) => {
    authed.addHook('onRequest', bearerAuth(core));

    authed.post('/v2/sms/send', async (request, reply) => {
      const body = request.body;
      // Spec 4.1 rule 4 (414) is checked before validation, so 100,000 receivers are not walked.
      if (isObject(body) && Array.isArray(body['receivers']) && body['receivers'].length > MAX_RECEIVERS)
        return sendError(reply, ApiCode.TooLarge);
      const parsed = SendRequestSchema.safeParse(body);
      if (!parsed.success) return sendError(reply, ApiCode.BadRequest);
      const result = core.sending.send(request.account.id, parsed.data, 'api');
      return sendMessageEntries(reply, result.entries);
    });

    authed.post('/v2/sms/status', async (request, reply) => {
      const body = request.body;
      if (isObject(body) && Array.isArray(body['messageids']) && body['messageids'].length > MAX_STATUS_IDS)
        return sendError(reply, ApiCode.TooLarge);
      const parsed = StatusRequestSchema.safeParse(body);
      if (!parsed.success) return sendError(reply, ApiCode.BadRequest);
      return sendOk(reply, core.statusLookup.lookup(request.account.id, parsed.data.messageids));
    });
  });
}
