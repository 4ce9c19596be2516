// The embedded email provider's HTTP API (spec 4.6, reference/email-relay-provider.md): thin, the
// rules are the relay's (email/relay/). Its own scope with its own error handler, so every refusal
// here is the provider's bare `{"message": "..."}` (invalid JSON, a body too large, a method the
// path does not take, an unexpected error), never the SMS API's envelope or plain text. The key is
// checked on onRequest, before the body is read; so is the Idempotency-Key claim, which is released
// once the request is answered or aborted.
import { Readable } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Core } from '../../core';
import { ServiceError } from '../../errors';
import { ApiCode } from '../../../../shared/status';
import type { IdempotencyClaim, RelayAnswer, RelayOperation } from '../../email/relay/relay';

/**
 * The provider's contract sets no maximum of recipients: a request may hold as many as fit in this
 * (10,000 with a name and a substitution each are about 1 MB; the rest is for attachments).
 */
export const EMAIL_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * The JSON shape of a send: anything a body within the limit can hold in earnest, so the recipients
 * are bounded by the body's size alone. A recipient (`{"email":"a@b.io"},`) takes 18 bytes and one
 * container, a substitution value (`"k":1,`) 6 bytes. The parse stays bounded (the most empty
 * objects or one-digit values this lets in parse in about 0.2 s; one object of a million distinct
 * keys in about 2 s), and the work of a send grows with its recipients up to what 10 MB holds.
 */
export const EMAIL_JSON_SHAPE = {
  maxContainers: Math.ceil(EMAIL_BODY_LIMIT_BYTES / 16),
  maxValues: Math.ceil(EMAIL_BODY_LIMIT_BYTES / 5),
  maxDepth: 64,
};

export const MESSAGES_PATH = '/v2/accounts/:account_id/messages';
const MESSAGE_PATH = `${MESSAGES_PATH}/:message_id`;
const CANCEL_PATH = `${MESSAGE_PATH}/cancel`;

interface AccountParams {
  account_id: string;
}
interface MessageParams extends AccountParams {
  message_id: string;
}

/** A longer answer (the 202 of 100,000 recipients is 30 MB) is encoded and written a piece at a time. */
const ANSWER_PIECE_CHARS = 1024 * 1024;

/** The text in pieces cut on whole characters (each piece is encoded alone). */
function* pieces(text: string): Generator<string> {
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + ANSWER_PIECE_CHARS, text.length);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end--;
    yield text.slice(start, end);
    start = end;
  }
}

export function sendAnswer(reply: FastifyReply, answer: RelayAnswer): FastifyReply {
  if (answer.headers) reply.headers(answer.headers);
  const json = answer.json ?? JSON.stringify(answer.body);
  reply.code(answer.status).type('application/json; charset=utf-8');
  if (json.length <= ANSWER_PIECE_CHARS) return reply.send(json);
  return reply.send(Readable.from(pieces(json), { objectMode: false }));
}

/** The query as the relay reads it: a repeated parameter's values joined by commas. */
function queryOf(request: FastifyRequest): Record<string, string | undefined> {
  const query: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    if (typeof value === 'string') query[name] = value;
    else if (Array.isArray(value)) query[name] = value.map(String).join(',');
  }
  return query;
}

/** A thrown error as the provider answers it. */
function errorAnswer(error: FastifyError | ServiceError): RelayAnswer | null {
  const tooLarge = {
    status: 413,
    body: { message: `body is larger than ${EMAIL_BODY_LIMIT_BYTES / (1024 * 1024)} MB` },
  };
  if (error instanceof ServiceError) {
    if (error.code === ApiCode.TooLarge)
      return error.detail === 'body too many'
        ? { status: 413, body: { message: 'body holds too many JSON values' } }
        : tooLarge;
    if (error.code === ApiCode.BadRequest) {
      const detail = error.detail ?? 'bad request';
      const message =
        detail === 'body too deep'
          ? 'body is nested too deeply'
          : detail === 'body wrong length'
            ? 'body is shorter or longer than its Content-Length'
            : detail === 'body broken'
              ? 'body could not be read'
              : detail;
      return { status: 400, body: { message } };
    }
    return null;
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return tooLarge;
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    return { status: 400, body: { message: error.message } };
  return null;
}

export async function emailRelayRoutes(app: FastifyInstance, { core }: { core: Core }) {
  const relay = core.emailRelay;
  await app.register(async (provider) => {
    provider.setErrorHandler((error: FastifyError | ServiceError, request, reply) => {
      const answer = errorAnswer(error);
      if (answer) return sendAnswer(reply, answer);
      request.log.error({ err: error, req: request }, 'unexpected error');
      return sendAnswer(reply, { status: 500, body: { message: 'internal error; try again later' } });
    });

    const authorized = (operation: RelayOperation) => async (request: FastifyRequest, reply: FastifyReply) => {
      const { account_id } = request.params as AccountParams;
      const refused = relay.authenticate(account_id, request.headers.authorization, operation);
      if (refused) return sendAnswer(reply, refused);
    };

    // Idempotency-Key: claimed before the body is read, so a second request with the key while the
    // first is still arriving is a 409; released with the answer's status (a failure makes it 412).
    const claims = new WeakMap<FastifyRequest, IdempotencyClaim>();
    const claimKey = async (request: FastifyRequest, reply: FastifyReply) => {
      const header = request.headers['idempotency-key'];
      if (header === undefined) return;
      const { account_id } = request.params as AccountParams;
      const claimed = relay.claimIdempotency(account_id, Array.isArray(header) ? header.join(', ') : header);
      if (!relay.isClaim(claimed)) return sendAnswer(reply, claimed);
      claims.set(request, claimed);
    };
    const release = (request: FastifyRequest, status?: number) => {
      claims.get(request)?.release(status);
      claims.delete(request);
    };
    // A large send takes many turns of the event loop: a client that goes away meanwhile does not
    // free its key before the send is written (a retry with it would send the messages twice).
    const sending = new WeakMap<FastifyRequest, Promise<RelayAnswer>>();
    const releaseWhenSent = (request: FastifyRequest) => {
      const running = sending.get(request);
      if (!running) return release(request);
      void running.then(
        (answer) => release(request, answer.status),
        () => release(request, 500),
      );
    };

    provider.post(
      MESSAGES_PATH,
      {
        bodyLimit: EMAIL_BODY_LIMIT_BYTES,
        config: { json: EMAIL_JSON_SHAPE },
        onRequest: [authorized('send'), claimKey],
        onResponse: async (request, reply) => release(request, reply.statusCode),
        onRequestAbort: async (request) => releaseWhenSent(request),
      },
      async (request, reply) => {
        const { account_id } = request.params as AccountParams;
        const claim = claims.get(request);
        const sent = relay.send(account_id, request.body, claim ? { claim } : {});
        sending.set(request, sent);
        return sendAnswer(reply, await sent);
      },
    );

    provider.get(MESSAGES_PATH, { onRequest: authorized('read') }, async (request, reply) => {
      const { account_id } = request.params as AccountParams;
      return sendAnswer(reply, relay.list(account_id, queryOf(request)));
    });

    provider.get(MESSAGE_PATH, { onRequest: authorized('read') }, async (request, reply) => {
      const { account_id, message_id } = request.params as MessageParams;
      return sendAnswer(reply, await relay.get(account_id, message_id));
    });

    // DELETE is the provider's published contract and its SDK's call; POST is what earlier
    // versions of Chapar took, kept so their callers go on working.
    provider.route({
      method: ['DELETE', 'POST'],
      url: CANCEL_PATH,
      onRequest: authorized('cancel'),
      handler: async (request, reply) => {
        const { account_id, message_id } = request.params as MessageParams;
        return sendAnswer(reply, await relay.cancel(account_id, message_id));
      },
    });

    for (const path of [MESSAGES_PATH, MESSAGE_PATH, CANCEL_PATH]) refuseOtherMethods(provider, path);
  });
}

/**
 * Every method a path of the provider does not take answers 405 with its `{"message"}` and an
 * Allow header, as the provider does, before the key or the body is read; the SMS API's own 405
 * (plain text, server.ts) stays outside this scope.
 */
function refuseOtherMethods(provider: FastifyInstance, path: string): void {
  const methods = provider.supportedMethods;
  const allowed = methods.filter((method) => provider.hasRoute({ method: method as HTTPMethods, url: path }));
  const others = methods.filter((method) => !allowed.includes(method));
  provider.route({
    method: others as HTTPMethods[],
    url: path,
    onRequest: async (request, reply) =>
      sendAnswer(reply, {
        status: 405,
        headers: { allow: allowed.join(', ') },
        body: { message: `method ${request.method} is not allowed here; allowed: ${allowed.join(', ')}` },
      }),
    // Never reached: the answer is given on onRequest.
    handler: async () => undefined,
  });
}
